import FeedgenDiagnostics
import FeedgenStorage
import Foundation
import Testing

@testable import FeedgenContent

@Suite struct DiscoveryTests {
    @Test func feedsSectionsAndItems() throws {
        let site = try TestSite([
            "content/_feed.md": "---\ntitle: Home\n---\nWelcome *all*.\n",
            "content/today/_section.md": "---\ntitle: Today\nlayout: list\n---\nFresh picks.\n",
            "content/today/weather.md": "---\ntitle: Weather\n---\nSunny.\n",
            "content/today/deep/er/item.md": "---\ntitle: Deep\n---\n",
            "content/today/_hidden.md": "---\ntitle: Hidden\n---\n",
            "content/today/.dot.md": "x",
            "content/today/_index.md": "x",
            "content/today/notes.txt": "not markdown",
            "content/_drafts/x.md": "x",
            "content/.git/x.md": "x",
            "content/images/logo.png": "png",
            "content/recipes/_feed.md": "---\ntitle: Recipes\nsections: [mains, soups]\n---\n",
            "content/recipes/soups/tomato.md": "Tomato soup.\n",
            "content/recipes/mains/pasta.md": "Pasta.\n",
            "content/recipes/mains/sub/_feed.md": "---\ntitle: Nested feed\n---\n",
            "content/recipes/mains/sub/s/x.md": "X\n",
            "content/empty/_section.md": "---\ntitle: Empty\n---\n",
            "static/css/site.css": "x",
            "static/a-b.txt": "x",
            "static/.nojekyll": "",
        ])
        let (loaded, diagnostics) = site.load()
        #expect(diagnostics == [])
        let s = try #require(loaded)
        #expect(s.root == site.root)
        #expect(s.feeds.map(\.path) == ["", "recipes", "recipes/mains/sub"])
        #expect(s.outline() == ["empty: ", "today: today/deep/er/item, today/weather"])
        #expect(s.outline("recipes") == ["mains: mains/pasta", "soups: soups/tomato"])
        #expect(s.outline("recipes/mains/sub") == ["s: s/x"])
        #expect(s.staticFiles == [".nojekyll", "a-b.txt", "css/site.css"])

        let home = try #require(s.feed(at: ""))
        #expect(home.title == "Home")
        #expect(home.sourcePath == "content/_feed.md")
        #expect(home.introHTML == "<p>Welcome <em>all</em>.</p>\n")
        let today = home.sections[1]
        #expect(today.sourcePath == "content/today/_section.md")
        #expect(today.title == "Today")
        #expect(today.layout?.string == "list")
        #expect(today.headerHTML == "<p>Fresh picks.</p>\n")
        let deep = today.items[0]
        #expect(deep.sourcePath == "content/today/deep/er/item.md")
        #expect(deep.fileName == "deep/er/item.md")
        #expect(deep.location.description == "content/today/deep/er/item.md:1:1")
        #expect(deep.hasBody == false)
        #expect(deep.html == "")
        let weather = today.items[1]
        #expect(weather.html == "<p>Sunny.</p>\n")
        #expect(weather.description == "Sunny.")
        #expect(weather.hasBody)
        #expect(weather.type == "card")

        let recipes = try #require(s.feed(at: "recipes"))
        #expect(recipes.title == "Recipes")
        let pasta = recipes.sections[0].items[0]
        #expect(pasta.title == "Pasta")  // the file name without extension, titleized
        #expect(pasta.frontMatter.pairs == [])
        #expect(pasta.description == "Pasta.")
        #expect(recipes.sections[0].sourcePath == nil)
        #expect(s.feed(at: "recipes/mains/sub")?.title == "Nested feed")
        #expect(s.config.title == site.root.split(separator: "/").last.map(String.init))
    }

    @Test func subFeedTitleDefaultsToFolderName() throws {
        let site = try TestSite([
            "content/blog/_feed.md": "",
            "content/blog/posts/a.md": "A",
        ])
        let (s, diagnostics) = site.load()
        #expect(diagnostics == [])
        #expect(s?.feed(at: "blog")?.title == "blog")
        #expect(s?.feed(at: "blog")?.sourcePath == "content/blog/_feed.md")
        #expect(s?.feed(at: "")?.sections.isEmpty == true)
    }

