import FeedgenContent
import FeedgenMustache
import FeedgenResolve

/// Builds the values templates see (documented key by key in docs/templates.md), and knows
/// which keys each kind of template is given (``TemplateContext/schema(for:)``).
public enum TemplateContext {
    /// A YAML value for templates: plain scalars keep their source text (`1.10` stays `1.10`);
    /// `true`/`false` are booleans and nulls are null (YAML 1.2 core schema).
    public static func value(_ node: YAMLNode) -> MustacheValue {
        switch node.kind {
        case .scalar(let text, _):
            if node.isNull { return .null }
            if let b = node.bool { return .bool(b) }
            if node.isPlain, node.double != nil { return .number(text) }
            return .string(text)
        case .sequence(let list):
            return .array(list.map(value))
        case .mapping(let pairs):
            return .object(MustacheObject(pairs.compactMap { p in p.key.string.map { ($0, value(p.value)) } }))
        }
    }

    /// A string, or null when it is empty (so that `{{#x}}…{{/x}}` skips it: Mustache treats
    /// an empty string as truthy).
    static func nonEmpty(_ s: String?) -> MustacheValue {
        guard let s, !s.isEmpty else { return .null }
        return .string(s)
    }

    /// The context of `partials/slide-label.mustache` (``Kind/slideLabel``): the slide's place,
    /// from 1, the number of slides, and `text`, the label in the page's language
    /// (`strings.slideLabel` filled in: "2 of 5").
    static func slideLabel(index: Int, count: Int, strings: UIStrings) -> MustacheValue {
        ["index": .int(index), "count": .int(count), "text": .string(strings.format(.slideLabel, ["index": index, "count": count]))]
    }

    /// The context of `partials/item-count.mustache` (``Kind/itemCount``): the number of items of
    /// the section, whether it is 1 (for `{{#one}}item{{/one}}{{^one}}items{{/one}}`), and `text`,
    /// the count in the page's language (``UIStrings/itemCount(_:)``: "3 items", "3件").
    static func itemCount(_ count: Int, strings: UIStrings) -> MustacheValue {
        ["count": .int(count), "one": .bool(count == 1), "text": .string(strings.itemCount(count))]
    }

    /// `iso`: the date as written (RFC 3339 or `YYYY-MM-DD`, for `datetime`); `display`: the
    /// date for readers (``DateDisplay``) in `language` and the site's zone.
    static func date(_ d: ContentDate?, language: String, config: SiteConfig) -> MustacheValue {
        guard let d else { return .null }
        return ["iso": .string(d.iso), "display": .string(DateDisplay.text(d, language: language, timeZone: config.timeZone))]
    }

    /// The card context for `item` (the `item` of an item page), with URLs relative to the page
    /// at `page`: the keys of ``schema(for:)`` `.card`.
    ///
    /// - Parameters:
    ///   - image: The item's resolved image, if any (`image.src` is made relative to `page`).
    ///   - variants: The image's variants and `sizes` (stage 4's ``ImageVariantTable``), if any.
    ///   - html: The item's body as this page shows it (its body images as `<picture>`s:
    ///     ``SiteRenderer``), when it differs from `item.html`.
    ///   - eager: `image.loading` is `eager` (images above the fold) rather than `lazy`.
    ///   - priority: `image.fetchpriority` is `high` (the page's first image), else null.
    ///   - detail: the image is drawn on the item page (its `sizes` is the page column's), not in a card.
    ///   - config: the site's configuration: its `language` (unless the item or feed has a
    ///     `lang`) and `timeZone` show the date.
    public static func item(
        _ item: Item, feed: PreparedFeed, page: String, image: ImageAsset?, variants: ResponsiveImage? = nil, eager: Bool,
        priority: Bool = false, detail: Bool = false, html: String? = nil, strings: MustacheValue? = nil, config: SiteConfig
    ) -> MustacheValue {
        let url = itemURL(item, feed: feed, page: page)
        var imageValue: MustacheValue = .null
        if let image {
            var pairs: [(String, MustacheValue)] = [
                ("src", .string(RelativeURL.hasScheme(image.outputPath) ? image.outputPath : RelativeURL.relative(from: page, to: image.outputPath))),
                ("alt", .string(image.alt)),
                ("loading", .string(eager ? "eager" : "lazy")),
                ("fetchpriority", priority ? "high" : .null),
            ]
            if let w = image.width { pairs.append(("width", .int(w))) }
            if let h = image.height { pairs.append(("height", .int(h))) }
            pairs += responsive(image, variants: variants, page: page, eager: eager, detail: detail)
            imageValue = .object(MustacheObject(pairs))
        }
        let params = MustacheObject(item.params.compactMap { p in p.key.string.map { ($0, value(p.value)) } })
        var pairs: [(String, MustacheValue)] = [
            ("id", .string(item.id)),
            ("title", .string(item.title)),
            ("description", nonEmpty(item.description)),
            ("html", .string(html ?? item.html)),
            ("hasBody", .bool(item.hasBody)),
            ("url", url.map { .string($0) } ?? .null),
            ("date", date(item.date, language: item.lang ?? feed.feed.lang ?? config.language, config: config)),
            ("image", imageValue),
            ("type", .string(item.type)),
            ("lang", nonEmpty(item.lang)),
            ("dir", SiteRenderer.isRightToLeft(item.lang) ? "rtl" : .null),
            ("tags", .array(item.tags.map { .string($0) })),
            ("hasTags", .bool(!item.tags.isEmpty)),
            ("params", .object(params)),
        ]
        // A card's own interface text (a weather card's H and L): on a page, `strings` is the page's.
        if let strings { pairs.append(("strings", strings)) }
        return .object(MustacheObject(pairs))
    }

