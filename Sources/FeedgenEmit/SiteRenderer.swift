import Dispatch
import FeedgenResolve
import FeedgenStorage
import Foundation
import FeedgenContent
import FeedgenDiagnostics
import FeedgenLayout
import FeedgenMustache

/// Renders a prepared site into output files (no I/O: the build writes them).
///
/// Pages: one per feed (`index.html`), one per item with a body (`<feed>/<id>.html`);
/// assets: `assets/theme.css`, `assets/layout.css`, item images; `static/` copied to the root.
public struct SiteRenderer: Sendable {
    public let site: PreparedSite
    public let templates: TemplateSet
    /// Whether long sections defer their off-screen cards (``DeferredCards``). On by default;
    /// ``BuildOptions/contentVisibility`` turns it off, a switch for the browser benchmark
    /// (docs/benchmarks.md), not a site option.
    public var contentVisibility: Bool
    /// Cards rendered by earlier builds (the build cache), or nil to render every card.
    public var cardStore: (any CardFragmentStore)?
    /// Seeds every card key: a hash of what all cards depend on besides their own inputs (the
    /// templates, the site configuration, the feedgen binary), given by the build.
    public var cardSalt: UInt64 = 0
    public init(
        site: PreparedSite, templates: TemplateSet,
        contentVisibility: Bool = true
    ) {
        self.site = site
        self.templates = templates
        self.contentVisibility = contentVisibility
    }

    /// All output files, sorted by path. Pages render in parallel.
    ///
    /// Partials are strict: a dynamic partial name (`{{>*name}}`) that resolves to no template
    /// is an error (literal names are checked when the ``TemplateSet`` is compiled).
    ///
    /// - Throws: ``TemplateErrors`` holding every distinct rendering error (an unknown partial,
    ///   partials nested deeper than ``MustacheTemplate/maximumPartialDepth``), each at the
    ///   `Templates/name.mustache:line:column` of the offending tag, in path order.
    public func render() throws(TemplateErrors) -> [OutputFile] {
        let jobs = pages()
        let results = ResultSlots<OutputFile>(count: jobs.count)
        DispatchQueue.concurrentPerform(iterations: jobs.count) { i in
            results.set(i, Result { try self.renderPage(jobs[i]) })
        }
        var files: [OutputFile] = []
        files.reserveCapacity(jobs.count + 8)
        var problems: Set<Diagnostic> = []
        for r in results.values {
            switch r {
            case .success(let file): files.append(file)
            case .failure(let error as TemplateErrors): problems.formUnion(error.diagnostics)
            case .failure(let error):
                // The jobs throw only TemplateErrors (their closures are untyped: typed-throws
                // closures crash the Swift 6.3 compiler here).
                problems.insert(.error(SourceLocation(path: "Templates"), "\(error)"))
            }
        }
        if !problems.isEmpty {
            throw TemplateErrors(diagnostics: problems.sorted { ($0.location, $0.message) < ($1.location, $1.message) })
        }
        files += assetFiles()
        var seen = Set<String>()
        return files.sorted { $0.path < $1.path }.filter { seen.insert($0.path).inserted }
    }

    /// One page of the site: a feed page, or an item's detail page (indexes into `site.feeds`,
    /// the feed's sections and the section's items).
    public enum Page: Sendable, Hashable {
        case feed(Int)
        case detail(feed: Int, section: Int, item: Int)
    }

    /// Every page, in site order (each feed page, then its items with a body).
    public func pages() -> [Page] {
        var result: [Page] = []
        for (f, feed) in site.feeds.enumerated() {
            result.append(.feed(f))
            for (s, section) in feed.sections.enumerated() {
                for (i, item) in section.section.items.enumerated() where item.hasBody {
                    result.append(.detail(feed: f, section: s, item: i))
                }
            }
        }
        return result
    }

    /// The page's output path.
    public func path(of page: Page) -> String {
        switch page {
        case .feed(let f): site.feeds[f].pagePath
        case .detail(let f, let s, let i): site.feeds[f].detailPath(site.feeds[f].sections[s].section.items[i])
        }
    }

