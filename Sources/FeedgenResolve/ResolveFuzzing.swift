/// `ResolveFuzzing`: the entry point of Fuzz/FuzzLayout (a section's `layout` value through
/// ``LayoutDecoder``).
import FeedgenContent

public enum ResolveFuzzing {
    /// Parses `text` as YAML and decodes it as a section's `layout` value (a preset name or the
    /// full form), then picks its adaptive rule at 320 and 1024 CSS px. Returns the number of
    /// diagnostics.
    public static func decodeLayout(_ text: String) -> Int {
        let (node, parseDiagnostics) = YAMLParser.parse(text, path: "content/fuzz/_section.md", firstLine: 2)
        guard let node else { return parseDiagnostics.count }
        var decoder = LayoutDecoder(path: "content/fuzz/_section.md")
        let (layout, _) = decoder.decode(node)
        _ = layout.section(forWidth: 320)
        _ = layout.section(forWidth: 1024)
        return parseDiagnostics.count + decoder.diagnostics.count
    }
}
