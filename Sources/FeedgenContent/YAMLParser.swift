import CYaml
import FeedgenDiagnostics

/// Parses YAML text into a ``YAMLNode`` tree with libyaml's event API. Every libyaml call of
/// the module lives in this file.
///
/// Positions are re-based onto the whole file: `firstLine` is the file line of the text's first
/// line (2 for front matter after a `---` line). Columns count Unicode scalars, as libyaml's
/// marks do.
///
/// Errors:
/// - a syntax error stops the parse (libyaml cannot recover) and yields no node;
/// - a duplicate key is reported at the second key, which is dropped with its value;
/// - a control character other than tab, LF and CR written as an escape is an error (libyaml
///   itself refuses them written raw);
/// - aliases are expanded by copying the anchored node, at most ``maxAliasExpansion`` nodes in all;
/// - a merge key (`<<`, YAML 1.1) is an error, and its value is dropped;
/// - a tag outside the core schema (`!!binary`, `!custom`) is a warning;
/// - nesting deeper than ``maxDepth`` and a second document are errors.
public enum YAMLParser {
    /// The most nodes that alias expansion may add to one document (a "billion laughs" guard).
    public static let maxAliasExpansion = 100_000
    /// The deepest nesting of sequences and mappings accepted.
    public static let maxDepth = 256

    /// Parses one YAML document. `node` is nil when the text holds no document (empty or only
    /// comments) or when a syntax error stopped the parse; `diagnostics` says which.
    public static func parse(
        _ text: String, path: String, firstLine: Int = 1
    ) -> (node: YAMLNode?, diagnostics: [Diagnostic]) {
        parse(text, path: path, firstLine: firstLine, plainFastPath: true)
    }

    /// ``parse(_:path:firstLine:)``; without `plainFastPath`, libyaml reads every text (tests
    /// compare the two).
    static func parse(
        _ text: String, path: String, firstLine: Int = 1, plainFastPath: Bool
    ) -> (node: YAMLNode?, diagnostics: [Diagnostic]) {
        let bytes = Array(text.utf8)
        if bytes.isEmpty { return (nil, []) }
        return bytes.withUnsafeBufferPointer { buffer in
            if plainFastPath, let node = YAMLPlainMapping.parse(buffer, firstLine: firstLine) {
                // Debug builds (every test) check the fast path against libyaml on every text.
                assert(
                    {
                        var libyaml = Builder(path: path, firstLine: firstLine)
                        libyaml.run(buffer: buffer)
                        return !libyaml.failed && libyaml.root == node && libyaml.diagnostics.isEmpty
                    }(), "YAMLPlainMapping and libyaml disagree on \(path)")
                return (node, [])
            }
            var builder = Builder(path: path, firstLine: firstLine)
            builder.run(buffer: buffer)
            return (builder.failed ? nil : builder.root, builder.diagnostics)
        }
    }
}

/// Turns the event stream into nodes. One builder parses one text.
private struct Builder {
    struct Frame {
        var isMapping: Bool
        var line: Int
        var column: Int
        var tag: String?
        var anchor: String?
        var nodes: [YAMLNode] = []
        var pairs: [YAMLPair] = []
        var pendingKey: YAMLNode?
        var skipValue = false
        var keyLines: [String: Int] = [:]
        /// Nodes in this subtree, aliases counted by their expansion.
        var size = 1
    }

    let path: String
    let firstLine: Int
    var diagnostics: [Diagnostic] = []
    var failed = false
    var root: YAMLNode?
    var stack: [Frame] = []
    var anchors: [String: (node: YAMLNode, size: Int)] = [:]
    var expanded = 0
    var documents = 0

    init(path: String, firstLine: Int) {
        self.path = path
        self.firstLine = firstLine
    }

    mutating func run(buffer: UnsafeBufferPointer<UInt8>) {
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        let event = UnsafeMutablePointer<yaml_event_t>.allocate(capacity: 1)
        guard yaml_parser_initialize(parser) != 0 else {
            parser.deallocate()
            event.deallocate()
            fail(line: firstLine, column: 1, "YAML: could not initialise the parser")
            return
        }
        defer {
            yaml_parser_delete(parser)
            parser.deallocate()
            event.deallocate()
        }
        yaml_parser_set_input_string(parser, buffer.baseAddress, buffer.count)
        while !failed {
            guard yaml_parser_parse(parser, event) != 0 else {
                syntaxError(parser.pointee, buffer: buffer)
                return
            }
            let done = event.pointee.type == YAML_STREAM_END_EVENT
            handle(event.pointee)
            yaml_event_delete(event)
            if done { return }
        }
    }

