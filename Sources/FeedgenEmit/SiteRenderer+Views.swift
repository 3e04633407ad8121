/// `SiteRenderer`'s parts of the pages that views add (``SectionViews``): a section header's
/// See all link and the Previous/Next and page-number links of a section's own pages.
import FeedgenMustache
import FeedgenResolve

extension SiteRenderer {
    /// `section.seeAll` of `section.mustache`: `{url, label}` (the URL relative to the feed page),
    /// or null when the section has no own page.
    static func seeAllContext(_ s: PreparedSection) -> MustacheValue {
        guard let link = s.seeAll else { return .null }
        return ["url": .string(link.url), "label": .string(link.label)]
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
        titled.sections[0].section.title = try uiText(Self.itemCountTemplate, TemplateContext.itemCount(own.total))
        return titled
    }

    /// `feed.pager` of `feed.mustache` on a section's own pages when there are two or more:
    /// `previous` and `next` (`{url}`, null at either end) and `pages` (`{number, url, current}`
    /// each, `current` true on this page's entry); null on any other page.
    func pagerContext(_ feed: PreparedFeed) -> MustacheValue {
        guard let own = feed.ownPage, own.count > 1 else { return .null }
        let page = feed.pagePath
        func link(_ n: Int) -> MustacheValue { ["url": .string(RelativeURL.relative(from: page, to: own.path(ofPage: n)))] }
        let pages: [MustacheValue] = (1...own.count).map { n in
            [
                "number": .int(n), "url": .string(RelativeURL.relative(from: page, to: own.path(ofPage: n))),
                "current": .bool(n == own.number),
            ]
        }
        return [
            "previous": own.number > 1 ? link(own.number - 1) : .null,
            "next": own.number < own.count ? link(own.number + 1) : .null,
            "pages": .array(pages),
        ]
    }
}
