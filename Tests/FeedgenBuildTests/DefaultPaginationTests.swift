// Long sections paginated by default (issue #20 item 4, content-format §4.1), and the patch build
// of a site whose items show on several pages (item 5, §9).
import Foundation
import Testing

@testable import FeedgenBuild
@testable import FeedgenContent
@testable import FeedgenIncremental

/// A section with more items than the page size (`paginate` in feedgen.yaml, default 100) and
/// none of `paginate`, `seeAll`, `limit` written shows its first page on the feed page, with a
/// See all link to its own pages; `paginate: false` turns that off for a section or the site.
@Suite struct DefaultPaginationTests {
    static func read(_ path: String) -> String { SectionViewTests.read(path) }
    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// `count` items `<folder>/i001`… with weights in file order.
    static func items(_ folder: String, _ count: Int, body: (Int) -> String = { "Body \($0).\n" }) -> [String: String] {
        var files: [String: String] = [:]
        for i in 1...count { files[String(format: "content/\(folder)/i%03d.md", i)] = "---\ntitle: Item \(i)\nweight: \(i)\n---\n" + body(i) }
        return files
    }

    static func ids(_ folder: String, _ range: ClosedRange<Int>) -> [String] { range.map { String(format: "\(folder)/i%03d", $0) } }

    @Test func aLongSectionShowsItsFirstPageAndLinksToAllItsPages() throws {
        let root = temporaryFolder("feedgen-paging") + "/site"
        var files = [
            "content/_feed.md": "---\ntitle: Home\nsections: [all, shelf, whole, small]\n---\n",
            "content/all/_section.md": "---\nlayout: list\n---\n",
            "content/shelf/_section.md": "---\ntitle: Shelf\nlayout: carousel\n---\n",
            "content/whole/_section.md": "---\ntitle: Whole\nlayout: list\npaginate: false\n---\n",
            "content/small/_section.md": "---\ntitle: Small\nlayout: list\n---\n",
        ]
        files.merge(Self.items("all", 205)) { a, _ in a }
        files.merge(Self.items("shelf", 120)) { a, _ in a }
        files.merge(Self.items("whole", 150)) { a, _ in a }
        files.merge(Self.items("small", 100)) { a, _ in a }
        writeSite(root, files)
        let out = root + "/../public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        let home = Self.read(out + "/index.html")
        // The untitled section: its first 100 items, headed by the feed's title with the link.
        #expect(SectionViewTests.cells(home, section: "all") == Self.ids("all", 1...100))
        #expect(home.contains(#"<section class="cl-section cl-preset-list" data-section-id="all" aria-labelledby="sec-all">"#))
        #expect(
            home.contains(
                "<h2 id=\"sec-all\">Home</h2>\n    <p class=\"cl-see-all\"><a href=\"all/index.html\">See all<span class=\"cl-visually-hidden\">: Home</span></a></p>\n"
            ))
        // Its own pages: 100, 100 and 5 items, every item once, in order.
        let pages = ["all/index.html", "all/page/2/index.html", "all/page/3/index.html"].map { Self.read(out + "/" + $0) }
        #expect(pages.map { SectionViewTests.cells($0, section: "all").count } == [100, 100, 5])
        #expect(pages.flatMap { SectionViewTests.cells($0, section: "all") } == Self.ids("all", 1...205))
        #expect(!Self.exists(out + "/all/page/4/index.html"))
        #expect(pages[0].contains(#"<h1 class="page-title">Home</h1>"#))
        #expect(pages[0].contains(#"<h2 id="sec-all">205 items</h2>"#))
        #expect(pages[0].contains(#"<nav class="breadcrumb" aria-label="Breadcrumb"><a href="../index.html">Home</a></nav>"#))
        #expect(pages[0].contains(#"<li><a href="page/2/index.html" rel="next">Next</a></li>"#))
        #expect(pages[2].contains(#"<li><a href="../2/index.html" rel="prev">Previous</a></li>"#))
        #expect(pages[2].contains(#"<li><a href="index.html" aria-current="page">3</a></li>"#))
        #expect(!pages[2].contains(#"rel="next""#))
        // Each item keeps its one detail page, linked from the card wherever it is.
        #expect(pages[2].contains(#"<a href="../../i205.html">Item 205</a>"#))
        #expect(Self.exists(out + "/all/i205.html"))
        // A shelf is limited the same way; its own pages are a grid.
        #expect(SectionViewTests.cells(home, section: "shelf") == Self.ids("shelf", 1...100))
        #expect(home.contains(#"<a href="shelf/index.html">See all<span class="cl-visually-hidden">: Shelf</span></a>"#))
        let shelf2 = Self.read(out + "/shelf/page/2/index.html")
        #expect(SectionViewTests.cells(shelf2, section: "shelf") == Self.ids("shelf", 101...120))
        #expect(shelf2.contains(#"<section class="cl-section cl-preset-grid" data-section-id="shelf""#))
        // `paginate: false`, and a section of exactly the page size: every item on the feed page.
        #expect(SectionViewTests.cells(home, section: "whole") == Self.ids("whole", 1...150))
        #expect(SectionViewTests.cells(home, section: "small") == Self.ids("small", 1...100))
        #expect(!Self.exists(out + "/whole/index.html"))
        #expect(!Self.exists(out + "/small/index.html"))
        #expect(!home.contains(#"href="whole/index.html""#) && !home.contains(#"href="small/index.html""#))
        // The cards counted are the feed page's.
        #expect(report.cards == 100 + 100 + 150 + 100)
    }

    @Test func theSitePageSizeOrFalseAppliesToEverySection() throws {
        let root = temporaryFolder("feedgen-paging") + "/site"
        var files = ["feedgen.yaml": "title: Small pages\npaginate: 3\n", "content/s/_section.md": "---\ntitle: S\n---\n"]
        files.merge(Self.items("s", 7)) { a, _ in a }
        writeSite(root, files)
        let out = root + "/../public"
        #expect(build(root, output: out).exitStatus == 0)
        #expect(SectionViewTests.cells(Self.read(out + "/index.html"), section: "s") == Self.ids("s", 1...3))
        let pages = ["s/index.html", "s/page/2/index.html", "s/page/3/index.html"].map { Self.read(out + "/" + $0) }
        #expect(pages.map { SectionViewTests.cells($0, section: "s") } == [Self.ids("s", 1...3), Self.ids("s", 4...6), Self.ids("s", 7...7)])

        writeSite(root, ["feedgen.yaml": "title: One page\npaginate: false\n"])
        let whole = root + "/../whole"
        #expect(build(root, output: whole).exitStatus == 0)
        #expect(SectionViewTests.cells(Self.read(whole + "/index.html"), section: "s") == Self.ids("s", 1...7))
        #expect(!Self.exists(whole + "/s/index.html"))
    }

    @Test func badPageSizesAreErrorsAtTheirValues() throws {
        let root = temporaryFolder("feedgen-paging") + "/site"
        writeSite(root, [
            "feedgen.yaml": "title: Bad\npaginate: 0\n",
            "content/s/_section.md": "---\ntitle: S\npaginate: yes\n---\n", "content/s/a.md": "---\ntitle: A\n---\n",
        ])
        let report = build(root, output: root + "/../public")
        #expect(report.exitStatus == 2)
        #expect(report.diagnostics.items.filter { $0.severity == .error }.map(\.description) == [
            "feedgen.yaml:2:11: error: 'paginate' must be a whole number of at least 1 (items per page), or false, found '0'"
        ])
        writeSite(root, ["feedgen.yaml": "title: Bad\n"])
        let section = build(root, output: root + "/../public")
        #expect(section.exitStatus == 1)
        #expect(section.diagnostics.items.filter { $0.severity == .error }.map(\.description) == [
            "content/s/_section.md:3:11: error: 'paginate' must be a whole number of at least 1, or false, found 'yes'"
        ])
    }

    /// Every page that shows an edited item is patched: the feed page showing its section's first
    /// page, the section's own page holding it, a view drawing it and its tag pages, with their
    /// Atom and JSON documents; an item with an image takes the usual path.
    @Test func bodyEditsOfItemsOnSeveralPagesArePatched() throws {
        let root = temporaryFolder("feedgen-paging") + "/site"
        var files = [
            "feedgen.yaml": "title: Paged\nbaseURL: https://example.org/p/\npaginate: 4\n",
            "content/_feed.md": "---\ntitle: Home\nsections: [latest, news]\n---\n",
            "content/news/_section.md": "---\ntitle: News\nlayout: list\n---\n",
            "content/latest/_section.md": "---\ntitle: Latest\nlayout: carousel\nsections: [news]\nsort: date\nlimit: 3\nseeAll: true\n---\n",
        ]
        for i in 1...10 {
            let image = i == 5 ? "image: {src: pic.png, alt: A picture}\n" : ""
            files[String(format: "content/news/i%03d.md", i)] =
                "---\ntitle: Item \(i)\nweight: \(i)\ndate: 2026-10-\(String(format: "%02d", i))\ntags: [t\(i % 2)]\n\(image)---\nFirst words of \(i).\n"
        }
        writeSite(root, files)
        try FileManager.default.copyItem(atPath: repositoryRoot + "/content/recipes/recipes/miso-soup.png", toPath: root + "/content/news/pic.png")
        Thread.sleep(forTimeInterval: Double(BuildSnapshot.racyMargin) / 1e9 + 0.2)
        #expect(!PatchBuildTests.buildAndCompare(root, "first build", minimumFiles: 30).patched)
        let out = root + "/../public"
        #expect(Self.exists(out + "/news/page/3/index.html") && Self.exists(out + "/tags/t0/index.html"))

        // Item 1: on the feed page (news' first page), news' first own page, Latest's third,
        // its tag's second page, and the feed's documents.
        try IncrementalBuildTests.replace(root, "content/news/i001.md", "First words of 1.", "New first words of one.")
        var report = PatchBuildTests.buildAndCompare(root, "item 1", minimumFiles: 30)
        #expect(report.patched)
        #expect(report.pagesRendered == 1)
        for page in ["index.html", "news/index.html", "latest/page/3/index.html", "tags/t1/page/2/index.html", "feed.xml", "feed.json"] {
            #expect(Self.read(out + "/" + page).contains("New first words of one."), "\(page)")
        }
        // Item 7: not on the feed page; on news' second own page, Latest's first, its tag's first
        // page and that page's Atom and JSON documents.
        try IncrementalBuildTests.replace(root, "content/news/i007.md", "First words of 7.", "Other words of seven.")
        report = PatchBuildTests.buildAndCompare(root, "item 7", minimumFiles: 30)
        #expect(report.patched)
        for page in ["news/page/2/index.html", "latest/index.html", "tags/t1/index.html", "tags/t1/feed.xml", "tags/t1/feed.json"] {
            #expect(Self.read(out + "/" + page).contains("Other words of seven."), "\(page)")
        }
        #expect(!Self.read(out + "/index.html").contains("Other words of seven."))
        // An item with an image shows it in several layouts: the usual path.
        try IncrementalBuildTests.replace(root, "content/news/i005.md", "First words of 5.", "Fifth words.")
        report = PatchBuildTests.buildAndCompare(root, "item 5, with an image", minimumFiles: 30)
        #expect(!report.patched)
    }
}
