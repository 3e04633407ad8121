import FeedgenResolve
import Foundation
import FeedgenContent

/// Absolute URLs, Atom and JSON Feed documents and the sitemap, all from `baseURL`
/// (docs/output.md "Feeds and sharing").
///
/// Decisions, so that output depends on the content only:
/// - A feed's entries are its items in page order (sections in order, an item once) that lead
///   somewhere: a detail page or a `link`. Items with neither are not syndicated.
/// - An entry's date is the item's `date`. Atom requires `updated`, so an undated entry takes
///   the feed's newest item date; JSON Feed simply omits `date_published` for it. A feed with no
///   dated item at all is `updated` `1970-01-01T00:00:00Z` (never the build time).
/// - A calendar date (`2026-11-29`) is midnight UTC (`2026-11-29T00:00:00Z`).
public struct Syndication: Sendable {
    /// `baseURL` with exactly one trailing slash.
    public let base: String
    public let site: PreparedSite

    public init?(site: PreparedSite) {
        guard var base = site.site.config.baseURL, !base.isEmpty else { return nil }
        while base.hasSuffix("/") { base.removeLast() }
        self.base = base + "/"
        self.site = site
    }

    /// The absolute URL of a site path (`recipes/index.html` → `<base>recipes/`).
    public func url(_ path: String) -> String {
        if RelativeURL.hasScheme(path) { return path }
        var p = path.hasPrefix("/") ? String(path.dropFirst()) : path
        if p == "index.html" { p = "" } else if p.hasSuffix("/index.html") { p.removeLast("index.html".count) }
        return base + RelativeURL.percentEncode(p)
    }

    public static func atomPath(_ feed: PreparedFeed) -> String { OutputPaths.atom(feed) }
    public static func jsonPath(_ feed: PreparedFeed) -> String { OutputPaths.json(feed) }

    /// Where an item leads, absolute: its `link`, else its detail page; nil when neither.
    public func itemURL(_ item: Item, feed: PreparedFeed) -> String? {
        if let link = item.link, !link.isEmpty, !link.hasPrefix("#") {
            if RelativeURL.hasScheme(link) { return link }
            guard let path = LinkResolver.outputFile(ofLink: link) else { return base }
            return url(path) + LinkResolver.split(link).suffix
        }
        return item.hasBody ? url(feed.detailPath(item)) : nil
    }

    /// The absolute URL of an item's image, if it has one.
    public func imageURL(_ item: Item, feed: PreparedFeed) -> String? {
        site.image(feed: feed, item: item).map { url($0.outputPath) }
    }

    package struct Entry {
        package var item: Item
        /// The item's section and place in it.
        var section: Int
        var index: Int
        /// Where the entry leads (its `link`, else its page).
        var url: String
        /// The entry's permanent, unique id (Atom `id`, RFC 4287 §4.2.6; JSON Feed `id`): its
        /// own page when it has one, else the feed page with the item's id as the fragment — never
        /// its `link`, which several items may share.
        var id: String
        var image: String?
    }

    /// The entries of `feed`'s Atom and JSON documents, in their order (``SyndicationMap``'s).
    package func entries(_ feed: PreparedFeed) -> [Entry] {
        var seen = Set<String>()
        var out: [Entry] = []
        for (k, s) in feed.sections.enumerated() {
            for (i, item) in s.section.items.enumerated() where !TagPages.isChip(item) && seen.insert(item.id).inserted {
                guard let entry = entry(item, section: k, index: i, feed: feed) else { continue }
                out.append(entry)
            }
            // Items of the section that its feed page does not show (past its `limit` or first
            // page); never the feed's pages (content-format §3).
            guard let more = s.detailItems, feed.ownPage == nil, !s.section.isPages else { continue }
            for (i, item) in more.enumerated() where item.isListed && seen.insert(item.id).inserted {
                guard let entry = entry(item, section: k, index: i, feed: feed) else { continue }
                out.append(entry)
            }
        }
        return out
    }

    /// The entry of `item` (item `index` of section `section` of `feed`), nil when it leads nowhere.
    func entry(_ item: Item, section: Int, index: Int, feed: PreparedFeed) -> Entry? {
        guard let u = itemURL(item, feed: feed) else { return nil }
        let id = item.hasBody ? url(feed.detailPath(item)) : url(feed.pagePath) + "#" + item.id
        return Entry(item: item, section: section, index: index, url: u, id: id, image: imageURL(item, feed: feed))
    }

