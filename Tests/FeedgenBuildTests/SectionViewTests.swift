import Foundation
import Testing

@testable import FeedgenBuild
@testable import FeedgenContent
@testable import FeedgenResolve
import FeedgenDiagnostics
import FeedgenIncremental

/// Sections as views over the content (issue #20, content-format §4.1): `sections`, `where`,
/// `sort` and `limit` draw items from other sections of the feed; `seeAll` and `paginate` give a
/// section its own pages; every tag gets a page, and `terms: tags` makes chips leading to them.
/// An item keeps one detail page and one feed entry wherever it is shown.
@Suite struct SectionViewTests {
    /// A home feed with `posts` (five dated posts, tagged) and the given extra sections.
    static func site(_ files: [String: String], feedSections: String = "[latest, posts]") -> String {
        let root = temporaryFolder("feedgen-views") + "/site"
        var all: [String: String] = [
            "feedgen.yaml": "title: Views\nbaseURL: https://example.org/v/\n",
            "content/_feed.md": "---\nsections: \(feedSections)\n---\n",
            "content/posts/_section.md": "---\ntitle: Posts\nlayout: list\n---\n",
        ]
        for i in 1...5 {
            let tags = i % 2 == 1 ? "[soup, Quick meals]" : "[和食]"
            let pin = i == 2 ? "pin: true\n" : ""
            all["content/posts/p\(i).md"] = "---\ntitle: Post \(i)\ndate: 2026-11-0\(i)\nweight: \(i)\ntags: \(tags)\n\(pin)---\nBody \(i).\n"
        }
        for (path, text) in files { all[path] = text }
        writeSite(root, all)
        return root
    }

