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
                // Segments are walked in place (no arrays of them): the page's own, less its file
                // name, and the target's, the last of which always stays.
                let from = Swift.max(segmentCount(p) - 1, 0)
                let to = segmentCount(t)
                var common = 0
                var pi = 0
                var ti = 0
                var rest = 0  // where the target's segments after the common ones start
                while common < from, common < to - 1, let a = nextSegment(p, from: &pi), let b = nextSegment(t, from: &ti) {
                    guard UnsafeBufferPointer(rebasing: p[a]).elementsEqual(UnsafeBufferPointer(rebasing: t[b])) else { break }
                    common += 1
                    rest = ti
                }
                let ups = from - common
                return String(unsafeUninitializedCapacity: 3 * ups + 4 * t.count + 1) { out in
                    var n = 0
                    for k in 0..<ups {
                        if k > 0 {
                            out[n] = UInt8(ascii: "/")
                            n += 1
                        }
                        out[n] = UInt8(ascii: ".")
                        out[n + 1] = UInt8(ascii: ".")
                        n += 2
                    }
                    var first = ups == 0
                    var i = rest
                    while let segment = nextSegment(t, from: &i) {
                        if !first {
                            out[n] = UInt8(ascii: "/")
                            n += 1
                        }
                        first = false
                        for k in segment { writeEncoded(t[k], to: out, at: &n) }
                    }
                    return n
                }
            }
        }
    }

    /// The range of the next non-empty `/`-separated segment of `path` from `i`, with `i` moved
    /// past it; nil when none is left.
    @inline(__always) private static func nextSegment(_ path: UnsafeBufferPointer<UInt8>, from i: inout Int) -> Range<Int>? {
        var j = i
        while j < path.count, path[j] == UInt8(ascii: "/") { j += 1 }
        guard j < path.count else {
            i = j
            return nil
        }
        let start = j
        while j < path.count, path[j] != UInt8(ascii: "/") { j += 1 }
        i = j
        return start..<j
    }

    /// The number of non-empty `/`-separated segments of `path`.
    private static func segmentCount(_ path: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        var i = 0
        while nextSegment(path, from: &i) != nil { count += 1 }
        return count
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

    /// Writes `byte` at `out[n]`, percent-encoded unless it stands as is, and moves `n` past it.
    @inline(__always) private static func writeEncoded(_ byte: UInt8, to out: UnsafeMutableBufferPointer<UInt8>, at n: inout Int) {
        if isPathByte(byte) {
            out[n] = byte
            n += 1
        } else {
            let hex: StaticString = "0123456789ABCDEF"
            out[n] = UInt8(ascii: "%")
            out[n + 1] = hex.utf8Start[Int(byte >> 4)]
            out[n + 2] = hex.utf8Start[Int(byte & 15)]
            n += 3
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
