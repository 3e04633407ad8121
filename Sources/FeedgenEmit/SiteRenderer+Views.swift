/// `SiteRenderer`'s parts of the pages that views add (``SectionViews``): a section header's
/// See all link and the pager of a section's own pages (Previous/Next and the page numbers,
/// elided around the current page), and the interface text in the page's language
/// (``UIStrings``).
import FeedgenContent
import Foundation
import FeedgenMustache
import FeedgenResolve

extension SiteRenderer {
    /// The interface text of a page or section in `lang` (else the site's `language`), with the
    /// site's `strings` overrides (its own for that language last).
    func strings(_ lang: String?) -> UIStrings {
        let language = lang ?? site.site.config.language
        return UIStrings(language: language, overrides: site.site.config.strings(forLanguage: language))
    }

    /// `strings` of the page and section templates: every ``UIStrings/Key`` without
    /// placeholders (`strings.seeAll`, `strings.previousPage`…); the ones with placeholders
    /// reach templates filled in (`feed.pager.label`, the partials' `text`).
    static func stringsContext(_ strings: UIStrings) -> MustacheValue {
        .object(MustacheObject(plainStringKeys.map { ($0.rawValue, .string(strings[$0])) }))
    }

    /// The keys `strings` holds in templates, in name order.
    static let plainStringKeys = UIStrings.Key.allCases.filter(\.placeholders.isEmpty).sorted()

    /// ``stringsContext(_:)`` of ``strings(_:)`` of `lang`, made once per language (``StringsContexts``).
    func stringsContext(lang: String?) -> MustacheValue {
        let language = lang ?? site.site.config.language
        return stringsContexts.value(language) { Self.stringsContext(strings(language)) }
    }

    /// `section.seeAll` of `section.mustache`: `{url, label}` (the URL relative to the feed page;
    /// the label is the section's `seeAll` text, else `strings`' `seeAll`), or null when the
    /// section has no own page.
    static func seeAllContext(_ s: PreparedSection, strings: UIStrings) -> MustacheValue {
        guard let link = s.seeAll else { return .null }
        return ["url": .string(link.url), "label": .string(link.label ?? strings[.seeAll])]
    }

    /// `feed` with, on a section's or tag's own page, its section's title (a placeholder from
    /// ``SectionPages``, so that the layout model has the header) being the item count
    /// (`partials/item-count.mustache`, "8 items"): the page's `h1` is the section's title, and
    /// the cards' headings (`h3`) need an `h2` above them. Any other page is returned as it is.
    ///
    /// - Throws: ``TemplateErrors`` when the partial does not render.
    func titled(_ feed: PreparedFeed) throws(TemplateErrors) -> PreparedFeed {
        guard let own = feed.ownPage, feed.sections.count == 1 else { return feed }
        var titled = feed
        titled.sections[0].section.title = try uiText(
            Self.itemCountTemplate, TemplateContext.itemCount(own.total, strings: strings(feed.sections[0].section.lang ?? feed.feed.lang)))
        return titled
    }

    /// `feed.pager` of `feed.mustache` on a section's own pages when there are two or more:
    /// `previous` and `next` (`{url}`, null at either end), `label` (`strings.pageOf` filled in:
    /// "Page 2 of 43") and `pages`, the entries of ``pagerNumbers(current:count:)`` in order:
    /// `{number, url, current, gap}`, `current` true on this page's entry, `gap` true (and
    /// `number` and `url` null) for an ellipsis; null on any other page.
    func pagerContext(_ feed: PreparedFeed) -> MustacheValue {
        guard let own = feed.ownPage, own.count > 1 else { return .null }
        let page = feed.pagePath
        func link(_ n: Int) -> MustacheValue { ["url": .string(RelativeURL.relative(from: page, to: own.path(ofPage: n)))] }
        let pages: [MustacheValue] = Self.pagerNumbers(current: own.number, count: own.count).map { n in
            guard let n else { return ["number": .null, "url": .null, "current": false, "gap": true] }
            return [
                "number": .int(n), "url": .string(RelativeURL.relative(from: page, to: own.path(ofPage: n))),
                "current": .bool(n == own.number), "gap": false,
            ]
        }
        return [
            "previous": own.number > 1 ? link(own.number - 1) : .null,
            "next": own.number < own.count ? link(own.number + 1) : .null,
            "label": .string(strings(feed.feed.lang).format(.pageOf, ["number": own.number, "count": own.count])),
            "pages": .array(pages),
        ]
    }

    /// The page numbers a pager shows, nil for an ellipsis: the first and last page and the
    /// current one with `around` on either side (`1 … 5 6 7 8 9 … 43` on page 7 of 43), as
    /// Hugo's and Bootstrap's pagers elide; a gap of one page shows that page instead (an ellipsis
    /// would take its place for nothing).
    static func pagerNumbers(current: Int, count: Int, around: Int = 2) -> [Int?] {
        guard count > 0 else { return [] }
        var shown = Set([1, count])
        for n in max(1, current - around)...min(count, max(1, current + around)) { shown.insert(n) }
        var numbers: [Int?] = []
        var last = 0
        for n in shown.sorted() {
            if n - last == 2 {
                numbers.append(last + 1)
            } else if n - last > 2 {
                numbers.append(nil)
            }
            numbers.append(n)
            last = n
        }
        return numbers
    }
}

/// The `strings` context of each language a render has used: the same for every page in the
/// language, and building it (every key looked up, an object made) for each item page took
/// about 1% of a 10,000-item build.
final class StringsContexts: @unchecked Sendable {
    private let lock = NSLock()
    private var byLanguage: [String: MustacheValue] = [:]

    func value(_ language: String, make: () -> MustacheValue) -> MustacheValue {
        if let known = lock.withLock({ byLanguage[language] }) { return known }
        let made = make()
        lock.withLock { byLanguage[language] = made }
        return made
    }
}