    /// `srcset` (variants in the original format), `sizes` and `sources` (WebP variants, for a
    /// `<source>` in a `<picture>`); null and empty without variants. A lazy image's `sizes`
    /// starts with `auto` (HTML: the laid-out width, in browsers that know it; the list otherwise),
    /// except in a card that draws it wider than its box (``ImageAsset/cardCovers``).
    static func responsive(
        _ image: ImageAsset, variants: ResponsiveImage?, page: String, eager: Bool, detail: Bool
    ) -> [(String, MustacheValue)] {
        guard let variants, !variants.variants.isEmpty, let list = detail ? variants.detailSizes : variants.cardSizes else {
            return [("srcset", .null), ("sizes", .null), ("sources", .array([]))]
        }
        let original = originalMimeType(image.outputPath)
        let sizes = eager || (!detail && variants.cardCovers) ? list : "auto, " + list
        let own = srcset(variants.variants, type: original, page: page)
        let sources: [MustacheValue] =
            original == "image/webp" ? [] : [["type": "image/webp", "srcset": .string(srcset(variants.variants, type: "image/webp", page: page))]]
        return [("srcset", nonEmpty(own)), ("sizes", .string(sizes)), ("sources", .array(sources))]
    }

    /// The `srcset` of the `variants` of MIME type `type`, relative to `page`:
    /// `../images/a-1a2b3c4d-320.webp 320w, ../images/a-1a2b3c4d-640.webp 640w`.
    static func srcset(_ variants: [ImageVariant], type: String, page: String) -> String {
        variants.filter { $0.mimeType == type }
            .map { RelativeURL.relative(from: page, to: $0.outputPath) + " \($0.width)w" }
            .joined(separator: ", ")
    }

    /// The MIME type of an image path by its extension (`image/png` for `.png`).
    public static func originalMimeType(_ path: String) -> String {
        switch path.split(separator: ".").last?.lowercased() ?? "" {
        case "jpg", "jpeg": "image/jpeg"
        case "png": "image/png"
        case "webp": "image/webp"
        case "gif": "image/gif"
        case "svg": "image/svg+xml"
        default: "application/octet-stream"
        }
    }

    /// Where a card leads: its `link` (external URLs as written; site paths made relative), else
    /// its own detail page when it has a body, else nowhere.
    static func itemURL(_ item: Item, feed: PreparedFeed, page: String) -> String? {
        if let link = item.link, !link.isEmpty {
            if RelativeURL.hasScheme(link) || link.hasPrefix("#") { return link }
            // Already a URL: the path is decoded and encoded once; `?query#fragment` as written.
            guard let path = LinkResolver.outputFile(ofLink: link) else { return "#" }
            return RelativeURL.relative(from: page, to: path) + LinkResolver.split(link).suffix
        }
        guard item.hasBody else { return nil }
        return RelativeURL.relative(from: page, to: feed.detailPath(item))
    }
}

// MARK: - What each kind of template is given

extension TemplateContext {
    /// The kinds of template feedgen renders, each with its own context.
    public enum Kind: String, Sendable, CaseIterable {
        /// `feed.mustache`: a feed page.
        case feed
        /// `section.mustache`: one section of a feed page.
        case section
        /// `item.mustache`: an item's detail page.
        case item
        /// `cards/<type>.mustache`: one card.
        case card
        /// `partials/slide-label.mustache`: the accessible name of one slide of a hero slideshow,
        /// rendered by feedgen itself (not included by another template).
        case slideLabel
        /// `partials/item-count.mustache`: the text of a section's footer, its item count ("3
        /// items"), rendered by feedgen itself.
        case itemCount
        /// `partials/carousel-roledescription.mustache` and `partials/slide-roledescription.mustache`:
        /// the `aria-roledescription` of a hero slideshow and of its slides, rendered by feedgen
        /// itself with an empty context.
        case roleDescription

