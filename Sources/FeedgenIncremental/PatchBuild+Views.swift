/// The patch build of a site with views (``SectionViews``: a section's own pages, limits, views
/// drawing from other sections, tag pages), where one item may show on several pages: where each
/// item's cards and feed entries are, recorded in the snapshot, and a changed item's cards
/// rendered for each page that shows it.
import FeedgenBuild
import FeedgenContent
import FeedgenEmit
import FeedgenResolve

extension BuildSnapshot {
    /// Where an item of a site with views shows (``ItemRecord/elsewhere``).
    struct Elsewhere: Equatable {
        var cards: [CardPlace]
        /// Per Atom/JSON entry: the page whose documents hold it (an index of ``feeds``) and the
        /// entry's index in them.
        var entries: [(feed: Int, entry: Int)]

        static func == (a: Elsewhere, b: Elsewhere) -> Bool {
            a.cards == b.cards && a.entries.elementsEqual(b.entries) { $0.feed == $1.feed && $0.entry == $1.entry }
        }
    }

    /// A card of an item on a written page, and what that page's card is rendered with.
    struct CardPlace: Equatable {
        /// The page (an index of ``feeds``), the section and the card's place in it.
        var feed: Int
        var section: Int
        var item: Int
        /// The section's preset (its cards' estimates; `chips` draws cards as chips).
        var preset: String
        /// The page's language (the card's date).
        var lang: String?
        /// The cell's `data-item-id` (``PreparedSection/cellIDs``).
        var cellID: String
        /// Whether the section has the layout and preset of the section whose page the item's
        /// detail page is written from: its image is drawn at the same sizes there.
        var sameLayout: Bool
    }
}

extension PatchBuild {
    /// Every card and Atom/JSON entry of each item file of a site with views, by the file's
    /// index, and how many entries each syndicated page's documents hold (``match(_:written:)``).
    struct Places {
        var byFile: [BuildSnapshot.Elsewhere?]
        var entryCounts: [(feed: Int, count: Int)] = []

        /// Whether the written documents hold the entries the site gives each page (`counts`).
        static func match(_ counts: [(feed: Int, count: Int)], written: [BuildSnapshot.FeedRecord]) -> Bool {
            counts.allSatisfy { written[$0.feed].syndication?.map.atom.count == $0.count }
        }
    }

    /// The ``Places`` of `site` (a site with views), made from the site alone: `fileCount` item
    /// files, `file` the index of an item's (nil for an item of none: its places are not kept).
    static func places(_ site: PreparedSite, fileCount: Int, file: (Item) -> Int?) -> Places {
        var places = [BuildSnapshot.Elsewhere?](repeating: nil, count: fileCount)
        // Each item's home section, by its place (feed, section); whether two sections have one
        // layout is compared once per pair, not per item.
        struct Pair: Hashable { var home: Int, feed: Int, section: Int }
        var home = [(f: Int, s: Int)?](repeating: nil, count: fileCount)
        for (f, feed) in site.feeds.enumerated() where feed.ownPage == nil {
            for (s, section) in feed.sections.enumerated() {
                for item in section.pageItems where item.fileName != "" {
                    if let k = file(item) { home[k] = (f, s) }
                }
            }
        }
        var sameLayout: [Pair: Bool] = [:]
        for (f, feed) in site.feeds.enumerated() {
            for (s, section) in feed.sections.enumerated() {
                let ids = section.cellIDs
                let preset = section.preset.rawValue
                for (i, item) in section.section.items.enumerated() where item.fileName != "" {
                    guard let k = file(item) else { continue }
                    let same = home[k].map { h in
                        let pair = Pair(home: h.f << 32 | h.s, feed: f, section: s)
                        if let known = sameLayout[pair] { return known }
                        let homeSection = site.feeds[h.f].sections[h.s]
                        let same = homeSection.layout == section.layout && homeSection.preset == section.preset
                        sameLayout[pair] = same
                        return same
                    } ?? false
                    if places[k] == nil { places[k] = BuildSnapshot.Elsewhere(cards: [], entries: []) }
                    places[k]!.cards.append(
                        BuildSnapshot.CardPlace(
                            feed: f, section: s, item: i, preset: preset, lang: feed.feed.lang, cellID: ids[i], sameLayout: same))
                }
            }
        }
        guard let syndication = Syndication(site: site) else { return Places(byFile: places) }
        var counts: [(feed: Int, count: Int)] = []
        for (f, feed) in site.feeds.enumerated() where feed.isSyndicated {
            let entries = syndication.entries(feed)
            counts.append((f, entries.count))
            for (e, entry) in entries.enumerated() where entry.item.fileName != "" {
                guard let k = file(entry.item) else { continue }
                if places[k] == nil { places[k] = BuildSnapshot.Elsewhere(cards: [], entries: []) }
                places[k]!.entries.append((f, e))
            }
        }
        return Places(byFile: places, entryCounts: counts)
    }

