/// `SectionPages`: a section's own pages (`seeAll`, `paginate`): all its items, `paginate` to a
/// page, at `<feed>/<section>/index.html`, `<feed>/<section>/page/2/index.html`, …, each a feed
/// page of one section in the section's `pageLayout`, with a link back to its feed.
import FeedgenContent
import FeedgenDiagnostics
import FeedgenLayout

/// What makes a page beyond the feed folders (a section's own page, a tag page) differ from a
/// feed page: where it is written, which feed's detail pages its cards lead to, and its place
/// among the pages of its section.
public struct OwnPage: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// A section's own page (the section's id).
        case section(String)
        /// The page of a tag (the tag as written).
        case tag(String)
    }

    public var kind: Kind
    /// The index in `PreparedSite.feeds` of the feed whose items it shows (and whose detail
    /// pages its cards lead to), and the page its breadcrumb leads back to.
    public var origin: Int
    /// The folder of its first page (`recipes/recipes`, `tags/soup`).
    public var folder: String
    /// 1-based page number, and how many pages the section has.
    public var number: Int
    public var count: Int
    /// How many items the section's pages hold together.
    public var total: Int
    /// Where its problems (collisions) are reported: the `_section.md`, or the tag's first use.
    public var source: SourceLocation

    /// The `data-feed` value: one for all pages of a section (`/recipes/recipes`), one for all
    /// tag pages of a feed (`/recipes/tags`), so that they share their layout CSS.
    public var key: String {
        guard case .tag = kind, let slash = folder.lastIndex(of: "/") else { return "/" + folder }
        return "/" + folder[..<slash]
    }
    /// This page's output path.
    public var pagePath: String { path(ofPage: number) }
    /// The output path of page `n` (1-based) of the same section.
    public func path(ofPage n: Int) -> String { n == 1 ? folder + "/index.html" : folder + "/page/\(n)/index.html" }
}

/// A section header's link to the section's own page (`seeAll`).
public struct SeeAllLink: Sendable, Hashable {
    /// Relative to the feed page the section is on.
    public var url: String
    /// The own page's output path.
    public var path: String
    /// The link's text, the `seeAll` value; nil for `seeAll: true` (and a section paginated by
    /// default): the page's `strings.seeAll` ("See all", "すべて表示").
    public var label: String?
}

enum SectionPages {
    /// The own pages of `section` of `feed` (feed `feedIndex`), holding `items` in order,
    /// ``SectionViewSettings/pageSize`` to a page; at least one page, headed by the section's
    /// title (else its feed's). `pageLayout` is decoded here (its problems at `path`); without one, a section
    /// that scrolls sideways is a `grid` on its pages and any other keeps its layout.
    static func pages(
        of section: PreparedSection, items: [Item], settings: SectionViewSettings, feed: PreparedFeed, feedIndex: Int,
        path: String, diagnostics: inout Diagnostics
    ) -> [PreparedFeed] {
        var layout = (section.layout, section.preset)
        let scrolls = ([section.layout.base] + section.layout.rules.map(\.section)).contains {
            $0.orthogonalScrollingBehavior.isOrthogonal
        }
        if settings.pageLayout != nil || scrolls {
            var decoder = LayoutDecoder(path: path)
            layout = decoder.decode(settings.pageLayout ?? YAMLNode(.scalar("grid", plain: true), line: 1, column: 1))
            diagnostics.append(contentsOf: decoder.diagnostics)
        }
        let folder = (feed.feed.path.isEmpty ? "" : feed.feed.path + "/") + ItemName.pathSegment(section.section.id)
        // Collisions of its pages are reported at the key that gives it them, if written.
        let key = ["paginate", "seeAll"].lazy.compactMap { section.section.frontMatter?[$0] }.first
        let file = section.section.sourcePath != nil  // else `path` is the section's folder
        let source = SourceLocation(path: path, line: key?.line ?? (file ? 1 : 0), column: key?.column ?? (file ? 1 : 0))
        let runs = chunks(items, size: settings.pageSize)
        return runs.enumerated().map { n, run in
            var shown = section
            shown.section.items = run
            // The page's `h1` is the section's title; the section's own header (so the model has
            // it too) is the item count, rendered from its partial by ``SiteRenderer``.
            shown.section.title = "\(items.count) items"
            shown.section.headerHTML = ""
            (shown.layout, shown.preset) = layout
            let own = OwnPage(
                kind: .section(section.section.id), origin: feedIndex, folder: folder, number: n + 1, count: runs.count,
                total: items.count, source: source)
            return page(
                own, title: section.section.title ?? feed.feed.title, intro: section.section.headerHTML,
                lang: section.section.lang ?? feed.feed.lang, section: shown, feed: feed)
        }
    }

    /// `items` cut into runs of `size` (one empty run when there are none).
    static func chunks(_ items: [Item], size: Int) -> [[Item]] {
        guard !items.isEmpty else { return [[]] }
        let size = min(size, items.count)  // `Int.max` (not paginated): one run
        return stride(from: 0, to: items.count, by: size).map { Array(items[$0..<min(items.count, $0 + size)]) }
    }

    /// A page of one section beyond `feed`'s folder: its items' detail pages stay `feed`'s.
    static func page(
        _ own: OwnPage, title: String, intro: String, lang: String?, section: PreparedSection, feed: PreparedFeed
    ) -> PreparedFeed {
        var shown = section
        shown.detailItems = []  // their pages are written by the sections they belong to
        shown.drawnIDs = []
        shown.seeAll = nil
        let page = Feed(
            path: feed.feed.path, folder: feed.feed.folder, sourcePath: feed.feed.sourcePath, title: title,
            lang: lang, introHTML: intro, sections: [shown.section])
        var prepared = PreparedFeed(feed: page, sections: [shown])
        prepared.ownPage = own
        return prepared
    }
}
