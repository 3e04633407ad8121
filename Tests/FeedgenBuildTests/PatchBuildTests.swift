import FeedgenStorage
import Foundation
import Testing

@testable import FeedgenBuild
@testable import FeedgenIncremental
@testable import FeedgenContent
import FeedgenDiagnostics
@testable import FeedgenEmit

/// The patch build (``PatchBuild``): after each edit, the output of a build that may patch the
/// previous output is the output of a `--clean` build, byte for byte, with the same
/// diagnostics; body edits are patched, every other kind of edit takes the usual path.
@Suite struct PatchBuildTests {
    /// ``IncrementalBuildTests``'s long site without a `baseURL` (a patch needs none), its
    /// files older than the racy margin (a snapshot trusts no `stat` younger than that).
    static func makeSite(baseURL: Bool = false) throws -> String {
        let site = try IncrementalBuildTests.makeSite(long: true)
        let config = "title: Patch\n" + (baseURL ? "baseURL: https://example.org/site/\n" : "")
        try config.write(toFile: site + "/feedgen.yaml", atomically: true, encoding: .utf8)
        Thread.sleep(forTimeInterval: Double(BuildSnapshot.racyMargin) / 1e9 + 0.2)
        return site
    }

    /// A deterministic generator (a 64-bit LCG): the same edits on every run.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    static func append(_ site: String, _ path: String, _ text: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: site + "/" + path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    /// Builds with the cache and `--clean`, and compares outputs and diagnostics. - Returns:
    /// the report of the build with the cache.
    static func buildAndCompare(
        _ site: String, _ round: String, minimumFiles: Int = 21, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> BuildReport {
        let out = site + "/../public"
        let clean = site + "/../clean"
        let incremental = IncrementalBuildTests.build(site, out)
        let reference = IncrementalBuildTests.build(site, clean, useCache: false)
        #expect(incremental.exitStatus == 0, "\(round): \(incremental.diagnostics.items)", sourceLocation: sourceLocation)
        #expect(incremental.exitStatus == reference.exitStatus, "\(round)", sourceLocation: sourceLocation)
        #expect(
            incremental.diagnostics.items.map(\.description) == reference.diagnostics.items.map(\.description), "\(round)",
            sourceLocation: sourceLocation)
        #expect((incremental.pages, incremental.feeds, incremental.cards) == (reference.pages, reference.feeds, reference.cards))
        let a = IncrementalBuildTests.tree(out)
        let b = IncrementalBuildTests.tree(clean)
        #expect(a.keys.sorted() == b.keys.sorted(), "\(round)", sourceLocation: sourceLocation)
        for (path, bytes) in b where a[path] != bytes {
            Issue.record("\(round): \(path) differs from a clean build's", sourceLocation: sourceLocation)
        }
        #expect(a.count >= minimumFiles, sourceLocation: sourceLocation)
        return incremental
    }

