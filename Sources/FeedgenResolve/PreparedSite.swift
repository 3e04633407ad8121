import FeedgenContent
import FeedgenLayout

/// A section with its decoded layout.
public struct PreparedSection: Sendable {
    public var section: Section
    public var layout: AdaptiveSection
    /// The preset the layout started from (shown as a CSS class, `cl-preset-grid`).
    public var preset: LayoutPreset

    public init(section: Section, layout: AdaptiveSection, preset: LayoutPreset) {
        self.section = section
        self.layout = layout
        self.preset = preset
    }

    /// The solver's input for this section. The header is the section's title (content-format
    /// §4), sized by `layout.header`; the footer exists when a rule of the layout sets `footer`
    /// (it shows the item count; docs/layout.md).
    public var input: SectionInput {
        SectionInput(
            id: section.id, layout: layout, itemIDs: section.items.map(\.id), hasHeader: section.title != nil,
            hasFooter: ([layout.base] + layout.rules.map(\.section)).contains { $0.footer != nil })
    }
}

/// A feed page ready to emit.
public struct PreparedFeed: Sendable {
    public var feed: Feed
    public var sections: [PreparedSection]

    public init(feed: Feed, sections: [PreparedSection]) {
        self.feed = feed
        self.sections = sections
    }

    /// `/` for the home feed, `/recipes` for `content/recipes/`: the `data-feed` value.
    public var key: String { "/" + feed.path }

    /// The feed page's output path (`index.html`, `recipes/index.html`).
    public var pagePath: String { feed.path.isEmpty ? "index.html" : feed.path + "/index.html" }

    /// An item's detail page, relative to the output folder (content-format §8).
    public func detailPath(_ item: Item) -> String {
        feed.path.isEmpty ? item.id + ".html" : feed.path + "/" + item.id + ".html"
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
