/// Resource bounds on input, so that no site can hang a build or exhaust memory
/// (documented in docs/limits.md). Exceeding one is an error at the offending file or value.
public enum Limits {
    /// The largest content file read (Markdown with front matter, feedgen.yaml): 16 MiB.
    public static let maxFileSize = 16 << 20
    /// The most Markdown files in one site: 1,000,000.
    public static let maxContentFiles = 1_000_000
    /// The largest length in a layout or theme token: 100,000 CSS px (larger values are typos,
    /// and would overflow when a layout multiplies them).
    public static let maxLength = 100_000.0
    /// YAML: nodes that alias expansion may add to one document.
    public static var maxYAMLAliasExpansion: Int { YAMLParser.maxAliasExpansion }
    /// YAML: the deepest nesting of sequences and mappings.
    public static var maxYAMLDepth: Int { YAMLParser.maxDepth }
}