    /// RFC 3339 date-time: instants as written, calendar dates at midnight UTC.
    static func timestamp(_ d: ContentDate) -> String {
        switch d.value {
        case .calendar: d.iso + "T00:00:00Z"
        case .instant: d.iso
        }
    }

    // MARK: - Atom (RFC 4287)

    /// ``HTML/escape(_:)`` for XML 1.0 text and attributes: characters XML 1.0 does not allow
    /// (C0 controls other than tab, LF and CR; U+FFFE, U+FFFF; XML 1.0 §2.2 "Char") become
    /// U+FFFD, so feed.xml and sitemap.xml stay well-formed whatever the content holds.
    static func xml(_ s: String) -> String {
        let escaped = HTML.escape(s)
        func allowed(_ c: Unicode.Scalar) -> Bool {
            c.value >= 0x20 ? c.value != 0xFFFE && c.value != 0xFFFF : c == "\t" || c == "\n" || c == "\r"
        }
        guard !escaped.unicodeScalars.allSatisfy(allowed) else { return escaped }
        var out = String.UnicodeScalarView()
        for c in escaped.unicodeScalars { out.append(allowed(c) ? c : "\u{FFFD}") }
        return String(out)
    }

    public func atom(_ feed: PreparedFeed) -> String { atomAndMap(feed).text }

    /// ``atom(_:)`` and where each entry is in it (``SyndicationMap``).
    public func atomAndMap(_ feed: PreparedFeed) -> (text: String, map: SyndicationMap) {
        let entries = entries(feed)
        let updated = feedUpdated(entries)
        let lang = feed.feed.lang ?? site.site.config.language
        let pageURL = url(feed.pagePath)
        var x = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
        x += "<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:lang=\"\(Self.xml(lang))\">\n"
        x += "  <id>\(Self.xml(pageURL))</id>\n"
        x += "  <title>\(Self.xml(pageTitle(feed)))</title>\n"
        if let d = feed.feed.description, !d.isEmpty { x += "  <subtitle>\(Self.xml(d))</subtitle>\n" }
        x += "  <updated>\(updated)</updated>\n"
        x += "  <link rel=\"alternate\" type=\"text/html\" href=\"\(Self.xml(pageURL))\"/>\n"
        x += "  <link rel=\"self\" type=\"application/atom+xml\" href=\"\(Self.xml(url(Self.atomPath(feed))))\"/>\n"
        x += "  <author><name>\(Self.xml(site.site.config.title))</name></author>\n"
        x += "  <generator>feedgen</generator>\n"
        var map = SyndicationMap(updated: updated)
        for e in entries {
            let start = x.utf8.count
            x += atomEntry(e, updated: updated, feed: feed)
            map.append(section: e.section, item: e.index, atom: start..<x.utf8.count)
        }
        x += "</feed>\n"
        return (x, map)
    }

    /// The feed's `updated`: its newest item date, else 1970.
    func feedUpdated(_ entries: [Entry]) -> String {
        entries.compactMap(\.item.date).max().map(Self.timestamp) ?? "1970-01-01T00:00:00Z"
    }

