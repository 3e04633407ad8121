import FeedgenResolve

/// HTML escaping for text and attribute values (HTML Living Standard: escape `&`, `<`, `>`, `"`
/// and `'`), the same set as Mustache's `{{x}}`.
public enum HTML {
    public static func escape(_ s: String) -> String {
        // Most strings (ids, paths, class names) need nothing: returned as they are.
        // (Read from the contiguous bytes when the string has them: the view's iterator took
        // most of the time of escaping a long page's card ids.)
        let special = { (b: UInt8) in b == 0x26 || b == 0x3C || b == 0x3E || b == 0x22 || b == 0x27 }
        if !(s.utf8.withContiguousStorageIfAvailable { $0.contains(where: special) } ?? s.utf8.contains(where: special)) { return s }
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
