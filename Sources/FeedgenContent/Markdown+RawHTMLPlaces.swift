import FeedgenDiagnostics

/// Where raw HTML that safe mode dropped stands in its Markdown file: cmark's line and column of
/// a raw HTML node, mended to the file's own column, and a place inside the node's literal.
extension Markdown {
    /// The place of byte `offset` of a raw HTML node's `literal` that starts at `start`.
    static func location(of offset: Int, in literal: String, start: SourceLocation) -> SourceLocation {
        let before = literal.utf8.prefix(offset)
        guard let newline = before.lastIndex(of: UInt8(ascii: "\n")) else {
            return SourceLocation(path: start.path, line: start.line, column: start.column + offset)
        }
        let lines = before.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        return SourceLocation(path: start.path, line: start.line + lines, column: before.distance(from: newline, to: before.endIndex))
    }

    /// Where raw HTML was dropped, in the file. cmark counts an inline's column from the line with
    /// its leading white space (or `>`) removed on a paragraph's continuation lines: the column
    /// becomes that of the HTML's first occurrence in its source line at or after cmark's column.
    static func locate(
        _ found: [(line: Int, column: Int, literal: String)], in markdown: String, source: (path: String, firstLine: Int)
    ) -> [SourceLocation] {
        // The line starts, found once (not every line cut out: a page may hold thousands).
        var starts = [0]
        var markdown = markdown
        markdown.withUTF8 { bytes in
            for (k, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(k + 1) }
            starts.append(bytes.count + 1)  // the end of the last line, plus its missing newline
        }
        let utf8 = Array(markdown.utf8)
        return found.map { html in
            var column = html.column
            let literal = Array(html.literal.utf8.prefix { $0 != UInt8(ascii: "\n") })
            if !literal.isEmpty, html.line >= 1, html.line < starts.count {
                let line = Array(utf8[starts[html.line - 1]..<(starts[html.line] - 1)])
                var start = max(0, column - 1)
                while start + literal.count <= line.count {
                    if line[start..<start + literal.count].elementsEqual(literal) {
                        column = start + 1
                        break
                    }
                    start += 1
                }
            }
            return SourceLocation(path: source.path, line: source.firstLine + html.line - 1, column: column)
        }
    }
}
