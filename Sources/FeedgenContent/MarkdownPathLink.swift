/// Body paths that are not links to Markdown files: `![a](img.png)`, `[report](files/a.pdf)`,
/// `/images/a.png`, `/docs/configuration/`, `../other-post/` (issue #19 §3, content-format §5.4).
/// The renderer marks each with ``Markdown/contentLinkScheme`` like a `.md` link; the build
/// (FeedgenResolve's `BodyPaths`) finds the file or page it names and rewrites the marker.
import FeedgenDiagnostics

extension MarkdownLink {
    /// A link or image in a body whose destination is a path (no scheme, not `//host`, not only
    /// `#fragment` or `?query`) and no Markdown file: its ``target`` is the path percent-decoded
    /// with `.` and `..` resolved, from the site folder for a relative path
    /// (`content/posts/img.png`; `..` above the site folder stays, `../x`) and with a leading `/`
    /// for a root-relative one (`/images/a.png`, `/docs/x/`; `..` above the root stays, `/../x`).
    /// A trailing `/` is kept. ``fragment`` is the part after `#`. Nil for any other destination.
    public init?(pathDestination destination: String, directory: String) {
        guard let first = destination.utf8.first, first != UInt8(ascii: "#"), first != UInt8(ascii: "?"),
            !destination.hasPrefix("//"), !Self.hasScheme(destination)
        else { return nil }
        let split = LinkResolver.split(destination)
        guard !split.path.isEmpty else { return nil }
        let rooted = Self.startsWithSlash(split.path)
        let decoded = Self.percentDecode(String(split.path))
        if !Self.needsNormalizing(decoded) {
            // No `.`/`..` segment and no empty one (the common case): nothing to resolve.
            self.target = rooted || directory.isEmpty ? decoded : directory + "/" + decoded
            self.fragment = split.suffix.firstIndex(of: "#").map { String(split.suffix[split.suffix.index(after: $0)...]) }
            self.destination = destination
            self.location = SourceLocation(path: "")
            return
        }
        var parts: [String] = rooted ? [] : directory.split(separator: "/").map(String.init)
        var above = 0  // `..` past the start
        for part in decoded.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() } else { above += 1 }
            default: parts.append(String(part))
            }
        }
        let path = (Array(repeating: "..", count: above) + parts).joined(separator: "/")
        var target = rooted ? "/" + path : path
        if decoded.hasSuffix("/") || decoded.hasSuffix("/.") || decoded.hasSuffix("/..") || (rooted && path.isEmpty) {
            if !target.hasSuffix("/") { target += "/" }
        }
        if !rooted, target.isEmpty { return nil }
        self.target = target
        let hash = split.suffix.firstIndex(of: "#")
        self.fragment = hash.map { String(split.suffix[split.suffix.index(after: $0)...]) }
        self.destination = destination
        self.location = SourceLocation(path: "")
    }

    /// Whether `path` has a segment starting with `.` (`.`, `..`, a dot file: resolved the long
    /// way) or an empty one (`a//b`).
    private static func needsNormalizing(_ path: String) -> Bool {
        path.withUTF8Bytes { bytes in
            var previous = UInt8(ascii: "/")  // the first segment starts at the first byte
            var first = true
            for byte in bytes {
                if previous == UInt8(ascii: "/"), byte == UInt8(ascii: ".") || (byte == UInt8(ascii: "/") && !first) { return true }
                previous = byte
                first = false
            }
            return false
        }
    }

    /// `path.hasPrefix("/")` (its first character is `/`), decided on bytes when the byte after
    /// the `/` is ASCII (no character goes on past a `/` then).
    static func startsWithSlash(_ path: Substring) -> Bool {
        let utf8 = path.utf8
        guard utf8.first == UInt8(ascii: "/") else { return false }
        let second = utf8.dropFirst().first
        if second == nil || second! < 0x80 { return true }
        return path.hasPrefix("/")
    }

    /// Whether this is a body path (``init(pathDestination:directory:)``), not a link to a
    /// Markdown file or a folder (``init(destination:directory:folders:)``): a root-relative
    /// target, or one that neither ends in `/` nor has a Markdown extension.
    public var isPath: Bool { Self.isPathTarget(target) }

    /// The length in bytes of `path`'s Markdown extension (`.md`, `.markdown`…, any case), 0
    /// when it has none.
    public static func markdownExtensionLength(_ path: String) -> Int { ItemName.extensionLength(path.utf8) }

    /// ``isPath`` of a link whose target is `target`.
    public static func isPathTarget(_ target: String) -> Bool {
        target.hasPrefix("/") || (!target.hasSuffix("/") && ItemName.extensionLength(target.utf8) == 0)
    }

    /// The marker written into the HTML for this link: ``Markdown/contentLinkScheme``, the
    /// target percent-encoded (every byte but ASCII letters, digits, `-._~/`: a `?`, `#`, `&`
    /// or quote in a file name cannot end it), then `suffix` as written (`?query#fragment`).
    public func marker(suffix: Substring) -> String {
        var bytes = markerBytes(suffix: suffix)
        bytes.removeLast()
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``marker(suffix:)`` as a NUL-terminated C string (what cmark takes).
    func markerBytes(suffix: Substring) -> [UInt8] {
        let scheme = Markdown.contentLinkScheme
        // Written in place: at most three bytes for each of the target's, then the suffix and NUL.
        let capacity = scheme.utf8.count + 3 * target.utf8.count + suffix.utf8.count + 1
        return [UInt8](unsafeUninitializedCapacity: capacity) { out, count in
            var o = 0
            for byte in scheme.utf8 {
                out[o] = byte
                o += 1
            }
            target.withUTF8Bytes { bytes in
                for byte in bytes {
                    switch byte {
                    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                        UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                        out[o] = byte
                        o += 1
                    default:
                        out[o] = UInt8(ascii: "%")
                        out[o + 1] = Self.hexDigit(byte >> 4)
                        out[o + 2] = Self.hexDigit(byte & 15)
                        o += 3
                    }
                }
            }
            for byte in suffix.utf8 {
                out[o] = byte
                o += 1
            }
            out[o] = 0
            count = o + 1
        }
    }

    @inline(__always) private static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? UInt8(ascii: "0") + v : UInt8(ascii: "A") + v - 10 }

    /// Whether `link` starts with a URL scheme (`https:`, `mailto:`, `data:`; RFC 3986 §3.1).
    static func hasScheme(_ link: String) -> Bool {
        link.withUTF8Bytes { bytes in
            guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return false }
            let scheme = bytes[..<colon]
            guard let first = scheme.first, (first | 0x20) >= UInt8(ascii: "a"), (first | 0x20) <= UInt8(ascii: "z") else { return false }
            return scheme.allSatisfy { b in
                let l = b | 0x20
                return (l >= UInt8(ascii: "a") && l <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
                    || b == UInt8(ascii: "+") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
            }
        }
    }
}