        /// The kind of the template at `path` (relative to `Templates/`); nil for other partials
        /// and any other file, whose context is that of the templates that include them.
        public init?(path: String) {
            switch path {
            case "feed.mustache": self = .feed
            case "section.mustache": self = .section
            case "item.mustache": self = .item
            case "partials/slide-label.mustache": self = .slideLabel
            case "partials/item-count.mustache": self = .itemCount
            case "partials/carousel-roledescription.mustache", "partials/slide-roledescription.mustache":
                self = .roleDescription
            default:
                guard path.hasPrefix("cards/"), path.hasSuffix(".mustache") else { return nil }
                self = .card
            }
        }
    }

    /// The card keys, relative to the card (`item.` in front on an item page).
    static let cardKeys = [
        "id", "title", "type", "description", "html", "hasBody", "url", "date", "date.iso", "date.display",
        "image", "image.src", "image.alt", "image.width", "image.height", "image.loading", "image.fetchpriority",
        "image.srcset", "image.sizes", "image.sources", "image.sources.type", "image.sources.srcset", "tags", "hasTags",
        "lang", "dir", "params",
    ]

    static let pageKeys = [
        "page", "page.title", "page.heading", "page.description", "page.lang", "page.dir", "page.root", "page.path",
        "page.url", "page.type", "page.image", "page.imageAlt", "page.feeds", "page.hasFeeds",
        "site", "site.title", "site.language", "site.baseURL",
    ] + stringKeys

    /// `strings` and its keys (``SiteRenderer/stringsContext(_:)``), on every page and section.
    static let stringKeys = ["strings"] + SiteRenderer.plainStringKeys.map { "strings." + $0.rawValue }

    /// The context keys a template of `kind` is given, as dotted paths. The keys of a list's
    /// elements are listed under the list's own path (`feed.subfeeds.url`), which is how a
    /// section over the list reaches them. docs/templates.md documents every one of them.
    public static func schema(for kind: Kind) -> ContextSchema {
        switch kind {
        case .feed:
            return ContextSchema(paths: pageKeys + [
                // Only feed pages list feeds (empty on item pages).
                "page.feeds.type", "page.feeds.title", "page.feeds.url", "page.feeds.absoluteURL",
                "feed", "feed.key", "feed.title", "feed.description", "feed.introHTML", "feed.url",
                "feed.parent", "feed.parent.title", "feed.parent.url",
                "feed.subfeeds", "feed.subfeeds.title", "feed.subfeeds.url", "feed.hasSubfeeds", "feed.hasControls",
                "feed.hasScrollers",
                "feed.pager", "feed.pager.previous", "feed.pager.previous.url", "feed.pager.next", "feed.pager.next.url",
                "feed.pager.label", "feed.pager.pages", "feed.pager.pages.number", "feed.pager.pages.url",
                "feed.pager.pages.current", "feed.pager.pages.gap",
                "sections", "sections.id", "sections.html",
            ])
        case .section:
            return ContextSchema(paths: [
                "section", "section.id", "section.title", "section.headingID", "section.headerHTML", "section.lang", "section.dir",
                "section.preset", "section.itemCount", "section.orthogonalScrollingBehavior", "section.scrollerID",
                "section.controls", "section.slideshow", "section.roleDescription",
                "section.seeAll", "section.seeAll.url", "section.seeAll.label", "groupsHTML",
            ] + stringKeys)
        case .item:
            return ContextSchema(
                paths: pageKeys + ["feed", "feed.title", "feed.url", "item"] + cardKeys.map { "item." + $0 },
                openPrefixes: ["item.params"], emptyLists: ["page.feeds"])
        case .card:
            return ContextSchema(paths: cardKeys + stringKeys, openPrefixes: ["params"])
        case .slideLabel:
            return ContextSchema(paths: ["index", "count", "text"])
        case .itemCount:
            return ContextSchema(paths: ["count", "one", "text"])
        case .roleDescription:
            return ContextSchema(paths: ["text"])
        }
    }
}

/// The keys a kind of template is given: dotted paths, plus prefixes below which any name may
/// be present (`params`: free front matter data).
public struct ContextSchema: Sendable, Hashable {
    /// Every known path, objects and lists included (`image`, `image.src`).
    public let paths: Set<String>
    /// Paths whose value is free data: any name below them may be present.
    public let openPrefixes: [String]
    /// Lists that are always empty in this kind of context (`page.feeds` on item pages): what a
    /// section over one holds never renders there, so its names are not checked against it.
    public let emptyLists: Set<String>

    public init(paths: some Sequence<String>, openPrefixes: [String] = [], emptyLists: Set<String> = []) {
        self.paths = Set(paths)
        self.openPrefixes = openPrefixes
        self.emptyLists = emptyLists
    }

    /// Whether `path` is known, or lies below an open prefix.
    public func provides(_ path: String) -> Bool {
        paths.contains(path) || isOpen(path)
    }

    /// Whether `path` is an open prefix or below one (any name below it may be present).
    public func isOpen(_ path: String) -> Bool {
        openPrefixes.contains { path == $0 || path.hasPrefix($0 + ".") }
    }
}
