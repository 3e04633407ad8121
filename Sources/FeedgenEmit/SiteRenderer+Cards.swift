/// `SiteRenderer`'s cards: each section's cards rendered (or taken from the card store), and
/// one card's HTML.
import Dispatch
import FeedgenResolve
import FeedgenStorage
import Foundation
import FeedgenContent
import FeedgenDiagnostics
import FeedgenLayout
import FeedgenMustache

extension SiteRenderer {
    /// A section's rendered cards, in item order, and whether any of them holds a link.
    struct RenderedCards {
        /// Each card's HTML: rendered now, or the card cache's bytes.
        var cards: [CardHTML]
        /// Each card's estimate, when the page defers cards (else nil).
        var estimates: [CardHeightEstimate?]
        var focusable: Bool
        /// Per card: whether its image loads eagerly, and with high priority.
        var eager: [Bool] = []
        var priority: [Bool] = []
    }

    /// Sections with at least this many cards render their cards in parallel.
    static let parallelCardThreshold = 512

    /// Each card's image of section `s` and whether it loads eagerly and with high priority: in
    /// order, as they depend on the page order (`imagesBefore`: the page's images before it).
    func placedImages(_ s: PreparedSection, feed: PreparedFeed, imagesBefore: Int) -> [(image: ImageAsset?, eager: Bool, priority: Bool)] {
        var images: [(image: ImageAsset?, eager: Bool, priority: Bool)] = []
        images.reserveCapacity(s.section.items.count)
        var imageIndex = imagesBefore  // this card's image's place among the page's images
        for item in s.section.items {
            let image = site.image(feed: feed, item: item)
            images.append((image, imageIndex < Self.eagerImageCount, image != nil && imageIndex == 0))
            if image != nil { imageIndex += 1 }
        }
        return images
    }

    /// The card type item `item` of section `s` is drawn with: items of a chips section
    /// without a type of their own are drawn as chips.
    static func cardType(_ item: Item, in s: PreparedSection) -> String {
        s.preset == .chips && item.type == "card" ? "chip" : item.type
    }

    /// The inputs of the card of item `i` of section `s` on `page` (its key's: ``CardFragmentStore/key(of:)``).
    func cardInputs(
        _ s: PreparedSection, item i: Int, feed: PreparedFeed, page: String, placed: (image: ImageAsset?, eager: Bool, priority: Bool),
        estimated: Bool
    ) -> CardInputs {
        let item = s.section.items[i]
        let image = placed.image
        return CardInputs(
            item: item, page: page, detailPath: feed.detailPath(item), feedLang: feed.feed.lang, image: image,
            variants: image == nil ? nil : images.card(feed: feed, item: item), eager: placed.eager, priority: placed.priority,
            type: Self.cardType(item, in: s), estimatePreset: estimated ? s.preset.rawValue : nil)
    }

    /// The card store's keys of section `s`'s cards, in item order, as ``renderCards(_:feed:page:imagesBefore:estimated:keys:)``
    /// makes them; nil without a card store.
    func cardKeys(_ s: PreparedSection, feed: PreparedFeed, page: String, imagesBefore: Int, estimated: Bool) -> [UInt64]? {
        guard let store = cardStore else { return nil }
        let placed = placedImages(s, feed: feed, imagesBefore: imagesBefore)
        return s.section.items.indices.map { store.key(of: cardInputs(s, item: $0, feed: feed, page: page, placed: placed[$0], estimated: estimated)) }
    }

