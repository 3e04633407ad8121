import FeedgenResolve

/// HTML escaping for text and attribute values (HTML Living Standard: escape `&`, `<`, `>`, `"`
/// and `'`), the same set as Mustache's `{{x}}`.
public enum HTML {
    public static func escape(_ s: String) -> String {
        // Most strings (ids, paths, class names) need nothing: returned as they are.
        if !s.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) { return s }
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// A token safe in an `id` attribute and a CSS identifier: ASCII letters, digits, `-`, `_`;
    /// anything else becomes `-`.
    public static func identifier(_ s: String) -> String { OutputPaths.identifier(s) }

    /// A CSS string literal (`"…"`) with `"` and `\` escaped (CSS Syntax 3).
    public static func cssString(_ s: String) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\a "
            default: out.unicodeScalars.append(c)
            }
        }
        return out + "\""
    }
}
