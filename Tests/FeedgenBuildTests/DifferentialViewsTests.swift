// DifferentialBuildTests' random edits on a site with views (issue #20): a limited shelf drawn
// from two sections with its own pages, a filtered view of a whole feed, and tag chips, with
// every card tagged (so every tag has a page).
import Foundation
import Testing

@testable import FeedgenBuild
@testable import FeedgenIncremental

/// Every build after an edit that a view, a tag page or a later page of a section shows equals a
/// `--clean` build, file by file; body edits of cards without an image are patched (every page
/// showing the card: its feed page, a view drawing it, its section's own page, its tag pages).
@Suite struct DifferentialViewsTests {
    static let steps = 40

    @Test func everyIncrementalBuildOfASiteWithViewsMatchesACleanBuild() throws {
        let seed = DifferentialBuildTests.seed &+ 1
        var site = try DifferentialBuildTests.makeSite(seed: seed)
        site.tagKey = "tags"
        for path in site.cards.keys.sorted() { site.writeCard(path) }
        site.write(
            "content/latest/_section.md",
            "---\ntitle: Latest\nlayout: carousel\nsections: [news, notes]\nsort: date\nlimit: 5\nseeAll: true\npaginate: 25\n---\n")
        site.write("content/chips/_section.md", "---\ntitle: Tags\nlayout: chips\nterms: tags\n---\n")
        site.write(
            "content/more/picked/_section.md",
            "---\ntitle: Picked\nlayout: grid\nsections: feed\nwhere: {tags: a}\nlimit: 4\nseeAll: true\n---\n")
        let first = PatchBuildTests.buildAndCompare(site.root, "seed \(seed), first build")
        #expect(first.exitStatus == 0)
        let out = site.root + "/../public"
        #expect(FileManager.default.fileExists(atPath: out + "/latest/page/2/index.html"))
        #expect(FileManager.default.fileExists(atPath: out + "/tags/a/index.html"))
        #expect(FileManager.default.fileExists(atPath: out + "/more/tags/a/index.html"))
        #expect(FileManager.default.fileExists(atPath: out + "/news/page/3/index.html"))
        DifferentialBuildTests.settleTrust(site, untrustedSince: try DifferentialBuildTests.clockMark(site))
        var patched: [String] = []
        for step in 1...Self.steps {
            let mark = try DifferentialBuildTests.clockMark(site)
            let edit = try DifferentialBuildTests.edit(&site)
            let report = PatchBuildTests.buildAndCompare(site.root, "seed \(seed), step \(step) (\(edit))")
            if report.patched { patched.append(edit) }
            DifferentialBuildTests.settleTrust(site, untrustedSince: mark)
        }
        print("DifferentialViewsTests: seed \(seed), patched: \(patched)")
        // Body edits, and edits that changed nothing ("no link added"). Most of this run's body
        // edits take the usual path for other reasons: a `_section.md` or `_feed.md` written less
        // than 2 s before the last build (not trusted), an image in another layout.
        #expect(patched.count(where: { $0.hasPrefix("body of") }) >= 1, "\(patched)")
        #expect(patched.allSatisfy { $0.hasPrefix("body of") || $0.hasPrefix("no") }, "\(patched)")
    }
}
