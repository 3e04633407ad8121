/// `TagPages`: one page per tag of a feed's items (`<feed>/tags/<tag>/index.html`): every item
/// carrying it, newest first, in the layout of the feed's `terms: tags` section's `pageLayout`
/// (default `grid`); the tags are also the chips of such a section.
import FeedgenContent
import FeedgenDiagnostics
import FeedgenLayout

public enum TagPages {
    /// A tag of a feed: its name as first written, its items' count, its page, and where it was
    /// first written.
    struct Tag {
        var name: String
        var count: Int
        /// Its pages (more than one past the page size), the first at `<feed>/tags/<tag>/index.html`.
        var pages: [PreparedFeed]
        var page: PreparedFeed { pages[0] }
        var location: SourceLocation
    }

    /// The folder name of a tag's page: lower-cased (so `Soup` and `soup` cannot make two pages
    /// that differ only in case), then URL-safe like a file name (content-format §5.2: `quick
    /// meals` → `quick-meals`; CJK kept: `和食` → `和食`).
    static func segment(_ tag: String) -> String { ItemName.pathSegment(tag.lowercased()) }

    /// Where `tag` is written in `item`'s front matter (its `tags` value, else the item).
    static func location(of tag: String, in item: Item) -> SourceLocation {
        guard let node = item.frontMatter["tags"] else { return item.location }
        let exact = node.elements?.first { $0.string == tag } ?? node
        return SourceLocation(path: item.sourcePath, line: exact.line, column: exact.column)
    }

    /// The spelling key of a tag: lower-cased, every run of spaces, `-` and `_` one `-`
    /// (`Open Source`, `open-source`, `open_source` → `open-source`). Tags with one key are one
    /// tag, as Hugo's `urlize` makes them one term page.
    static func key(_ tag: String) -> String {
        var out = ""
        var pending = false
        for c in tag.lowercased() {
            if c == " " || c == "-" || c == "_" || c.isWhitespace {
                pending = true
                continue
            }
            if pending, !out.isEmpty { out.append("-") }
            pending = false
            out.append(c)
        }
        return out
    }

    /// The spellings of one tag (one ``key(_:)``) in a feed: their items (newest first, each
    /// once) and, per spelling, its count of items and where it is written in the item with the
    /// first source path (byte order).
    struct Variants {
        var items: [Item] = []
        var spellings: [String: (count: Int, first: SourceLocation)] = [:]

        /// The spelling shown: the one most items carry; ties: the one written in the first
        /// source path (byte order).
        var name: String {
            spellings.min { a, b in
                if a.value.count != b.value.count { return a.value.count > b.value.count }
                let c = ItemOrdering.byteOrder(a.value.first.path, b.value.first.path)
                if c != 0 { return c < 0 }
                return ItemOrdering.byteOrder(a.key, b.key) < 0
            }!.key
        }
    }

    /// The tags of `items` (newest first), spellings with one ``key(_:)`` merged, by key.
    static func merged(_ items: [Item]) -> [String: Variants] {
        var tagged: [String: Variants] = [:]
        for item in items {
            var written = Set<String>()
            // An item writing one spelling twice counts once.
            for tag in item.tags where written.insert(tag).inserted {
                let k = key(tag)
                var v = tagged[k] ?? Variants()
                if v.items.last?.id != item.id { v.items.append(item) }
                var first = location(of: tag, in: item)
                if let seen = v.spellings[tag]?.first, ItemOrdering.byteOrder(seen.path, first.path) <= 0 { first = seen }
                v.spellings[tag] = ((v.spellings[tag]?.count ?? 0) + 1, first)
                tagged[k] = v
            }
        }
        return tagged
    }

    /// The tag pages of `feed` (feed `feedIndex`, its sections' view `settings`): one per tag of
    /// the items of its sections that draw from no other (each item once). Spellings that differ
    /// only in case or in spaces, `-` and `_` (`Android` / `android`, `open source` / `open-source`)
    /// are one tag (``key(_:)``): one page holding the items of each, shown under the most used
    /// spelling. Two tags that still give one folder (`C#` and `C`) are an error at each, naming
    /// the other.
    static func pages(
        feed: PreparedFeed, feedIndex: Int, settings: [SectionViewSettings], diagnostics: inout Diagnostics
    ) -> [Tag] {
        var seen = Set<String>()
        var items: [Item] = []
        for (s, section) in feed.sections.enumerated() where !settings[s].draws {
            for item in section.section.items where !item.tags.isEmpty && seen.insert(item.id).inserted { items.append(item) }
        }
        guard !items.isEmpty else { return [] }
        items = ItemOrdering.sorted(items, by: .date)
        var tagged: [String: (items: [Item], location: SourceLocation)] = [:]
        for variants in merged(items).values {
            let name = variants.name
            tagged[name] = (variants.items, variants.spellings[name]!.first)
        }
        let order = Array(tagged.keys)
        // The layout of every tag page of the feed: its chips section's `pageLayout`, else a grid.
        var layoutNode = YAMLNode(.scalar("grid", plain: true), line: 1, column: 1)
        var layoutPath = feed.feed.sourcePath ?? "content/" + feed.feed.folder
        if let s = settings.indices.first(where: { settings[$0].terms != nil && settings[$0].pageLayout != nil }) {
            layoutNode = settings[s].pageLayout!
            layoutPath = SectionViews.sourcePath(feed.sections[s].section, feedFolder: feed.feed.folder)
        }
        let pageSize = settings.first { $0.terms != nil }?.pageSize ?? settings.first?.sitePageSize ?? Int.max
        var decoder = LayoutDecoder(path: layoutPath)
        let (layout, preset) = decoder.decode(layoutNode)
        diagnostics.append(contentsOf: decoder.diagnostics)
        var folders: [String: String] = [:]
        var tags: [Tag] = []
        for tag in order.sorted(by: { ItemOrdering.byteOrder($0, $1) < 0 }) {
            let (tagItems, location) = tagged[tag]!
            let segment = segment(tag)
            if let other = folders[segment] {
                let otherLocation = tagged[other]!.location
                diagnostics.error(
                    otherLocation,
                    "the tag '\(other)' would have the page 'tags/\(segment)/index.html', as the tag '\(tag)' (\(location)) does; rename one of them")
                diagnostics.error(
                    location,
                    "the tag '\(tag)' would have the page 'tags/\(segment)/index.html', as the tag '\(other)' (\(otherLocation)) does; rename one of them")
                continue
            }
            folders[segment] = tag
            let folder = (feed.feed.path.isEmpty ? "" : feed.feed.path + "/") + "tags/" + segment
            // Long tags are paginated like a section's own pages (`paginate` of the chips section).
            let runs = SectionPages.chunks(tagItems, size: pageSize)
            let pages = runs.enumerated().map { n, run in
                let own = OwnPage(
                    kind: .tag(tag), origin: feedIndex, folder: folder, number: n + 1, count: runs.count, total: tagItems.count,
                    source: location)
                // One section id for every tag page of the feed: they share one key and its CSS rules.
                var section = PreparedSection(
                    section: Section(id: "tagged", title: "\(tagItems.count) items", items: run), layout: layout, preset: preset)
                section.section.lang = feed.feed.lang
                return SectionPages.page(own, title: tag, intro: "", lang: feed.feed.lang, section: section, feed: feed)
            }
            tags.append(Tag(name: tag, count: tagItems.count, pages: pages, location: location))
        }
        return tags
    }

    /// Whether `item` is a tag chip of a `terms: tags` section (not an item of the content: it
    /// is in no feed's entries).
    public static func isChip(_ item: Item) -> Bool { item.id.hasPrefix("tag:") }
}
