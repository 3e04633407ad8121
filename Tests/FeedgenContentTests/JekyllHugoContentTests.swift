import Foundation
import Testing

@testable import FeedgenContent

/// Content written for Jekyll or Hugo loads unchanged (content-format §5.1): `.markdown` files,
/// file-name dates and slugs, tags as a string, `published: false`, Chirpy's image keys, the
/// date forms those tools accept, the site's time zone, and file names that are not URL-safe.
@Suite struct JekyllHugoContentTests {
    @Test func markdownFilesAndFileNameDates() throws {
        let site = try TestSite([
            "content/posts/2013-05-06-jekyll-1-0-0-released.markdown": "---\ntitle: One\n---\nBody.\n",
            "content/posts/2013-5-6-short.md": "Short.\n",
            "content/posts/2014-01-02-dated.md": "---\ndate: 2020-02-03\n---\nThe front matter wins.\n",
            "content/posts/2013-02-30-not-a-date.md": "A day that does not exist: no date.\n",
            "content/posts/sub/2015-07-08-deep.markdown": "Deep.\n",
        ])
        let (s, diagnostics) = site.load()
        // A date that does not exist was taken silently as part of the name before.
        #expect(diagnostics == [
            "content/posts/2013-02-30-not-a-date.md:1:1: warning: the file name's date '2013-02-30' is not a calendar date: the name is read as a plain name (no date from it; its id and page keep the whole name), where Jekyll would not read the post"
        ])
        let items = try #require(s?.feed(at: "")?.sections.first?.items)
        let byID = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0) })
        #expect(byID.keys.sorted() == ["posts/2013-02-30-not-a-date", "posts/dated", "posts/jekyll-1-0-0-released", "posts/short", "posts/sub/deep"])
        #expect(byID["posts/jekyll-1-0-0-released"]?.date?.iso == "2013-05-06")
        #expect(byID["posts/jekyll-1-0-0-released"]?.title == "One")
        #expect(byID["posts/short"]?.date?.iso == "2013-05-06")
        #expect(byID["posts/short"]?.title == "Short")
        #expect(byID["posts/dated"]?.date?.iso == "2020-02-03")
        #expect(byID["posts/2013-02-30-not-a-date"]?.date == nil)
        #expect(byID["posts/sub/deep"]?.date?.iso == "2015-07-08")
        #expect(byID["posts/sub/deep"]?.fileName == "sub/2015-07-08-deep.markdown")
    }

    /// Every extension Jekyll's default `markdown_ext` or Hugo lists, and `.mdx`, in any case, is an item;
    /// `.mdwn` (read by neither) is a warning, not silently dropped.
    @Test func everyMarkdownExtensionOfJekyllAndHugoIsRead() throws {
        let names = ["a.md", "b.markdown", "c.mdown", "d.mkdown", "e.mkdn", "f.mkd", "g.markdn", "h.MD", "i.Markdown", "l.mdx"]
        var files: [String: String] = [:]
        for name in names { files["content/s/" + name] = "Body.\n" }
        files["content/s/j.mdwn"] = "Body.\n"
        files["content/s/k.txt"] = "Not Markdown.\n"
        let (s, diagnostics) = try TestSite(files).load()
        #expect(
            diagnostics == [
                "content/s/j.mdwn: warning: 'j.mdwn' is not read: feedgen reads Markdown files ending in '.md', '.markdown', '.mdown', '.mkdown', '.mkdn', '.mkd', '.markdn', '.mdx' only; rename it to 'j.md'"
            ])
        #expect(s?.outline() == ["s: s/a, s/b, s/c, s/d, s/e, s/f, s/g, s/h, s/i, s/l"])
        #expect(MarkdownLink(destination: "../t/x.MKDN#p", directory: "content/s")?.target == "content/t/x.MKDN")
        // Docusaurus' `.mdx` is read as Markdown (content-format §5.2).
        #expect(MarkdownLink(destination: "x.mdx", directory: "content/s")?.target == "content/s/x.mdx")
        #expect(MarkdownLink(destination: "x.mdz", directory: "content/s") == nil)
        #expect(MarkdownLink.mdAlias(of: "content/s/x.markdown") == "content/s/x.md")
        #expect(MarkdownLink.mdAlias(of: "content/s/x.md") == nil)
    }

    @Test func tagsAndCategoriesMayBeStrings() throws {
        let site = try TestSite([
            "content/s/a.md": "---\ntags: .NET Visual-Studio\ncategories: release  security\n---\n",
            "content/s/b.md": "---\ntags: security\ncategories: [a, b]\n---\n",
            "content/s/c.md": "---\ntags: [x, y z]\n---\n",
        ])
        let (s, diagnostics) = site.load()
        #expect(diagnostics == [])
        let items = try #require(s?.feed(at: "")?.sections.first?.items)
        #expect(items.map(\.tags) == [[".NET", "Visual-Studio"], ["security"], ["x", "y z"]])
        func categories(_ item: Item) -> [String]? {
            item.params.first { $0.key.string == "categories" }?.value.elements?.compactMap(\.string)
        }
        #expect(items.map(categories) == [["release", "security"], ["a", "b"], nil])
    }

    @Test func publishedFalseHidesLikeADraft() throws {
        let site = try TestSite([
            "content/s/a.md": "---\ntitle: A\npublished: false\n---\n",
            "content/s/b.md": "---\ntitle: B\npublished: true\n---\n",
            "content/s/c.md": "---\ntitle: C\npublished: 2030-01-01\n---\n",
            "content/s/d.md": "---\ntitle: D\npublished: maybe\n---\n",
        ])
        let (_, diagnostics) = site.load()
        #expect(
            diagnostics == [
                "content/s/a.md:3:12: note: skipped: 'published: false' (use --drafts to include)",
                "content/s/c.md:3:12: note: skipped: publishDate 2030-01-01 is in the future (use --future to include)",
                "content/s/d.md:3:12: error: 'published' must be true or false (Jekyll) or a date (Hugo's alias of 'publishDate'), found 'maybe'",
            ])
        try site.write("content/s/d.md", "---\ntitle: D\n---\n")
        let (s, notes) = site.load()
        #expect(
            notes == [
                "content/s/a.md:3:12: note: skipped: 'published: false' (use --drafts to include)",
                "content/s/c.md:3:12: note: skipped: publishDate 2030-01-01 is in the future (use --future to include)",
            ])
        #expect(s?.outline() == ["s: s/b, s/d"])
        #expect(site.load(drafts: true, future: true).site?.outline() == ["s: s/a, s/b, s/c, s/d"])
    }

    /// Hugo lowercases front matter keys: `Draft`, `publishdate`, `expirydate` and `Title` take
    /// effect (they became params before, and the draft, embargoed and expired items were
    /// published); two spellings of one key are an error at the one dropped.
    @Test func frontMatterKeysMatchInAnyCase() throws {
        let site = try TestSite([
            "content/s/a.md": "---\ntitle: A\npublishdate: 2099-01-01\n---\n",
            "content/s/b.md": "---\ntitle: B\nDraft: true\n---\n",
            "content/s/c.md": "---\ntitle: C\nexpirydate: 2001-01-01\n---\n",
            "content/s/d.md": "---\nTitle: Capital Title\nDATE: 2024-05-05\n---\n",
            "content/s/e.md": "---\nTitle: First\ntitle: Exact\nTITLE: Third\n---\n",
        ])
        let (s, diagnostics) = site.load()
        #expect(
            diagnostics == [
                "content/s/a.md:3:14: note: skipped: publishDate 2099-01-01 is in the future (use --future to include)",
                "content/s/b.md:3:8: note: skipped draft (use --drafts to include)",
                "content/s/c.md:3:13: note: skipped: expired on 2001-01-01 (use --expired to include)",
                "content/s/e.md:2:1: error: duplicate key 'Title': 'title' at line 3, column 1 is the same key (front matter keys match in any case, as in Hugo); remove one",
                "content/s/e.md:4:1: error: duplicate key 'TITLE': 'title' at line 3, column 1 is the same key (front matter keys match in any case, as in Hugo); remove one",
            ])
        _ = s
        try site.write("content/s/e.md", "---\ntitle: Exact\n---\n")
        let (loaded, notes) = site.load()
        #expect(notes.count == 3)
        let items = try #require(loaded?.feed(at: "")?.sections.first?.items)
        #expect(items.map(\.id) == ["s/d", "s/e"])
        #expect(items.map(\.title) == ["Capital Title", "Exact"])
        #expect(items.first?.date?.iso == "2024-05-05")
        #expect(items.first?.params == [])
    }

    @Test func chirpyImagePathAndUnknownImageKeys() throws {
        let site = try TestSite([
            "content/s/a.md": "---\nimage: {path: /img/a.png, alt: A cat, lqip: \"data:image/webp;base64,AAAA\"}\n---\n",
            "content/s/b.md": "---\nimage: {src: b.png, path: c.png, alt: B}\n---\n",
            "static/img/a.png": "",
        ])
        let (s, diagnostics) = site.load()
        #expect(
            diagnostics == [
                "content/s/a.md:2:39: warning: unknown key 'lqip' in 'image' is ignored (known keys: src, path, alt, width, height)",
                "content/s/b.md:2:27: warning: 'path' is ignored: this image also has 'src'",
            ])
        let items = try #require(s?.feed(at: "")?.sections.first?.items)
        #expect(items.map { $0.image?.src } == ["/img/a.png", "b.png"])
        #expect(items.map { $0.image?.alt } == ["A cat", "B"])
    }

    @Test func datesWithoutAZoneAreInTheSiteTimeZone() throws {
        let site = try TestSite([
            "feedgen.yaml": "timeZone: Asia/Tokyo\n",
            "content/s/a.md": "---\ndate: 2026-03-17 09:30\n---\n",
            "content/s/b.md": "---\ndate: 2013-11-22 5:00:00 +0000\n---\n",
            "content/s/c.md": "---\ndate: 2021/06/08\n---\n",
            "content/s/d.md": "---\ndate: 2026-07-01T12:00:00 UTC\n---\n",
            "content/s/e.md": "---\ndate: 2023-01-29 18:30:22 2023 -0800\n---\n",
        ])
        let (_, diagnostics) = site.load()
        #expect(diagnostics == ["content/s/e.md:2:7: error: invalid date '2023-01-29 18:30:22 2023 -0800': \(ContentDate.acceptedForms)"])
        try site.write("content/s/e.md", "---\ndate: 2026-07-01 08:00\n---\n")
        let (s, _) = site.load()
        let items = try #require(s?.feed(at: "")?.sections.first?.items)
        #expect(
            items.map { $0.date?.iso } == [
                "2026-07-01T12:00:00Z", "2026-07-01T08:00:00+09:00", "2026-03-17T09:30:00+09:00", "2021-06-08",
                "2013-11-22T05:00:00Z",
            ])
    }

    /// Daylight saving: a wall-clock time takes the offset in force on its day.
    @Test func zoneOffsetFollowsDaylightSaving() throws {
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        #expect(ContentDate.parse("2026-01-15 10:00", timeZone: paris)?.iso == "2026-01-15T10:00:00+01:00")
        #expect(ContentDate.parse("2026-07-15 10:00", timeZone: paris)?.iso == "2026-07-15T10:00:00+02:00")
        #expect(ContentDate.parse("2026-07-15 10:00 Z", timeZone: paris)?.iso == "2026-07-15T10:00:00Z")
        #expect(ContentDate.parse("2026-07-15", timeZone: paris)?.iso == "2026-07-15")
    }

    @Test(arguments: [
        ("2021/06/08", "2021-06-08"),
        ("2013-5-6", "2013-05-06"),
        ("2013-11-22 5:00:00 +0000", "2013-11-22T05:00:00Z"),
        ("2013-11-22 05:00 -0800", "2013-11-22T05:00:00-08:00"),
        ("2013-11-22 05:00:00 UTC", "2013-11-22T05:00:00Z"),
        ("2013-11-22T05:00:00 GMT", "2013-11-22T05:00:00Z"),
        ("2013-11-22t5:07z", "2013-11-22T05:07:00Z"),
        ("2021/6/8 23:59:59.5 +09", "2021-06-08T23:59:59.5+09:00"),
    ])
    func jekyllAndHugoDateForms(source: String, iso: String) {
        #expect(ContentDate.parse(source)?.iso == iso)
    }

    @Test(arguments: [
        "2023-01-29 18:30:22 2023 -0800", "2021/06-08", "06/08/2021", "2021-006-08", "2021-06-08 123:00",
        "2021-06-08 5:0", "2021-06-08 05:00 PST", "20210608",
    ])
    func otherFormsAreInvalid(source: String) {
        #expect(ContentDate.parse(source) == nil)
    }

    @Test func namesThatAreNotURLSafeGetADerivedID() throws {
        let site = try TestSite([
            "content/css/@media.md": "At-rule.\n",
            "content/css/Q&A (draft).md": "Questions.\n",
            "content/my posts/a b.md": "Spaces.\n",
        ])
        let (s, diagnostics) = site.load()
        #expect(diagnostics == [])
        #expect(s?.outline() == ["css: css/media, css/Q-A-draft", "my posts: my-posts/a-b"])
        #expect(ItemName.urlSafe("café au lait") == "café-au-lait")
        #expect(ItemName.urlSafe("...x") == "x")
        #expect(ItemName.urlSafe("@@") == "@@")
    }

    /// A feed folder's name is made URL-safe like a section's for its pages (`news@2 x/` →
    /// `news-2-x/index.html`); source paths keep the name as written. Two folders whose pages
    /// would be one are an error naming both.
    @Test func feedFolderNamesGetAURLSafePath() throws {
        let (s, diagnostics) = try TestSite([
            "content/news@2 x/_feed.md": "---\ntitle: News\n---\n",
            "content/news@2 x/my s/a.md": "A.\n",
        ]).load()
        #expect(diagnostics == [])
        let feed = try #require(s?.feeds.first { $0.folder == "news@2 x" })
        #expect(feed.path == "news-2-x")
        #expect(feed.sourcePath == "content/news@2 x/_feed.md")
        #expect(feed.sections.map { $0.items.map(\.id) } == [["my-s/a"]])
        #expect(feed.sections.first?.items.first?.sourcePath == "content/news@2 x/my s/a.md")

        let (clash, problems) = try TestSite([
            "content/a b/_feed.md": "---\ntitle: One\n---\n",
            "content/a-b/_feed.md": "---\ntitle: Two\n---\n",
        ]).load()
        #expect(clash == nil)
        #expect(
            problems == [
                "content/a-b/_feed.md: error: feed folder 'content/a-b' would write a-b/index.html over the page of feed 'content/a b' (folder names are made URL-safe: §5.2); rename one of them"
            ])
    }

    @Test func twoNamesWithTheSameDerivedIDAreAnError() throws {
        let site = try TestSite([
            "content/s/a b.md": "One.\n",
            "content/s/a-b.md": "Two.\n",
        ])
        let (s, diagnostics) = site.load()
        #expect(s == nil)
        #expect(
            diagnostics.sorted() == [
                "content/s/a-b.md:1:1: error: duplicate item id 's/a-b' (also used by content/s/a b.md:1:1)"
            ])
    }

    /// Dated files whose slugs give one id keep their dates in it (issue #19, content-format
    /// §5.2: roweb3's four `…-ropensci-at-meetings.md`); other files keep the date-less id.
    @Test func datedNamesWithOneSlugKeepTheirDates() throws {
        let site = try TestSite([
            "content/s/2016-11-09-meet.md": "One.\n",
            "content/s/2017-5-1-meet.md": "Two.\n",
            "content/s/meet.md": "Three.\n",
            "content/s/2018-01-01-solo.md": "Four.\n",
            "content/t/2018-01-01-meet.md": "Five.\n",
            "content/s/x/2019-01-01-y.md": "---\nid: s/2016-11-09-meet\n---\nSix.\n",
        ])
        let (s, diagnostics) = site.load()
        #expect(s == nil)
        // An explicit id is still checked against the ids kept dated.
        #expect(
            diagnostics.sorted() == [
                "content/s/x/2019-01-01-y.md:2:5: error: duplicate item id 's/2016-11-09-meet' (also used by content/s/2016-11-09-meet.md:1:1)"
            ])
        try site.write("content/s/x/2019-01-01-y.md", "Six.\n")
        let (loaded, problems) = site.load()
        #expect(problems == [])
        let sections = try #require(loaded?.feed(at: "")?.sections)
        #expect(sections.map { $0.items.map(\.id).sorted() } == [["s/2016-11-09-meet", "s/2017-5-1-meet", "s/meet", "s/solo", "s/x/y"], ["t/meet"]])
        #expect(sections[0].items.map(\.title).sorted() == ["Meet", "Meet", "Meet", "Solo", "Y"])
        #expect(sections[0].items.compactMap { $0.date?.iso }.sorted() == ["2016-11-09", "2017-05-01", "2018-01-01", "2019-01-01"])
    }
}
