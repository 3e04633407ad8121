import CFileSystem
import FeedgenBuild
import FeedgenContent
import FeedgenDiagnostics
import FeedgenEmit
import FeedgenResolve
import FeedgenStorage
import Foundation

/// A build that patches the previous output instead of building the site again, when the only
/// changes since the build that wrote it are in item bodies (docs/benchmarks.md, "a patch
/// build"). It loads only the changed item files, renders their detail pages and cards, and
/// replaces each card in its written feed page (``FeedPageMap``); every other file of the output
/// is carried over as it is (``OutputWriter/Session/keepLive(except:)``). Its output is the
/// output a full build would write, byte for byte, and it reports the same diagnostics.
///
/// It applies only when all of these hold, else the build takes its usual path (having listed
/// the content once, for both):
///
/// - the last build of this output wrote a ``BuildSnapshot`` (it succeeded, without `--watch`
///   or `--previews`, and no item has a `publishDate` or `expiryDate` compared with "now");
/// - the options, templates, configuration and site folder are those of that build, and so
///   are the problems found while listing the content;
/// - the item files are the same paths, and at most ``maximumChanged`` of them have another
///   `stat`; the feed and section files, the files of `static/` and the items' images have
///   theirs, and no image has appeared beside an item whose image was found in `static/`;
/// - each changed item, read again, is equal to its last version outside its body
///   (``ItemCache/fingerprintOutsideBody(_:)``), has no errors (warnings only without
///   `--strict`; its diagnostics replace its last ones: ``merged(_:fresh:lint:paths:changes:feeds:strict:)``),
///   and links only to content files it linked to before, with no `#fragment` to check on
///   another page (``LinkWarnings``);
/// - each changed card keeps its height estimate on a page that defers cards, unless it is a
///   deferred card of a single-column section (``DeferredCards/Column``), and every
///   content-link marker in its card and page leads to a file it linked to before.
///
/// With a `baseURL`, each changed item's Atom entry and JSON Feed item are replaced in the
/// feeds' documents the same way (``SyndicationMap``). In a site with views (``SectionViews``:
/// own pages, limits, views, tag pages) every page showing a changed item gets its card, and
/// every document its entry (``BuildSnapshot/Elsewhere``).
enum PatchBuild {
    /// More changed items than this take the usual path (which renders them on every core).
    static let maximumChanged = 64

    /// Whether a build with these options records a snapshot (when it succeeds): one that
    /// writes, without `--watch` or `--previews`. One that also uses the cache (not `--clean`)
    /// may be patched.
    static func isEligible(_ options: BuildOptions) -> Bool {
        options.write && !options.liveReload && !options.previews
    }

    /// A hash of the build's inputs other than content: the options that change the output,
    /// ``SiteBuilder/pageSalt(templates:config:liveReload:)`` (templates, configuration,
    /// binary), the problems found while listing the content (a file that is not an item, such
    /// as a stray `.md` in a feed folder, is in no other record, yet a build reports it), and
    /// the site folder: the images and absent files are recorded by absolute path, so another
    /// copy of the site (another checkout) built into the same output must not be compared
    /// with them.
    static func inputs(options: BuildOptions, pageSalt: UInt64, listing: ContentListing) -> UInt64 {
        var h = StableHasher(seed: pageSalt)
        h.combine(listing.root)
        for diagnostic in listing.diagnostics { h.combine(diagnostic.description) }
        h.combine(options.drafts)
        h.combine(options.future)
        h.combine(options.expired)
        h.combine(options.strict)
        h.combine(options.contentVisibility)
        return h.value
    }

    /// The stamps of `paths`, each at `prefix + path`.
    static func sources(_ paths: [String], prefix: String) -> [BuildSnapshot.Source] {
        paths.map { BuildSnapshot.Source(path: $0, stamp: FileStamp.of(prefix + $0)) }
    }

    /// The image files `site` shows (absolute paths), sorted, with their stamps.
    static func images(_ site: PreparedSite) -> [BuildSnapshot.Source] {
        let files = Set(site.images.values.map(\.source).filter { !$0.isEmpty } + site.bodyFiles.values).sorted()
        return sources(files, prefix: "")
    }

    /// For each item image found in `static/` although its path is relative, the file beside the
    /// item that the path names first (absolute paths, sorted): one appearing there would take
    /// its place (``SiteBuilder/resolveImage(_:item:site:realRoot:diagnostics:)``).
    static func shadowingImages(_ site: PreparedSite) -> [String] {
        var paths: Set<String> = []
        for feed in site.feeds {
            for section in feed.sections {
                for item in section.section.items {
                    guard let image = item.image, !RelativeURL.hasScheme(image.src), !image.src.hasPrefix("/"),
                        let asset = site.image(feed: feed, item: item),
                        let rel = SiteResolver.normalize((item.sourcePath as NSString).deletingLastPathComponent + "/" + image.src),
                        rel.hasPrefix("content/"), asset.source != site.site.root + "/" + rel
                    else { continue }
                    paths.insert(site.site.root + "/" + rel)
                }
            }
        }
        return paths.sorted()
    }