    /// The item of a detail page.
    public func item(of page: Page) -> Item? {
        guard case .detail(let f, let s, let i) = page else { return nil }
        return site.feeds[f].sections[s].section.items[i]
    }

    /// Renders one page (a job of ``render()``; safe to call from several threads).
    public func renderPage(_ page: Page) throws(TemplateErrors) -> OutputFile {
        switch page {
        case .feed(let f): try feedPage(site.feeds[f])
        case .detail(let f, let s, let i): try detailPage(site.feeds[f].sections[s].section.items[i], feed: site.feeds[f])
        }
    }

    /// A hash of everything a detail page's template is given (see ``detailContext(_:feed:)``)
    /// except the site configuration and the templates, which the caller adds: the page's path,
    /// every field of its item, its feed's title, path and language, and its image. For the
    /// build cache: equal keys render equal pages. Nil for feed pages (they hold every card and
    /// are always rendered).
    public func key(of page: Page) -> UInt64? {
        guard case .detail(let f, let s, let i) = page else { return nil }
        let feed = site.feeds[f]
        let item = feed.sections[s].section.items[i]
        var h = StableHasher()
        h.combine(path(of: page))
        h.combine(ItemCache.fingerprint(item))
        h.combine(feed.feed.title)
        h.combine(feed.feed.path)
        h.combine(feed.feed.lang)
        Self.combine(site.image(feed: feed, item: item), into: &h)
        return h.value
    }

    /// The files that are not pages: the stylesheets, the Atom and JSON feeds and the sitemap
    /// (with a `baseURL`), item images and `static/` files (copied).
    public func assetFiles() -> [OutputFile] { assetFilesAndMaps().files }

    /// ``assetFiles()`` and, with a `baseURL`, where each feed's entries are in its Atom and
    /// JSON Feed documents (one map per feed, in feed order; empty without a `baseURL`).
    public func assetFilesAndMaps() -> (files: [OutputFile], syndication: [SyndicationMap]) {
        var files: [OutputFile] = []
        var maps: [SyndicationMap] = []
        files.append(OutputFile(path: OutputPaths.layoutStylesheet, contents: .text(LayoutStylesheet.css(for: site.feeds))))
        files.append(OutputFile(path: OutputPaths.themeStylesheet, contents: .text(themeCSS())))
        if let syndication = Syndication(site: site) {
            for feed in site.feeds {
                let (atom, atomMap) = syndication.atomAndMap(feed)
                let (json, ranges) = syndication.jsonFeedAndRanges(feed)
                var map = atomMap
                map.json = ranges
                maps.append(map)
                files.append(OutputFile(path: Syndication.atomPath(feed), contents: .text(atom)))
                files.append(OutputFile(path: Syndication.jsonPath(feed), contents: .text(json)))
            }
            files.append(OutputFile(path: OutputPaths.sitemap, contents: .text(syndication.sitemap())))
        }
        for image in Set(site.images.values) where !image.source.isEmpty {
            files.append(OutputFile(path: image.outputPath, contents: .copy(from: image.source)))
            for variant in image.variants {
                files.append(OutputFile(path: variant.outputPath, contents: .copy(from: variant.source)))
            }
        }
        for path in site.site.staticFiles {
            files.append(OutputFile(path: path, contents: .copy(from: site.site.root + "/static/" + path)))
        }
        return (files, maps)
    }

    // MARK: - Pages

