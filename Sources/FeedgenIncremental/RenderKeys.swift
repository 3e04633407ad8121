/// `RenderKeys`: the build cache's keys of rendered output (the pipeline's ``RenderMemo``), made
/// from Emit's plain inputs: a detail or feed page's key in the back buffer's manifest and a card's key
/// in `cards.log` (through ``KeyedCards``, the card store Emit is given).
import FeedgenBuild
import FeedgenContent
import FeedgenEmit
import FeedgenResolve
import FeedgenStorage

/// The keys of one build's rendered output: seeded with ``salt`` (everything global that pages
/// and cards depend on), with the items' fingerprints that loading them gave.
package struct RenderKeys: RenderMemo {
    /// ``pageSalt(templates:config:liveReload:)`` of the build.
    package let salt: UInt64
    /// The fingerprints of the items the build loaded; nil: each is computed.
    package let fingerprints: ItemFingerprints?

    package init(salt: UInt64, fingerprints: ItemFingerprints?) { (self.salt, self.fingerprints) = (salt, fingerprints) }

    /// Everything global that a detail page's or card's bytes depend on besides its inputs: the
    /// templates, the site configuration, live reload, the feedgen binary (``BuildCache/salt``).
    package static func pageSalt(templates: TemplateSet, config: SiteConfig, liveReload: Bool) -> UInt64 {
        var global = StableHasher(seed: BuildCache.salt)
        for (name, source) in templates.sources.sorted(by: { $0.key < $1.key }) {
            global.combine(name)
            global.combine(source)
        }
        global.combine(liveReload)
        global.combine(ItemCache.fingerprint(config.source))
        global.combine(config.title)
        global.combine(config.language)
        global.combine(config.baseURL)
        return global.value
    }

    private func fingerprint(_ item: Item) -> UInt64 { fingerprints?.fingerprint(item) ?? ItemCache.fingerprint(item) }

    /// The key of a detail page in the back buffer's manifest: its inputs, seeded with ``salt``,
    /// and the pages its content links lead to (`linkPages`: ``ContentLinks/pages`` of each, in order).
    public func detailKey(_ page: DetailPageInputs, linkPages: [String?]) -> UInt64 {
        var inputs = StableHasher()
        inputs.combine(page.path)
        inputs.combine(fingerprint(page.item))
        inputs.combine(page.feedTitle)
        inputs.combine(page.feedPath)
        inputs.combine(page.feedLang)
        Self.combine(page.image, variants: page.variants, into: &inputs)
        for (target, image) in page.bodyImages.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            inputs.combine(target)
            Self.combine(image, into: &inputs)
        }
        var h = StableHasher(seed: salt)
        h.combine(inputs.value)
        for (k, link) in page.item.markdownLinks.enumerated() {
            h.combine(link.target)
            h.combine(k < linkPages.count ? linkPages[k] : nil)
        }
        return h.value
    }

    /// The key of a card fragment: every input of the card, seeded with ``salt``.
    package func cardKey(_ card: CardInputs) -> UInt64 {
        var h = StableHasher(seed: salt)
        h.combine("card")
        h.combine(card.page)
        h.combine(card.detailPath)
        h.combine(fingerprint(card.item))
        h.combine(card.feedLang ?? "")
        Self.combine(card.image, variants: card.variants, into: &h)
        h.combine(card.eager)
        h.combine(card.priority)
        h.combine(card.type)
        h.combine(card.estimatePreset != nil)
        if let preset = card.estimatePreset { h.combine(preset) }
        return h.value
    }

    /// What every feed page's key holds of the site: each feed's path, title and page and
    /// whether it is a folder's, in order, and the whole table of where content links lead (a
    /// sum of its entries' hashes: the table's order is not stable).
    public func feedSiteKey(outline: [FeedOutline], links: ContentLinks) -> UInt64 {
        var h = StableHasher(seed: salt)
        h.combine("feed pages")
        h.combine(outline.count)
        for feed in outline {
            h.combine(feed.path)
            h.combine(feed.title)
            h.combine(feed.page)
            h.combine(feed.isFolder)
        }
        h.combine(links.isEmpty)
        // Each entry's digest (its target's byte count, its target and its page) from one
        // reused buffer: a table of 20,000 entries.
        var sum: UInt64 = 0
        var entry: [UInt8] = []
        entry.reserveCapacity(512)
        for (target, page) in links.pages {
            entry.removeAll(keepingCapacity: true)
            withUnsafeBytes(of: UInt64(target.utf8.count).littleEndian) { entry.append(contentsOf: $0) }
            entry.append(contentsOf: target.utf8)
            entry.append(contentsOf: page.utf8)
            sum &+= entry.withUnsafeBytes { StableHasher.digest($0) }
        }
        h.combine(links.pages.count)
        h.combine(sum)
        return h.value
    }

    /// Adds everything of `image` and its `variants` a page shows to `h`.
    static func combine(_ image: ImageAsset?, variants: ResponsiveImage?, into h: inout StableHasher) {
        guard let image else {
            h.combine(false)
            return
        }
        h.combine(true)
        h.combine(image.source)
        h.combine(image.outputPath)
        h.combine(image.width ?? -1)
        h.combine(image.height ?? -1)
        h.combine(image.alt)
        combine(variants, into: &h)
    }

    /// Adds `image`'s variants and sizes to `h` (nothing for nil: as no variants).
    static func combine(_ image: ResponsiveImage?, into h: inout StableHasher) {
        for variant in image?.variants ?? [] {
            h.combine(variant.width)
            h.combine(variant.mimeType)
            h.combine(variant.outputPath)
        }
        h.combine(image?.cardSizes)
        h.combine(image?.cardCovers ?? false)
        h.combine(image?.detailSizes)
    }
}

extension RenderKeys {
    public func cardStore(_ cards: any CardMemo) -> any CardFragmentStore { KeyedCards(cache: cards, keys: self) }
}

/// The card store a build gives the renderer: the build cache's cards (``CardCache``), with the
/// keys of ``RenderKeys``.
final class KeyedCards: CardFragmentStore {
    let cache: any CardMemo
    let keys: RenderKeys

    init(cache: any CardMemo, keys: RenderKeys) { (self.cache, self.keys) = (cache, keys) }

    func key(of card: CardInputs) -> UInt64 { keys.cardKey(card) }
    func fragment(_ key: UInt64) -> CardFragment? { cache.fragment(key) }
    func store(_ key: UInt64, _ fragment: CardFragment) { cache.store(key, fragment) }
}