    private mutating func handle(_ event: yaml_event_t) {
        let line = Int(event.start_mark.line) + firstLine
        let column = Int(event.start_mark.column) + 1
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 {
                fail(line: line, column: column, "YAML: only one document is allowed; remove the second '---'")
            }
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let text = string(scalar.value, length: scalar.length)
            let plain = scalar.style == YAML_PLAIN_SCALAR_STYLE
            if scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE,
                let bad = text.unicodeScalars.first(where: { $0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r" })
            {
                // libyaml refuses these characters written raw, but not from escapes ("\x01",
                // "\0"): they went into pages and made feed.xml not well-formed.
                let code = String(bad.value, radix: 16, uppercase: true)
                diagnostics.append(
                    .error(
                        SourceLocation(path: path, line: line, column: column),
                        "YAML: this string has the control character U+\(String(repeating: "0", count: 4 - code.count) + code) (from an escape); remove it"))
            }
            let node = YAMLNode(
                .scalar(text, plain: plain), line: line, column: column, tag: optionalString(scalar.tag))
            // A scalar in a mapping that has no pending key is a key.
            let isKey = stack.last.map { $0.isMapping && $0.pendingKey == nil } ?? false
            checkTag(node.tag, line: line, column: column, effect: isKey ? "the key is read as text" : "the value is read as text")
            if let anchor = optionalString(scalar.anchor) { anchors[anchor] = (node, 1) }
            add(node, size: 1)
        case YAML_SEQUENCE_START_EVENT:
            let start = event.data.sequence_start
            checkTag(optionalString(start.tag), line: line, column: column, effect: "the tag is ignored")
            push(
                Frame(
                    isMapping: false, line: line, column: column, tag: optionalString(start.tag),
                    anchor: optionalString(start.anchor)))
        case YAML_MAPPING_START_EVENT:
            let start = event.data.mapping_start
            checkTag(optionalString(start.tag), line: line, column: column, effect: "the tag is ignored")
            push(
                Frame(
                    isMapping: true, line: line, column: column, tag: optionalString(start.tag),
                    anchor: optionalString(start.anchor)))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let frame = stack.popLast() else { return }
            let kind: YAMLNode.Kind = frame.isMapping ? .mapping(frame.pairs) : .sequence(frame.nodes)
            let node = YAMLNode(kind, line: frame.line, column: frame.column, tag: frame.tag)
            if let anchor = frame.anchor { anchors[anchor] = (node, frame.size) }
            add(node, size: frame.size)
        case YAML_ALIAS_EVENT:
            let name = optionalString(event.data.alias.anchor) ?? ""
            guard let (anchored, size) = anchors[name] else {
                fail(line: line, column: column, "YAML: alias '*\(name)' refers to no anchor defined before it")
                return
            }
            expanded += size
            if expanded > YAMLParser.maxAliasExpansion {
                fail(line: line, column: column, "YAML alias expansion exceeds \(YAMLParser.maxAliasExpansion) nodes")
                return
            }
            var copy = anchored
            copy.line = line
            copy.column = column
            add(copy, size: size)
        default:
            break
        }
    }

    private mutating func push(_ frame: Frame) {
        if stack.count >= YAMLParser.maxDepth {
            fail(line: frame.line, column: frame.column, "YAML nesting exceeds \(YAMLParser.maxDepth) levels")
            return
        }
        stack.append(frame)
    }

    private mutating func add(_ node: YAMLNode, size: Int) {
        guard !stack.isEmpty else {
            root = node
            return
        }
        let top = stack.count - 1
        stack[top].size += size
        if !stack[top].isMapping {
            stack[top].nodes.append(node)
            return
        }
        guard let key = stack[top].pendingKey else {
            stack[top].pendingKey = node
            if case .scalar("<<", plain: true) = node.kind, node.tag == nil {
                diagnostics.append(
                    .error(
                        SourceLocation(path: path, line: node.line, column: node.column),
                        "YAML merge keys ('<<') are not supported: they belong to YAML 1.1, and feedgen reads YAML 1.2; write the merged keys out in this mapping"))
                stack[top].skipValue = true
            } else if case .scalar(let text, _) = node.kind {
                if let first = Self.firstKeyLine(text, in: &stack[top]) {
                    diagnostics.append(
                        .error(
                            SourceLocation(path: path, line: node.line, column: node.column),
                            "duplicate key '\(text)' (first defined at line \(first))"))
                    stack[top].skipValue = true
                } else if !stack[top].keyLines.isEmpty {
                    stack[top].keyLines[text] = node.line
                }
            }
            return
        }
        if !stack[top].skipValue {
            stack[top].pairs.append(YAMLPair(key: key, value: node))
        }
        stack[top].pendingKey = nil
        stack[top].skipValue = false
    }

    /// The line of an earlier key `text` of the mapping being built. Small mappings are
    /// scanned; from 16 keys on, an index is kept.
    private static func firstKeyLine(_ text: String, in frame: inout Frame) -> Int? {
        if frame.keyLines.isEmpty {
            if frame.pairs.count < 16 {
                for pair in frame.pairs {
                    if case .scalar(let key, _) = pair.key.kind, key == text { return pair.key.line }
                }
                return nil
            }
            for pair in frame.pairs {
                if case .scalar(let key, _) = pair.key.kind, frame.keyLines[key] == nil {
                    frame.keyLines[key] = pair.key.line
                }
            }
        }
        return frame.keyLines[text]
    }

    /// The tags feedgen reads: the YAML 1.2 core schema's, and `!` (the non-specific tag, which
    /// makes a scalar a string).
    private static let knownTags: Set<String> =
        Set(["str", "int", "float", "bool", "null", "seq", "map"].map { YAMLNode.coreTagPrefix + $0 }).union(["!"])

    /// A warning for a tag outside the core schema (`!!binary`, `!!timestamp`, `!custom`): the
    /// typed accessors of ``YAMLNode`` then read a scalar as text only, and a collection as if
    /// untagged.
    private mutating func checkTag(_ tag: String?, line: Int, column: Int, effect: String) {
        guard let tag, !Self.knownTags.contains(tag) else { return }
        diagnostics.append(
            .warning(
                SourceLocation(path: path, line: line, column: column),
                "YAML tag '\(YAMLNode.shown(tag: tag))' is not one feedgen reads (it reads the core tags !!str, !!int, !!float, !!bool, !!null, !!seq and !!map); \(effect)"))
    }

    private mutating func fail(line: Int, column: Int, _ message: String) {
        failed = true
        diagnostics.append(.error(SourceLocation(path: path, line: line, column: column), message))
    }

    private mutating func syntaxError(_ parser: yaml_parser_t, buffer: UnsafeBufferPointer<UInt8>) {
        let problem = parser.problem.map { String(cString: $0) } ?? "syntax error"
        var line: Int
        var column: Int
        if parser.error == YAML_READER_ERROR {
            // Reader errors carry a byte offset rather than a mark.
            let offset = min(Int(parser.problem_offset), buffer.count)
            (line, column) = SourceText.position(ofByte: offset, in: Array(buffer)[...])
            line += firstLine - 1
        } else {
            line = Int(parser.problem_mark.line) + firstLine
            column = Int(parser.problem_mark.column) + 1
            if problem.contains("tab character")
                || isTabIndentation(line: Int(parser.problem_mark.line), column: column, in: buffer)
            {
                fail(line: line, column: column, "tabs are not allowed in YAML indentation; use spaces")
                return
            }
        }
        fail(line: line, column: column, "YAML: \(problem)")
    }

    /// Whether 0-based `lineIndex` of `buffer` starts with whitespace holding a tab that reaches
    /// the 1-based `column` (the problem position).
    private func isTabIndentation(line lineIndex: Int, column: Int, in buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        var seen = 0
        while seen < lineIndex, i < buffer.count {
            if buffer[i] == UInt8(ascii: "\n") { seen += 1 }
            i += 1
        }
        var width = 0
        var sawTab = false
        while i < buffer.count, buffer[i] == UInt8(ascii: " ") || buffer[i] == UInt8(ascii: "\t") {
            if buffer[i] == UInt8(ascii: "\t") { sawTab = true }
            width += 1
            i += 1
            if width >= column { break }
        }
        return sawTab && column <= width
    }

    private func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?, length: Int) -> String {
        guard let pointer else { return "" }
        return String(decoding: UnsafeBufferPointer(start: pointer, count: length), as: UTF8.self)
    }

    private func optionalString(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }
}
