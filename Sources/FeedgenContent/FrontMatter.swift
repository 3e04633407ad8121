import FeedgenDiagnostics

/// A content file split into its front matter and its Markdown body.
///
/// ```text
/// ---            line 1: the opening fence, the first line that is not blank (as Hugo reads it;
///                spaces before it and after it allowed)
/// title: Hello   front matter: YAML, a mapping; positions count from the file's first line
/// ---            the closing fence: `---` or `...`
/// Body…          Markdown; `bodyLine` is this line's number
/// ```
///
/// Hugo's other two forms are read into the same mapping (content-format §5.2): TOML between
/// `+++` lines (``TOMLParser``), and a JSON object when the file's first character that is not
/// white space is `{` followed by white space, `"` or `}` (not `{{`, `{%` or `{:`: Liquid, a
/// shortcode or an attribute list starts the body; Hugo's page lexer skips white space before
/// any of the three): the object up to its matching `}` is read as YAML flow syntax (JSON is YAML 1.2),
/// and the body starts on the line after that `}`.
///
/// A file that opens with none of these is all body, with an empty mapping. The bytes are
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
            return (nil, [.error(SourceLocation(path: path, line: problem.line, column: problem.column), problem.message)])
        case .success(let s):
            split = s
        }
        let empty = YAMLNode(.mapping([]), line: 1, column: 1)
        guard let text = split.frontMatter else {
            return (FrontMatter(fields: empty, hasFrontMatter: false, body: split.body, bodyLine: 1), [])
        }
        var (node, diagnostics) =
            split.format == .toml
            ? TOMLParser.parse(text, path: path, firstLine: split.frontMatterLine)
            : YAMLParser.parse(text, path: path, firstLine: split.frontMatterLine)
        if split.format == .json {
            // The YAML parser reads JSON (YAML 1.2's flow syntax); its findings name the JSON.
            diagnostics = diagnostics.map { d in
                guard d.message.hasPrefix("YAML: ") else { return d }
                return Diagnostic(d.severity, d.location, "JSON front matter: " + d.message.dropFirst(6))
            }
        }
        if diagnostics.contains(where: { $0.severity == .error }) && node == nil {
            return (nil, diagnostics)
        }
        var fields = empty
        if let node, !node.isNull {
            guard case .mapping = node.kind else {
                // Only YAML can get here: TOML is always a table, and JSON starts with `{`.
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

    /// How the front matter is written. JSON is read by the YAML parser.
    enum Format { case yaml, toml, json }

    struct Split {
        var frontMatter: String?
        var body: String
        var bodyLine: Int
        /// The file line of the front matter's first line (after the opening fence; for JSON,
        /// the line of its `{`).
        var frontMatterLine = 2
        var format = Format.yaml
    }

    enum SplitProblem: Error {
        /// Each at its 1-based line and column (in Unicode scalars): an unclosed block at its
        /// opening fence or `{`.
        case unclosed(line: Int, column: Int), unclosedTOML(line: Int, column: Int), unclosedJSON(line: Int, column: Int)
        case textAfterJSON(line: Int, column: Int)

        var line: Int {
            switch self {
            case .unclosed(let line, _), .unclosedTOML(let line, _), .unclosedJSON(let line, _), .textAfterJSON(let line, _): line
            }
        }

        var column: Int {
            switch self {
            case .unclosed(_, let column), .unclosedTOML(_, let column), .unclosedJSON(_, let column), .textAfterJSON(_, let column):
                column
            }
        }

        var message: String {
            switch self {
            case .unclosed: "front matter starting here is not closed by a '---' line"
            case .unclosedTOML: "TOML front matter starting here is not closed by a '+++' line"
            case .unclosedJSON: "JSON front matter starting here is not closed by a matching '}'"
            case .textAfterJSON: "text follows the JSON front matter's closing '}' on its line; start the body on the next line"
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
            /// Where the opening fence's (or `{`'s) line starts.
            var openLineStart = 0
            /// Where the line of a JSON object's opening `{` starts (its spaces are kept, so that
            /// columns stay those of the file).
            var jsonLineStart: Int?
            /// A `{` that can open a JSON object: followed by white space, the `"` of a key or the
            /// `}` of an empty object. `{%`, `{{` and `{:` (Liquid, a shortcode, a kramdown
            /// attribute list) start a body: Jekyll reads such a file as body, and no JSON object
            /// starts so (Hugo's lexer takes any `{` and then fails to read them).
            func opensJSON(_ j: Int) -> Bool {
                guard j + 1 < bytes.count, bytes[j] == UInt8(ascii: "{") else { return false }
                let next = bytes[j + 1]
                return next == UInt8(ascii: " ") || next == UInt8(ascii: "\t") || next == UInt8(ascii: "\n")
                    || next == UInt8(ascii: "\"") || next == UInt8(ascii: "}")
            }
            while true {
                var j = open
                while j < bytes.count, bytes[j] == UInt8(ascii: " ") || bytes[j] == UInt8(ascii: "\t") { j += 1 }
                guard j < bytes.count, bytes[j] == UInt8(ascii: "\n") else {
                    if j < bytes.count, isLine(j, lineEnd(from: j), "---") || isLine(j, lineEnd(from: j), "+++") {
                        open = j
                    } else if opensJSON(j) {
                        jsonLineStart = open
                        open = j
                    } else {
                        open = 0; openLine = 1; openLineStart = 0
                    }
                    break
                }
                open = j + 1
                openLineStart = open
                openLine += 1
            }
            let firstEnd = lineEnd(from: open)
            // Spaces and tabs before the fence or `{` are ASCII: one column each.
            let openColumn = open - openLineStart + 1
            if let jsonLineStart {
                // The object's end: the `}` that closes the first `{`, outside strings.
                var depth = 0
                var i = open
                var line = openLine
                var inString = false
                while i < bytes.count {
                    let c = bytes[i]
                    if c == UInt8(ascii: "\n") { line += 1 }
                    if inString {
                        if c == UInt8(ascii: "\\") { i += 1 } else if c == UInt8(ascii: "\"") { inString = false }
                    } else if c == UInt8(ascii: "\"") {
                        inString = true
                    } else if c == UInt8(ascii: "{") {
                        depth += 1
                    } else if c == UInt8(ascii: "}") {
                        depth -= 1
                        if depth == 0 { break }
                    }
                    i += 1
                }
                guard i < bytes.count else { return .failure(.unclosedJSON(line: openLine, column: openColumn)) }
                let end = lineEnd(from: i)
                for k in (i + 1)..<end where bytes[k] != UInt8(ascii: " ") && bytes[k] != UInt8(ascii: "\t") {
                    var lineStart = k
                    while lineStart > 0, bytes[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
                    // Columns count scalars: every byte but UTF-8 continuation bytes.
                    let column = 1 + (lineStart..<k).filter { bytes[$0] & 0xC0 != 0x80 }.count
                    return .failure(.textAfterJSON(line: line, column: column))
                }
                let bodyStart = min(end + 1, bytes.count)
                return .success(
                    Split(
                        // A tab before the `{` is one column, as a space is; YAML refuses tabs there.
                        frontMatter: String(repeating: " ", count: open - jsonLineStart) + string(open..<(i + 1)),
                        body: string(bodyStart..<bytes.count), bodyLine: line + 1,
                        frontMatterLine: openLine, format: .json))
            }
            let format: Format
            let fence: StaticString
            if isLine(open, firstEnd, "---") {
                (format, fence) = (.yaml, "---")
            } else if isLine(open, firstEnd, "+++") {
                (format, fence) = (.toml, "+++")
            } else {
                return .success(Split(frontMatter: nil, body: text, bodyLine: 1))
            }
            var start = firstEnd + 1
            var line = openLine + 1
            while start <= bytes.count {
                let end = lineEnd(from: start)
                if isLine(start, end, fence) || (format == .yaml && isLine(start, end, "...")) {
                    let range = min(firstEnd + 1, bytes.count)..<start
                    let bodyStart = min(end + 1, bytes.count)
                    return .success(
                        Split(
                            frontMatter: string(range), body: string(bodyStart..<bytes.count), bodyLine: line + 1,
                            frontMatterLine: openLine + 1, format: format))
                }
                if end >= bytes.count { break }
                start = end + 1
                line += 1
            }
            if format == .toml { return .failure(.unclosedTOML(line: openLine, column: openColumn)) }
            // After blank lines, an unclosed `---` is a thematic break of the body.
            return open > 0 ? .success(Split(frontMatter: nil, body: text, bodyLine: 1)) : .failure(.unclosed(line: 1, column: 1))
        }
    }
}
