/// A feed's pages (content-format §3): Markdown files beside `_feed.md` get their own page, are
/// link targets and in the sitemap, but are no card and no syndication entry; `index.md` there
/// is not read, with a warning; the incremental build gives a clean build's bytes when a page is
/// added, edited or deleted.
import Foundation
import Testing

@testable import FeedgenBuild
@testable import FeedgenContent
@testable import FeedgenIncremental

@Suite struct FeedPagesTests {
    static func site() -> String {
        ContentConventionTests.site([
            "content/_feed.md": "---\ntitle: Home\n---\nRead [about us](about.md).\n",
            "content/posts/a.md": "---\ntitle: A\ndate: 2024-01-02\n---\nSee [the team](../about.md#team), [home](../index.md).\n",
            "content/about.md": "+++\ntitle = \"About\"\ntags = [\"t\"]\ndate = 2024-01-01\n+++\n## Team\n\nBack to [A](posts/a.md).\n",
            "content/index.md": "---\ntitle: Welcome\n---\nHome text.\n",
            "content/recipes/_feed.md": "---\ntitle: Recipes\n---\n",
            "content/recipes/notes.md": "Notes on [about](../about.md).\n",
        ])
    }

    static func read(_ path: String) -> String { ContentConventionTests.read(path) }

    @Test func pagesBesideFeedFilesArePagesNotCards() throws {
        let root = Self.site()
        let out = root + "/../public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        #expect(report.diagnostics.items.map(\.description) == [
            "content/index.md: warning: 'index.md' is not read: it would be this feed's page, index.html, which feedgen writes from '_feed.md' (its title and intro); move its text into '_feed.md' (links to it lead to index.html)"
        ])
        let about = Self.read(out + "/about.html")
        #expect(about.contains("<h1>About</h1>") || about.contains(">About</h1>"))
        #expect(about.contains(#"<h2 id="team">"#))
        #expect(about.contains(#"<a href="posts/a.html">A</a>"#))
        #expect(Self.read(out + "/posts/a.html").contains(#"<a href="../about.html#team">the team</a>, <a href="../index.html">home</a>"#))
        #expect(Self.read(out + "/index.html").contains(#"<a href="about.html">about us</a>"#))
        #expect(Self.read(out + "/recipes/notes.html").contains(#"<a href="../about.html">about</a>"#))
        // No card: the home feed shows the posts only, with no section for the pages.
        let home = Self.read(out + "/index.html")
        #expect(ContentConventionTests.ids(home) == ["posts/a"])
        #expect(!home.contains(#"data-section-id="""#))
        #expect(ContentConventionTests.ids(Self.read(out + "/recipes/index.html")) == [])
        #expect(!FileManager.default.fileExists(atPath: out + "/tags/t/index.html"))
        // Not in the syndication feeds; in the sitemap.
        #expect(!Self.read(out + "/feed.xml").contains("<title>About</title>"))
        #expect(!Self.read(out + "/feed.json").contains(#""title": "About""#))
        #expect(Self.read(out + "/feed.xml").contains("<title>A</title>"))
        let sitemap = Self.read(out + "/sitemap.xml")
        #expect(sitemap.contains("<loc>https://example.org/about.html</loc>"))
        #expect(sitemap.contains("<loc>https://example.org/recipes/notes.html</loc>"))
        #expect((report.pages, report.feeds, report.cards) == (5, 2, 1))  // index, recipes/index, a, about, notes
    }

    @Test func brokenAnchorsAndCollisionsAreReported() throws {
        let root = Self.site()
        writeSite(root, ["content/posts/a.md": "---\ntitle: A\n---\nSee [the team](../about.md#nobody) and [gone](../gone.md).\n"])
        var report = build(root, output: root + "/../public")
        #expect(report.diagnostics.items.map(\.description).filter { !$0.contains("index.md") } == [
            // In place order (a build's diagnostics are sorted by location).
            "content/posts/a.md:4:5: warning: link '../about.md#nobody' leads to no heading or anchor with the id 'nobody' on content/about.md; fix the link or the heading",
            "content/posts/a.md:4:40: error: link '../gone.md' leads to content/gone.md, which is not a page of this site (missing, a draft, or not yet published); fix the path or remove the link",
        ])
        // An id another item has, and a page on another feed's index.html.
        writeSite(root, ["content/about.md": "---\nid: posts/a\n---\nAbout.\n", "content/other.md": "---\nid: recipes/index\n---\nO.\n"])
        report = build(root, output: root + "/../public")
        #expect(report.exitStatus == 1)
        #expect(report.diagnostics.items.map(\.description).filter { !$0.contains("index.md") } == [
            "content/about.md:2:5: error: duplicate item id 'posts/a' (also used by content/posts/a.md:1:1)",
            "content/other.md:2:5: error: item id 'recipes/index' would write recipes/index.html over the page of feed 'content/recipes'",
        ])
    }
}

/// The incremental build (item cache, patch build, snapshots) when a feed's page is added,
/// edited (its body: the patch build may take it) and deleted, and when an item links to it:
/// each build's output is a `--clean` build's, byte for byte.
@Suite struct FeedPagesIncrementalTests {
    @Test func addEditDeleteMatchACleanBuild() throws {
        let site = try PatchBuildTests.makeSite(baseURL: true)
        _ = PatchBuildTests.buildAndCompare(site, "first build")
        writeSite(site, ["content/about.md": "+++\ntitle = \"About\"\n+++\n## Team\n\nSee [one](more/extra/one.md).\n"])
        _ = PatchBuildTests.buildAndCompare(site, "page added")
        #expect(FileManager.default.fileExists(atPath: site + "/../public/about.html"))
        Thread.sleep(forTimeInterval: Double(BuildSnapshot.racyMargin) / 1e9 + 0.2)
        try IncrementalBuildTests.replace(site, "content/about.md", "## Team", "## The team")
        _ = PatchBuildTests.buildAndCompare(site, "page body edited")
        #expect(ContentConventionTests.read(site + "/../public/about.html").contains(#"<h2 id="the-team">"#))
        try IncrementalBuildTests.replace(site, "content/news/item-02.md", "with *emphasis*", "with [us](../about.md#the-team)")
        _ = PatchBuildTests.buildAndCompare(site, "an item links to the page")
        writeSite(site, ["content/more/page.md": "A page of the feed 'more'.\n"])
        _ = PatchBuildTests.buildAndCompare(site, "a page of a sub-feed")
        try FileManager.default.removeItem(atPath: site + "/content/more/page.md")
        _ = PatchBuildTests.buildAndCompare(site, "sub-feed page deleted")
        try IncrementalBuildTests.replace(site, "content/news/item-02.md", "with [us](../about.md#the-team)", "with *emphasis*")
        try FileManager.default.removeItem(atPath: site + "/content/about.md")
        _ = PatchBuildTests.buildAndCompare(site, "page deleted")
        #expect(!FileManager.default.fileExists(atPath: site + "/../public/about.html"))
    }
}
