/// Jekyll's link tags `{% link path %}` and `{% post_url name %}` in a Markdown link's
/// destination, rewritten by ``ForeignSyntaxPass`` into root-relative paths that the content-link
/// resolver checks and rewrites like any other link (content-format §5.3).
extension ForeignSyntaxPass {
    /// The tag at `i` (`link` or `post_url`, ending at `tag.end`) as a link destination, when it
    /// stands where a Markdown destination starts (after `](` or in a reference definition
    /// `[label]:`) and names one plain path (no Liquid inside, no quotes, `#` or `?`); nil otherwise (the tag is then left out with the
    /// usual warning).
    ///
    /// - `{% link P %}` names a file by its path from Jekyll's site root, which is `content/`
    ///   here; a first folder `_name` (a Jekyll collection: `_posts`, `_docs`) is read as the
    ///   content folder `name` (where such a collection is copied): `{% link _posts/a.md %}` →
    ///   `/./posts/a.md`.
    /// - `{% post_url N %}` names a post of `_posts` by its file name without extension:
    ///   `{% post_url 2014-05-06-x %}` → `/./posts/2014-05-06-x.md`, which the resolver finds
    ///   whatever the post's Markdown extension (a link to `x.md` finds `x.markdown`).
    ///
    /// A Markdown target is spelled with `/./` (the same file; no author writes it so), by which
    /// ``ForeignSyntax/linkTags`` tells these links from hand-written ones. Bytes that may not
    /// stand in a destination (space, parentheses, `<`, `>`, `\`, `%`, non-ASCII) are
    /// percent-encoded; the resolver decodes them.
    func liquidLinkDestination(_ tag: (name: String, end: Int, argsStart: Int)) -> [UInt8]? {
        guard tag.name == "link" || tag.name == "post_url", inDestinationPosition else { return nil }
        var close = tag.end - 2
        if close > tag.argsStart, b[close - 1] == 0x2D { close -= 1 }  // `-%}`
        // Jekyll takes the tag's whole text, trimmed, as the path (spaces included).
        var path = b[tag.argsStart..<close]
        while let c = path.first, c == 0x20 || c == 0x09 || c == 0x0A { path = path.dropFirst() }
        while let c = path.last, c == 0x20 || c == 0x09 || c == 0x0A { path = path.dropLast() }
        guard !path.contains(where: { $0 == 0x7B || $0 == 0x7D || $0 == 0x22 || $0 == 0x27 || $0 == 0x23 || $0 == 0x3F || $0 == 0x0A })
        else { return nil }
        while path.first == 0x2F { path = path.dropFirst() }
        guard !path.isEmpty else { return nil }
        var target: [UInt8]
        if tag.name == "post_url" {
            target = Array("posts/".utf8) + path + Array(".md".utf8)
        } else {
            target = Array(path)
            if target.first == 0x5F, let slash = target.firstIndex(of: 0x2F), slash > 1 { target.removeFirst() }
        }
        let prefix: [UInt8] = ItemName.extensionLength(target) > 0 ? Array("/./".utf8) : [0x2F]
        return prefix + Self.percentEncoded(target)
    }

    /// Whether the output so far ends where a link destination starts: `](` (spaces allowed
    /// after it) or a line holding only a reference definition's `[label]:` and spaces.
    var inDestinationPosition: Bool {
        var k = out.count - 1
        while k >= 0, out[k] == 0x20 || out[k] == 0x09 { k -= 1 }
        guard k >= 0 else { return false }
        if out[k] == 0x28 { return k > 0 && out[k - 1] == 0x5D }  // `](`
        guard out[k] == 0x3A, k > 0, out[k - 1] == 0x5D else { return false }  // `]:`
        var start = k
        while start > 0, out[start - 1] != 0x0A { start -= 1 }
        var j = start
        while j < k, out[j] == 0x20 || out[j] == 0x3E { j += 1 }  // indent, block quote markers
        guard j < k, out[j] == 0x5B else { return false }
        return !out[(j + 1)..<(k - 1)].contains(0x5B) && !out[(j + 1)..<(k - 1)].contains(0x5D)
    }

    static func percentEncoded(_ bytes: [UInt8]) -> [UInt8] {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for c in bytes {
            if c <= 0x20 || c >= 0x7F || [0x25, 0x28, 0x29, 0x3C, 0x3E, 0x5C, 0x60].contains(c) {
                out += [0x25, hex[Int(c >> 4)], hex[Int(c & 0xF)]]
            } else {
                out.append(c)
            }
        }
        return out
    }
}