    @Test func bodyEditsArePatchedAndEveryEditMatchesACleanBuild() throws {
        let site = try Self.makeSite()
        #expect(!Self.buildAndCompare(site, "first build").patched)
        #expect(FileManager.default.fileExists(atPath: site + "/../.public.feedgen-cache/snapshot"))

        // Body edits: a grid card keeping its height estimate (its section defers no card), a
        // deferred card of a long list (its estimate grows: only its own style changes), a card
        // with content links kept.
        try IncrementalBuildTests.replace(site, "content/news/item-02.md", "with *emphasis*", "with *emphases*")
        var report = Self.buildAndCompare(site, "grid body")
        #expect(report.patched)
        #expect(report.pagesRendered == 1)
        try Self.append(site, "content/zlong/entry-30.md", "\n" + String(repeating: "More words here. ", count: 40) + "\n")
        report = Self.buildAndCompare(site, "long body")
        #expect(report.patched)
        try IncrementalBuildTests.replace(site, "content/news/item-03.md", "with *emphasis*", "with _emphases_")
        #expect(Self.buildAndCompare(site, "linked body").patched)
        // A grid card whose estimate changes moves the long list below it: the usual path.
        try Self.append(site, "content/news/item-08.md", "\n" + String(repeating: "Longer. ", count: 50) + "\n")
        #expect(!Self.buildAndCompare(site, "grid card grows").patched)
        // Nothing changed since: patched (the items edited are still too young to trust, so
        // they are read again), and nothing is written.
        report = Self.buildAndCompare(site, "no change")
        #expect(report.patched)
        #expect(report.filesWritten == 0)

        // Edits outside bodies take the usual path.
        try IncrementalBuildTests.replace(site, "content/news/item-04.md", "title: Item 4", "title: Item Four")
        #expect(!Self.buildAndCompare(site, "title").patched)
        try Self.append(site, "content/news/item-06.md", "\nSee [one](../more/extra/one.md).\n")
        #expect(!Self.buildAndCompare(site, "new content link").patched)
        try "---\ntitle: Added\n---\nNew.\n".write(toFile: site + "/content/notes/added.md", atomically: true, encoding: .utf8)
        #expect(!Self.buildAndCompare(site, "added item").patched)
        try IncrementalBuildTests.replace(site, "content/notes/note-2.md", "A note 2.\n", "")
        #expect(!Self.buildAndCompare(site, "body removed").patched)
        try IncrementalBuildTests.replace(site, "Templates/cards/card.mustache", "<h3>", "<h3 class=\"t\">")
        #expect(!Self.buildAndCompare(site, "template").patched)
        try IncrementalBuildTests.replace(site, "content/notes/note-3.md", "title: Note 3\n", "title: Note 3\ndraft: true\n")
        #expect(!Self.buildAndCompare(site, "draft").patched)
        try "title: Patch\nbaseURL: https://example.org/\n".write(toFile: site + "/feedgen.yaml", atomically: true, encoding: .utf8)
        #expect(!Self.buildAndCompare(site, "baseURL").patched)
        try "title: Patch\n".write(toFile: site + "/feedgen.yaml", atomically: true, encoding: .utf8)
        #expect(!Self.buildAndCompare(site, "baseURL removed").patched)

        // Random body edits, one to three files at a time: each output is a clean build's.
        var random = Generator(state: 7)
        let bodies = (0..<40).map { String(format: "content/zlong/entry-%02d.md", $0) } + (0..<12).map { String(format: "content/news/item-%02d.md", $0) }
        var patched = 0
        for round in 0..<12 {
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let file = bodies[Int.random(in: 0..<bodies.count, using: &random)]
                let words = String(repeating: "edit \(round) ", count: Int.random(in: 1...60, using: &random))
                try Self.append(site, file, "\n" + words + "\n")
            }
            if Self.buildAndCompare(site, "random round \(round)").patched { patched += 1 }
        }
        // Cards near the top change the first screen's plan: those rounds take the usual path.
        #expect(patched >= 6, "\(patched) of 12 random rounds patched")
    }

    /// Another page's `#anchor` link is checked against a body's ids: an edit of a body that is
    /// linked to with a fragment takes the usual path (the link's warning may come or go); one
    /// of a body linked to without a fragment is patched.
    @Test func bodyEditsThatChangeIdsAreNotPatched() throws {
        let site = try Self.makeSite()
        try Self.append(site, "content/notes/note-1.md", "\n## Part\n")
        try Self.append(site, "content/news/item-05.md", "\nSee [the part](../notes/note-1.md#part).\n")
        #expect(!Self.buildAndCompare(site, "first build").patched)
        try IncrementalBuildTests.replace(site, "content/notes/note-1.md", "## Part", "## Piece")
        let report = Self.buildAndCompare(site, "heading renamed")
        #expect(!report.patched)
        #expect(report.diagnostics.items.map(\.description).contains {
            $0.hasPrefix("content/news/item-05.md:11:5: warning: link '../notes/note-1.md#part' leads to no heading or anchor with the id 'part' on content/notes/note-1.md")
        })
        try IncrementalBuildTests.replace(site, "content/notes/note-1.md", "## Piece", "## Part")
        #expect(!Self.buildAndCompare(site, "heading named back").patched)
        // item-03 links to note-1 with `#top` (always found): an edit of item-07, which it links
        // to without a fragment, is patched (once note-1 is old enough not to be read again).
        Thread.sleep(forTimeInterval: Double(BuildSnapshot.racyMargin) / 1e9 + 0.2)
        _ = Self.buildAndCompare(site, "settled")
        try IncrementalBuildTests.replace(site, "content/news/item-07.md", "with *emphasis*", "with *emphases*")
        #expect(Self.buildAndCompare(site, "linked without a fragment").patched)
    }

    /// With a `baseURL`, the Atom and JSON Feed documents hold every body: the changed items'
    /// entries are replaced in them.
    @Test func bodyEditsOfASiteWithFeedsArePatched() throws {
        let site = try Self.makeSite(baseURL: true)
        #expect(!Self.buildAndCompare(site, "first build").patched)
        try IncrementalBuildTests.replace(site, "content/news/item-03.md", "with *emphasis*", "with _emphases_")
        #expect(Self.buildAndCompare(site, "linked body").patched)
        try Self.append(site, "content/zlong/entry-30.md", "\n" + String(repeating: "More \"words\" here. ", count: 40) + "\n")
        try Self.append(site, "content/zlong/entry-12.md", "\nSee [the news](../news/item-01.md).\n")
        // entry-12 gains a link: the usual path; then two edits in one build.
        #expect(!Self.buildAndCompare(site, "new link").patched)
        try Self.append(site, "content/zlong/entry-31.md", "\nÜnïcödé / \\ \u{1F600} \"quoted\".\n")
        try Self.append(site, "content/zlong/entry-35.md", "\nMore.\n")
        #expect(Self.buildAndCompare(site, "two bodies").patched)
        try IncrementalBuildTests.replace(site, "content/more/extra/one.md", "See [the first]", "See again [the first]")
        #expect(Self.buildAndCompare(site, "other feed").patched)
        let atom = try String(contentsOfFile: site + "/../public/feed.xml", encoding: .utf8)
        #expect(atom.contains("Ünïcödé"))
    }

    /// The entries' ranges that a snapshot keeps are where the documents hold them, and an entry
    /// written alone (as a patch build writes it) has the bytes it has in the whole document.
    @Test func feedEntriesAreWhereTheirMapSays() throws {
        let site = try IncrementalBuildTests.makeSite(long: true)
        var report = BuildReport()
        let (prepared, _) = Pipeline.prepare(BuildOptions(siteRoot: site, now: fixedNow), report: &report)
        let syndication = try #require(prepared.flatMap(Syndication.init(site:)))
        var entries = 0
        for feed in syndication.site.feeds {
            let (atom, map) = syndication.atomAndMap(feed)
            let (json, ranges) = syndication.jsonFeedAndRanges(feed)
            #expect(ranges.count == map.atom.count)
            let atomBytes = Array(atom.utf8)
            let jsonBytes = Array(json.utf8)
            for k in map.atom.indices where k < ranges.count {
                let texts = try #require(syndication.entryTexts(section: map.sections[k], index: map.items[k], feed: feed, updated: map.updated))
                #expect(Array(atomBytes[map.atom[k]]) == Array(texts.atom.utf8))
                #expect(Array(jsonBytes[ranges[k]]) == Array(texts.json.utf8))
                entries += 1
            }
        }
        #expect(entries >= 50)
    }

    @Test func aFileChangedByHandInTheOutputIsNotCarriedOver() throws {
        let site = try Self.makeSite()
        let out = site + "/../public"
        #expect(IncrementalBuildTests.build(site, out).exitStatus == 0)
        #expect(IncrementalBuildTests.build(site, out).exitStatus == 0)
        // The feed page of the output, edited by hand, cannot be the base of a patch.
        let page = out + "/index.html"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: page))
        bytes.append(contentsOf: Array("<!-- edited -->".utf8))
        try FileManager.default.removeItem(atPath: page)
        try bytes.write(to: URL(fileURLWithPath: page))
        try Self.append(site, "content/news/item-02.md", "\nA new paragraph.\n")
        let report = Self.buildAndCompare(site, "edited output")
        #expect(!report.patched)
    }

    /// A file the listing warns about (an `index.md` beside `_feed.md`, a `.mdwn` file, a
    /// broken symbolic link) is no item, feed or section file, yet a build reports it: adding or
    /// removing one with a body edit must not report the last build's warnings.
    @Test func aWarningOfTheListingIsReportedAsAFullBuildReportsIt() throws {
        let site = try Self.makeSite()
        #expect(!Self.buildAndCompare(site, "first").patched)
        try "---\ntitle: Stray\n---\nStray.\n".write(toFile: site + "/content/index.md", atomically: true, encoding: .utf8)
        try Self.append(site, "content/zlong/entry-30.md", "\nA new paragraph.\n")
        var report = Self.buildAndCompare(site, "stray .md added")
        #expect(report.diagnostics.items.contains { $0.description.hasPrefix("content/index.md: warning: 'index.md' is not read") })
        try "hi\n".write(toFile: site + "/content/news/notes.mdwn", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: site + "/content/news/broken.md", withDestinationPath: "/nonexistent")
        try Self.append(site, "content/zlong/entry-31.md", "\nA new paragraph.\n")
        report = Self.buildAndCompare(site, ".mdwn file and broken link added")
        #expect(report.diagnostics.items.count { $0.severity == .warning } == 4)
        try FileManager.default.removeItem(atPath: site + "/content/index.md")
        try Self.append(site, "content/zlong/entry-32.md", "\nA new paragraph.\n")
        report = Self.buildAndCompare(site, "stray .md removed")
        #expect(!report.diagnostics.items.contains { $0.location.path == "content/index.md" })
        // With the same warnings as the last build, a body edit is patched again.
        Thread.sleep(forTimeInterval: Double(BuildSnapshot.racyMargin) / 1e9 + 0.2)
        try Self.append(site, "content/zlong/entry-33.md", "\nA new paragraph.\n")
        #expect(Self.buildAndCompare(site, "same warnings").patched)
    }

    @Test func aDamagedSnapshotIsIgnored() throws {
        let site = try Self.makeSite()
        #expect(!Self.buildAndCompare(site, "first").patched)
        let snapshot = site + "/../.public.feedgen-cache/snapshot"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: snapshot))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: snapshot))
        try Self.append(site, "content/news/item-02.md", "\nA new paragraph.\n")
        #expect(!Self.buildAndCompare(site, "damaged snapshot").patched)
        try Self.append(site, "content/zlong/entry-30.md", "\nAnother paragraph.\n")
        #expect(Self.buildAndCompare(site, "snapshot written again").patched)
    }

    /// Text that spells the content-link marker (`feedgen-md:…` in a code span) is rewritten by a
    /// full build with every page of the site; a patch build knows only the changed item's own
    /// links, so such a body takes the usual path (on a page that defers no card, where the
    /// card's height estimate does not stop the patch first).
    @Test func aBodySpellingTheContentLinkMarkerIsNotPatched() throws {
        let site = try Self.makeSite()
        try "---\ntitle: Spelled\n---\nThe scheme: `feedgen-md:content/news/item-07.md#a`.\n".write(
            toFile: site + "/content/more/extra/spelled.md", atomically: true, encoding: .utf8)
        try "---\ntitle: Linked\n---\nSee [one](one.md); `feedgen-md:content/news/item-08.md#a`.\n".write(
            toFile: site + "/content/more/extra/linked.md", atomically: true, encoding: .utf8)
        Thread.sleep(forTimeInterval: Double(BuildSnapshot.racyMargin) / 1e9 + 0.2)
        #expect(!Self.buildAndCompare(site, "first").patched)
        try IncrementalBuildTests.replace(site, "content/more/extra/spelled.md", "#a`", "#b`")
        #expect(!Self.buildAndCompare(site, "marker of a file the item does not link to").patched)
        let page = try String(contentsOfFile: site + "/../public/more/extra/spelled.html", encoding: .utf8)
        #expect(page.contains("The scheme: <code>../../news/item-07.html#b</code>."))
        try IncrementalBuildTests.replace(site, "content/more/extra/linked.md", "#a`", "#b`")
        #expect(!Self.buildAndCompare(site, "marker of another file beside a link").patched)
        // A body whose markers all lead to files it links to is patched (once a build has
        // vouched for the files edited just before the last one).
        Thread.sleep(forTimeInterval: Double(BuildSnapshot.racyMargin) / 1e9 + 0.2)
        _ = Self.buildAndCompare(site, "settled")
        try IncrementalBuildTests.replace(site, "content/more/extra/one.md", "See [the first]", "See [the First]")
        #expect(Self.buildAndCompare(site, "own link").patched)
    }

    /// An item image with a relative path is looked for beside the item first, then in
    /// `static/`: an image file that appears beside the item (no item file changed) takes the
    /// place of the one in `static/` in a full build, so the patch build must not carry the
    /// pages over.
    @Test func anImageAppearingBesideAnItemIsNotMissed() throws {
        let site = try Self.makeSite()
        try IncrementalBuildTests.replace(site, "content/notes/note-0.md", "title: Note 0\n", "title: Note 0\nimage: {src: pic.png, alt: P}\n")
        Thread.sleep(forTimeInterval: Double(BuildSnapshot.racyMargin) / 1e9 + 0.2)
        #expect(!Self.buildAndCompare(site, "first").patched)
        #expect(BuildSnapshot.read(cacheFolder: site + "/../.public.feedgen-cache")?.absent == [site + "/content/notes/pic.png"])
        try FileManager.default.copyItem(atPath: site + "/static/pic.png", toPath: site + "/content/notes/pic.png")
        #expect(!Self.buildAndCompare(site, "image beside the item").patched)
        #expect(FileManager.default.fileExists(atPath: site + "/../public/assets/notes/pic.png"))
        try FileManager.default.removeItem(atPath: site + "/content/notes/pic.png")
        #expect(!Self.buildAndCompare(site, "image beside the item removed").patched)
        #expect(!FileManager.default.fileExists(atPath: site + "/../public/assets/notes/pic.png"))
    }

    /// Another copy of the site (another checkout) built into the same output: with no feed,
    /// section or `static/` file whose `stat` would differ, the items all changed (new inodes)
    /// and were loaded from the copy, but its images were compared by the absolute paths of the
    /// first site, so an image replaced in the copy kept its old bytes and variants.
    @Test func aCopyOfTheSiteBuiltIntoTheSameOutputIsNotPatched() throws {
        let folder = temporaryFolder("feedgen-patch-copy")
        let site = folder + "/site"
        writeSite(site, [
            "feedgen.yaml": "title: Copy\n",
            "content/s0/a.md": "---\ntitle: A\nimage: {src: pic.png, alt: P}\n---\nA body.\n",
            "content/s0/b.md": "---\ntitle: B\n---\nB body.\n",
        ])
        let recipes = repositoryRoot + "/content/recipes/recipes/"
        try FileManager.default.copyItem(atPath: recipes + "miso-soup.png", toPath: site + "/content/s0/pic.png")
        Thread.sleep(forTimeInterval: Double(BuildSnapshot.racyMargin) / 1e9 + 0.2)
        #expect(!Self.buildAndCompare(site, "first", minimumFiles: 5).patched)
        let copy = folder + "/copy"
        try FileManager.default.copyItem(atPath: site, toPath: copy)
        try FileManager.default.removeItem(atPath: copy + "/content/s0/pic.png")
        try FileManager.default.copyItem(atPath: recipes + "pancakes.png", toPath: copy + "/content/s0/pic.png")
        Thread.sleep(forTimeInterval: Double(BuildSnapshot.racyMargin) / 1e9 + 0.2)
        let out = folder + "/public"
        let report = IncrementalBuildTests.build(copy, out)
        #expect(report.exitStatus == 0 && !report.patched)
        let reference = IncrementalBuildTests.build(copy, folder + "/clean", useCache: false)
        #expect(reference.exitStatus == 0)
        let a = IncrementalBuildTests.tree(out)
        let b = IncrementalBuildTests.tree(folder + "/clean")
        #expect(a.keys.sorted() == b.keys.sorted())
        for (path, bytes) in b where a[path] != bytes { Issue.record("\(path) differs from a clean build's") }
        #expect(a["assets/s0/pic.png"] == .some(try Data(contentsOf: URL(fileURLWithPath: recipes + "pancakes.png"))))
    }

    /// A snapshot with a valid checksum but a negative index or byte offset, or a column width
    /// that is not a number (written by another program, or by hand), reads as none: the patch
    /// build subscripts the feed page and the feed list with them, and converts heights made
    /// with the width to `Int`; either traps.
    @Test func aSnapshotWithImpossibleNumbersIsIgnored() throws {
        let site = try Self.makeSite()
        #expect(!Self.buildAndCompare(site, "first").patched)
        let path = site + "/../.public.feedgen-cache/snapshot"
        let written = try #require(BuildSnapshot.read(cacheFolder: site + "/../.public.feedgen-cache"))
        let k = try #require(written.itemFiles.firstIndex { $0.path == "content/zlong/entry-30.md" })
        let record = try #require(written.items[k])
        var badRange = written
        let range = badRange.feeds[record.feed].map.cards[record.section][record.item]
        badRange.feeds[record.feed].map.cards[record.section][record.item] = (range.lowerBound - 1_000_000)..<range.upperBound
        var badFeed = written
        badFeed.items[k]?.feed = -1
        var badColumn = written
        let column = try #require(badColumn.feeds[record.feed].map.columns[record.section])
        badColumn.feeds[record.feed].map.columns[record.section] = DeferredCards.Column(phone: .nan, wide: column.wide)
        for (name, bad) in [("range", badRange), ("feed", badFeed), ("column width", badColumn)] {
            let rejected = BuildSnapshot.decode(bad.encoded(salt: BuildCache.salt), salt: BuildCache.salt) == nil
            #expect(rejected, "impossible \(name) read as a snapshot")
            try Data(bad.encoded(salt: BuildCache.salt)).write(to: URL(fileURLWithPath: path))
            try Self.append(site, "content/zlong/entry-30.md", "\nA new paragraph (\(name)).\n")
            #expect(!Self.buildAndCompare(site, "impossible \(name) in the snapshot").patched)
        }
        let roundTrips = BuildSnapshot.decode(written.encoded(salt: BuildCache.salt), salt: BuildCache.salt) == written
        #expect(roundTrips)
    }

    @Test func snapshotRoundTrips() throws {
        let map = FeedPageMap(
            cards: [[0..<10, 12..<40], []], eager: [[true, false], []], priority: [[true, false], []], estimated: true, isExact: true,
            columns: [DeferredCards.Column(phone: 358, wide: 1248), nil])
        let snapshot = BuildSnapshot(
            recorded: 1_700_000_000_000_000_000, inputs: 42,
            itemFiles: [
                .init(path: "content/a/x.md", stamp: FileStamp(size: 1, mtime: 2, ctime: 3, inode: 4, device: 5)),
                .init(path: "content/a/y.md", stamp: nil),
            ],
            items: [BuildSnapshot.ItemRecord(feed: 0, section: 0, item: 1, fingerprint: 9, whole: 10, links: [.init(target: "content/a/y.md", page: "y.html")]), nil],
            settingsFiles: [], staticFiles: [.init(path: "robots.txt", stamp: nil)], images: [], absent: ["/site/content/a/pic.png"],
            feeds: [.init(path: "index.html", hash: 77, map: map)],
            diagnostics: [.warning(FeedgenDiagnostics.SourceLocation(path: "content/a/x.md", line: 2, column: 1), "unknown key 'titel'")], pages: 3,
            feedCount: 1, cards: 2)
        let bytes = snapshot.encoded(salt: 5)
        #expect(BuildSnapshot.decode(bytes, salt: 5) == snapshot)
        #expect(BuildSnapshot.decode(bytes, salt: 6) == nil)
        for cut in [0, 4, bytes.count / 2, bytes.count - 1] {
            #expect(BuildSnapshot.decode(Array(bytes.prefix(cut)), salt: 5) == nil)
        }
    }
}
