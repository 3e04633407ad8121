import FeedgenDiagnostics

/// A Markdown link to another content file, like `[Miso soup](../recipes/miso-soup.md#steps)`:
/// the build checks that the file is an item (or a feed or section) of the site and links to its
/// output page instead (content-format §5; Hugo's `relref` without the shortcode).
public struct MarkdownLink: Sendable, Hashable {
    /// The linked file, site-relative (`content/recipes/recipes/miso-soup.md`).
    public var target: String
    /// The part after `#`, if any.
    public var fragment: String?
    /// Where the link is written.
    public var location: SourceLocation
    /// The destination as written.
    public var destination: String

    /// A link to a Markdown file (`.md`, `.markdown`…: ``ItemName/extensions``) by a path without a scheme, resolved against `directory`
    /// (site-relative), or against `content/` when it starts with `/` (as in Hugo, where `/`
    /// is the content root). With `folders` (body links), also a relative path that ends in `/`
    /// (`../posts/`) and stays inside `content/`: its target ends in `/` (`content/posts/`) and
    /// leads to that folder's feed page. Nil for every other destination.
    public init?(destination: String, directory: String, folders: Bool = false) {
        // Most links (https:, #anchors) do not end in `.md`: rejected on bytes before any
        // String work (no lower-casing of the whole destination).
        let isFolder = folders && Self.endsInSlash(destination)
        guard isFolder || Self.mayEndInMarkdownSuffix(destination) else { return nil }
        var path = Substring(destination)
        var fragment: String?
        // An ASCII destination (nearly every one) is read on bytes: its characters are its bytes.
        let ascii = destination.withUTF8Bytes { ByteScan.isASCII($0) }
        if ascii {
            let (hash, valid) = destination.withUTF8Bytes { b -> (Int?, Bool) in
                let hash = b.firstIndex(of: UInt8(ascii: "#"))
                let path = UnsafeBufferPointer(rebasing: b[..<(hash ?? b.count)])
                let first = path.first
                let valid =
                    (isFolder ? first != UInt8(ascii: "/") : ItemName.extensionLength(path) > 0)
                    && (first != UInt8(ascii: "/") || path.count < 2 || path[1] != UInt8(ascii: "/"))
                    && !path.contains(where: { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "?") })
                return (hash, valid)
            }
            guard valid else { return nil }
            if let hash {
                let index = destination.utf8.index(destination.utf8.startIndex, offsetBy: hash)
                fragment = String(path[path.index(after: index)...])
                path = path[..<index]
            }
        } else {
            if let hash = path.firstIndex(of: "#") {
                fragment = String(path[path.index(after: hash)...])
                path = path[..<hash]
            }
            guard isFolder ? !path.hasPrefix("/") : ItemName.extensionLength(path.utf8) > 0,
                !path.hasPrefix("//"), !path.contains(":"), !path.contains("?")
            else { return nil }
        }
        let decoded = Self.percentDecode(String(path))
        var parts = path.hasPrefix("/") ? ["content"] : directory.split(separator: "/").map(String.init)
        for part in decoded.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() } else { parts.append("..") }
            default: parts.append(String(part))
            }
        }
        self.target = parts.joined(separator: "/")
        if isFolder {
            guard parts.first == "content" else { return nil }
            target += "/"
        }
        self.fragment = fragment
        self.destination = destination
        self.location = SourceLocation(path: "")
    }

    /// A link as resolved before (read back from the build cache).
    package init(target: String, fragment: String?, location: SourceLocation, destination: String) {
        (self.target, self.fragment, self.location, self.destination) = (target, fragment, location, destination)
    }

    /// The same link found at `location` (for links written in front matter).
    public func at(_ location: SourceLocation) -> MarkdownLink {
        var copy = self
        copy.location = location
        return copy
    }

    /// False when `destination`'s part before `#` does not end in a Markdown extension (any
    /// case; ``ItemName/extensions``): a fast check on bytes, before any String work.
    static func mayEndInMarkdownSuffix(_ destination: String) -> Bool {
        destination.withUTF8Bytes { b in
            let end = b.firstIndex(of: UInt8(ascii: "#")) ?? b.count
            return ItemName.extensionLength(UnsafeBufferPointer(rebasing: b[..<end])) > 0
        }
    }

    /// `x.md` for a content file `x.markdown` (any other Markdown extension, ``ItemName/extensions``):
    /// the name a link may use for it when no `x.md` exists (Jekyll's `{% post_url %}` names a
    /// post without its extension); nil for a `.md` file or a path without such an extension.
    public static func mdAlias(of source: String) -> String? {
        let utf8 = source.utf8
        let n = ItemName.extensionLength(utf8)
        guard n > 0 else { return nil }
        // Only a 3-byte extension can be `.md`.
        if n == 3, endsInDotMd(source) { return nil }
        return String(decoding: utf8.dropLast(n), as: UTF8.self) + ".md"
    }

    /// `table` (content source path → value) with each ``mdAlias(of:)`` that names no key of
    /// its own added, holding its source's value: the one rule by which both the link and the
    /// anchor checks find `x.markdown` from a link to `x.md`.
    public static func addingMdAliases<V>(to table: [String: V]) -> [String: V] {
        // Nearly every key ends in `.md` (no alias) or names an output page: read on its last
        // bytes, and the table is returned as it is when no key has an alias. The aliases in
        // byte order of their sources: of `x.markdown` and `x.mkd` the first claims `x.md`.
        var aliases: [(source: String, alias: String)] = []
        for source in table.keys where !endsInDotMd(source) {
            if let alias = mdAlias(of: source) { aliases.append((source, alias)) }
        }
        guard !aliases.isEmpty else { return table }
        aliases.sort { $0.source.utf8.lexicographicallyPrecedes($1.source.utf8) }
        var out = table
        for (source, alias) in aliases where out[alias] == nil { out[alias] = table[source] }
        return out
    }

    /// Whether `source` ends in `.md` (then it has no ``mdAlias(of:)``).
    private static func endsInDotMd(_ source: String) -> Bool {
        source.withUTF8Bytes { b in
            let n = b.count
            return n >= 3 && b[n - 1] == UInt8(ascii: "d") && b[n - 2] == UInt8(ascii: "m") && b[n - 3] == UInt8(ascii: ".")
        }
    }

    /// Whether the part of `destination` before `#` ends in `/` (a folder).
    static func endsInSlash(_ destination: String) -> Bool {
        destination.withUTF8Bytes { b in
            let end = b.firstIndex(of: UInt8(ascii: "#")) ?? b.count
            return end > 0 && b[end - 1] == UInt8(ascii: "/")
        }
    }

    static func percentDecode(_ s: String) -> String {
        // Most paths hold no escape: the string itself (what the loop below would rebuild).
        guard s.withUTF8Bytes({ $0.contains(UInt8(ascii: "%")) }) else { return s }
        var bytes: [UInt8] = []
        var i = s.utf8.startIndex
        let utf8 = s.utf8
        while i < utf8.endIndex {
            let b = utf8[i]
            if b == UInt8(ascii: "%"), let h1 = utf8.index(i, offsetBy: 1, limitedBy: utf8.endIndex), h1 < utf8.endIndex,
                let h2 = utf8.index(i, offsetBy: 2, limitedBy: utf8.endIndex), h2 < utf8.endIndex,
                let v = UInt8(String(decoding: [utf8[h1], utf8[h2]], as: UTF8.self), radix: 16)
            {
                bytes.append(v)
                i = utf8.index(i, offsetBy: 3)
            } else {
                bytes.append(b)
                i = utf8.index(after: i)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension MarkdownLink {
    /// Undoes the percent-encoding libcmark applies to link destinations.
    public static func decodePercent(_ s: String) -> String { percentDecode(s) }

    /// Whether `url` is a network-path reference, `//host/…` (RFC 3986 §4.2), and not `///`.
    static func isProtocolRelative(_ url: UnsafePointer<CChar>?) -> Bool {
        guard let url else { return false }
        let slash = CChar(UInt8(ascii: "/"))
        return url[0] == slash && url[1] == slash && url[2] != slash && url[2] != 0
    }
}