    static func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    /// The `data-item-id`s of the section `id` on `html`, in order.
    static func cells(_ html: String, section id: String) -> [String] {
        guard let start = html.range(of: "data-section-id=\"\(id)\"") else { return [] }
        let rest = html[start.upperBound...]
        let end = rest.range(of: "</section>")?.lowerBound ?? rest.endIndex
        return rest[..<end].matches(of: /data-item-id="([^"]*)"/).map { String($0.1) }
    }

    @Test func aLimitedViewShowsTheNewestItemsAndLinksToAllOfThem() throws {
        let root = Self.site([
            "content/latest/_section.md": "---\ntitle: Latest\nlayout: carousel\nsections: [posts]\nsort: date\nlimit: 2\nseeAll: true\n---\n"
        ])
        let out = root + "/../public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        let home = Self.read(out + "/index.html")
        // Drawn items get their own cell ids: the same item is on the page twice.
        #expect(Self.cells(home, section: "latest") == ["latest:posts/p5", "latest:posts/p4"])
        #expect(Self.cells(home, section: "posts") == ["posts/p1", "posts/p2", "posts/p3", "posts/p4", "posts/p5"])
        #expect(home.contains(#"<p class="cl-see-all"><a href="latest/index.html">See all<span class="cl-visually-hidden">: Latest</span></a></p>"#))
        // The own page holds every item in the view's order, as a grid (a shelf on the feed).
        let all = Self.read(out + "/latest/index.html")
        #expect(Self.cells(all, section: "latest") == ["posts/p5", "posts/p4", "posts/p3", "posts/p2", "posts/p1"])
        #expect(all.contains(#"<section class="cl-section cl-preset-grid" data-section-id="latest""#))
        #expect(all.contains(#"<nav class="breadcrumb" aria-label="Breadcrumb"><a href="../index.html">Views</a></nav>"#))
        #expect(all.contains(#"<h1 class="page-title">Latest</h1>"#))
        #expect(all.contains(#"<h2 id="sec-latest">5 items</h2>"#))  // the cards' h3 need an h2
        #expect(all.contains(#"<a href="../posts/p5.html">Post 5</a>"#))
        // One detail page per item, and one feed entry.
        let files = snapshot(out).keys.sorted()
        #expect(files.filter { $0.hasSuffix(".html") && !$0.hasSuffix("index.html") } == (1...5).map { "posts/p\($0).html" })
        let atom = Self.read(out + "/feed.xml")
        #expect(atom.components(separatedBy: "<entry>").count - 1 == 5)
        #expect(atom.components(separatedBy: "<id>https://example.org/v/posts/p5.html</id>").count - 1 == 1)
        let sitemap = Self.read(out + "/sitemap.xml")
        #expect(sitemap.contains("<loc>https://example.org/v/latest/</loc>"))
        #expect(sitemap.components(separatedBy: "posts/p5.html").count - 1 == 1)
    }

    @Test func whereFiltersOnTagsBooleansAndType() throws {
        let root = Self.site(
            [
                "content/pinned/_section.md": "---\ntitle: Pinned\nlayout: hero\nsections: feed\nwhere: {pin: true}\n---\n",
                "content/soup/_section.md": "---\ntitle: Soup\nlayout: grid\nsections: [posts]\nwhere: {tags: soup}\n---\n",
                "content/cards/_section.md": "---\ntitle: Cards\nsections: [posts]\nwhere: {type: card}\nlimit: 1\n---\n",
                "content/few/_section.md": "---\ntitle: Few\nsections: [posts]\npaginate: 10\n---\n",
            ], feedSections: "[pinned, soup, cards, few, posts]")
        let out = root + "/../public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        let home = Self.read(out + "/index.html")
        #expect(Self.cells(home, section: "pinned") == ["pinned:posts/p2"])
        #expect(Self.cells(home, section: "soup") == ["soup:posts/p1", "soup:posts/p3", "soup:posts/p5"])
        #expect(Self.cells(home, section: "cards") == ["cards:posts/p1"])
        // A limit without `seeAll` or `paginate` makes no own page, nor does `paginate` alone when
        // the feed page shows every item.
        #expect(!FileManager.default.fileExists(atPath: out + "/cards/index.html"))
        #expect(Self.cells(home, section: "few").count == 5)
        #expect(!FileManager.default.fileExists(atPath: out + "/few/index.html"))
        #expect(!home.contains(#"href="few/index.html""#))
    }

    @Test func unknownSectionsAndKeysAreErrorsAtTheirValues() throws {
        let root = Self.site([
            "content/latest/_section.md": "---\ntitle: Latest\nsections: [post, latest]\nwhere: {pni: true}\nlimit: 0\nterms: words\n---\n"
        ])
        let report = build(root, output: root + "/../public")
        #expect(report.exitStatus == 1)
        #expect(report.diagnostics.items.map(\.description).sorted() == [
            "content/latest/_section.md:3:12: error: 'sections' names 'post', which is no section of this feed; the feed's sections are 'latest', 'posts' (did you mean 'posts'?)",
            "content/latest/_section.md:3:18: error: 'sections' names this section itself; name the sections it shows items of",
            "content/latest/_section.md:4:9: error: 'where' names the key 'pni', which no item of this section has",
            "content/latest/_section.md:5:8: error: 'limit' must be a whole number of at least 1, found '0'",
            "content/latest/_section.md:6:8: error: unknown 'terms' 'words'; expected 'tags'",
        ])
    }

    @Test func aLongSectionIsPaginatedOnItsOwnPages() throws {
        var files: [String: String] = ["content/latest/_section.md": "---\ntitle: Everything\nlayout: list\npaginate: 10\n---\n"]
        for i in 1...25 { files["content/latest/i\(String(format: "%02d", i)).md"] = "---\ntitle: Item \(i)\nweight: \(i)\n---\nBody.\n" }
        let root = Self.site(files)
        let out = root + "/../public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        let ids = (1...25).map { "latest/i" + String(format: "%02d", $0) }
        #expect(Self.cells(Self.read(out + "/index.html"), section: "latest") == Array(ids.prefix(10)))
        let pages = ["latest/index.html", "latest/page/2/index.html", "latest/page/3/index.html"].map { Self.read(out + "/" + $0) }
        #expect(pages.flatMap { Self.cells($0, section: "latest") } == ids)
        #expect(pages[1].contains(#"<li><a href="../../index.html" rel="prev">Previous</a></li>"#))
        #expect(pages[1].contains(#"<li><a href="index.html" aria-current="page">2</a></li>"#))
        #expect(pages[1].contains(#"<li><a href="../3/index.html" rel="next">Next</a></li>"#))
        #expect(!pages[2].contains("rel=\"next\""))
        // The feed's feeds hold every item (the own pages have none); every item has its one detail page.
        #expect(!FileManager.default.fileExists(atPath: out + "/latest/feed.xml"))
        #expect(!FileManager.default.fileExists(atPath: out + "/latest/page/2/feed.xml"))
        #expect(ids.allSatisfy { FileManager.default.fileExists(atPath: out + "/" + $0 + ".html") })
        #expect(Self.read(out + "/feed.xml").components(separatedBy: "<entry>").count - 1 == 30)
    }

    @Test func everyTagHasAPageAndChipsLeadThere() throws {
        let root = Self.site(["content/latest/_section.md": "---\ntitle: Popular tags\nlayout: chips\nterms: tags\n---\n"])
        let out = root + "/../public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        let home = Self.read(out + "/index.html")
        // By count, then by name.
        #expect(Self.cells(home, section: "latest") == ["tag:Quick meals", "tag:soup", "tag:和食"])
        #expect(home.contains(#"href="tags/quick-meals/index.html""#))
        #expect(home.contains(#"href="tags/%E5%92%8C%E9%A3%9F/index.html""#))
        let soup = Self.read(out + "/tags/soup/index.html")
        #expect(Self.cells(soup, section: "tagged") == ["posts/p5", "posts/p3", "posts/p1"])  // newest first
        #expect(soup.contains(#"<main class="cl-page" data-feed="/tags">"#))
        #expect(soup.contains(#"<h1 class="page-title">soup</h1>"#))
        #expect(Self.cells(Self.read(out + "/tags/和食/index.html"), section: "tagged") == ["posts/p4", "posts/p2"])
        // All tag pages share their layout rules.
        #expect(Self.read(out + "/assets/layout.css").components(separatedBy: "/* feed /tags */").count - 1 == 1)
        #expect(Self.read(out + "/tags/soup/feed.xml").components(separatedBy: "<entry>").count - 1 == 3)
        #expect(Self.read(out + "/sitemap.xml").contains("<loc>https://example.org/v/tags/quick-meals/</loc>"))
        // Chips are not entries of the feed.
        #expect(Self.read(out + "/feed.xml").components(separatedBy: "<entry>").count - 1 == 5)
    }

    @Test func aLongTagIsPaginatedByItsChipsSection() throws {
        let root = Self.site(["content/latest/_section.md": "---\ntitle: Tags\nlayout: chips\nterms: tags\npaginate: 2\n---\n"])
        let out = root + "/../public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        let first = Self.read(out + "/tags/soup/index.html")
        let second = Self.read(out + "/tags/soup/page/2/index.html")
        #expect(Self.cells(first, section: "tagged") == ["posts/p5", "posts/p3"])
        #expect(Self.cells(second, section: "tagged") == ["posts/p1"])
        #expect(second.contains(#"<li><a href="../../index.html" rel="prev">Previous</a></li>"#))
        #expect(second.contains(#"<h2 id="sec-tagged">3 items</h2>"#))
        // The tag's feeds: its first page's items; page 2 has none of its own.
        #expect(Self.read(out + "/tags/soup/feed.xml").components(separatedBy: "<entry>").count - 1 == 2)
        #expect(!FileManager.default.fileExists(atPath: out + "/tags/soup/page/2/feed.xml"))
        #expect(!second.contains("feed.xml"))
    }

    /// Spellings differing in case or in space / hyphen are one tag, as Hugo's `urlize` makes them
    /// one term page: its items are every spelling's, its name the most used spelling.
    @Test func tagSpellingsShareOnePageUnderTheMostUsedSpelling() throws {
        let root = Self.site([
            "content/latest/_section.md": "---\ntitle: Tags\nlayout: chips\nterms: tags\n---\n",
            "content/posts/x.md": "---\ntitle: X\ndate: 2026-10-01\ntags: [Soup, quick-meals]\n---\nB\n",
            "content/posts/y.md": "---\ntitle: Y\ndate: 2026-10-02\ntags: [SOUP]\n---\nB\n",
        ])
        let out = root + "/../public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        #expect(!report.diagnostics.items.contains { $0.message.contains("tag") })
        let soup = Self.read(out + "/tags/soup/index.html")
        #expect(Self.cells(soup, section: "tagged") == ["posts/p5", "posts/p3", "posts/p1", "posts/y", "posts/x"])
        #expect(soup.contains(#"<h1 class="page-title">soup</h1>"#))
        #expect(soup.contains(#"<h2 id="sec-tagged">5 items</h2>"#))
        #expect(Self.cells(Self.read(out + "/tags/quick-meals/index.html"), section: "tagged")
            == ["posts/p5", "posts/p3", "posts/p1", "posts/x"])
        // The counts are summed: soup (5) before Quick meals (4), one chip each.
        #expect(Self.cells(Self.read(out + "/index.html"), section: "latest") == ["tag:soup", "tag:Quick meals", "tag:和食"])
        let tags = try FileManager.default.contentsOfDirectory(atPath: out + "/tags").sorted()
        #expect(tags == ["quick-meals", "soup", "和食"])
    }

    /// Spellings used equally often: the one written in the first source path names the page.
    @Test func aTieBetweenSpellingsGoesToTheFirstSourcePath() throws {
        let root = Self.site([
            "content/posts/b.md": "---\ntitle: B\ntags: [open-source]\n---\nB\n",
            "content/posts/a.md": "---\ntitle: A\ntags: [Open Source]\n---\nA\n",
        ], feedSections: "[posts]")
        let out = root + "/../public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        let page = Self.read(out + "/tags/open-source/index.html")
        #expect(page.contains(#"<h1 class="page-title">Open Source</h1>"#))
        #expect(Set(Self.cells(page, section: "tagged")) == ["posts/a", "posts/b"])
        // A `where` names any spelling.
        #expect(SectionEntries.matches(Item(id: "posts/b", sourcePath: "b.md", location: SourceLocation(path: "b.md", line: 1, column: 1), title: "B", tags: ["open-source"]), key: "tags", value: YAMLNode(.scalar("Open  source", plain: true), line: 1, column: 1)))
    }

    /// Tags that differ in more than case and spaces still give one folder: an error at each.
    @Test func twoTagsGivingOnePageAreAnErrorAtBoth() throws {
        let root = Self.site([
            "content/posts/x.md": "---\ntitle: X\ntags: [C#]\n---\nB\n",
            "content/posts/y.md": "---\ntitle: Y\ntags: [C]\n---\nB\n",
        ], feedSections: "[posts]")
        let report = build(root, output: root + "/../public")
        #expect(report.exitStatus == 1)
        #expect(report.diagnostics.items.map(\.description).sorted() == [
            "content/posts/x.md:3:8: error: the tag 'C#' would have the page 'tags/c/index.html', as the tag 'C' (content/posts/y.md:3:8) does; rename one of them",
            "content/posts/y.md:3:8: error: the tag 'C' would have the page 'tags/c/index.html', as the tag 'C#' (content/posts/x.md:3:8) does; rename one of them",
        ])
    }

    /// Editing an item a view, a tag page and a later page show: the incremental build equals a
    /// clean one (the patch build declines such sites).
    @Test func editsOfShownItemsMatchACleanBuild() throws {
        let root = Self.site([
            "content/latest/_section.md": "---\ntitle: Latest\nlayout: carousel\nsections: [posts]\nsort: date\nlimit: 2\nseeAll: true\npaginate: 2\n---\n"
        ])
        let out = root + "/../public"
        #expect(build(root, output: out).exitStatus == 0)
        #expect(build(root, output: out).exitStatus == 0)
        for (path, old, new) in [
            ("content/posts/p5.md", "Body 5.", "A new body."), ("content/posts/p1.md", "title: Post 1", "title: First"),
            ("content/posts/p3.md", "[soup, Quick meals]", "[soup]"),
        ] {
            let file = root + "/" + path
            try (try String(contentsOfFile: file, encoding: .utf8)).replacingOccurrences(of: old, with: new)
                .write(toFile: file, atomically: false, encoding: .utf8)
            let incremental = build(root, output: out)
            #expect(incremental.exitStatus == 0)
            let clean = root + "/../clean-" + UUID().uuidString
            var options = BuildOptions(siteRoot: root, output: clean, now: fixedNow)
            options.useCache = false
            #expect(SiteBuilder.build(options).exitStatus == 0)
            let (a, b) = (snapshot(out).filter { !$0.key.hasPrefix(".feedgen") }, snapshot(clean).filter { !$0.key.hasPrefix(".feedgen") })
            #expect(a.keys.sorted() == b.keys.sorted(), "after editing \(path)")
            for (file, bytes) in b where a[file] != bytes { Issue.record("\(file) differs from a clean build's after editing \(path)") }
        }
        #expect(Self.read(out + "/latest/page/2/index.html").contains("First") == false)
        #expect(Self.read(out + "/latest/page/3/index.html").contains("First"))
    }
}