    // MARK: Recording

    /// The snapshot of a build that wrote `site` (exit status 0), or nil when its output may not
    /// be patched (see the type's note).
    ///
    /// - Parameters:
    ///   - records: ``itemRecords(listing:site:links:previous:fingerprints:)`` of the build,
    ///     made while it rendered (nil: a record is missing, no snapshot).
    static func snapshot(
        options: BuildOptions, listing: ContentListing, site: PreparedSite, templates: TemplateSet,
        feeds: [BuildSnapshot.FeedRecord], report: BuildReport, start: Int64, records: ItemRecords?,
        backFeeds: [BuildSnapshot.FeedRecord] = []
    ) -> BuildSnapshot? {
        guard isEligible(options), !site.site.isScheduled, feeds.count == site.feeds.count, let items = records?.items,
            let files = records?.files
        else { return nil }
        // With a `baseURL`, every Atom and JSON document must be mapped.
        if site.site.config.baseURL != nil, zip(site.feeds, feeds).contains(where: { $0.isSyndicated && $1.syndication == nil }) {
            return nil
        }
        // In a site with views an item may show on several pages: its record lists them (its
        // place is its detail page's), as the site gives them; the written documents must hold
        // the entries listed.
        if let counts = records?.entryCounts, !Places.match(counts, written: feeds) { return nil }
        let root = listing.root
        var diagnostics = report.diagnostics
        diagnostics.sort()
        var snapshot = BuildSnapshot(
            recorded: start,
            inputs: inputs(
                options: options,
                pageSalt: RenderKeys.pageSalt(templates: templates, config: site.site.config, liveReload: options.liveReload),
                listing: listing),
            itemFiles: files, items: items,
            settingsFiles: sources(listing.settingsFiles, prefix: root + "/"),
            staticFiles: sources(site.site.staticFiles, prefix: root + "/static/"), images: images(site),
            absent: Array(Set(shadowingImages(site) + site.bodyAbsent)).sorted(), feeds: feeds,
            backFeeds: backFeeds.filter { $0.key != 0 }, diagnostics: diagnostics, pages: report.pages,
            feedCount: report.feeds, cards: report.cards)
        snapshot.readFrom = records?.readFrom ?? BuildSnapshot.ReadFrom()
        return snapshot
    }

    /// The item files of a build (as listed, with their stamps) and the record of each that
    /// the site shows.
    struct ItemRecords {
        var files: [BuildSnapshot.Source]
        /// The last snapshot's records where they are the same (their bytes are copied).
        var items: BuildSnapshot.Records
        /// In a site with views, the entries each syndicated page's documents must hold (the
        /// records list every card and entry of their item: ``places(_:)``).
        var entryCounts: [(feed: Int, count: Int)]? = nil
        /// Where the last snapshot's parts lie: those equal to this build's are copied into its
        /// snapshot.
        var readFrom = BuildSnapshot.ReadFrom()
    }

