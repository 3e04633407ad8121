/// Hugo's `{{< ref >}}` / `relref` links in ``ContentLinks``: the page a `ref` path that is no
/// file beside the linking one leads to (content-format §5.3).
import FeedgenContent

extension ContentLinks {
    /// Hugo reads a `ref` / `relref` path that is no file beside the linking one from the
    /// content folder (`ref "posts/x.md"`), and a bare name (`ref "x.md"`) as the one file of that
    /// name anywhere (content-format §5.3): such a link's target gets that file's page. Two files
    /// of the name leave the link unresolved (its warning). Costs nothing when no `ref` misses.
    static func addHugoRefLookups(_ feeds: [PreparedFeed], to pages: inout [String: String]) {
        var byName: [String: [String]]?
        for feed in feeds {
            for s in feed.sections {
                for item in s.section.items {
                    // The tag's shape first: it is cheaper to test than a look-up of the target.
                    // By index: a link is copied only when it is a tag (a `for … in` copied every
                    // link, retaining its strings, each a cache miss on a large site).
                    let links = item.markdownLinks
                    for i in links.indices where links[i].destination.utf8.first == UInt8(ascii: "{") {
                        let link = links[i]
                        guard let path = hugoRefPath(link.destination), pages[link.target] == nil else { continue }
                        if path.contains("/") {
                            if let page = pages["content/" + path] { pages[link.target] = page }
                            continue
                        }
                        if byName == nil {
                            var index: [String: [String]] = [:]
                            for key in pages.keys where !key.hasSuffix("/") {
                                index[String(key.split(separator: "/").last ?? ""), default: []].append(key)
                            }
                            byName = index
                        }
                        if let found = byName?[path], found.count == 1, let page = pages[found[0]] { pages[link.target] = page }
                    }
                }
            }
        }
    }

    /// The path a Hugo `{{< ref "P" >}}` / `relref` tag names (`.md` added when it has no
    /// extension, no leading `/`, no fragment); nil for other destinations and for root paths
    /// (already read from the content folder).
    static func hugoRefPath(_ tag: String) -> String? {
        guard tag.hasPrefix("{{<") || tag.hasPrefix("{{%") else { return nil }
        var words = tag.dropFirst(3).dropLast(3).split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.first == "ref" || words.first == "relref" else { return nil }
        words.removeFirst()
        guard var path = words.first.map(String.init) else { return nil }
        if let q = path.first, q == "\"" || q == "'" || q == "`", path.count >= 2 { path = String(path.dropFirst().dropLast()) }
        if let hash = path.firstIndex(of: "#") { path = String(path[..<hash]) }
        guard !path.isEmpty, !path.hasPrefix("/") else { return nil }
        if !(path.split(separator: "/").last ?? "").contains(".") { path += ".md" }
        while path.hasPrefix("./") { path.removeFirst(2) }
        return path
    }
}
