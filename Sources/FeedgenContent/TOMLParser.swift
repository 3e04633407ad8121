import CToml
import FeedgenDiagnostics

/// Parses TOML front matter (Hugo's `+++` blocks) with toml++ (CToml) into the same
/// ``YAMLNode`` tree YAML gives, so that every key rule, type check and position works as for
/// YAML. Every toml++ call of the module lives in this file.
///
/// The mapping (docs/content-format.md §5.3):
/// - tables (`[params]`, inline `{src = "a.png"}`, dotted keys) → mappings, keys in source order;
///   arrays and arrays of tables (`[[menu.main]]`) → sequences;
/// - strings → quoted scalars (`weight = "3"` is a string, as `weight: "3"` is in YAML);
///   integers, floats and booleans → plain scalars of their value (`0x1F` → `31`, `3.0` stays `3.0`);
/// - offset date-times, local date-times and local dates → plain scalars in RFC 3339 form
///   (`2024-03-05T09:30:00-07:00`, `2024-03-05T09:30:00`, `2024-03-05`), which dates read as
///   the same YAML would: a local date-time is in the site's `timeZone`, a date is a calendar day.
///
/// Positions are re-based onto the whole file as for YAML: `firstLine` is the file line of the
/// text's first line. A syntax error (toml++ stops at the first) yields no node and one error at
/// toml++'s position; so does a string holding a control character other than tab or line feed.
public enum TOMLParser {
    public static func parse(_ text: String, path: String, firstLine: Int = 1) -> (node: YAMLNode?, diagnostics: [Diagnostic]) {
        var source = text
        let document = source.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { feedgen_toml_parse($0.baseAddress, $0.count) }
        }
        guard let document else {
            return (nil, [.error(SourceLocation(path: path, line: firstLine, column: 1), "TOML: out of memory")])
        }
        defer { feedgen_toml_free(document) }
        var line: UInt32 = 0
        var column: UInt32 = 0
        if let message = feedgen_toml_error(document, &line, &column) {
            let location = SourceLocation(path: path, line: Int(max(line, 1)) - 1 + firstLine, column: Int(max(column, 1)))
            let atLineEnd = Self.isLineEnd(text, line: Int(line), column: Int(column))
            return (nil, [.error(location, "TOML: " + Self.reworded(String(cString: message), atLineEnd: atLineEnd))])
        }
        var reader = NodeReader(document: document, path: path, lineOffset: firstLine - 1)
        guard feedgen_toml_node_count(document) > 0 else { return (nil, []) }
        let root = reader.node()
        return (reader.failed ? nil : root, reader.diagnostics)
    }

    /// toml++'s messages start with what it was parsing ("Error while parsing key-value pair: ");
    /// the rest says what is wrong.
    static func reworded(_ message: String, atLineEnd: Bool) -> String {
        var text = message
        if text.hasPrefix("Error while parsing "), let colon = text.firstIndex(of: ":") {
            let what = text[text.index(text.startIndex, offsetBy: 20)..<colon]
            text = String(text[text.index(after: colon)...].drop(while: { $0 == " " })) + " (in a \(what))"
        }
        // A string left open reaches the line's end: toml++ names the line feed.
        if atLineEnd, text.contains("control characters other than TAB"), text.hasSuffix("string)") {
            text = "this string is not closed on its line (add the closing quote; use \"\"\" for a string of several lines)"
        }
        return text
    }
}

extension TOMLParser {
    /// Whether 1-based `line` of `text` has fewer than `column` scalars: the position is its line feed.
    static func isLineEnd(_ text: String, line: Int, column: Int) -> Bool {
        guard line >= 1, let lineText = text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(line - 1).first
        else { return true }
        return lineText.unicodeScalars.count < column
    }
}

/// Walks the pre-order node list of one document.
private struct NodeReader {
    let document: OpaquePointer
    let path: String
    let lineOffset: Int
    var index = 0
    var diagnostics: [Diagnostic] = []
    var failed = false

    init(document: OpaquePointer, path: String, lineOffset: Int) {
        self.document = document
        self.path = path
        self.lineOffset = lineOffset
    }

    mutating func node() -> YAMLNode {
        let raw = feedgen_toml_node_at(document, index)!.pointee
        index += 1
        let line = Int(raw.line) + lineOffset
        let column = Int(raw.column)
        switch raw.kind {
        case FEEDGEN_TOML_TABLE:
            var pairs: [YAMLPair] = []
            pairs.reserveCapacity(Int(raw.child_count))
            for _ in 0..<raw.child_count {
                let child = feedgen_toml_node_at(document, index)!.pointee
                let key = YAMLNode(
                    .scalar(Self.text(child.key, child.key_length), plain: true),
                    line: Int(child.key_line) + lineOffset, column: Int(child.key_column))
                pairs.append(YAMLPair(key: key, value: node()))
            }
            return YAMLNode(.mapping(pairs), line: line, column: column)
        case FEEDGEN_TOML_ARRAY:
            var elements: [YAMLNode] = []
            elements.reserveCapacity(Int(raw.child_count))
            for _ in 0..<raw.child_count { elements.append(node()) }
            return YAMLNode(.sequence(elements), line: line, column: column)
        case FEEDGEN_TOML_STRING:
            let text = Self.text(raw.text, raw.text_length)
            if let bad = text.unicodeScalars.first(where: { $0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r" }) {
                // As for YAML: they went into pages and made feed.xml not well-formed.
                let code = String(bad.value, radix: 16, uppercase: true)
                diagnostics.append(
                    .error(
                        SourceLocation(path: path, line: line, column: column),
                        "TOML: this string has the control character U+\(String(repeating: "0", count: 4 - code.count) + code) (from an escape); remove it"))
                failed = true
            }
            return YAMLNode(.scalar(text, plain: false), line: line, column: column)
        default:
            return YAMLNode(.scalar(Self.text(raw.text, raw.text_length), plain: true), line: line, column: column)
        }
    }

    static func text(_ pointer: UnsafePointer<CChar>?, _ length: Int) -> String {
        guard let pointer else { return "" }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }
}
