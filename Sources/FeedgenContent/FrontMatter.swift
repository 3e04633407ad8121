import FeedgenDiagnostics

/// A content file split into its YAML front matter and its Markdown body.
///
/// ```text
/// ---            line 1: the opening fence, the first line that is not blank (as Hugo reads it;
///                spaces before it and after it allowed)
/// title: Hello   front matter: YAML, a mapping; positions count from the file's first line
/// ---            the closing fence: `---` or `...`
/// Body…          Markdown; `bodyLine` is this line's number
/// ```
///
/// A file that does not start with `---` (after blank lines) is all body, with an empty mapping. The bytes are
/// decoded by ``SourceText`` first: BOM removed, CRLF/CR → LF, UTF-8 validated.
public struct FrontMatter: Sendable {
    /// The front matter: always a mapping (empty when the file has none).
    public var fields: YAMLNode
    /// Whether the file had a front matter block (even an empty one).
    public var hasFrontMatter: Bool
    /// The Markdown after the closing fence (LF line endings).
    public var body: String
    /// The 1-based file line of the body's first line.
    public var bodyLine: Int

    /// Decodes and splits a whole file. `path` is the site-relative path used in diagnostics.
    /// The result is nil when an error (in `diagnostics`) makes the file unusable; duplicate
    /// keys are reported but do not prevent a result.
    public static func parse(_ bytes: [UInt8], path: String) -> (frontMatter: FrontMatter?, diagnostics: [Diagnostic]) {
        switch SourceText.decode(bytes, path: path) {
        case .failure(let diagnostic):
            return (nil, [diagnostic])
        case .success(let source):
            return parse(text: source.text, path: path)
        }
    }

    /// Splits already decoded text (LF line endings, no BOM).
    public static func parse(text: String, path: String) -> (frontMatter: FrontMatter?, diagnostics: [Diagnostic]) {
        let split: Split
        switch Self.split(text) {
        case .failure(let problem):
            return (nil, [.error(SourceLocation(path: path, line: 1, column: 1), problem.message)])
        case .success(let s):
            split = s
        }
        let empty = YAMLNode(.mapping([]), line: 1, column: 1)
        guard let yaml = split.yaml else {
            return (FrontMatter(fields: empty, hasFrontMatter: false, body: split.body, bodyLine: 1), [])
        }
        let (node, diagnostics) = YAMLParser.parse(yaml, path: path, firstLine: split.yamlLine)
        if diagnostics.contains(where: { $0.severity == .error }) && node == nil {
            return (nil, diagnostics)
        }
        var fields = empty
        if let node, !node.isNull {
            guard case .mapping = node.kind else {
                let problem = Diagnostic.error(
                    SourceLocation(path: path, line: node.line, column: node.column),
                    "front matter must be a mapping of 'key: value' lines, found \(node.kindDescription)")
                return (nil, diagnostics + [problem])
            }
            fields = node
        }
        let result = FrontMatter(fields: fields, hasFrontMatter: true, body: split.body, bodyLine: split.bodyLine)
        return (result, diagnostics)
    }

    struct Split {
        var yaml: String?
        var body: String
        var bodyLine: Int
        /// The file line of the front matter's first line (after the opening fence).
        var yamlLine = 2
    }

    enum SplitProblem: Error {
        case unclosed, toml, json

        var message: String {
            switch self {
            case .unclosed: "front matter starting here is not closed by a '---' line"
            case .toml: "TOML front matter is not supported; use YAML between '---' lines"
            case .json: "JSON front matter is not supported; use YAML between '---' lines"
            }
        }
    }

    /// Finds the fences. Works on the UTF-8 bytes; only ASCII is compared.
    static func split(_ text: String) -> Result<Split, SplitProblem> {
        var contiguous = text
        return contiguous.withUTF8 { bytes -> Result<Split, SplitProblem> in
            func lineEnd(from start: Int) -> Int {
                var i = start
                while i < bytes.count, bytes[i] != UInt8(ascii: "\n") { i += 1 }
                return i
            }
            /// The line `start..<end` without trailing spaces and tabs, compared with `fence`.
            func isLine(_ start: Int, _ end: Int, _ fence: StaticString) -> Bool {
                var e = end
                while e > start, bytes[e - 1] == UInt8(ascii: " ") || bytes[e - 1] == UInt8(ascii: "\t") { e -= 1 }
                guard e - start == fence.utf8CodeUnitCount else { return false }
                let f = fence.utf8Start
                for k in 0..<(e - start) where bytes[start + k] != f[k] { return false }
                return true
            }
            /// A part of `text` (cut after a line feed, so on scalar boundaries): copied as a
            /// slice of the valid String, without decoding the bytes again.
            func string(_ range: Range<Int>) -> String {
                let utf8 = text.utf8
                return String(text[utf8.index(utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: range.upperBound)])
            }

            // Blank lines and spaces before the opening fence are skipped, as Hugo's page lexer
            // skips white space before front matter.
            var open = 0
            var openLine = 1
            while true {
                var j = open
                while j < bytes.count, bytes[j] == UInt8(ascii: " ") || bytes[j] == UInt8(ascii: "\t") { j += 1 }
                guard j < bytes.count, bytes[j] == UInt8(ascii: "\n") else {
                    if j < bytes.count, bytes[j] == UInt8(ascii: "-"), isLine(j, lineEnd(from: j), "---") { open = j } else { open = 0; openLine = 1 }
                    break
                }
                open = j + 1
                openLine += 1
            }
            let firstEnd = lineEnd(from: open)
            if isLine(open, firstEnd, "+++") { return .failure(.toml) }
            if bytes.count > 0, bytes[0] == UInt8(ascii: "{"), !(bytes.count > 1 && bytes[1] == UInt8(ascii: "{")) {
                return .failure(.json)
            }
            guard isLine(open, firstEnd, "---") else {
                return .success(Split(yaml: nil, body: text, bodyLine: 1))
            }
            var start = firstEnd + 1
            var line = openLine + 1
            while start <= bytes.count {
                let end = lineEnd(from: start)
                if isLine(start, end, "---") || isLine(start, end, "...") {
                    let yamlRange = min(firstEnd + 1, bytes.count)..<start
                    let bodyStart = min(end + 1, bytes.count)
                    return .success(
                        Split(yaml: string(yamlRange), body: string(bodyStart..<bytes.count), bodyLine: line + 1, yamlLine: openLine + 1))
                }
                if end >= bytes.count { break }
                start = end + 1
                line += 1
            }
            // After blank lines, an unclosed `---` is a thematic break of the body.
            return open > 0 ? .success(Split(yaml: nil, body: text, bodyLine: 1)) : .failure(.unclosed)
        }
    }
}
