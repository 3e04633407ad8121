/// The key of a feed page (``RenderKeys/feedKey(_:site:)``): every field of its prepared feed,
/// its items' ids and cards' keys, and what it shows of the site, hashed.
import FeedgenContent
import FeedgenDiagnostics
import FeedgenEmit
import FeedgenLayout
import FeedgenResolve
import FeedgenStorage

extension RenderKeys {
    /// The key of a feed page in the back buffer's manifest: `site` (``feedSiteKey(outline:links:)``,
    /// seeded with ``salt``) and the page's inputs. Every stored field of its feed, sections and
    /// own-page place is hashed (the tests check the lists of fields: one added must be added here).
    public func feedKey(_ page: FeedPageInputs, site: UInt64) -> UInt64 {
        var h = StableHasher(seed: site)
        h.combine("feed page")
        h.combine(page.path)
        h.combine(page.contentVisibility)
        h.combine(page.introHTML)
        Self.combine(page.feed.feed, into: &h)
        h.combine(page.feed.sections.count)
        for s in page.feed.sections {
            Self.combine(s.section, into: &h)
            Self.combine(s.layout, into: &h)
            h.combine(s.preset.rawValue)
            // `detailItems` (no card on this page) is left out, `drawnIDs` are the inputs' (sorted).
            h.combine(s.seeAll != nil)
            if let link = s.seeAll {
                h.combine(link.url)
                h.combine(link.path)
                h.combine(link.label)
            }
        }
        h.combine(page.feed.ownPage != nil)
        if let own = page.feed.ownPage {
            switch own.kind {
            case .section(let id):
                h.combine("section")
                h.combine(id)
            case .tag(let tag):
                h.combine("tag")
                h.combine(tag)
            }
            h.combine(own.origin)
            h.combine(own.folder)
            h.combine(own.number)
            h.combine(own.count)
            h.combine(own.total)
            Self.combine(own.source, into: &h)
        }
        h.combine(page.cardKeys.count)
        for s in page.cardKeys.indices {
            let (drawn, keys) = (page.drawnIDs[s], page.cardKeys[s])
            h.combine(drawn.count)
            for id in drawn { h.combine(id) }
            h.combine(keys.count)
            for key in keys { h.combine(key) }
        }
        return h.value
    }

    /// Every field of `feed` but its sections' items (the page's inputs stand for them).
    static func combine(_ feed: Feed, into h: inout StableHasher) {
        h.combine(feed.path)
        h.combine(feed.folder)
        h.combine(feed.sourcePath)
        h.combine(feed.title)
        h.combine(feed.description)
        h.combine(feed.lang)
        h.combine(feed.introHTML)
        combine(feed.introLinks, into: &h)
        h.combine(feed.interSectionSpacing.bitPattern)
        h.combine(feed.sections.count)
        for section in feed.sections { combine(section, into: &h) }
        h.combine(ItemCache.fingerprint(feed.frontMatter))
        h.combine(feed.homeFile)
    }

    /// Every field of `section` but its items' (their count only).
    static func combine(_ section: Section, into h: inout StableHasher) {
        h.combine(section.id)
        h.combine(section.sourcePath)
        h.combine(section.title)
        h.combine(section.weight)
        h.combine(ItemCache.fingerprint(section.layout))
        h.combine(section.sort.rawValue)
        h.combine(section.lang)
        h.combine(section.controls)
        h.combine(section.headerHTML)
        combine(section.headerLinks, into: &h)
        h.combine(section.items.count)
        h.combine(ItemCache.fingerprint(section.frontMatter))
    }

    static func combine(_ links: [MarkdownLink], into h: inout StableHasher) {
        h.combine(links.count)
        for link in links {
            h.combine(link.target)
            h.combine(link.fragment)
            combine(link.location, into: &h)
            h.combine(link.destination)
        }
    }

    static func combine(_ location: SourceLocation, into h: inout StableHasher) {
        h.combine(location.path)
        h.combine(location.line)
        h.combine(location.column)
    }
}
