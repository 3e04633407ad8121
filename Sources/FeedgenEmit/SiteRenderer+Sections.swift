/// `SiteRenderer`'s sections: the context of `section.mustache`, the cards' text estimates, and
/// the interface texts rendered from partials (slide labels, role descriptions).
import Dispatch
import FeedgenResolve
import FeedgenStorage
import Foundation
import FeedgenContent
import FeedgenDiagnostics
import FeedgenLayout
import FeedgenMustache

extension SiteRenderer {
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
        _ s: PreparedSection, lang: String?, rendered: RenderedCards, deferred: [DeferredCards.Estimate?],
        groups pending: FeedGroups? = nil
    ) throws(TemplateErrors) -> MustacheValue {
        let strings = strings(s.section.lang ?? lang)
        let headingID = s.section.title == nil ? nil : OutputPaths.sectionAnchor(s.section.id)
        let scroll = Self.scrolling(s)
        let count = s.section.items.count
        // Only slideshows have slide labels and role descriptions, only sections with a footer an
        // item count: no other section renders these partials.
        var slides: SectionHTML.Slides?
        var carousel: MustacheValue = .null
        if scroll.slideshow {
            slides = SectionHTML.Slides(
                labels: try slideLabels(count: count, strings: strings),
                roleDescription: try roleDescription(Self.slideRoleTemplate, text: strings[.slide]))
            carousel = .string(try roleDescription(Self.carouselRoleTemplate, text: strings[.carousel]))
        }
        let footer = SectionHTML.hasFooter(s.layout) ? try uiText(Self.itemCountTemplate, TemplateContext.itemCount(count, strings: strings)) : nil
        let section = FeedGroups.Section(
            layout: s.layout, ids: s.cellIDs, cards: rendered.cards, headingID: headingID,
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
                "seeAll": Self.seeAllContext(s, strings: strings),
            ],
            "strings": Self.stringsContext(strings),
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
    func slideLabels(count: Int, strings: UIStrings) throws(TemplateErrors) -> [String] {
        guard count > 0 else { return [] }
        let template = try uiTemplate(Self.slideLabelTemplate)
        var labels: [String] = []
        labels.reserveCapacity(count)
        for index in 1...count {
            let text = try Self.render(template, TemplateContext.slideLabel(index: index, count: count, strings: strings), partials: templates)
            let label = Self.trimmingHTMLWhitespace(text)
            if label.isEmpty {
                throw TemplateErrors(diagnostics: [
                    .error(
                        SourceLocation(path: "Templates/" + Self.slideLabelTemplate),
                        "renders no text for slide \(index) of \(count): each slide needs an accessible name (WAI-ARIA APG, carousel pattern); give the partial text, e.g. '{{text}}' or '{{index}} of {{count}}'")
                ])
            }
            labels.append(label)
        }
        return labels
    }

    /// An `aria-roledescription` from the partial at `path` (``uiText(_:_:)``), whose context's
    /// `text` is the built-in one in the page's language (`strings.carousel`, `strings.slide`).
    ///
    /// - Throws: ``TemplateErrors`` when the partial does not render, or renders no text: an
    ///   empty `aria-roledescription` is not allowed (WAI-ARIA 1.2, `aria-roledescription`:
    ///   authors must not give it an empty value).
    func roleDescription(_ path: String, text builtin: String) throws(TemplateErrors) -> String {
        let text = try uiText(path, ["text": .string(builtin)])
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

    func uiTemplate(_ path: String) throws(TemplateErrors) -> MustacheTemplate {
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
}