    /// The `page` object: title, description, language, the way to the root, and the sharing
    /// values (`page.url`, `page.type`, `page.image`, `page.feeds`; absolute URLs need `baseURL`).
    func pageContext(
        title: String, description: String?, lang: String?, page: String, type: String = "website",
        image: ImageAsset? = nil, feed: PreparedFeed? = nil
    ) -> MustacheValue {
        let config = site.site.config
        let language = lang ?? config.language
        let syndication = Syndication(site: site)
        var imageURL: MustacheValue = .null
        if let image {
            if RelativeURL.hasScheme(image.outputPath) {
                imageURL = .string(image.outputPath)
            } else if let syndication {
                imageURL = .string(syndication.url(image.outputPath))
            }
        }
        var feeds: [MustacheValue] = []
        if let feed, let syndication {
            feeds = [
                ["type": "application/atom+xml", "title": .string("\(feed.feed.title) (Atom)"), "url": .string(RelativeURL.relative(from: page, to: Syndication.atomPath(feed))), "absoluteURL": .string(syndication.url(Syndication.atomPath(feed)))],
                ["type": "application/feed+json", "title": .string("\(feed.feed.title) (JSON Feed)"), "url": .string(RelativeURL.relative(from: page, to: Syndication.jsonPath(feed))), "absoluteURL": .string(syndication.url(Syndication.jsonPath(feed)))],
            ]
        }
        return [
            "title": .string(title == config.title || title.isEmpty ? config.title : "\(title) – \(config.title)"),
            "heading": .string(title.isEmpty ? config.title : title),
            "description": description.flatMap { $0.isEmpty ? nil : MustacheValue.string($0) } ?? .null,
            "lang": .string(language),
            "dir": Self.isRightToLeft(language) ? "rtl" : .null,
            "root": .string(RelativeURL.root(from: page)),
            "path": .string(page),
            "url": syndication.map { .string($0.url(page)) } ?? .null,
            "type": .string(type),
            "image": imageURL,
            "imageAlt": image.map { TemplateContext.nonEmpty($0.alt) } ?? .null,
            "feeds": .array(feeds),
            "hasFeeds": .bool(!feeds.isEmpty),
        ]
    }

    /// Whether `lang` (BCP 47) is written right to left: its script subtag, else its language
    /// (Arabic, Hebrew, Persian, Urdu, Pashto, Sindhi, Yiddish, Dhivehi, Kurdish (Sorani), Uyghur, Syriac, N'Ko).
    public static func isRightToLeft(_ lang: String?) -> Bool {
        guard let lang, !lang.isEmpty else { return false }
        let parts = lang.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" })
        guard let language = parts.first else { return false }
        if let script = parts.dropFirst().first(where: { $0.count == 4 }) {
            return ["arab", "hebr", "thaa", "syrc", "nkoo", "adlm", "rohg", "mand", "samr"].contains(String(script))
        }
        return ["ar", "he", "iw", "fa", "ur", "ps", "sd", "yi", "dv", "ckb", "ug", "syr", "nqo"].contains(String(language))
    }

    var siteContext: MustacheValue {
        let c = site.site.config
        return ["title": .string(c.title), "language": .string(c.language), "baseURL": c.baseURL.map { .string($0) } ?? .null]
    }

    /// How many of a feed page's first images load eagerly.
    static let eagerImageCount = 4

    /// The feed page, as pieces of UTF-8 bytes (``ByteChunks``). Its sections' cards
    /// (`groupsHTML`, most of a long page's bytes) are not copied through `section.mustache` and
    /// `feed.mustache`: the templates render a placeholder (``FeedGroups``), and the cards take
    /// its place among the page's pieces (cached ones still in the card cache's bytes).
    func feedPage(_ feed: PreparedFeed) throws(TemplateErrors) -> OutputFile {
        try feedPageAndMap(feed).file
    }

    /// Feed page `f` (``renderPage(_:)`` of ``Page/feed(_:)``) and where its cards are in it.
    public func feedPage(_ f: Int) throws(TemplateErrors) -> (file: OutputFile, map: FeedPageMap) {
        try feedPageAndMap(site.feeds[f])
    }