    /// The cards of `change` (its item loaded alone into the renderer's site) on every page that
    /// shows it (`places`), each rendered for its page and paired with the index of that page in
    /// `old.feeds`. An item with an image is not patched (``CardPlace/sameLayout`` is recorded for
    /// a patch of those, not made yet).
    static func placedCards(
        _ change: Change, places: BuildSnapshot.Elsewhere, renderer: SiteRenderer, old: BuildSnapshot, links: ContentLinks,
        path: String
    ) -> Result<[(page: Int, card: ChangedCard)], NotApplicable> {
        func no(_ reason: String) -> Result<[(page: Int, card: ChangedCard)], NotApplicable> { .failure(NotApplicable(reason: reason)) }
        var cards: [(page: Int, card: ChangedCard)] = []
        let image = renderer.site.feeds[change.feed].sections[change.section].section.items[change.item].image != nil
        for place in places.cards {
            guard place.feed < old.feeds.count, place.section < old.feeds[place.feed].map.cards.count,
                place.item < old.feeds[place.feed].map.cards[place.section].count
            else { return no("snapshot") }
            // A picture's variants are those of every page showing its file (its widths there),
            // which the item loaded alone does not know: such items take the usual path.
            guard !image else { return no("\(path) has an image, in a site with views") }
            let record = old.feeds[place.feed]
            let html: String
            do {
                html = try renderer.card(
                    feed: change.feed, section: change.section, item: change.item, page: record.path, lang: place.lang,
                    chips: place.preset == "chips", eager: record.map.eager[place.section][place.item],
                    priority: record.map.priority[place.section][place.item])
            } catch {
                return no("templates")
            }
            guard resolvesEveryLink(html, links) else { return no("\(path): a content-link marker of another file") }
            cards.append(
                (
                    place.feed,
                    ChangedCard(
                        section: place.section, item: place.item, range: record.map.cards[place.section][place.item], html: html,
                        preset: place.preset, id: place.cellID, links: links)
                ))
        }
        return .success(cards)
    }

    /// An Atom/JSON entry to replace: of the page `feed` (an index of the snapshot's feeds), for
    /// `change`, at `entry` (nil: found by the change's place in its feed).
    typealias EntryEdit = (feed: Int, change: Change, entry: Int?)

    /// The entries of `changes` (their items in `feeds`, the partial site's) to replace: each
    /// item's in its feed's documents, or in a site with views every entry it has (its feed's,
    /// its tag pages').
    static func entryEdits(_ changes: [Change], feeds: [PreparedFeed]) -> Result<[EntryEdit], NotApplicable> {
        var edits: [EntryEdit] = []
        for change in changes {
            guard let places = change.record.elsewhere else {
                edits.append((change.record.feed, change, nil))
                continue
            }
            let item = feeds[change.feed].sections[change.section].section.items[change.item]
            for (f, e) in places.entries {
                // An entry without a page of its own has its page's URL as its id: only its feed's
                // is known here.
                guard item.hasBody || f == change.record.feed else {
                    return .failure(NotApplicable(reason: "an entry of an item without a body on a tag page"))
                }
                edits.append((f, change, e))
            }
        }
        return .success(edits)
    }
}