    @Test func looseFilesAndMisplacedSectionFiles() throws {
        let site = try TestSite([
            "content/about.md": "About",
            "content/_section.md": "---\ntitle: x\n---\n",
            "content/news/a.md": "A",
            "content/news/old/_section.md": "---\ntitle: Nested\n---\n",
        ])
        let (s, diagnostics) = site.load()
        #expect(s == nil)
        #expect(
            diagnostics == [
                "content/_section.md: warning: '_section.md' is ignored in a feed folder; put it in a section folder below it",
                "content/news/old/_section.md: error: sections do not nest: this '_section.md' is inside section 'news'",
            ])
    }

    /// Every Markdown extension of Jekyll and Hugo is read, in any case (they were once left out
    /// with a warning): an item in a section, and a page beside `_feed.md` (content-format §3), the
    /// feed's last section, whose id is empty.
    @Test func otherMarkdownExtensionsAreRead() throws {
        let site = try TestSite([
            "content/news/a.md": "A",
            "content/news/b.markdown": "B",
            "content/news/deep/c.MD": "C",
            "content/news/d.mkdn": "D",
            "content/news/notes.txt": "not Markdown",
            "content/news/_e.markdown": "hidden",
            "content/f.Markdown": "F",
        ])
        let (_, diagnostics) = site.load()
        #expect(diagnostics == [])
        #expect(site.load().site?.outline() == ["news: news/a, news/b, news/deep/c, news/d", ": f"])
    }

    @Test func missingContentFolder() throws {
        let site = try TestSite([:])
        try FileManagerRemove(site.root + "/content")
        let (s, diagnostics) = site.load()
        #expect(s == nil)
        #expect(diagnostics == ["content: error: the site has no 'content' folder (looked in \(site.root))"])
    }

    @Test func sectionOrderFromWeightsThenNames() throws {
        let site = try TestSite([
            "content/b/a.md": "x",
            "content/a/a.md": "x",
            "content/c/_section.md": "---\nweight: -1\n---\n",
            "content/c/a.md": "x",
            "content/Z/a.md": "x",
        ])
        let (s, diagnostics) = site.load()
        #expect(diagnostics == [])
        #expect(s?.feed(at: "")?.sections.map(\.id) == ["c", "Z", "a", "b"])
    }

    @Test func sectionsListOrdersAndChecks() throws {
        let site = try TestSite([
            "content/_feed.md": "---\nsections:\n  - news\n  - nwes\n  - news\n---\n",
            "content/news/a.md": "x",
            "content/misc/a.md": "x",
        ])
        let (s, diagnostics) = site.load()
        #expect(s == nil)
        #expect(
            diagnostics == [
                "content/_feed.md:3:3: warning: section 'misc' is not listed in 'sections'; it is placed after the listed ones",
                "content/_feed.md:4:5: error: no section folder 'nwes' in content (did you mean 'news'?)",
                "content/_feed.md:5:5: error: section 'news' is already listed at line 3",
            ])
    }

    /// Listing a sub-feed or an empty folder said "no section folder 'sub' in content", while
    /// the folder was right there.
    @Test func sectionsListNamesWhyAFolderIsNoSection() throws {
        let site = try TestSite([
            "content/_feed.md": "---\nsections: [news, sub, empty]\n---\n",
            "content/news/a.md": "x",
            "content/sub/_feed.md": "---\ntitle: Sub\n---\n",
            "content/sub/s/b.md": "x",
            "content/empty/notes.txt": "not an item",
        ])
        let (_, diagnostics) = site.load()
        #expect(
            diagnostics == [
                "content/_feed.md:2:18: error: 'sub' is a feed of its own (it has _feed.md), not a section of this one; its page is sub/index.html",
                "content/_feed.md:2:23: error: no section folder 'empty' in content (a section is a folder holding _section.md or .md files)",
            ])
    }

    @Test func symlinkedSectionIsFollowed() throws {
        let site = try TestSite([
            "elsewhere/a.md": "---\ntitle: A\n---\n",
            "elsewhere/sub/b.md": "B",
        ])
        try FileManagerSymlink(at: site.root + "/content/docs", to: site.root + "/elsewhere")
        let (s, diagnostics) = site.load()
        #expect(diagnostics == [])
        #expect(s?.outline() == ["docs: docs/a, docs/sub/b"])
    }

    /// A file whose name is not valid UTF-8 cannot be opened by its (repaired) name: an error
    /// naming it, not "No such file", and not a silently missing card.
    @Test func nameThatIsNotUTF8IsAnError() throws {
        let site = try TestSite(["content/s/a.md": "---\ntitle: A\n---\n", "static/ok.txt": "ok"])
        for folder in ["/content/s/", "/static/"] {
            let path = Array((site.root + folder).utf8) + [0x62, 0xFF, 0x2E, 0x6D, 0x64, 0]  // "b\xFF.md"
            let fd = path.withUnsafeBufferPointer { p in
                p.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) }
            }
            #expect(fd >= 0)
            close(fd)
        }
        let (s, diagnostics) = site.load()
        let message = "error: this name is not valid UTF-8 (its bad bytes are shown as \u{FFFD}), so it cannot be part of the site; rename it"
        #expect(diagnostics == ["content/s/b\u{FFFD}.md: " + message, "static/b\u{FFFD}.md: " + message])
        #expect(s == nil)  // an error: the build stops, and the previous output stays
    }

    /// The listing the scanner uses: names in byte order, links followed (a broken one kept and
    /// marked), each file's stamp exactly what `stat` says of it, the folder's own identity.
    @Test func folderListingStampsFilesAndSortsByBytes() throws {
        let site = try TestSite(["content/s/b.md": "bb", "content/s/B.md": "B", "content/s/é.md": "e", "content/s/a/x.md": "x"])
        let folder = site.root + "/content/s"
        try FileManagerSymlink(at: folder + "/link.md", to: folder + "/b.md")
        try FileManagerSymlink(at: folder + "/broken.md", to: folder + "/missing.md")
        let (entries, id) = try #require(FileSystem.list(folder, stampFiles: true))
        #expect(entries.map(\.name) == ["B.md", "a", "b.md", "broken.md", "link.md", "é.md"])
        #expect(entries.map(\.isDirectory) == [false, true, false, false, false, false])
        #expect(entries.map(\.isLink) == [false, false, false, true, true, false])
        #expect(entries.map(\.isBrokenLink) == [false, false, false, true, false, false])
        var info = stat()
        #expect(stat(folder + "/b.md", &info) == 0)
        #expect(entries[2].stamp == FileStamp(info))
        #expect(entries[4].stamp == FileStamp(info))  // the link: its target's stamp
        #expect(entries[2].stamp?.size == 2)
        #expect(entries[1].stamp == nil && entries[3].stamp == nil)
        #expect(stat(folder, &info) == 0)
        #expect(id == FileSystem.NodeID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
        // Without stamps, a plain file is not stat'ed; a link still is (to know what it is).
        let plain = try #require(FileSystem.list(folder))
        #expect(plain.map(\.name) == entries.map(\.name))
        #expect(plain[2].stamp == nil && plain[4].stamp == entries[4].stamp)
        #expect(FileSystem.list(folder + "/missing") == nil)
    }

    @Test func symlinkLoopIsReportedOnce() throws {
        let site = try TestSite(["content/docs/a.md": "A"])
        try FileManagerSymlink(at: site.root + "/content/docs/loop", to: site.root + "/content/docs")
        let (s, diagnostics) = site.load()
        #expect(
            diagnostics == [
                "content/docs/loop: warning: folder skipped: it was already read through another path (a symbolic link loop?)"
            ])
        #expect(s?.outline() == ["docs: docs/a"])
    }
}

