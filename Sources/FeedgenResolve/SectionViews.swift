/// `SectionViews`: the `_section.md` keys that make a section a view over the feed's content
/// (`sections`, `where`, `limit`, `seeAll`, `pageLayout`, `paginate`, `terms`; content-format
/// §4.1), read with positioned errors, and the step of stage 3 that applies them to the feeds.
import FeedgenContent
import FeedgenDiagnostics
import FeedgenStorage

/// What a section's view keys say (all absent for an ordinary section).
struct SectionViewSettings: Sendable {
    /// `sections`: the source sections' folder names with their nodes; nil when not given.
    var sources: [(name: String, node: YAMLNode)]?
    /// `sections: feed`: every section of the feed that is not a view itself.
    var wholeFeed = false
    /// `where`: each key with its nodes; an item must match all of them.
    var filter: [(key: String, keyNode: YAMLNode, value: YAMLNode)] = []
    /// Whether `sort` was written (a view keeps the sources' order otherwise).
    var sorted = false
    var limit: Int?
    /// `seeAll`: the link's text; `true` gives "", the page's `strings.seeAll`.
    var seeAll: String?
    /// `pageLayout`: the layout on the section's own pages.
    var pageLayout: YAMLNode?
    /// `paginate`: items per own page.
    var paginate: Int?
    /// `paginate: false`: no own pages unless `seeAll` asks for them, then one holding every item.
    var paginateOff = false
    /// The site's page size (`paginate` in feedgen.yaml; nil: `paginate: false` there).
    var sitePageSize: Int? = SiteConfig.defaultPageSize
    /// `terms: tags`: one chip per tag of the feed, each leading to its tag page.
    var terms: YAMLNode?

    /// The items on each of the section's own pages: `paginate`, else the site's page size; every
    /// item on one page when pagination is off.
    var pageSize: Int { paginate ?? (paginateOff ? Int.max : sitePageSize ?? Int.max) }

    /// Whether a section of `count` items, with none of `paginate`, `seeAll`, `limit` and `terms`
    /// written, is paginated by default: it holds more than the site's page size, and neither it
    /// nor the site says `paginate: false` (content-format §4.1).
    func paginatesByDefault(count: Int) -> Bool {
        guard paginate == nil, !paginateOff, seeAll == nil, limit == nil, terms == nil, let size = sitePageSize else { return false }
        return count > size
    }

    /// Whether the section draws items or changes what its feed page shows.
    var isView: Bool { sources != nil || wholeFeed || !filter.isEmpty || limit != nil || hasOwnPage || terms != nil }
    /// Whether the section has pages of its own (`seeAll` or `paginate`).
    var hasOwnPage: Bool { seeAll != nil || paginate != nil }
    /// Whether it draws from other sections.
    var draws: Bool { sources != nil || wholeFeed }

    /// Reads the keys of `section`'s front matter; problems go into `diagnostics` at their values.
    static func decode(_ section: Section, path: String, diagnostics: inout Diagnostics) -> SectionViewSettings {
        var settings = SectionViewSettings()
        guard let fields = section.frontMatter, fields.pairs != nil else { return settings }
        func at(_ node: YAMLNode) -> SourceLocation { SourceLocation(path: path, line: node.line, column: node.column) }
        func positive(_ key: String) -> Int? {
            guard let node = fields[key], !node.isNull else { return nil }
            guard let value = node.int, value >= 1 else {
                diagnostics.error(at(node), "'\(key)' must be a whole number of at least 1, found '\(node.string ?? node.kindDescription)'")
                return nil
            }
            return value
        }
        if let node = fields["sections"], !node.isNull {
            if node.string == "feed" {
                settings.wholeFeed = true
            } else if let elements = node.elements, elements.allSatisfy({ $0.string != nil }) {
                settings.sources = elements.map { ($0.string!, $0) }
            } else if let name = node.string {
                settings.sources = [(name, node)]
            } else {
                diagnostics.error(at(node), "'sections' must be a list of section folder names of this feed, or 'feed' for all of them")
            }
        }
        if let node = fields["where"], !node.isNull {
            if let pairs = node.pairs {
                for pair in pairs {
                    guard let key = pair.key.string else { continue }
                    if pair.value.string == nil, key != "tags" || pair.value.elements == nil {
                        diagnostics.error(at(pair.value), "the value of '\(key)' in 'where' must be a single value (for 'tags', also a list: any of them)")
                        continue
                    }
                    settings.filter.append((key, pair.key, pair.value))
                }
            } else {
                diagnostics.error(at(node), "'where' must be a mapping of item keys to values, e.g. 'where: {tags: soup}'")
            }
        }
        settings.sorted = fields["sort"].map { !$0.isNull } ?? false
        settings.limit = positive("limit")
        if let node = fields["paginate"], node.bool == false {
            settings.paginateOff = true
        } else if let node = fields["paginate"], !node.isNull, (node.int ?? 0) < 1 {
            diagnostics.error(at(node), "'paginate' must be a whole number of at least 1, or false, found '\(node.string ?? node.kindDescription)'")
        } else {
            settings.paginate = positive("paginate")
        }
        if let node = fields["seeAll"], !node.isNull {
            if let flag = node.bool {
                settings.seeAll = flag ? "" : nil
            } else if let text = node.string, !text.isEmpty {
                settings.seeAll = text
            } else {
                diagnostics.error(at(node), "'seeAll' must be true, false or the link's text")
            }
        }
        if let node = fields["pageLayout"], !node.isNull { settings.pageLayout = node }
        if let node = fields["terms"], !node.isNull {
            if node.string == "tags" {
                settings.terms = node
            } else {
                diagnostics.error(at(node), "unknown 'terms' '\(node.string ?? node.kindDescription)'; expected 'tags'")
            }
        }
        return settings
    }
}

