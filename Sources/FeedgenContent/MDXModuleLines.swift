/// Docusaurus `.mdx` files are Markdown with JSX: their `import` and `export` lines (ES module
/// statements) and JSX lines are left out of the page with one warning, never shown as text
/// (content-format §5.2).
enum MDXModuleLines {
    /// `body` with each top-level `import …` / `export …` statement (outside fenced code, from
    /// column 1; a statement whose braces stay open goes on to the line that closes them) and
    /// each line starting with a JSX component (`<Tabs>`), a tag holding `{`, or `{` made an
    /// empty line, so that lines keep their numbers; the 1-based line of the first and the count.
    /// Nil when there is none.
    static func strip(_ body: String) -> (text: String, firstLine: Int, count: Int)? {
        var lines = body.split(separator: "\n", omittingEmptySubsequences: false)
        var fence: Character?
        var first = 0
        var count = 0
        var open = 0  // braces still open in the statement being left out
        for k in lines.indices {
            let line = lines[k]
            if open > 0 {
                open += line.filter { $0 == "{" }.count - line.filter { $0 == "}" }.count
                lines[k] = ""
                continue
            }
            let trimmed = line.drop { $0 == " " }
            if let f = fence {
                if trimmed.hasPrefix(String(repeating: f, count: 3)) { fence = nil }
                continue
            }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                fence = trimmed.first
                continue
            }
            // A JSX line: a component (`<Tabs>`, `</TabItem>`), a tag with a `{…}` expression
            // (CommonMark reads neither as HTML, so it would show as text) or an expression.
            let jsx =
                (trimmed.hasPrefix("<") && (trimmed.dropFirst().drop { $0 == "/" }.first.map { $0.isUppercase } == true || trimmed.contains("{")))
                || trimmed.hasPrefix("{")
            guard line.hasPrefix("import ") || line.hasPrefix("export ") || line.hasPrefix("import{") || jsx else { continue }
            if count == 0 { first = k + 1 }
            count += 1
            open = max(0, line.filter { $0 == "{" }.count - line.filter { $0 == "}" }.count)
            lines[k] = ""
        }
        guard count > 0 else { return nil }
        return (lines.joined(separator: "\n"), first, count)
    }
}