    func feedPageAndMap(_ feed: PreparedFeed) throws(TemplateErrors) -> (file: OutputFile, map: FeedPageMap) {
        let groups = FeedGroups()
        let skeleton = try render("feed.mustache", try feedContext(feed, groups: groups))
        let file = OutputFile(path: feed.pagePath, contents: .chunks(groups.splice(into: skeleton)))
        var map = groups.map
        map.estimated = contentVisibility && DeferredCards.defersAny(feed)
        map.columns = groups.columns.count == map.cards.count ? groups.columns : map.cards.map { _ in nil }
        return (file, map)
    }

    /// The context of `feed.mustache` (``TemplateContext/Kind/feed``), its sections rendered;
    /// with `groups`, each section's `groupsHTML` is a placeholder kept there.
    func feedContext(_ feed: PreparedFeed, groups: FeedGroups? = nil) throws(TemplateErrors) -> MustacheValue {
        let page = feed.pagePath
        // Cards are estimated when any section of the page may defer them (the estimates of
        // every section place the sections after it).
        let estimated = contentVisibility && DeferredCards.defersAny(feed)
        var rendered: [RenderedCards] = []
        for (s, before) in zip(feed.sections, imagesBefore(feed)) {
            rendered.append(try renderCards(s, feed: feed, page: page, imagesBefore: before, estimated: estimated))
        }
        // Which cards render lazily: decided over the whole page (the first screen).
        let (deferred, columns) =
            contentVisibility
            ? DeferredCards.planAndColumns(site: site, feed: feed, cards: rendered.map(\.cards), estimates: rendered.map(\.estimates))
            : ([], feed.sections.map { _ in nil })
        groups?.columns = columns
        var sections: [MustacheValue] = []
        for (k, s) in feed.sections.enumerated() {
            let context = try sectionContext(
                s, rendered: rendered[k], deferred: deferred.isEmpty ? [] : deferred[k], groups: groups)
            sections.append(["id": .string(s.section.id), "html": .string(try render("section.mustache", context))])
        }
        let subfeeds = site.feeds.filter { isChild($0.feed.path, of: feed.feed.path) }.map { sub -> MustacheValue in
            ["title": .string(sub.feed.title), "url": .string(RelativeURL.relative(from: page, to: sub.pagePath))]
        }
        var parent: MustacheValue = .null
        if !feed.feed.path.isEmpty, let p = site.feeds.last(where: { isChild(feed.feed.path, of: $0.feed.path) }) {
            parent = ["title": .string(p.feed.title), "url": .string(RelativeURL.relative(from: page, to: p.pagePath))]
        }
        return [
            "page": pageContext(title: feed.feed.title, description: feed.feed.description, lang: feed.feed.lang, page: page, feed: feed),
            "site": siteContext,
            "feed": [
                "key": .string(feed.key), "title": .string(feed.feed.title),
                "description": feed.feed.description.map { .string($0) } ?? .null,
                "introHTML": TemplateContext.nonEmpty(feed.feed.introHTML), "url": .string("index.html"),
                "parent": parent, "subfeeds": .array(subfeeds), "hasSubfeeds": .bool(!subfeeds.isEmpty),
                "hasControls": .bool(feed.sections.contains { Self.scrolling($0).controls }),
                "hasScrollers": .bool(feed.sections.contains { Self.scrolling($0).scrollerID != nil }),
            ],
            "sections": .array(sections),
        ]
    }

    /// For each section of `feed`, how many card images the feed page shows before it. The
    /// page's first `eagerImageCount` images load eagerly (they are likely in the first screen),
    /// the first of them with fetchpriority=high; the rest are lazy.
    func imagesBefore(_ feed: PreparedFeed) -> [Int] {
        var counts: [Int] = []
        var before = 0
        for s in feed.sections {
            counts.append(before)
            before += s.section.items.count { site.image(feed: feed, item: $0) != nil }
        }
        return counts
    }

    func sectionHTML(_ s: PreparedSection, feed: PreparedFeed, page: String, imagesBefore: Int) throws(TemplateErrors) -> String {
        try render("section.mustache", try sectionContext(s, feed: feed, page: page, imagesBefore: imagesBefore))
    }