    /// One `<entry>` element of ``atom(_:)``, with its line feed; `updated` is the feed's.
    func atomEntry(_ e: Entry, updated: String, feed: PreparedFeed) -> String {
        let item = e.item
        var x = "  <entry\(item.lang.map { " xml:lang=\"\(Self.xml($0))\"" } ?? "")>\n"
        x += "    <id>\(Self.xml(e.id))</id>\n"
        x += "    <title>\(Self.xml(item.title))</title>\n"
        x += "    <updated>\(item.date.map(Self.timestamp) ?? updated)</updated>\n"
        if let d = item.date { x += "    <published>\(Self.timestamp(d))</published>\n" }
        x += "    <link rel=\"alternate\" type=\"text/html\" href=\"\(Self.xml(e.url))\"/>\n"
        if let image = e.image, let asset = site.image(feed: feed, item: item) { x += enclosure(asset, url: image) }
        if let d = item.description, !d.isEmpty { x += "    <summary>\(Self.xml(d))</summary>\n" }
        if item.hasBody { x += "    <content type=\"html\">\(Self.xml(absolutized(item.html, page: feed.detailPath(item))))</content>\n" }
        for tag in item.tags { x += "    <category term=\"\(Self.xml(tag))\"/>\n" }
        x += "  </entry>\n"
        return x
    }

    /// The Atom entry and the JSON Feed item of item `index` of section `section` of `feed`, as
    /// ``atom(_:)`` and ``jsonFeed(_:)`` write them; `updated` is the Atom feed's
    /// (``SyndicationMap/updated``). nil when the item leads nowhere (it has no entry).
    public func entryTexts(section: Int, index: Int, feed: PreparedFeed, updated: String) -> (atom: String, json: String)? {
        let item = feed.sections[section].section.items[index]
        guard let e = entry(item, section: section, index: index, feed: feed) else { return nil }
        return (atomEntry(e, updated: updated, feed: feed), jsonItem(e, feed: feed))
    }

    // MARK: - JSON Feed 1.1

    public func jsonFeed(_ feed: PreparedFeed) -> String { jsonFeedAndRanges(feed).text }

    /// ``jsonFeed(_:)`` and the byte range of each item's object in it (in entry order).
    public func jsonFeedAndRanges(_ feed: PreparedFeed) -> (text: String, ranges: [Range<Int>]) {
        var doc: [String: Any] = [
            "version": "https://jsonfeed.org/version/1.1",
            "title": pageTitle(feed),
            "home_page_url": url(feed.pagePath),
            "feed_url": url(Self.jsonPath(feed)),
            "language": feed.feed.lang ?? site.site.config.language,
            "authors": [["name": site.site.config.title]],
        ]
        if let d = feed.feed.description, !d.isEmpty { doc["description"] = d }
        doc["items"] = entries(feed).map { jsonObject($0, feed: feed) }
        let data = (try? JSONSerialization.data(withJSONObject: doc, options: Self.jsonOptions)) ?? Data("{}".utf8)
        let text = String(decoding: data, as: UTF8.self) + "\n"
        return (text, Self.itemRanges(data))
    }

    static let jsonOptions: JSONSerialization.WritingOptions = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]

    /// Where each object of the top-level `items` array is in a pretty-printed JSON Feed: its
    /// lines, from its `{` line to its `}`, at the array's element depth. Strings hold no raw
    /// line feed (JSON escapes it), so lines are the document's structure.
    static func itemRanges(_ data: Data) -> [Range<Int>] {
        let bytes = [UInt8](data)
        let open = Array("    {".utf8)
        let close = Array("    }".utf8)
        var ranges: [Range<Int>] = []
        var inItems = false
        var start: Int?
        var line = 0
        while line < bytes.count {
            var end = line
            while end < bytes.count, bytes[end] != 10 { end += 1 }
            let text = bytes[line..<end]
            if !inItems {
                inItems = text.elementsEqual(Array("  \"items\" : [".utf8))
            } else if start == nil, text.elementsEqual(open) {
                start = line
            } else if let s = start, text.starts(with: close), text.count <= close.count + 1 {
                ranges.append(s..<(line + close.count))
                start = nil
            } else if start == nil, text.starts(with: Array("  ]".utf8)) {
                break
            }
            line = end + 1
        }
        return ranges
    }

    func jsonObject(_ e: Entry, feed: PreparedFeed) -> [String: Any] {
        let item = e.item
        var o: [String: Any] = ["id": e.id, "url": e.url, "title": item.title]
        if item.hasBody {
            o["content_html"] = absolutized(item.html, page: feed.detailPath(item))
        } else {
            o["content_text"] = item.description.flatMap { $0.isEmpty ? nil : $0 } ?? item.title
        }
        if let d = item.description, !d.isEmpty { o["summary"] = d }
        if let d = item.date { o["date_published"] = Self.timestamp(d) }
        if let image = e.image { o["image"] = image }
        if !item.tags.isEmpty { o["tags"] = item.tags }
        if let lang = item.lang { o["language"] = lang }
        if let link = item.link, RelativeURL.hasScheme(link) { o["external_url"] = link }
        return o
    }

    /// One item's object as ``jsonFeed(_:)`` writes it inside `items` (its lines indented to
    /// the array's depth), from its `{` to its `}`.
    func jsonItem(_ e: Entry, feed: PreparedFeed) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: jsonObject(e, feed: feed), options: Self.jsonOptions)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }
            .joined(separator: "\n")
    }

    // MARK: - Sitemap

    /// Every page (feed pages, then their detail pages), in output order.
    public func sitemap() -> String {
        var paths: [String] = []
        for feed in site.feeds {
            paths.append(feed.pagePath)
            for s in feed.sections {
                for item in s.pageItems where item.hasBody { paths.append(feed.detailPath(item)) }
            }
        }
        var seen = Set<String>()
        var x = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        for p in paths.sorted() where seen.insert(p).inserted {
            x += "  <url><loc>\(Self.xml(url(p)))</loc></url>\n"
        }
        return x + "</urlset>\n"
    }

    func pageTitle(_ feed: PreparedFeed) -> String {
        let siteTitle = site.site.config.title
        return feed.feed.title.isEmpty || feed.feed.title == siteTitle ? siteTitle : "\(feed.feed.title) – \(siteTitle)"
    }

    /// Item HTML with its relative `href`/`src` (and raw HTML's `poster`, `srcset`, in single
    /// quotes too) made absolute against the detail page, so a feed reader resolves them (feeds
    /// are read away from the site).
    func absolutized(_ html: String, page: String) -> String {
        guard let pageURL = URL(string: url(page)) else { return html }
        var out = ""
        var rest = Substring(html)
        while let r = rest.range(of: #"(href|src|poster|srcset)=("[^"]*"|'[^']*')"#, options: .regularExpression) {
            out += rest[..<r.lowerBound]
            let attr = rest[r]
            let eq = attr.firstIndex(of: "=")!
            let name = attr[..<eq]
            let quote = attr[attr.index(after: eq)]
            let value = String(attr[attr.index(eq, offsetBy: 2)..<attr.index(before: attr.endIndex)])
            let resolved =
                name == "srcset"
                ? value.split(separator: ",", omittingEmptySubsequences: false).map { candidate -> String in
                    // `url descriptor`: only the URL changes (a marker never holds a space or comma).
                    let lead = candidate.prefix { $0 == " " || $0 == "\n" || $0 == "\t" }
                    let rest = candidate.dropFirst(lead.count)
                    let end = rest.firstIndex { $0 == " " || $0 == "\n" || $0 == "\t" } ?? rest.endIndex
                    return lead + (rest[..<end].isEmpty ? "" : absolute(String(rest[..<end]), pageURL: pageURL)) + rest[end...]
                }.joined(separator: ",")
                : absolute(value, pageURL: pageURL)
            out += "\(name)=\(quote)\(resolved)\(quote)"
            rest = rest[r.upperBound...]
        }
        return out + rest
    }

    /// One URL of an `href`/`src`/… value (HTML-escaped as in the page) made absolute.
    private func absolute(_ value: String, pageURL: URL) -> String {
        var value = value
        if value.hasPrefix(Markdown.contentLinkScheme) {
            // A link to another content file or a body path: its absolute URL (never the
            // marker); a path that names nothing, as written (``BodyPaths/verbatim(_:)``).
            let marked = value.dropFirst(Markdown.contentLinkScheme.count)
            let hash = marked.firstIndex { $0 == "#" || $0 == "?" } ?? marked.endIndex
            let target = MarkdownLink.decodePercent(String(marked[..<hash]).replacingOccurrences(of: "&amp;", with: "&"))
            guard let page = site.contentPages[target] else { return "#" }
            let (path, _, verbatim) = BodyPaths.parse(page)
            guard verbatim else { return HTML.escape(url(String(path))) + marked[hash...] }
            value = String(path) + marked[hash...]
        }
        if RelativeURL.hasScheme(value) || value.hasPrefix("#") || value.hasPrefix("//") { return value }
        // Root-relative (raw HTML): under `baseURL`, its path kept (not the host's root).
        if value.hasPrefix("/") { return HTML.escape(base) + value.dropFirst() }
        let unescaped = value.replacingOccurrences(of: "&amp;", with: "&")
        return URL(string: unescaped, relativeTo: pageURL).map { HTML.escape($0.absoluteString) } ?? value
    }
}
