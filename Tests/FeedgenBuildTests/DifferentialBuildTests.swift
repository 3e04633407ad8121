// A long run of seeded random edits to a site of a few hundred cards, each build with the cache
// (full, incremental or patched) compared byte for byte with a `--clean` build.
import FeedgenStorage
import Foundation
import Testing

@testable import FeedgenBuild
@testable import FeedgenIncremental

/// The incremental build is exact over any sequence of edits: after every one of
/// ``DifferentialBuildTests/steps`` random edits (bodies, titles, weights, dates, adds, deletes,
/// renames, images, body images, links, layouts, template overrides, drafts, static files, feed
/// intros) in each of four seeded runs (200 builds in all, the runs side by side on sites of
/// their own), the output of a build that uses the cache equals a `--clean` build's, file by
/// file, with the same diagnostics and exit status. A failure names its seed and step, and
/// `FEEDGEN_DIFF_SEED=N swift test --filter DifferentialBuildTests` replays that run alone.
@Suite struct DifferentialBuildTests {
    static let steps = 50

    /// One card as the test keeps it; written to its file in full after every edit.
    struct Card {
        var title: String
        var weight: Int
        var date: String
        var draft = false
        var image: String?
        /// Whether the body shows `wide.png` (wider than the page's column: it gets variants).
        var bodyImage = false
        var tags: [String]
        var body: String
        /// Links to other cards (content paths), written after the body; `#part-1` on some.
        var links: [(target: String, anchor: Bool)] = []

        /// `tagKey` is `keywords` here, not `tags` (every tag would have a page):
        /// DifferentialViewsTests writes `tags`.
        func text(linksFrom path: String, tagKey: String = "keywords") -> String {
            var front = "title: \"\(title)\"\nweight: \(weight)\ndate: \(date)\n\(tagKey): [\(tags.joined(separator: ", "))]\n"
            if draft { front += "draft: true\n" }
            if let image { front += "image: {src: \(image), alt: \"A picture: \(image)\"}\n" }
            let up = String(repeating: "../", count: path.split(separator: "/").count - 2)
            let see = links.map { "\nSee [another card](\(up)\($0.target.dropFirst("content/".count))\($0.anchor ? "#part-1" : "")).\n" }
            let picture = bodyImage ? "\n![A wide picture](wide.png)\n" : ""
            return "---\n" + front + "---\n" + body + picture + see.joined()
        }
    }

    /// The site's model: sections (folder → layout preset) and cards (content path → card).
    struct Site {
        let root: String
        var random: PatchBuildTests.Generator
        var cards: [String: Card] = [:]
        var layouts: [String: String] = [:]
        var serial = 0
        /// The front matter key of the cards' tags (see ``Card/text(linksFrom:tagKey:)``).
        var tagKey = "keywords"

        static let presets = ["list", "grid", "carousel", "chips", "insetGrouped", "hero"]
        static let images = ["miso-soup.png", "pancakes.png", "green-salad.png", "vegetable-curry.png"]
        static let words = ["soup", "rain", "tea", "walk", "miso", "bread", "train", "autumn", "雨", "朝ごはん"]

        mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &random)] }
        mutating func number(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

        /// A paragraph or two of Markdown, now and then with a heading, a list or code.
        mutating func body(_ n: Int) -> String {
            var text = "## Part \(n)\n\n"
            for _ in 0..<number(1...3) {
                text += (0..<number(4...30)).map { _ in pick(Self.words) }.joined(separator: " ") + ".\n\n"
            }
            if number(0...4) == 0 { text += "- one\n- two *\(n)*\n\n" }
            if number(0...6) == 0 { text += "```\nlet x = \(n)\n```\n" }
            return text
        }

        mutating func newCard() -> Card {
            serial += 1
            let image: String? = number(0...3) == 0 ? pick(Self.images) : nil
            var card = Card(
                title: "Card \(serial) \(pick(Self.words))", weight: number(1...50),
                date: String(format: "2026-%02d-%02d", number(1...11), number(1...28)), image: image,
                tags: [pick(["a", "b", "c"])], body: number(0...5) == 0 ? "" : body(serial))
            card.bodyImage = serial % 9 == 0
            return card
        }

        func write(_ path: String, _ text: String) {
            let url = URL(fileURLWithPath: root + "/" + path)
            try! FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try! Data(text.utf8).write(to: url)
        }

        func writeCard(_ path: String) { write(path, cards[path]!.text(linksFrom: path, tagKey: tagKey)) }

        /// A card that can be linked to: it has a page (a body, not a draft) with a `#part-1`.
        func linkable(_ path: String) -> Bool {
            guard let card = cards[path] else { return false }
            return !card.draft && card.body.hasPrefix("## Part")
        }

        /// Points the links to `old` at `new` (a rename), or drops them (nil: a delete or a
        /// draft), as an author mends them; rewrites the cards that held one.
        mutating func relink(_ old: String, to new: String?) {
            for path in cards.keys.sorted() where cards[path]!.links.contains(where: { $0.target == old }) {
                cards[path]!.links = cards[path]!.links.compactMap { link in
                    link.target != old ? link : new.map { ($0, link.anchor) }
                }
                writeCard(path)
            }
        }

        func writeSection(_ folder: String) {
            write("content/\(folder)/_section.md", "---\ntitle: \(folder.capitalized)\nlayout: \(layouts[folder]!)\n---\n")
        }

        func folder(_ path: String) -> String { String(path[..<path.lastIndex(of: "/")!]) }
    }

    static func makeSite(seed: UInt64) throws -> Site {
        var site = Site(root: temporaryFolder("feedgen-differential") + "/site", random: .init(state: seed))
        // 25 items to a page: the sections of 60 cards are paginated by default (a feed page of
        // 25 cards and a See all link, three own pages), the shelves of 20 are not.
        site.write("feedgen.yaml", "title: Differential\nbaseURL: https://example.org/blog/\npaginate: 25\n")
        site.write("content/_feed.md", "---\ntitle: Home\n---\nThe home feed.\n")
        site.write("content/more/_feed.md", "---\ntitle: More\n---\nMore cards.\n")
        site.write("static/robots.txt", "User-agent: *\n")
        let recipes = repositoryRoot + "/content/recipes/recipes/"
        for folder in ["news", "notes", "photos", "more/shelf", "more/words", "more/banner"] {
            site.layouts[folder] = folder.hasPrefix("more/") ? ["more/shelf": "carousel", "more/words": "chips", "more/banner": "hero"][folder]! : site.pick(["list", "grid", "insetGrouped"])
            site.writeSection(folder)
            for image in Site.images {
                try FileManager.default.copyItem(atPath: recipes + image, toPath: site.root + "/content/\(folder)/\(image)")
            }
            try Data(TestPNG.make(width: 800, height: 200)).write(to: URL(fileURLWithPath: site.root + "/content/\(folder)/wide.png"))
            for _ in 0..<(folder.hasPrefix("more/") ? 20 : 60) {
                let path = "content/\(folder)/card-\(site.serial + 1).md"
                site.cards[path] = site.newCard()
                site.writeCard(path)
            }
        }
        return site
    }

    /// Applies one random edit and describes it.
    static func edit(_ site: inout Site) throws -> String {
        let paths = site.cards.keys.sorted()
        let path = site.pick(paths)
        let fm = FileManager.default
        switch site.number(0...15) {
        case 0, 1, 2:
            site.cards[path]!.body += site.body(site.number(1...999))
            site.writeCard(path)
            return "body of \(path)"
        case 3:
            site.cards[path]!.title += " \(site.pick(Site.words))"
            site.writeCard(path)
            return "title of \(path)"
        case 4:
            site.cards[path]!.weight = site.number(1...50)
            site.writeCard(path)
            return "weight of \(path)"
        case 5:
            site.cards[path]!.date = String(format: "2026-%02d-%02d", site.number(1...11), site.number(1...28))
            site.writeCard(path)
            return "date of \(path)"
        case 6:
            let folder = site.pick(site.layouts.keys.sorted())
            let added = "content/\(folder)/new-\(site.serial + 1).md"
            site.cards[added] = site.newCard()
            site.writeCard(added)
            return "added \(added)"
        case 7:
            guard paths.count > 100 else { return "nothing deleted" }
            site.cards[path] = nil
            try fm.removeItem(atPath: site.root + "/" + path)
            site.relink(path, to: nil)
            return "deleted \(path)"
        case 8:
            let renamed = site.folder(path) + "/renamed-\(site.number(1...9999)).md"
            guard site.cards[renamed] == nil else { return "nothing renamed" }
            site.cards[renamed] = site.cards.removeValue(forKey: path)
            try fm.moveItem(atPath: site.root + "/" + path, toPath: site.root + "/" + renamed)
            site.relink(path, to: renamed)
            site.writeCard(renamed)
            return "renamed \(path) to \(renamed)"
        case 9 where site.number(0...1) == 0:
            site.cards[path]!.bodyImage.toggle()
            site.writeCard(path)
            return "body image of \(path): \(site.cards[path]!.bodyImage)"
        case 10 where site.number(0...1) == 0:
            // A body image replaced: another width (other variants), or new bytes of one size.
            let folder = site.pick(site.layouts.keys.sorted())
            var png = TestPNG.make(width: site.pick([700, 800, 900]), height: 200)
            png.insert(contentsOf: TestPNG.chunk("tEXt", Array("Comment\u{0}\(site.number(1...9))".utf8)), at: png.count - 12)
            try Data(png).write(to: URL(fileURLWithPath: site.root + "/content/\(folder)/wide.png"))
            return "content/\(folder)/wide.png replaced"
        case 9:
            site.cards[path]!.image = site.number(0...2) == 0 ? nil : site.pick(Site.images)
            site.writeCard(path)
            return "image of \(path): \(site.cards[path]!.image ?? "none")"
        case 10:
            // An image file's bytes replaced by another picture's (same name, new content).
            let folder = site.pick(site.layouts.keys.sorted())
            let (a, b) = (site.pick(Site.images), site.pick(Site.images))
            let recipes = repositoryRoot + "/content/recipes/recipes/"
            try Data(contentsOf: URL(fileURLWithPath: recipes + b)).write(to: URL(fileURLWithPath: site.root + "/content/\(folder)/\(a)"))
            return "content/\(folder)/\(a) now holds \(b)"
        case 11:
            // A link to another card with a page, now and then to its `## Part` heading.
            let target = site.pick(paths)
            guard site.linkable(target), target != path else { return "no link added" }
            site.cards[path]!.links.append((target, site.number(0...3) == 0))
            site.writeCard(path)
            return "link in \(path) to \(target)"
        case 12:
            let folder = site.pick(["news", "notes", "photos"])
            site.layouts[folder] = site.pick(Site.presets)
            site.writeSection(folder)
            return "layout of \(folder): \(site.layouts[folder]!)"
        case 13:
            let template = "Templates/cards/card.mustache"
            switch site.number(0...2) {
            case 0:
                try? fm.removeItem(atPath: site.root + "/" + template)
                return "card template override removed"
            default:
                let mark = site.pick(["h3", "h2", "p"])
                site.write(
                    template,
                    "<article class=\"card\">{{#image}}<img src=\"{{src}}\" alt=\"{{alt}}\" width=\"{{width}}\" height=\"{{height}}\">{{/image}}<\(mark)>{{title}}</\(mark)>{{{html}}}</article>\n"
                )
                return "card template override with <\(mark)>"
            }
        case 14:
            site.cards[path]!.draft.toggle()
            site.writeCard(path)
            if site.cards[path]!.draft { site.relink(path, to: nil) }
            return "draft of \(path): \(site.cards[path]!.draft)"
        default:
            if site.number(0...1) == 0 {
                site.write("static/robots.txt", "User-agent: *\n# \(site.number(1...999))\n")
                return "static/robots.txt"
            }
            site.write("content/more/_feed.md", "---\ntitle: More\n---\nMore cards, \(site.pick(Site.words)).\n")
            return "intro of the More feed"
        }
    }

    /// The first seed; `FEEDGEN_DIFF_SEED=N` replays another (a failure names its seed).
    static var seed: UInt64 {
        ProcessInfo.processInfo.environment["FEEDGEN_DIFF_SEED"].flatMap { UInt64($0) } ?? 20_261_201
    }

    /// The runs, one per seed, each ``steps`` edits long on a site of its own; Swift Testing runs
    /// them side by side. With `FEEDGEN_DIFF_SEED` set, that seed alone.
    static var seeds: [UInt64] {
        ProcessInfo.processInfo.environment["FEEDGEN_DIFF_SEED"] != nil ? [seed] : (0..<4).map { seed &+ 10 * UInt64($0) }
    }

    /// A link to a file that does not exist: both builds fail with the same error and leave
    /// their outputs as they were; then the link is removed again.
    static func failingEdit(_ site: inout Site, _ round: String) throws {
        let path = site.pick(site.cards.keys.sorted().filter { !site.cards[$0]!.draft })
        let (out, clean) = (site.root + "/../public", site.root + "/../clean")
        let before = IncrementalBuildTests.tree(out)
        let saved = site.cards[path]!
        site.cards[path]!.body += "\nSee [nothing](missing-\(site.number(1...99)).md).\n"
        site.writeCard(path)
        let incremental = IncrementalBuildTests.build(site.root, out)
        let reference = IncrementalBuildTests.build(site.root, clean, useCache: false)
        #expect((incremental.exitStatus, reference.exitStatus) == (1, 1), "\(round): a broken link in \(path)")
        #expect(incremental.diagnostics.items.map(\.description) == reference.diagnostics.items.map(\.description), "\(round)")
        #expect(incremental.diagnostics.items.contains { $0.description.contains("error: link 'missing-") }, "\(round)")
        #expect(IncrementalBuildTests.tree(out) == before, "\(round): a failed build changed the output")
        site.cards[path] = saved
        site.writeCard(path)
        _ = PatchBuildTests.buildAndCompare(site.root, "\(round), broken link removed")
    }

    /// The time stamp (ns) that the files written from now on will have at least: the change time
    /// of a file written now beside the site (the kernel stamps files from a clock that may lag
    /// `clock_gettime`'s by a tick, so the clock itself is not a safe mark).
    static func clockMark(_ site: Site) throws -> Int64 {
        let path = site.root + "/../clock-mark"
        try Data().write(to: URL(fileURLWithPath: path))
        return try #require(FileStamp.of(path)).ctime
    }

    /// Makes the trust window independent of the machine's speed. A build trusts a recorded
    /// `stat` only when the file is more than ``BuildSnapshot/racyMargin`` (2 s) older than the
    /// start of the build that recorded it, and these builds follow each other in well under
    /// 2 s: how many earlier edits were still untrusted, and so whether a body edit could be
    /// patched, depended on how fast the machine was (6–24 of 200 builds patched). The output's
    /// snapshot is given the recorded start `since + racyMargin`: every file written from `since`
    /// on stays untrusted for the next build (it is read again, and a `_section.md`, static file
    /// or image among them keeps it from patching), every older one is trusted, as if the author
    /// had edited no faster than every 2 s. Only the trust of files whose stamps did not change
    /// is decided here; a changed stamp is a change either way.
    static func settleTrust(_ site: Site, untrustedSince since: Int64) {
        let folder = BuildCache.folder(forOutput: site.root + "/../public")
        guard var snapshot = BuildSnapshot.read(cacheFolder: folder) else { return }
        snapshot.recorded = since + BuildSnapshot.racyMargin
        snapshot.write(cacheFolder: folder)
    }

    /// Per seed, how many of its body edits are patched (14 of the 42 body edits of these four
    /// runs; their other builds are full builds). A body edit of a card takes the usual path when
    /// a file that the step before wrote is still untrusted (``settleTrust(_:untrustedSince:)``):
    /// a `_section.md` or `_feed.md` (a layout or an intro edited), an image, or an item with a
    /// content link or an image in a site with views; or when the card has an image itself.
    /// Exact for these seeds: one fewer means a body edit that should have been patched was not.
    static let patchedBodyEdits: [UInt64: Int] = [20_261_201: 1, 20_261_211: 4, 20_261_221: 5, 20_261_231: 4]

    /// The edits (``edit(_:)``'s descriptions) that always change something a patch cannot:
    /// the title, the list of item files, an item's links or whether it is shown.
    static let neverPatched = ["title of", "added ", "deleted ", "renamed ", "link in ", "draft of ", "body image of "]

    @Test(arguments: seeds) func everyIncrementalBuildMatchesACleanBuild(seed: UInt64) throws {
        var site = try Self.makeSite(seed: seed)
        var patched: [String] = []
        var bodies = (edits: 0, patched: 0)
        #expect(PatchBuildTests.buildAndCompare(site.root, "seed \(seed), first build").exitStatus == 0)
        #expect(FileManager.default.fileExists(atPath: site.root + "/../public/news/page/3/index.html"))
        Self.settleTrust(site, untrustedSince: try Self.clockMark(site))
        var marks: [Int64] = []
        for step in 1...Self.steps {
            marks.append(try Self.clockMark(site))
            let edit = try Self.edit(&site)
            let report = PatchBuildTests.buildAndCompare(site.root, "seed \(seed), step \(step) (\(edit))")
            let body = edit.hasPrefix("body of")
            if body { bodies.edits += 1 }
            if report.patched {
                patched.append(edit)
                if body { bodies.patched += 1 }
                // Edits that always change an item outside its body, or the listing, are never
                // patched. (Besides body edits, those that happened to change nothing are: an
                // image set to none on a card without one, a link not added.)
                #expect(!Self.neverPatched.contains { edit.hasPrefix($0) }, "seed \(seed), step \(step) (\(edit)): patched")
            }
            // Every third step, the previous step's files stay untrusted too (a quicker author).
            Self.settleTrust(site, untrustedSince: marks[step % 3 == 0 ? step - 2 : step - 1])
            if step % 25 == 0 {
                let mark = try Self.clockMark(site)
                try Self.failingEdit(&site, "seed \(seed), step \(step)")
                Self.settleTrust(site, untrustedSince: mark)
            }
        }
        print(
            "DifferentialBuildTests: seed \(seed), \(site.cards.count) cards, \(patched.count) of \(Self.steps) builds patched (\(bodies.patched) of \(bodies.edits) body edits): \(patched)"
        )
        #expect(site.cards.count > 200)
        #expect(bodies.patched >= Self.patchedBodyEdits[seed] ?? 0, "\(bodies.patched) of \(bodies.edits) body edits patched")
        // The run exercised the cached full build as well.
        #expect(patched.count <= Self.steps - 20, "\(patched)")
    }
}
