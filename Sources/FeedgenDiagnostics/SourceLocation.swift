/// A position in a source file: 1-based line and column, counted in the whole file
/// (front matter included, a UTF-8 byte-order mark not counted). Columns count Unicode scalars.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Path as shown to the user: relative to the site folder (e.g. `content/today/a.md`).
    public var path: String
    /// 1-based line; 0 when the problem concerns the whole file.
    public var line: Int
    /// 1-based column; 0 when the problem concerns the whole line or file.
    public var column: Int

    public init(path: String, line: Int = 0, column: Int = 0) {
        self.path = path
        self.line = line
        self.column = column
    }

    /// `path:line:column`, or `path` alone when no line is known.
    public var description: String {
        guard line > 0 else { return path }
        return "\(path):\(line):\(max(column, 1))"
    }

    public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        (a.path, a.line, a.column) < (b.path, b.line, b.column)
    }
}