@Suite struct ConfigTests {
    @Test func defaultsWithoutFile() throws {
        let site = try TestSite(["content/s/a.md": "A"])
        let config = try #require(site.load().site?.config)
        #expect(config.language == "en")
        #expect(config.output == "public")
        #expect(config.timeZone == "UTC")
        #expect(config.baseURL == nil)
        #expect(config.markdownUnsafe == false)
        #expect(config.markdownSmart == true)
        #expect(config.theme.isEmpty)
        #expect(config.source == nil)
        // Smart punctuation is on by default; raw HTML is omitted.
        try site.write("content/s/a.md", "\"A\" -- <i>b</i>")
        #expect(
            site.load().site?.feeds[0].sections[0].items[0].html
                == "<p>“A” – <!-- raw HTML omitted -->b<!-- raw HTML omitted --></p>\n")
    }

    @Test func allKeys() throws {
        let site = try TestSite([
            "feedgen.yaml": """
            title: My Site
            language: pt-BR
            baseURL: https://example.org/
            output: dist
            timeZone: Europe/Paris
            markdown:
              unsafe: true
              smart: false
            theme:
              cornerRadius: 12
              background: "#fff"
              ratio: 1.10

            """,
            "content/s/a.md": "\"Hi\" <b>x</b>",
        ])
        let (s, diagnostics) = site.load()
        #expect(diagnostics == [])
        let config = try #require(s?.config)
        #expect(config.title == "My Site")
        #expect(config.language == "pt-BR")
        #expect(config.baseURL == "https://example.org/")
        #expect(config.output == "dist")
        #expect(config.timeZone == "Europe/Paris")
        #expect(config.markdownUnsafe && !config.markdownSmart)
        #expect(config.theme.map { "\($0.0)=\($0.1)" } == ["cornerRadius=12", "background=#fff", "ratio=1.10"])
        #expect(config.source?["title"]?.string == "My Site")
        #expect(s?.feeds[0].title == "My Site")
        #expect(s?.feeds[0].sections[0].items[0].html == "<p>&quot;Hi&quot; <b>x</b></p>\n")
    }

    @Test func errors() throws {
        let site = try TestSite([
            "feedgen.yaml": """
            titel: x
            language: en US
            baseURL: example.org
            timeZone: Mars/Base
            markdown:
              unsafe: yes
              smrt: true
            theme:
              a: [1]
            output: ""
            foo: 1

            """,
            "feedgen.yml": "",
        ])
        let (s, diagnostics) = site.load()
        #expect(s == nil)
        #expect(
            diagnostics == [
                "feedgen.yaml:1:1: error: unknown key 'titel' in feedgen.yaml (did you mean 'title'?)",
                "feedgen.yaml:2:11: error: 'language' must be a BCP 47 language tag such as 'en' or 'pt-BR', found 'en US'",
                "feedgen.yaml:3:10: error: 'baseURL' must be an absolute URL such as 'https://example.org/', found 'example.org'",
                "feedgen.yaml:4:11: error: unknown time zone 'Mars/Base'; use an IANA name such as 'Europe/Paris' or 'UTC'",
                "feedgen.yaml:6:11: error: 'unsafe' must be true or false, found 'yes'",
                "feedgen.yaml:7:3: error: unknown key 'smrt' in 'markdown' (did you mean 'smart'?)",
                "feedgen.yaml:9:6: error: theme tokens must be 'name: value' scalars, found a list",
                "feedgen.yaml:10:9: error: 'output' must not be empty",
                "feedgen.yaml:11:1: error: unknown key 'foo' in feedgen.yaml (known keys: title, language, baseURL, output, timeZone, markdown, summaryLength, theme, images, paginate, strings)",
            ])
    }

    @Test func baseURLWithAQueryOrFragmentIsAnError() throws {
        // Page paths are appended to baseURL: 'https://example.org/x?y#z' gave
        // 'https://example.org/x?y#z/s/a.html' in feed.xml and sitemap.xml.
        for url in ["https://example.org/x?y", "https://example.org/#top"] {
            let site = try TestSite(["feedgen.yaml": "title: x\nbaseURL: \(url)\n", "content/s/a.md": "A"])
            #expect(
                site.load().diagnostics == [
                    "feedgen.yaml:2:10: error: 'baseURL' must not have a query ('?') or fragment ('#'): page paths are appended to it; found '\(url)'"
                ])
        }
    }

    @Test func ymlSpellingIsPointedOut() throws {
        let site = try TestSite(["feedgen.yml": "title: x\n", "content/s/a.md": "A"])
        #expect(
            site.load().diagnostics == [
                "feedgen.yml: warning: 'feedgen.yml' is not read; the configuration file is 'feedgen.yaml'"
            ])
    }

    @Test func syntaxErrorAndNonMapping() throws {
        let site = try TestSite(["feedgen.yaml": "title: a: b\n"])
        #expect(
            site.load().diagnostics == ["feedgen.yaml:1:9: error: YAML: mapping values are not allowed in this context"]
        )
        try site.write("feedgen.yaml", "- a\n")
        #expect(
            site.load().diagnostics == [
                "feedgen.yaml:1:1: error: feedgen.yaml must be a mapping of 'key: value' lines, found a list"
            ])
        try site.write("feedgen.yaml", "# nothing yet\n")
        #expect(site.load().diagnostics == [])
    }
}