    /// The record of each item file of `listing` (in its order) that `site` shows, made from
    /// the resolved site alone (the build makes them while it renders); nil when an item shown
    /// has no file of the listing, or two places share a file (then no snapshot is recorded).
    /// In a site with views, an item's place is its detail page's, and the record lists every
    /// card and entry of the item (``places(_:)``; the written documents are checked against
    /// them in ``snapshot(options:listing:site:templates:feeds:report:start:records:)``).
    ///
    /// - Parameters:
    ///   - previous: the output's last snapshot, if it was read: an item equal to its record
    ///     there keeps its fingerprint outside the body (computing it for 10,000 items took
    ///     20 ms of the build).
    ///   - fingerprints: the items' fingerprints as the build loaded them, if known.
    ///   - listed: `listing`'s item files, if listed already.
    static func itemRecords(
        listing: ContentListing, site: PreparedSite, links: ContentLinks, previous: BuildSnapshot? = nil,
        fingerprints: ItemFingerprints? = nil, listed: [(path: String, stamp: FileStamp?)]? = nil
    ) -> ItemRecords? {
        let views = SectionViews.showsItemsElsewhere(site)
        let files = listed ?? listing.itemFiles
        var index: [String: Int] = [:]
        index.reserveCapacity(files.count)
        for (k, file) in files.enumerated() { index[file.path] = k }
        var shown: [(file: Int, f: Int, s: Int, i: Int)] = []
        // With views, an item's file is found again for each page that shows it: by the item's
        // identity (one word to hash) when it is the item shown here, else by its path.
        var fileOf: [ObjectIdentifier: Int] = [:]
        if views { fileOf.reserveCapacity(files.count) }
        for (f, feed) in site.feeds.enumerated() where !views || feed.ownPage == nil {
            for (s, section) in feed.sections.enumerated() {
                for (i, item) in (views ? section.pageItems : section.section.items).enumerated() where item.fileName != "" {
                    guard let k = index[item.sourcePath] else { return nil }
                    shown.append((k, f, s, i))
                    if views { fileOf[item.copyIdentity] = k }
                }
            }
        }
        let places = shown
        // The previous records by path (in the same order when no file was added or removed).
        let sameOrder = previous.map { previous in
            previous.itemFiles.count == files.count && zip(previous.itemFiles, files).allSatisfy({ $0.path == $1.path })
        } ?? false
        // Each file's index in the previous snapshot (the same when no file was added or
        // removed): its fingerprints are read where they lie.
        let previousIndex: [Int?]? = previous.map { previous in
            sameOrder ? Array(files.indices) : Self.indices(of: files.map(\.path), in: previous.itemFiles.map(\.path))
        }
        let records: [BuildSnapshot.ItemRecord] = parallelMap(places.count) { n in
            let (k, f, s, i) = places[n]
            // Read in place (a copy of the section retains each of its fields).
            let item = views ? site.feeds[f].sections[s].pageItems[i] : site.feeds[f].sections[s].section.items[i]
            var linked: [BuildSnapshot.Link] = []
            // A link to no page (a folder without a feed page: a warning) records "", as a patch
            // records it (its warning is among the stored diagnostics).
            let pages = links.pages(of: item.markdownLinks, feed: f, section: s, item: i)
            linked.reserveCapacity(item.markdownLinks.count)
            for (n, link) in item.markdownLinks.enumerated() { linked.append(BuildSnapshot.Link(target: link.target, page: pages[n] ?? "")) }
            linked += SnapshotAnchors.snapshotMarks(item.markdownLinks)
            let whole = fingerprints?.fingerprint(item) ?? ItemCache.fingerprint(item)
            let outside =
                if let p = previousIndex?[k], let old = previous?.items.fingerprints(p), old.whole == whole {
                    old.outside
                } else {
                    fingerprints?.fingerprintOutsideBody(item) ?? ItemCache.fingerprintOutsideBody(item)
                }
            return BuildSnapshot.ItemRecord(feed: f, section: s, item: i, fingerprint: outside, whole: whole, links: linked)
        }
        var items = [BuildSnapshot.ItemRecord?](repeating: nil, count: files.count)
        for (n, record) in records.enumerated() {
            guard items[shown[n].file] == nil else { return nil }
            items[shown[n].file] = record
        }
        var entryCounts: [(feed: Int, count: Int)]?
        if views {
            let elsewhere = Self.places(site, fileCount: files.count) { fileOf[$0.copyIdentity] ?? index[$0.sourcePath] }
            for k in files.indices where items[k] != nil {
                items[k]!.elsewhere = elsewhere.byFile[k] ?? BuildSnapshot.Elsewhere(cards: [], entries: [])
            }
            entryCounts = elsewhere.entryCounts
        }
        // The last snapshot's records, those that changed replaced: the others' bytes are
        // copied into the snapshot (``BuildSnapshot/encoded(salt:)``).
        var list = BuildSnapshot.Records(items)
        if sameOrder, let previous {
            let made = items
            let same = parallelMap(files.count) { k in previous.items.isRead(k, sameAs: made[k]) }
            list = previous.items
            for k in files.indices where !same[k] { list[k] = items[k] }
        }
        return ItemRecords(
            files: files.map { BuildSnapshot.Source(path: $0.path, stamp: $0.stamp) }, items: list, entryCounts: entryCounts,
            readFrom: previous?.readFrom ?? BuildSnapshot.ReadFrom())
    }

    /// The index in `old` of a path equal to each of `paths`, or nil: the two lists are walked
    /// side by side while they agree (a file added or removed is stepped over), the rest looked
    /// up by path. (A record found only saves work: a fingerprint is taken from it when the
    /// item's whole fingerprint is the record's.)
    static func indices(of paths: [String], in old: [String]) -> [Int?] {
        var found = [Int?](repeating: nil, count: paths.count)
        var (i, j) = (0, 0)
        while i < paths.count, j < old.count {
            if paths[i] == old[j] {
                found[i] = j
                (i, j) = (i + 1, j + 1)
            } else if i + 1 < paths.count, paths[i + 1] == old[j] {
                i += 1  // an added file
            } else if j + 1 < old.count, paths[i] == old[j + 1] {
                j += 1  // a removed file
            } else {
                break
            }
        }
        guard i < paths.count else { return found }
        var byPath: [String: Int] = [:]
        byPath.reserveCapacity(old.count - j)
        for k in j..<old.count { byPath[old[k]] = k }
        for k in i..<paths.count { found[k] = byPath[paths[k]] }
        return found
    }
}
