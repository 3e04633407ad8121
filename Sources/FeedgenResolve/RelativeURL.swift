/// Page-to-page links are always relative, so the output works from `file://` (content-format §8).
public enum RelativeURL {
    /// The URL of output file `target` as seen from output file `page` (both relative to the
    /// output folder, `/`-separated): `relative(from: "recipes/index.html", to: "assets/a.css")`
    /// is `../assets/a.css`.
    public static func relative(from page: String, to target: String) -> String {
        if let fast = asciiRelative(from: page, to: target) { return fast }
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

    /// ``relative(from:to:)`` on bytes, for ASCII paths (every output path of a site with ASCII
    /// ids; the same result, without String splitting, which cost 8% of a build's instructions).
    /// Nil when either path is not ASCII (then Character comparison rules apply).
    static func asciiRelative(from page: String, to target: String) -> String? {
        var page = page
        var target = target
        return page.withUTF8 { p -> String? in
            target.withUTF8 { t -> String? in
                guard isASCII(p), isASCII(t) else { return nil }
                var from = segments(p)
                if !from.isEmpty { from.removeLast() }  // the page's own file name
                let to = segments(t)
                var common = 0
                while common < from.count, common < to.count - 1,
                    p[from[common]].elementsEqual(t[to[common]])
                {
                    common += 1
                }
                var out: [UInt8] = []
                out.reserveCapacity(3 * (from.count - common) + t.count)
                for k in 0..<(from.count - common) {
                    if k > 0 { out.append(UInt8(ascii: "/")) }
                    out.append(UInt8(ascii: "."))
                    out.append(UInt8(ascii: "."))
                }
                var first = from.count == common
                for k in common..<max(common, to.count) {
                    if !first { out.append(UInt8(ascii: "/")) }
                    first = false
                    for byte in t[to[k]] { appendEncoded(byte, to: &out) }
                }
                return String(decoding: out, as: UTF8.self)
            }
        }
    }

    /// The ranges of the non-empty `/`-separated segments of `path`.
    private static func segments(_ path: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var start = 0
        for i in 0...path.count where i == path.count || path[i] == UInt8(ascii: "/") {
            if i > start { result.append(start..<i) }
            start = i + 1
        }
        return result
    }

    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy { $0 < 0x80 }
    }

    /// Whether `byte` stands as is in a URL path (RFC 3986 unreserved, sub-delims, `:`, `@`, `/`).
    @inline(__always) private static func isPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"),
            UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
            UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"):
            return true
        default:
            return false
        }
    }

    @inline(__always) private static func appendEncoded(_ byte: UInt8, to out: inout [UInt8]) {
        if isPathByte(byte) {
            out.append(byte)
        } else {
            let hex = Array("0123456789ABCDEF".utf8)
            out.append(UInt8(ascii: "%"))
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 15)])
        }
    }

    /// The prefix from `page` to the output root: `""` or `"../"` repeated.
    public static func root(from page: String) -> String {
        guard page.utf8.allSatisfy({ $0 < 0x80 }) else {
            let depth = page.split(separator: "/", omittingEmptySubsequences: true).count - 1
            return String(repeating: "../", count: max(depth, 0))
        }
        var depth = -1
        var previous = UInt8(ascii: "/")
        for byte in page.utf8 {
            // Counts the non-empty `/`-separated segments (slashes are ASCII: byte-exact).
            if previous == UInt8(ascii: "/"), byte != UInt8(ascii: "/") { depth += 1 }
            previous = byte
        }
        return String(repeating: "../", count: max(depth, 0))
    }

    /// Percent-encodes what may not stand in a URL path (spaces, quotes, `#`, `?`, `%`, non-ASCII),
    /// keeping `/` (RFC 3986 path characters).
    public static func percentEncode(_ path: String) -> String {
        if path.utf8.allSatisfy(isPathByte) { return path }  // nothing to encode
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
