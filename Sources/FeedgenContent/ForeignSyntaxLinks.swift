import Foundation

/// Jekyll's link tags `{% link path %}` and `{% post_url name %}`, Hugo's `ref` / `relref`
/// shortcodes and Jekyll's URL outputs (`{{ site.baseurl }}`, `{{ "P" | relative_url }}`) in a
/// Markdown link's destination, rewritten by ``ForeignSyntaxPass`` into paths that the
/// content-link resolver checks and rewrites like any other link (content-format §5.3).
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

    /// Hugo's `{{< ref "P" >}}` / `{{< relref "P" >}}` (or `{{% … %}}`) at `i` (its arguments
    /// from `argsStart`, the shortcode ending at `end`) as a link destination, when it stands
    /// where a Markdown destination starts and has one argument, a plain path (quoted or not);
    /// nil otherwise (the shortcode is then left out with the usual warning).
    ///
    /// Hugo reads `P` from the content folder when it starts with `/`, else from the current
    /// file's folder; a `#fragment` is kept; a path with no extension names a Markdown file
    /// (`ref "other"` → `other.md`, which finds `other.markdown` too). A root path is spelt
    /// `/./…`, a relative one `././…` (no author writes either), by which
    /// ``ForeignSyntax/linkTags`` tells these links from hand-written ones.
    func hugoRefDestination(name: String, argsStart: Int, end: Int) -> [UInt8]? {
        guard name == "ref" || name == "relref", inDestinationPosition else { return nil }
        var args = b[argsStart..<(end - 3)]
        while let c = args.first, c == 0x20 || c == 0x09 || c == 0x0A { args = args.dropFirst() }
        while let c = args.last, c == 0x20 || c == 0x09 || c == 0x0A { args = args.dropLast() }
        if let c = args.first, c == 0x22 || c == 0x27 || c == 0x60 {
            guard args.count >= 2, args.last == c else { return nil }
            args = args.dropFirst().dropLast()
        }
        guard !args.isEmpty,
            !args.contains(where: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x22 || $0 == 0x27 || $0 == 0x7B || $0 == 0x7D || $0 == 0x3F || $0 == 0x3A })
        else { return nil }
        var path = Array(args)
        var fragment: [UInt8] = []
        if let hash = path.firstIndex(of: 0x23) {
            fragment = Array(path[hash...])
            path = Array(path[..<hash])
        }
        let root = path.first == 0x2F
        while path.first == 0x2F { path.removeFirst() }
        guard !path.isEmpty else { return nil }
        let lastSegment = path.split(separator: 0x2F).last ?? []
        if path.last != 0x2F, !lastSegment.contains(0x2E) { path += Array(".md".utf8) }
        guard ItemName.extensionLength(path) > 0 else { return nil }
        return Array((root ? "/./" : "././").utf8) + Self.percentEncoded(path) + fragment
    }

    /// Jekyll's Liquid output at `i` (ending at `end`) as the start of a link destination, when it
    /// stands where one starts: `{{ site.baseurl }}` and `{{ site.url }}` are nothing (the path
    /// written after them is then root-relative: `{{ site.baseurl }}/about/` → `/about/`), and
    /// `{{ "P" | relative_url }}` / `absolute_url` is `P` from the site root (`/assets/a.png`).
    /// Nil for any other output (it is then left out with the usual warning).
    func liquidOutputDestination(end: Int) -> [UInt8]? {
        guard inDestinationPosition else { return nil }
        var inner = b[(i + 2)..<(end - 2)]
        if inner.first == 0x2D { inner = inner.dropFirst() }  // `{{-`
        if inner.last == 0x2D { inner = inner.dropLast() }  // `-}}`
        let text = String(decoding: inner, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text == "site.baseurl" || text == "site.url" { return [] }
        let parts = text.split(separator: "|", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, parts[1] == "relative_url" || parts[1] == "absolute_url",
            let quote = parts[0].first, quote == "\"" || quote == "'", parts[0].count >= 2, parts[0].last == quote
        else { return nil }
        var path = Array(parts[0].dropFirst().dropLast().utf8)
        guard !path.contains(where: { $0 == 0x7B || $0 == 0x7D || $0 == 0x22 || $0 == 0x27 || $0 == 0x0A }),
            !String(decoding: path, as: UTF8.self).contains("://")
        else { return nil }
        if path.first != 0x2F { path.insert(0x2F, at: 0) }
        return Self.percentEncoded(path)
    }

    /// Whether the output so far ends where a link destination starts: `](` (spaces allowed
    /// after it) or a line holding only a reference definition's `[label]:` and spaces.
    var inDestinationPosition: Bool {
        // The output read through ``outByte(_:)``: its last bytes may still be pending.
        var k = outCount - 1
        while k >= 0, outByte(k) == 0x20 || outByte(k) == 0x09 { k -= 1 }
        guard k >= 0 else { return false }
        if outByte(k) == 0x28 { return k > 0 && outByte(k - 1) == 0x5D }  // `](`
        guard outByte(k) == 0x3A, k > 0, outByte(k - 1) == 0x5D else { return false }  // `]:`
        var start = k
        while start > 0, outByte(start - 1) != 0x0A { start -= 1 }
        var j = start
        while j < k, outByte(j) == 0x20 || outByte(j) == 0x3E { j += 1 }  // indent, block quote markers
        guard j < k, outByte(j) == 0x5B else { return false }
        return !((j + 1)..<(k - 1)).contains { outByte($0) == 0x5B || outByte($0) == 0x5D }
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