    /// The context of `section.mustache` (``TemplateContext/Kind/section``), its cards rendered,
    /// none deferred.
    func sectionContext(
        _ s: PreparedSection, feed: PreparedFeed, page: String, imagesBefore: Int = 0
    ) throws(TemplateErrors) -> MustacheValue {
        try sectionContext(s, rendered: try renderCards(s, feed: feed, page: page, imagesBefore: imagesBefore), deferred: [])
    }

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

    func renderCards(
        _ s: PreparedSection, feed: PreparedFeed, page: String, imagesBefore: Int = 0, estimated: Bool = false
    ) throws(TemplateErrors) -> RenderedCards {
        // Image priorities first, in order (they depend on the page order), then the cards: a
        // long section's cards render on every core (a 100,000-card feed page was the build's
        // serial tail). A card found in the card store (same key) is not rendered at all.
        let items = s.section.items
        var images: [(image: ImageAsset?, eager: Bool, priority: Bool)] = []
        images.reserveCapacity(items.count)
        var imageIndex = imagesBefore  // this card's image's place among the page's images
        for item in items {
            let image = site.image(feed: feed, item: item)
            images.append((image, imageIndex < Self.eagerImageCount, image != nil && imageIndex == 0))
            if image != nil { imageIndex += 1 }
        }
        let placed = images
        // Items of a chips section without a type of their own are drawn as chips.
        let chips = s.preset == .chips
        let preset = s.preset.rawValue
        let store = cardStore
        let renderCard = { @Sendable (i: Int) throws -> CardFragment in
            let item = items[i]
            let type = chips && item.type == "card" ? "chip" : item.type
            let (image, eager, priority) = placed[i]
            var key: UInt64 = 0
            if let store {
                key = self.cardKey(
                    item: item, feed: feed, page: page, image: image, eager: eager, priority: priority, type: type,
                    preset: preset, estimated: estimated)
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
            item, feed: feed, page: page, image: image, eager: eager, priority: priority, config: site.site.config)
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

    /// The key of a card fragment (``CardFragmentStore``): everything the card's template is
    /// given (``TemplateContext/item(_:feed:page:image:eager:priority:detail:config:)``: every field of
    /// the item, its detail page's path, the feed page's path, its image with its variants and
    /// sizes, whether the image loads eagerly and with high priority), the card type it is drawn
    /// with, and for its estimate whether one is made and the section's preset; seeded with
    /// ``cardSalt`` (the templates, the configuration, the binary). Its place in the section
    /// (index, set size, ids, deferral) is not in the fragment: the section's HTML wraps it.
    func cardKey(
        item: Item, feed: PreparedFeed, page: String, image: ImageAsset?, eager: Bool, priority: Bool, type: String,
        preset: String, estimated: Bool
    ) -> UInt64 {
        var h = StableHasher(seed: cardSalt)
        h.combine("card")
        h.combine(page)
        h.combine(feed.detailPath(item))
        h.combine(ItemCache.fingerprint(item))
        h.combine(feed.feed.lang ?? "")  // the language of its date, unless the item has one
        Self.combine(image, into: &h)
        h.combine(eager)
        h.combine(priority)
        h.combine(type)
        h.combine(estimated)
        if estimated { h.combine(preset) }
        return h.value
    }

    /// Adds everything of `image` a page shows to `h`.
    static func combine(_ image: ImageAsset?, into h: inout StableHasher) {
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
        for variant in image.variants {
            h.combine(variant.width)
            h.combine(variant.mimeType)
            h.combine(variant.outputPath)
        }
        h.combine(image.cardSizes)
        h.combine(image.cardCovers)
        h.combine(image.detailSizes)
    }

    /// The context of `section.mustache` for rendered cards; `deferred` (empty, or one entry per
    /// card) marks the cards that render lazily.
    ///
    /// The section's UI text comes from partials rendered here, only where the section shows it:
    /// a slideshow's slide labels (`partials/slide-label.mustache`, once per slide) and role
    /// descriptions (`partials/slide-roledescription.mustache`,
    /// `partials/carousel-roledescription.mustache`, once per section each), a footer's item
    /// count (`partials/item-count.mustache`, once per section).
    ///
    /// - Throws: ``TemplateErrors`` when one of those partials does not render (``slideLabels(count:)``,
    ///   ``uiText(_:_:)``).
    func sectionContext(
        _ s: PreparedSection, rendered: RenderedCards, deferred: [DeferredCards.Estimate?], groups pending: FeedGroups? = nil
    ) throws(TemplateErrors) -> MustacheValue {
        let headingID = s.section.title == nil ? nil : OutputPaths.sectionAnchor(s.section.id)
        let scroll = Self.scrolling(s)
        let count = s.section.items.count
        // Only slideshows have slide labels and role descriptions, only sections with a footer an
        // item count: no other section renders these partials.
        var slides: SectionHTML.Slides?
        var carousel: MustacheValue = .null
        if scroll.slideshow {
            slides = SectionHTML.Slides(
                labels: try slideLabels(count: count), roleDescription: try roleDescription(Self.slideRoleTemplate))
            carousel = .string(try roleDescription(Self.carouselRoleTemplate))
        }
        let footer = SectionHTML.hasFooter(s.layout) ? try uiText(Self.itemCountTemplate, TemplateContext.itemCount(count)) : nil
        let section = FeedGroups.Section(
            layout: s.layout, ids: s.section.items.map(\.id), cards: rendered.cards, headingID: headingID,
            label: s.section.title ?? s.section.id, focusable: rendered.focusable, scrollerID: scroll.scrollerID,
            slides: slides, footer: footer, deferred: deferred, eager: rendered.eager, priority: rendered.priority)
        let groups = pending.map { $0.placeholder(for: section) } ?? section.html
        return [
            "section": [
                "id": .string(s.section.id),
                "title": s.section.title.map { .string($0) } ?? .null,
                "headingID": headingID.map { .string($0) } ?? .null,
                "headerHTML": TemplateContext.nonEmpty(s.section.headerHTML),
                "lang": s.section.lang.map { .string($0) } ?? .null,
                "dir": Self.isRightToLeft(s.section.lang) ? "rtl" : .null,
                "preset": .string(s.preset.rawValue),
                "itemCount": .int(s.section.items.count),
                "orthogonalScrollingBehavior": .string(s.layout.base.orthogonalScrollingBehavior.rawValue),
                "scrollerID": scroll.scrollerID.map { .string($0) } ?? .null,
                "controls": .bool(scroll.controls),
                "slideshow": .bool(scroll.slideshow),
                "roleDescription": carousel,
            ],
            "groupsHTML": .string(groups),
        ]
    }

    /// The text estimates of `feed`'s cards and section headers (``CardHeightEstimate``) as
    /// measurements for the model at `environment` (`feedgen layout --text-estimates`).
    ///
    /// - Throws: ``TemplateErrors`` when a card does not render.
    public func textEstimates(feed: PreparedFeed, environment: LayoutEnvironment) throws(TemplateErrors) -> Measurements {
        var cards: [[String]] = []
        for s in feed.sections { cards.append(try renderCards(s, feed: feed, page: feed.pagePath).cards.map(\.text)) }
        return DeferredCards.measurements(
            sections: feed.sections, profiles: DeferredCards.profiles(sections: feed.sections, cards: cards),
            environment: environment)
    }

    /// The accessible names of the `count` slides of a slideshow (WAI-ARIA APG carousel: "3 of
    /// 10"), in order: `partials/slide-label.mustache` rendered with the context
    /// ``TemplateContext/slideLabel(index:count:)`` (`index` from 1), its leading and trailing
    /// HTML whitespace (space, tab, line feed, form feed, carriage return) removed. Plain text:
    /// ``SectionHTML`` escapes it as the attribute value.
    ///
    /// - Throws: ``TemplateErrors`` when the partial does not render (an unknown dynamic partial
    ///   inside it), at its position.
    func slideLabels(count: Int) throws(TemplateErrors) -> [String] {
        guard count > 0 else { return [] }
        let template = try uiTemplate(Self.slideLabelTemplate)
        var labels: [String] = []
        labels.reserveCapacity(count)
        for index in 1...count {
            let text = try Self.render(template, TemplateContext.slideLabel(index: index, count: count), partials: templates)
            let label = Self.trimmingHTMLWhitespace(text)
            if label.isEmpty {
                throw TemplateErrors(diagnostics: [
                    .error(
                        SourceLocation(path: "Templates/" + Self.slideLabelTemplate),
                        "renders no text for slide \(index) of \(count): each slide needs an accessible name (WAI-ARIA APG, carousel pattern); give the partial text, e.g. '{{index}} of {{count}}'")
                ])
            }
            labels.append(label)
        }
        return labels
    }

    /// An `aria-roledescription` from the partial at `path` (``uiText(_:_:)``).
    ///
    /// - Throws: ``TemplateErrors`` when the partial does not render, or renders no text: an
    ///   empty `aria-roledescription` is not allowed (WAI-ARIA 1.2, `aria-roledescription`:
    ///   authors must not give it an empty value).
    func roleDescription(_ path: String) throws(TemplateErrors) -> String {
        let text = try uiText(path, [:])
        guard text.isEmpty else { return text }
        throw TemplateErrors(diagnostics: [
            .error(
                SourceLocation(path: "Templates/" + path),
                "renders no text: an aria-roledescription must not be empty (WAI-ARIA 1.2); give the partial text, or remove it to use the built-in one")
        ])
    }

    /// The template of a slide's label (``slideLabels(count:)``), relative to `Templates/`.
    static let slideLabelTemplate = "partials/slide-label.mustache"
    /// The template of a slide's `aria-roledescription` ("slide"), relative to `Templates/`.
    static let slideRoleTemplate = "partials/slide-roledescription.mustache"
    /// The template of a slideshow section's `aria-roledescription` ("carousel"), relative to
    /// `Templates/`.
    static let carouselRoleTemplate = "partials/carousel-roledescription.mustache"
    /// The template of a section footer's text ("3 items"), relative to `Templates/`.
    static let itemCountTemplate = "partials/item-count.mustache"

    /// A piece of UI text: the partial at `path` (relative to `Templates/`) rendered with
    /// `context`, its leading and trailing HTML whitespace removed (``trimmingHTMLWhitespace(_:)``).
    /// Plain text: the caller escapes it where it writes it.
    ///
    /// - Throws: ``TemplateErrors`` when the partial does not render (an unknown dynamic partial
    ///   inside it), at its position.
    func uiText(_ path: String, _ context: MustacheValue) throws(TemplateErrors) -> String {
        Self.trimmingHTMLWhitespace(try Self.render(try uiTemplate(path), context, partials: templates))
    }

    private func uiTemplate(_ path: String) throws(TemplateErrors) -> MustacheTemplate {
        guard let template = templates.template(at: path) else {
            throw TemplateErrors(diagnostics: [.error(SourceLocation(path: "Templates/" + path), "missing template")])
        }
        return template
    }

    /// `text` without leading and trailing ASCII whitespace (HTML: U+0009, U+000A, U+000C,
    /// U+000D, U+0020), such as the line feed that ends a template file.
    static func trimmingHTMLWhitespace(_ text: String) -> String {
        let isSpace = { (c: UInt8) in c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0C || c == 0x0D }
        let bytes = Array(text.utf8)
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        if first == 0, last == bytes.count - 1 { return text }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }

    /// How a section scrolls sideways, for its HTML and its template:
    /// - `scrollerID`: the `id` of its scroller (`scroller-<section id>`) when any of its layouts
    ///   has an `orthogonalScrollingBehavior` other than `none`, else nil;
    /// - `controls`: it gets Previous/Next buttons (web-output §1.4): it scrolls, has a title (the
    ///   buttons sit in its header) and has items, and `_section.md` does not say `controls: false`;
    /// - `slideshow`: its items are the slides of a WAI-ARIA APG carousel: a scrolling `hero`.
    static func scrolling(_ s: PreparedSection) -> (scrollerID: String?, controls: Bool, slideshow: Bool) {
        let variants = [s.layout.base] + s.layout.rules.map(\.section)
        guard variants.contains(where: { $0.orthogonalScrollingBehavior.isOrthogonal }) else { return (nil, false, false) }
        let controls = s.section.controls && s.section.title != nil && !s.section.items.isEmpty
        return ("scroller-" + HTML.identifier(s.section.id), controls, s.preset == .hero)
    }

    func detailPage(_ item: Item, feed: PreparedFeed) throws(TemplateErrors) -> OutputFile {
        OutputFile(path: feed.detailPath(item), contents: .text(try render("item.mustache", detailContext(item, feed: feed))))
    }

    /// The context of `item.mustache` (``TemplateContext/Kind/item``).
    func detailContext(_ item: Item, feed: PreparedFeed) -> MustacheValue {
        let page = feed.detailPath(item)
        let image = site.image(feed: feed, item: item)
        return [
            "page": pageContext(
                title: item.title, description: item.description, lang: item.lang ?? feed.feed.lang, page: page, type: "article",
                image: image),
            "site": siteContext,
            "feed": ["title": .string(feed.feed.title), "url": .string(RelativeURL.relative(from: page, to: feed.pagePath))],
            "item": TemplateContext.item(
                item, feed: feed, page: page, image: image, eager: true, priority: true, detail: true, config: site.site.config),
        ]
    }

    func render(_ name: String, _ context: MustacheValue) throws(TemplateErrors) -> String {
        guard let template = templates.template(at: name) else {
            throw TemplateErrors(diagnostics: [.error(SourceLocation(path: "Templates/" + name), "missing template")])
        }
        return try Self.render(template, context, partials: templates)
    }

    /// Renders with strict partials, turning an engine error into a positioned diagnostic.
    static func render(
        _ template: MustacheTemplate, _ context: MustacheValue, partials: TemplateSet
    ) throws(TemplateErrors) -> String {
        do {
            return try template.render(context, partials: partials, strictPartials: true)
        } catch {
            throw TemplateErrors(error)
        }
    }

    /// `theme.css` followed by the site's `theme:` tokens as custom properties
    /// (`cornerRadius` → `--corner-radius`).
    func themeCSS() -> String {
        var css = templates.file("theme.css") ?? ""
        let tokens = site.site.config.theme
        if !tokens.isEmpty {
            css += "\n/* tokens from feedgen.yaml */\n:root {\n"
            for (key, value) in tokens { css += "  --\(Self.kebab(key)): \(value);\n" }
            css += "}\n"
        }
        return css
    }

    static func kebab(_ key: String) -> String {
        var out = ""
        for c in key {
            if c.isUppercase { out += "-" + c.lowercased() } else { out.append(c) }
        }
        return out
    }

    /// Whether feed `path` sits directly below feed `parent`: `parent` is the longest other
    /// feed path that contains it (the home feed `""` contains every feed).
    func isChild(_ path: String, of parent: String) -> Bool {
        guard !path.isEmpty, path != parent else { return false }
        let containing = site.feeds.map(\.feed.path).filter { $0 != path && ($0.isEmpty || path.hasPrefix($0 + "/")) }
        return containing.max { $0.count < $1.count } == parent
    }
}

/// Per-index result slots written from `concurrentPerform` workers.
public final class ResultSlots<T>: @unchecked Sendable {
    private var storage: [Result<T, any Error>?]
    private let lock = NSLock()

    public init(count: Int) { storage = Array(repeating: nil, count: count) }

    public func set(_ i: Int, _ value: Result<T, any Error>) {
        lock.withLock { storage[i] = value }
    }

    public var values: [Result<T, any Error>] { storage.map { $0! } }
}
