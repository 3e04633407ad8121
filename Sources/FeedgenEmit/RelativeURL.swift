/// Page-to-page links are always relative, so the output works from `file://` (content-format §8).
public enum RelativeURL {
    /// The URL of output file `target` as seen from output file `page` (both relative to the
    /// output folder, `/`-separated): `relative(from: "recipes/index.html", to: "assets/a.css")`
    /// is `../assets/a.css`.
    public static func relative(from page: String, to target: String) -> String {
        let from = page.split(separator: "/", omittingEmptySubsequences: true).dropLast()
        let to = target.split(separator: "/", omittingEmptySubsequences: true)
        var common = 0
        while common < from.count, common < to.count - 1, from[from.startIndex + common] == to[common] {
            common += 1
        }
        let ups = Array(repeating: "..", count: from.count - common)
        let parts = ups + to[common...].map(String.init)
        return percentEncode(parts.joined(separator: "/"))
    }

    /// The prefix from `page` to the output root: `""` or `"../"` repeated.
    public static func root(from page: String) -> String {
        let depth = page.split(separator: "/", omittingEmptySubsequences: true).count - 1
        return String(repeating: "../", count: max(depth, 0))
    }

    /// Percent-encodes what may not stand in a URL path (spaces, quotes, `#`, `?`, `%`, non-ASCII),
    /// keeping `/` (RFC 3986 path characters).
    public static func percentEncode(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"),
                UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
                UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
                UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF")
                out += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
            }
        }
        return out
    }

    /// True when `link` has a URL scheme (`https:`, `mailto:`).
    public static func hasScheme(_ link: String) -> Bool {
        guard let colon = link.firstIndex(of: ":") else { return false }
        let scheme = link[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
    }
}