@Suite struct DeterminismTests {
    @Test func repeatedLoadsGiveTheSameModelAndDiagnostics() throws {
        var files: [String: String] = [:]
        for i in 0..<300 {
            let section = "s\(i % 7)"
            switch i % 5 {
            case 0: files["content/\(section)/bad\(i).md"] = "---\nweight: x\(i)\n---\n"
            case 1: files["content/\(section)/dup\(i).md"] = "---\nid: s0/dup0\ntitle: D\(i)\n---\n"
            case 2: files["content/\(section)/draft\(i).md"] = "---\ndraft: true\n---\n"
            default:
                files["content/\(section)/sub\(i % 3)/ok\(i).md"] =
                    "---\ntitle: T\(i % 11)\ndate: 2026-01-\(10 + i % 9)\n---\nBody \(i)\n"
            }
        }
        let site = try TestSite(files)
        let first = site.load(drafts: false)
        #expect(first.site == nil)
        #expect(first.diagnostics.count > 100)
        for _ in 0..<3 { #expect(site.load(drafts: false).diagnostics == first.diagnostics) }
        // Without the errors the model is the same each time.
        for (path, _) in files where path.contains("/bad") || path.contains("/dup") {
            try FileManagerRemove(site.root + "/" + path)
        }
        let model = try #require(site.load().site)
        for _ in 0..<3 { #expect(try #require(site.load().site).feeds == model.feeds) }
    }

    @Test func absolutePathNormalisation() {
        #expect(FileSystem.absolute("/a/./b/../c/") == "/a/c")
        #expect(FileSystem.absolute("/") == "/")
        #expect(FileSystem.absolute("x/y").hasSuffix("/x/y"))
        #expect(FileSystem.absolute("x/y").hasPrefix("/"))
    }
}
