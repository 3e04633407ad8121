import FeedgenContent
import FeedgenLayout

/// A section with its decoded layout.
public struct PreparedSection: Sendable {
    public var section: Section
    public var layout: AdaptiveSection
    /// The preset the layout started from (shown as a CSS class, `cl-preset-grid`).
    public var preset: LayoutPreset
    /// The items whose detail pages this section writes, when they differ from the items it
    /// shows (``SectionViews``: a view shows items of other sections, a `limit` shows fewer);
    /// nil: the shown items.
    public var detailItems: [Item]?
    /// The ids of the shown items drawn from other sections of the feed (``SectionViews``):
    /// their cells' `data-item-id` is `<section id>:<item id>` (``cellIDs``).
    public var drawnIDs: Set<String> = []
    /// The header's link to the section's own page (``SectionViews``), if any.
    public var seeAll: SeeAllLink?

    public init(section: Section, layout: AdaptiveSection, preset: LayoutPreset) {
        self.section = section
        self.layout = layout
        self.preset = preset
    }

    /// The items whose detail pages the section writes (``detailItems``, else the shown ones).
    public var pageItems: [Item] { detailItems ?? section.items }

    /// Each cell's `data-item-id`: the item's id, or `<section id>:<item id>` for an item drawn
    /// from another section (so that one item shown twice on a page has two distinct ids; `:` is
    /// in no item id).
    public var cellIDs: [String] {
        drawnIDs.isEmpty ? section.items.map(\.id) : section.items.map { drawnIDs.contains($0.id) ? section.id + ":" + $0.id : $0.id }
    }

    /// The solver's input for this section. The header is the section's title (content-format
    /// §4), sized by `layout.header`; the footer exists when a rule of the layout sets `footer`
    /// (it shows the item count; docs/layout.md).
    public var input: SectionInput {
        SectionInput(
            id: section.id, layout: layout, itemIDs: cellIDs, hasHeader: section.title != nil,
            hasFooter: ([layout.base] + layout.rules.map(\.section)).contains { $0.footer != nil })
    }
}

/// A feed page ready to emit.
public struct PreparedFeed: Sendable {
    public var feed: Feed
    public var sections: [PreparedSection]
    /// Set when this page is not a feed folder's but a section's own page or a tag page
    /// (``SectionViews``): its items' detail pages are those of the feed `feed` names.
    public var ownPage: OwnPage?

    public init(feed: Feed, sections: [PreparedSection]) {
        self.feed = feed
        self.sections = sections
    }

    /// `/` for the home feed, `/recipes` for `content/recipes/`: the `data-feed` value.
    public var key: String { ownPage?.key ?? "/" + feed.path }

    /// The feed page's output path (`index.html`, `recipes/index.html`).
    public var pagePath: String { ownPage?.pagePath ?? (feed.path.isEmpty ? "index.html" : feed.path + "/index.html") }

    /// Whether the page has Atom and JSON feeds (with a `baseURL`): every feed page and the first
    /// page of a tag (its newest items, a page's worth; a section's own pages show items that its
    /// feed's feeds hold).
    public var isSyndicated: Bool {
        guard let own = ownPage else { return true }
        if case .tag = own.kind { return own.number == 1 }
        return false
    }

    /// The folder of the page's Atom and JSON feeds (`""`, `recipes`, `tags/soup`).
    public var syndicationFolder: String { ownPage?.folder ?? feed.path }

    /// An item's detail page, relative to the output folder (content-format §8).
    public func detailPath(_ item: Item) -> String { Self.detailPath(folder: feed.path, id: item.id) }

    /// ``detailPath(_:)`` of the item `id` in the feed whose folder is `folder` (`feed.path`).
    public static func detailPath(folder: String, id: String) -> String {
        folder.isEmpty ? id + ".html" : folder + "/" + id + ".html"
    }
}

/// Everything the emitter needs; built by FeedgenBuild after loading and validation.
public struct PreparedSite: Sendable {
    public var site: Site
    public var feeds: [PreparedFeed]
    /// Item images by feed key and item id (`"/recipes" + "\u{0}" + id`).
    public var images: [String: ImageAsset]
    /// The output page of each content file (and feed folder, `content/posts/`) that links may
    /// name, by site-relative path: what `feedgen-md:` markers in item HTML lead to in feeds.
    public var contentPages: [String: String] = [:]
    /// Files beside items that body links and images name, copied: output path → absolute
    /// source (``BodyPaths``).
    public var bodyFiles: [String: String] = [:]
    /// Files whose appearance would change where a body path leads (absolute paths, sorted).
    public var bodyAbsent: [String] = []

    public init(site: Site, feeds: [PreparedFeed], images: [String: ImageAsset]) {
        self.site = site
        self.feeds = feeds
        self.images = images
    }

    public static func imageKey(feed: PreparedFeed, item: Item) -> String { feed.key + "\u{0}" + item.id }

    /// The image `item` shows in `feed`, if any (no key is made when the site has no images).
    public func image(feed: PreparedFeed, item: Item) -> ImageAsset? {
        images.isEmpty ? nil : images[Self.imageKey(feed: feed, item: item)]
    }
}