public enum SectionViews {
    /// Whether `site` needs this step: a section with view keys (`pageLayout` too, which is
    /// warned about when the section has no own pages), an item with `tags` (every tag gets a
    /// page), an unlisted item (``FeedgenContent/Item/isListed``), or a feed's pages
    /// (``FeedgenContent/Section/isPages``).
    public static func needed(_ site: Site) -> Bool {
        for feed in site.feeds {
            for section in feed.sections {
                if section.isPages { return true }
                // A long section is paginated by default (or a view of the feed's sections is).
                if let size = site.config.pageSize, section.items.count > size { return true }
                if let fields = section.frontMatter?.pairs,
                    fields.contains(where: { ["sections", "where", "limit", "seeAll", "paginate", "terms", "pageLayout"].contains($0.key.string ?? "") })
                {
                    return true
                }
                if section.items.contains(where: { !$0.tags.isEmpty || !$0.isListed }) { return true }
            }
        }
        return false
    }

    /// Whether `site` has views, limited sections or pages beyond its feeds and items: an item may
    /// then show on several pages, or on none of its feed's, and its detail page is written from
    /// its section's ``PreparedSection/pageItems`` (the patch build records every place).
    public static func showsItemsElsewhere(_ site: PreparedSite) -> Bool {
        site.feeds.contains { feed in
            feed.ownPage != nil || feed.sections.contains { $0.detailItems != nil || !$0.drawnIDs.isEmpty || $0.seeAll != nil }
        }
    }

    /// Whether any of `items` is unlisted (``FeedgenContent/Item/isListed``): a long section's
    /// items are looked at on every core (each one's front matter is searched for `build`, on
    /// the build's serial path).
    static func holdsUnlisted(_ items: [Item]) -> Bool {
        let chunk = 2048
        guard items.count > chunk else { return items.contains { !$0.isListed } }
        return parallelMap((items.count + chunk - 1) / chunk) { c in
            items[c * chunk..<min(items.count, (c + 1) * chunk)].contains { !$0.isListed }
        }.contains(true)
    }

