/// What a card and a detail page are rendered from, as plain values (``CardInputs``,
/// ``DetailPageInputs``), and the protocol of a store of rendered cards (``CardFragmentStore``):
/// a memo of earlier builds keys its entries by these inputs; Emit computes no key.
import FeedgenContent
import FeedgenResolve

/// Everything a card's template is given and how its fragment is made
/// (``TemplateContext/item(_:feed:page:image:eager:priority:detail:config:)``, the card type,
/// the height estimate), besides what all cards share (the templates, the configuration). Its
/// place in the section (index, set size, ids, deferral) is not in the fragment: the section's
/// HTML wraps it.
public struct CardInputs: Sendable {
    public var item: Item
    /// The feed page the card is on.
    public var page: String
    /// The item's detail page.
    public var detailPath: String
    /// The feed's language (the language of the card's date, unless the item has one).
    public var feedLang: String?
    /// The item's image, and its variants and sizes (stage 4's, ``ImageVariantTable``).
    public var image: ImageAsset?
    public var variants: ResponsiveImage?
    /// Whether the image loads eagerly, and with high priority.
    public var eager: Bool
    public var priority: Bool
    /// The card type it is drawn with.
    public var type: String
    /// The section's preset when the fragment holds a height estimate; nil: it holds none.
    public var estimatePreset: String?
}

/// Everything a detail page's template is given (``SiteRenderer/detailContext(_:feed:)``)
/// besides the site configuration and the templates: the page's path, its item, its feed's
/// title, path and language, its image, and the variants of its image and of its body's
/// images. Equal inputs (with equal templates, configuration and
/// pages its content links lead to) render equal pages.
public struct DetailPageInputs: Sendable {
    public var path: String
    public var item: Item
    public var feedTitle: String
    public var feedPath: String
    public var feedLang: String?
    public var image: ImageAsset?
    public var variants: ResponsiveImage?
    /// The variants of the body's images, by the content link's target.
    public var bodyImages: [String: ResponsiveImage]
}

/// Rendered cards kept across builds (the incremental build's card cache implements it): a card
/// whose inputs have a key found in the store is not rendered. Lookups and stores come from
/// several threads.
public protocol CardFragmentStore: AnyObject, Sendable {
    /// The key of a card with these inputs: equal keys, equal fragments.
    func key(of card: CardInputs) -> UInt64
    /// The fragment stored under `key` by this or an earlier build, if any.
    func fragment(_ key: UInt64) -> CardFragment?
    /// Keeps `fragment` under `key` (for the next build).
    func store(_ key: UInt64, _ fragment: CardFragment)
}

extension SiteRenderer {
    /// The inputs of a detail page (nil for feed pages: they hold every card and are always
    /// rendered).
    public func detailInputs(of page: Page) -> DetailPageInputs? {
        guard case .detail(let f, let s, let i) = page else { return nil }
        // The feed read in place (a copy of it per page retained all its parts).
        let item = site.feeds[f].sections[s].pageItems[i]
        let image = site.images.isEmpty ? nil : site.image(feed: site.feeds[f], item: item)
        return DetailPageInputs(
            path: path(of: page), item: item, feedTitle: site.feeds[f].feed.title, feedPath: site.feeds[f].feed.path,
            feedLang: site.feeds[f].feed.lang, image: image, variants: image == nil ? nil : images.card(feed: site.feeds[f], item: item),
            bodyImages: images.bodies.isEmpty ? [:] : bodyImages(of: item))
    }
}

/// Everything a feed page's bytes depend on besides the templates, the site configuration, the
/// site's feeds (``SiteRenderer/feedOutline()``) and where content links lead: the page as
/// prepared (its sections' settings, layouts, links and own-page place), its items by their
/// cards' keys (each card's inputs, ``CardFragmentStore/key(of:)``: its fragment and height
/// estimate; its detail page's path, so its id), the ids of items drawn from other sections, its intro as shown, and whether long sections defer cards. Equal inputs
/// (with equal templates, configuration, feeds and link table) render equal pages with equal
/// ``FeedPageMap``s.
public struct FeedPageInputs: Sendable {
    public var path: String
    /// The page's ``PreparedFeed`` without its sections' items (``cardKeys`` stand for them), the
    /// items of detail pages only (no card on this page) and the ids drawn from other sections
    /// (``drawnIDs``).
    public var feed: PreparedFeed
    /// Per section, ``PreparedSection/drawnIDs``, sorted (its cells' ids follow from them and its
    /// items' ids).
    public var drawnIDs: [[String]]
    /// Per section, its cards' keys, in item order.
    public var cardKeys: [[UInt64]]
    /// The feed's intro as the page shows it (its body images' variants,
    /// ``SiteRenderer/responsiveBody(_:page:)``).
    public var introHTML: String
    /// ``SiteRenderer/contentVisibility``.
    public var contentVisibility: Bool
}

/// What a feed page shows of another feed (its subfeeds' and parent's links): its path, title,
/// page, and whether it is a feed folder's page (not a section's or tag's own page).
public struct FeedOutline: Sendable {
    public var path: String
    public var title: String
    public var page: String
    public var isFolder: Bool
}

extension SiteRenderer {
    /// The inputs of feed page `f`; nil without a card store (its cards have no keys).
    public func feedInputs(of f: Int) -> FeedPageInputs? {
        guard cardStore != nil else { return nil }
        let feed = site.feeds[f]
        // As ``feedContext(_:groups:cardKeys:)`` renders the cards.
        let estimated = contentVisibility && DeferredCards.defersAny(feed)
        var keys: [[UInt64]] = []
        for (s, before) in zip(feed.sections, imagesBefore(feed)) {
            guard let list = cardKeys(s, feed: feed, page: feed.pagePath, imagesBefore: before, estimated: estimated) else { return nil }
            keys.append(list)
        }
        var stripped = feed
        for s in stripped.sections.indices {
            stripped.sections[s].section.items = []
            stripped.sections[s].detailItems = nil
            stripped.sections[s].drawnIDs = []
        }
        for s in stripped.feed.sections.indices { stripped.feed.sections[s].items = [] }
        return FeedPageInputs(
            path: feed.pagePath, feed: stripped, drawnIDs: feed.sections.map { $0.drawnIDs.sorted() }, cardKeys: keys,
            introHTML: responsiveBody(feed.feed.introHTML, page: feed.pagePath), contentVisibility: contentVisibility)
    }

    /// Every feed of the site as feed pages show other feeds, in site order.
    public func feedOutline() -> [FeedOutline] {
        site.feeds.map { FeedOutline(path: $0.feed.path, title: $0.feed.title, page: $0.pagePath, isFolder: $0.ownPage == nil) }
    }
}