    /// `keys`: the cards' keys when already made (``cardKeys(_:feed:page:imagesBefore:estimated:)``).
    func renderCards(
        _ s: PreparedSection, feed: PreparedFeed, page: String, imagesBefore: Int = 0, estimated: Bool = false, keys: [UInt64]? = nil
    ) throws(TemplateErrors) -> RenderedCards {
        // Image priorities first, in order (they depend on the page order), then the cards: a
        // long section's cards render on every core (a 100,000-card feed page was the build's
        // serial tail). A card found in the card store (same key) is not rendered at all.
        let items = s.section.items
        let placed = placedImages(s, feed: feed, imagesBefore: imagesBefore)
        let preset = s.preset.rawValue
        let store = cardStore
        let known = keys?.count == items.count ? keys : nil
        let renderCard = { @Sendable (i: Int) throws -> CardFragment in
            let item = items[i]
            let type = Self.cardType(item, in: s)
            let (image, eager, priority) = placed[i]
            var key: UInt64 = 0
            if let store {
                key = known?[i] ?? store.key(of: self.cardInputs(s, item: i, feed: feed, page: page, placed: placed[i], estimated: estimated))
                if let fragment = store.fragment(key) { return fragment }
            }
            let html = try self.cardHTML(item, type: type, feed: feed, page: page, image: image, eager: eager, priority: priority)
            let fragment = CardFragment(html: html, estimate: estimated ? CardHeightEstimate(html: html, preset: preset) : nil)
            store?.store(key, fragment)
            return fragment
        }
        var cards: [CardHTML] = []
        var estimates: [CardHeightEstimate?] = []
        cards.reserveCapacity(items.count)
        estimates.reserveCapacity(items.count)
        if items.count < Self.parallelCardThreshold {
            for i in items.indices {
                do {
                    let fragment = try renderCard(i)
                    cards.append(fragment.html)
                    estimates.append(fragment.estimate)
                } catch let error as TemplateErrors { throw error } catch {
                    throw TemplateErrors(diagnostics: [.error(SourceLocation(path: "Templates"), "\(error)")])
                }
            }
        } else {
            let slots = ResultSlots<CardFragment>(count: items.count)
            DispatchQueue.concurrentPerform(iterations: items.count) { i in slots.set(i, Result { try renderCard(i) }) }
            for r in slots.values {
                switch r {
                case .success(let fragment):
                    cards.append(fragment.html)
                    estimates.append(fragment.estimate)
                case .failure(let error as TemplateErrors): throw error
                case .failure(let error):
                    throw TemplateErrors(diagnostics: [.error(SourceLocation(path: "Templates"), "\(error)")])
                }
            }
        }
        // A card is a focus stop when it links somewhere (``TemplateContext/itemURL(_:feed:page:)``).
        let focusable = items.contains { !($0.link ?? "").isEmpty || $0.hasBody }
        return RenderedCards(
            cards: cards, estimates: estimates, focusable: focusable, eager: placed.map(\.eager), priority: placed.map(\.priority))
    }

    /// One card's HTML, rendered through the template of its type (`cards/<type>.mustache`, else
    /// `cards/card.mustache`), as ``renderCards(_:feed:page:imagesBefore:estimated:)`` renders it.
    func cardHTML(
        _ item: Item, type: String, feed: PreparedFeed, page: String, image: ImageAsset?, eager: Bool, priority: Bool
    ) throws -> String {
        guard let template = templates.card(type: type) ?? templates.card(type: "card") else {
            throw TemplateErrors(diagnostics: [
                .error(SourceLocation(path: "Templates/cards/card.mustache"), "no card template for type '\(type)'")
            ])
        }
        let context = TemplateContext.item(
            item, feed: feed, page: page, image: image, variants: image == nil ? nil : images.card(feed: feed, item: item), eager: eager,
            priority: priority, strings: stringsContext(lang: item.lang ?? feed.feed.lang), config: site.site.config)
        return try Self.render(template, context, partials: templates)
    }

    /// The card of item `i` of section `s` of feed `f`, rendered as its feed page renders it,
    /// given what depends on the page's other cards: whether its image loads eagerly and with
    /// high priority (``FeedPageMap``).
    ///
    /// - Throws: ``TemplateErrors``.
    public func card(feed f: Int, section s: Int, item i: Int, eager: Bool, priority: Bool) throws(TemplateErrors) -> String {
        let feed = site.feeds[f]
        let section = feed.sections[s]
        let item = section.section.items[i]
        let type = section.preset == .chips && item.type == "card" ? "chip" : item.type
        do {
            return try cardHTML(
                item, type: type, feed: feed, page: feed.pagePath, image: site.image(feed: feed, item: item), eager: eager,
                priority: priority)
        } catch let error as TemplateErrors { throw error } catch {
            throw TemplateErrors(diagnostics: [.error(SourceLocation(path: "Templates"), "\(error)")])
        }
    }

    /// The card of item `i` of section `s` of feed `f` as another page shows it: a section's own
    /// page, a tag page or a view drawing it (``SectionViews``), at `page`, its date in the
    /// language `lang` (that page's), drawn as a chip on a `chips` section, its image (feed `f`'s
    /// asset: the caller makes sure that page draws it at the same sizes) loading as `eager` and
    /// `priority` say.
    ///
    /// - Throws: ``TemplateErrors``.
    package func card(
        feed f: Int, section s: Int, item i: Int, page: String, lang: String?, chips: Bool, eager: Bool, priority: Bool
    ) throws(TemplateErrors) -> String {
        var feed = site.feeds[f]
        let item = feed.sections[s].section.items[i]
        let image = site.image(feed: feed, item: item)
        feed.feed.lang = lang
        do {
            return try cardHTML(
                item, type: chips && item.type == "card" ? "chip" : item.type, feed: feed, page: page, image: image, eager: eager,
                priority: priority)
        } catch let error as TemplateErrors { throw error } catch {
            throw TemplateErrors(diagnostics: [.error(SourceLocation(path: "Templates"), "\(error)")])
        }
    }
}