    /// Applies every section's view keys to `feeds` (stage 3, after links are rewritten): each
    /// view's items drawn, filtered, sorted and limited; each section's own pages and each tag's
    /// page appended as pages (``PreparedFeed/ownPage``), their images registered under their
    /// keys. Problems go into `diagnostics`.
    public static func apply(
        _ feeds: inout [PreparedFeed], images: inout [String: ImageAsset], site: Site, diagnostics: inout Diagnostics
    ) {
        var pages: [PreparedFeed] = []
        for f in feeds.indices {
            let feedPath = feeds[f].feed.folder
            // Unlisted items (`build: {list: never}`) and the feed's pages are no card anywhere;
            // their pages are written.
            for s in feeds[f].sections.indices
            where feeds[f].sections[s].section.isPages || Self.holdsUnlisted(feeds[f].sections[s].section.items) {
                feeds[f].sections[s].detailItems = feeds[f].sections[s].pageItems
                let pages = feeds[f].sections[s].section.isPages
                feeds[f].sections[s].section.items.removeAll { pages || !$0.isListed }
            }
            var settings: [SectionViewSettings] = []
            for s in feeds[f].sections {
                var decoded = SectionViewSettings.decode(s.section, path: sourcePath(s.section, feedFolder: feedPath), diagnostics: &diagnostics)
                decoded.sitePageSize = site.config.pageSize
                settings.append(decoded)
            }
            let tags = TagPages.pages(feed: feeds[f], feedIndex: f, settings: settings, diagnostics: &diagnostics)
            let entries = SectionEntries.draw(feed: feeds[f], settings: settings, tags: tags, diagnostics: &diagnostics)
            // A long section without `paginate`, `seeAll`, `limit` or `terms`: as with `paginate`
            // at the site's page size.
            for s in settings.indices where settings[s].paginatesByDefault(count: entries[s].items.count) {
                settings[s].paginate = settings[s].sitePageSize
            }
            for s in settings.indices {
                guard let node = settings[s].pageLayout, !settings[s].hasOwnPage, settings[s].terms == nil else { continue }
                let count = entries[s].items.count
                let why = settings[s].limit != nil ? "its 'limit' cuts it short, and without 'seeAll' nothing links to the rest"
                    : settings[s].paginateOff ? "it says 'paginate: false'"
                    : settings[s].sitePageSize.map { "its \(count == 1 ? "1 item fits" : "\(count) items fit") on its feed page, which shows up to \($0)" }
                    ?? "feedgen.yaml says 'paginate: false'"
                diagnostics.warning(
                    SourceLocation(path: sourcePath(feeds[f].sections[s].section, feedFolder: feedPath), line: node.line, column: node.column),
                    "'pageLayout' is ignored: this section has no own pages (\(why)); add 'seeAll: true' or 'paginate: N' to give it some, or remove 'pageLayout'")
            }
            for s in feeds[f].sections.indices where settings[s].isView {
                let own = feeds[f].sections[s]
                let all = entries[s].items
                let shown = settings[s].limit ?? (settings[s].hasOwnPage ? settings[s].pageSize : all.count)
                var section = own
                section.section.items = Array(all.prefix(shown))
                section.drawnIDs = entries[s].drawn.intersection(section.section.items.map(\.id))
                if section.section.items != own.section.items { section.detailItems = own.pageItems }
                // `paginate` alone, with every item on the feed page: no page would be linked to.
                if settings[s].hasOwnPage, settings[s].seeAll != nil || all.count > shown {
                    let made = SectionPages.pages(
                        of: own, items: all, settings: settings[s], feed: feeds[f], feedIndex: f,
                        path: sourcePath(own.section, feedFolder: feedPath), diagnostics: &diagnostics)
                    if let first = made.first, let label = settings[s].seeAll ?? (all.count > shown ? "" : nil) {
                        section.seeAll = SeeAllLink(
                            url: RelativeURL.relative(from: feeds[f].pagePath, to: first.pagePath), path: first.pagePath,
                            label: label.isEmpty ? nil : label)
                        // The link is in the section's header, which a title makes: an untitled
                        // section is headed by its feed's title, as its own pages are.
                        if section.section.title == nil { section.section.title = feeds[f].feed.title }
                    }
                    pages += made
                }
                feeds[f].sections[s] = section
            }
            pages += tags.flatMap(\.pages)
        }
        // The items of a page beyond the feeds show the images of their feed's items (only an
        // item with an `image` has one: ``SiteResolver/prepareFeeds(_:realRoot:diagnostics:)``).
        for page in pages where !images.isEmpty {
            guard let origin = page.ownPage?.origin else { continue }
            let feed = feeds[origin]
            for s in page.sections {
                for item in s.section.items where item.image != nil {
                    if let asset = images[PreparedSite.imageKey(feed: feed, item: item)] {
                        images[PreparedSite.imageKey(feed: page, item: item)] = asset
                    }
                }
            }
        }
        feeds += pages
    }

    /// The site-relative `_section.md` of `section` (its folder when it has none), where its
    /// problems are reported.
    static func sourcePath(_ section: Section, feedFolder: String) -> String {
        section.sourcePath ?? "content/" + (feedFolder.isEmpty ? "" : feedFolder + "/") + section.id
    }
}
