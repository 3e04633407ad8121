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
    /// The variants stage 4 made (none: every image is drawn as a plain `<img>`).
    public var images = ImageVariantTable()
    /// The `strings` context of each language, made on first use (shared by copies).
    let stringsContexts = StringsContexts()
    /// The `site` context of every page: the site's title, language and `baseURL`.
    let siteContext: MustacheValue
    public init(
        site: PreparedSite, templates: TemplateSet,
        contentVisibility: Bool = true
    ) {
        self.site = site
        self.templates = templates
        self.contentVisibility = contentVisibility
        let c = site.site.config
        siteContext = ["title": .string(c.title), "language": .string(c.language), "baseURL": c.baseURL.map { .string($0) } ?? .null]
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
                for (i, item) in section.pageItems.enumerated() where item.hasBody {
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
        case .detail(let f, let s, let i):
            // The feed's folder and the item's id read in place: a method of the feed here
            // copied the whole feed (its sections) for every page.
            PreparedFeed.detailPath(folder: site.feeds[f].feed.path, id: site.feeds[f].sections[s].pageItems[i].id)
        }
    }

    /// The item of a detail page.
    public func item(of page: Page) -> Item? {
        guard case .detail(let f, let s, let i) = page else { return nil }
        return site.feeds[f].sections[s].pageItems[i]
    }

    /// Renders one page (a job of ``render()``; safe to call from several threads).
    public func renderPage(_ page: Page) throws(TemplateErrors) -> OutputFile {
        switch page {
        case .feed(let f): try feedPage(site.feeds[f])
        case .detail(let f, let s, let i): try detailPage(site.feeds[f].sections[s].pageItems[i], feed: site.feeds[f])
        }
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
                guard feed.isSyndicated else {
                    maps.append(SyndicationMap(updated: ""))  // one map per feed, in feed order
                    continue
                }
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
        for image in site.imageFiles {
            files.append(OutputFile(path: image.outputPath, contents: .copy(from: image.source)))
        }
        for variant in images.files {
            files.append(OutputFile(path: variant.outputPath, contents: .copy(from: variant.source)))
        }
        // Files beside items that bodies link to (BodyPaths), unless a card image copies them.
        let imagePaths = Set(site.imageFiles.map(\.outputPath))
        for (path, source) in site.bodyFiles.sorted(by: { $0.key < $1.key }) where !imagePaths.contains(path) {
            files.append(OutputFile(path: path, contents: .copy(from: source)))
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

    /// How many of a feed page's first images load eagerly.
    static let eagerImageCount = 4

    /// The feed page, as pieces of UTF-8 bytes (``ByteChunks``). Its sections' cards
    /// (`groupsHTML`, most of a long page's bytes) are not copied through `section.mustache` and
    /// `feed.mustache`: the templates render a placeholder (``FeedGroups``), and the cards take
    /// its place among the page's pieces (cached ones still in the card cache's bytes).
    func feedPage(_ feed: PreparedFeed) throws(TemplateErrors) -> OutputFile {
        try feedPageAndMap(feed).file
    }

    /// Feed page `f` (``renderPage(_:)`` of ``Page/feed(_:)``) and where its cards are in it;
    /// `cardKeys`: its cards' keys when already made (``FeedPageInputs/cardKeys``).
    public func feedPage(_ f: Int, cardKeys: [[UInt64]]? = nil) throws(TemplateErrors) -> (file: OutputFile, map: FeedPageMap) {
        try feedPageAndMap(site.feeds[f], cardKeys: cardKeys)
    }

    func feedPageAndMap(_ feed: PreparedFeed, cardKeys: [[UInt64]]? = nil) throws(TemplateErrors) -> (file: OutputFile, map: FeedPageMap) {
        let groups = FeedGroups()
        let skeleton = try render("feed.mustache", try feedContext(feed, groups: groups, cardKeys: cardKeys))
        let file = OutputFile(path: feed.pagePath, contents: .chunks(groups.splice(into: skeleton)))
        var map = groups.map
        map.estimated = contentVisibility && DeferredCards.defersAny(feed)
        map.columns = groups.columns.count == map.cards.count ? groups.columns : map.cards.map { _ in nil }
        map.folds = groups.folds.count == map.cards.count ? groups.folds : []
        return (file, map)
    }

    /// The context of `feed.mustache` (``TemplateContext/Kind/feed``), its sections rendered;
    /// with `groups`, each section's `groupsHTML` is a placeholder kept there.
    func feedContext(_ feed: PreparedFeed, groups: FeedGroups? = nil, cardKeys: [[UInt64]]? = nil) throws(TemplateErrors) -> MustacheValue {
        let feed = try titled(feed)
        let page = feed.pagePath
        // Cards are estimated when any section of the page may defer them (the estimates of
        // every section place the sections after it).
        let estimated = contentVisibility && DeferredCards.defersAny(feed)
        var rendered: [RenderedCards] = []
        let keys = cardKeys?.count == feed.sections.count ? cardKeys : nil
        for (k, (s, before)) in zip(feed.sections, imagesBefore(feed)).enumerated() {
            rendered.append(try renderCards(s, feed: feed, page: page, imagesBefore: before, estimated: estimated, keys: keys?[k]))
        }
        // Which cards render lazily: decided over the whole page (the first screen).
        let (deferred, columns, folds) =
            contentVisibility
            ? DeferredCards.planAndColumns(site: site, feed: feed, cards: rendered.map(\.cards), estimates: rendered.map(\.estimates))
            : ([], feed.sections.map { _ in nil }, feed.sections.map { _ in nil })
        groups?.columns = columns
        groups?.folds = folds
        var sections: [MustacheValue] = []
        // The feed's pages are no section of its page (content-format §3).
        for (k, s) in feed.sections.enumerated() where !s.section.isPages {
            let context = try sectionContext(
                s, lang: feed.feed.lang, rendered: rendered[k], deferred: deferred.isEmpty ? [] : deferred[k], groups: groups)
            sections.append(["id": .string(s.section.id), "html": .string(try render("section.mustache", context))])
        }
        let subfeeds = feed.ownPage != nil ? [] : site.feeds.filter { $0.ownPage == nil && isChild($0.feed.path, of: feed.feed.path) }.map { sub -> MustacheValue in
            ["title": .string(sub.feed.title), "url": .string(RelativeURL.relative(from: page, to: sub.pagePath))]
        }
        var parent: MustacheValue = .null
        if let origin = feed.ownPage?.origin {
            // A section's or tag's own page leads back to its feed.
            parent = ["title": .string(site.feeds[origin].feed.title), "url": .string(RelativeURL.relative(from: page, to: site.feeds[origin].pagePath))]
        } else if !feed.feed.path.isEmpty, let p = site.feeds.last(where: { $0.ownPage == nil && isChild(feed.feed.path, of: $0.feed.path) }) {
            parent = ["title": .string(p.feed.title), "url": .string(RelativeURL.relative(from: page, to: p.pagePath))]
        }
        let strings = strings(feed.feed.lang)
        var title = feed.feed.title
        if let own = feed.ownPage, own.number > 1 {
            // Each page of a section its own title (WCAG 2.4.2): "Recipes – Page 2 of 5 – Site".
            title += " – " + strings.format(.pageOf, ["number": own.number, "count": own.count])
        }
        return [
            "page": pageContext(
                title: title, description: feed.feed.description, lang: feed.feed.lang, page: page,
                feed: feed.isSyndicated ? feed : nil),
            "site": siteContext,
            "strings": Self.stringsContext(strings),
            "feed": [
                "key": .string(feed.key), "title": .string(feed.feed.title),
                "description": feed.feed.description.map { .string($0) } ?? .null,
                "introHTML": TemplateContext.nonEmpty(responsiveBody(feed.feed.introHTML, page: page)), "url": .string("index.html"),
                "parent": parent, "subfeeds": .array(subfeeds), "hasSubfeeds": .bool(!subfeeds.isEmpty),
                "hasControls": .bool(feed.sections.contains { Self.scrolling($0).controls }),
                "hasScrollers": .bool(feed.sections.contains { Self.scrolling($0).scrollerID != nil }),
                "pager": pagerContext(feed),
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
        try sectionContext(s, lang: feed.feed.lang, rendered: try renderCards(s, feed: feed, page: page, imagesBefore: imagesBefore), deferred: [])
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
            "strings": stringsContext(lang: item.lang ?? feed.feed.lang),
            "feed": ["title": .string(feed.feed.title), "url": .string(RelativeURL.relative(from: page, to: feed.pagePath))],
            "item": TemplateContext.item(
                item, feed: feed, page: page, image: image, variants: image == nil ? nil : images.card(feed: feed, item: item), eager: true,
                priority: true, detail: true, html: images.bodies.isEmpty ? nil : responsiveBody(item.html, page: page),
                config: site.site.config),
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
