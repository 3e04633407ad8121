import Foundation
import Testing

@testable import FeedgenContent

/// TOML front matter (Hugo's `+++` blocks, read by toml++) gives the same values, rules and
/// positioned diagnostics as the same YAML (content-format §5.3).
@Suite struct TOMLFrontMatterTests {
    /// gohugoio/hugoBasicExample's content/post/markdown-syntax.md front matter (61c64dc), with
    /// Hugo's other common keys added.
    static let hugoPost = """
        +++
        author = "Hugo Authors"
        title = "Markdown Syntax Guide"
        date = "2019-03-11"
        description = "Sample article showcasing basic Markdown syntax and formatting for HTML elements."
        tags = [
            "markdown",
            "css",
            "html",
        ]
        categories = [
            "themes",
            "syntax",
        ]
        series = ["Themes Guide"]
        aliases = ["migrate-from-jekyl"]
        weight = 3
        draft = false
        image = {src = "cover.png", alt = "A cover"}

        [cascade]
          banner = "b.jpg"

        [[resources]]
          src = "one.png"
          title = "One"
        [[resources]]
          src = "two.png"
        +++

        This article offers a sample of basic Markdown syntax.

        """

    @Test func hugoPostValues() throws {
        let site = try TestSite(["content/post/markdown-syntax.md": Self.hugoPost, "content/post/cover.png": ""])
        let (s, diagnostics) = site.load()
        #expect(diagnostics == [])
        let item = try #require(s?.feed(at: "")?.sections.first?.items.first)
        #expect(item.title == "Markdown Syntax Guide")
        #expect(item.date?.iso == "2019-03-11")
        #expect(item.tags == ["markdown", "css", "html"])
        #expect(item.draft == false)
        #expect(item.weight == 3)
        #expect(item.description == "Sample article showcasing basic Markdown syntax and formatting for HTML elements.")
        #expect(item.image?.src == "cover.png")
        #expect(item.image?.alt == "A cover")
        #expect(item.params.map { $0.key.string } == ["author", "categories", "series", "aliases", "cascade", "resources"])
        let cascade = try #require(item.params.first { $0.key.string == "cascade" }?.value)
        #expect(cascade["banner"]?.string == "b.jpg")
        #expect(cascade["banner"]?.line == 22)
        let resources = try #require(item.params.first { $0.key.string == "resources" }?.value.elements)
        #expect(resources.map { $0["src"]?.string } == ["one.png", "two.png"])
        #expect(resources.map { $0["title"]?.string } == ["One", nil])
        #expect(item.html.hasPrefix("<p>This article offers a sample"))
    }

    /// TOML's own date-times become the dates the same YAML gives: an offset date-time as
    /// written, a local date-time in the site's `timeZone`, a local date a calendar day.
    @Test func tomlDatesAreDatesAsInYAML() throws {
        let site = try TestSite([
            "feedgen.yaml": "timeZone: Asia/Tokyo\n",
            "content/s/a.toml.md": "+++\ntitle = 'A'\ndate = 2019-03-11T10:00:00-07:00\n+++\n",
            "content/s/b.md": "+++\ndate = 2026-03-17T09:30:00\n+++\n",
            "content/s/c.md": "+++\ndate = 2021-06-08\n+++\n",
            "content/s/d.md": "+++\ndate = 2026-07-01 12:00:00.25Z\npublishDate = 2026-01-01T00:00:00Z\nexpiryDate = 2099-01-01\n+++\n",
            "content/s/e.md": "---\ndate: 2026-03-17T09:30:00\n---\n",
        ])
        let (s, diagnostics) = site.load()
        #expect(diagnostics == [])
        let items = try #require(s?.feed(at: "")?.sections.first?.items)
        let byID = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0) })
        #expect(byID["s/a.toml"]?.date?.iso == "2019-03-11T10:00:00-07:00")
        #expect(byID["s/b"]?.date?.iso == "2026-03-17T09:30:00+09:00")
        #expect(byID["s/b"]?.date == byID["s/e"]?.date)
        #expect(byID["s/c"]?.date?.iso == "2021-06-08")
        #expect(byID["s/d"]?.date == ContentDate.parse("2026-07-01T12:00:00.25Z"))
        #expect(byID["s/d"]?.publishDate?.iso == "2026-01-01T00:00:00Z")
        #expect(byID["s/d"]?.expiryDate?.iso == "2099-01-01")
        // A local time alone is not a date.
        try site.write("content/s/f.md", "+++\ndate = 07:32:00\n+++\n")
        #expect(site.load().diagnostics == ["content/s/f.md:2:8: error: invalid date '07:32:00': \(ContentDate.acceptedForms)"])
    }

    @Test func badTOMLIsAPositionedError() throws {
        let site = try TestSite([
            "content/s/unterminated.md": "+++\ntitle = \"Hello\ndate = 2019-03-11\n+++\n",
            "content/s/duplicate.md": "+++\ntitle = \"A\"\nweight = 1\ntitle = \"B\"\n+++\n",
            "content/s/types.md": "+++\ntitle = [1, 2]\nweight = \"3\"\ndraft = \"yes\"\ntags = [\"a\", [\"b\"]]\n+++\n",
            "content/s/syntax.md": "+++\n\ntitle: \"A\"\n+++\n",
            "content/s/table.md": "+++\n[image]\nsrc = \"a.png\"\n[image]\nalt = \"x\"\n+++\n",
            "content/s/control.md": "+++\ntitle = \"a\\u0001b\"\n+++\n",
            "content/s/unclosed.md": "+++\ntitle = \"A\"\n",
        ])
        let (_, diagnostics) = site.load()
        #expect(
            diagnostics == [
                "content/s/control.md:2:9: error: TOML: this string has the control character U+0001 (from an escape); remove it",
                "content/s/duplicate.md:4:9: error: TOML: cannot redefine existing string 'title' (in a key-value pair)",
                "content/s/syntax.md:3:6: error: TOML: expected '=', saw ':' (in a key-value pair)",
                "content/s/table.md:4:1: error: TOML: cannot redefine existing table 'image' (in a table header)",
                "content/s/types.md:2:9: error: 'title' must be a string, found a list",
                "content/s/types.md:3:10: error: 'weight' must be an integer, found the quoted string '3'",
                "content/s/types.md:4:9: error: 'draft' must be true or false, found the quoted string 'yes'",
                "content/s/types.md:5:14: error: each entry of 'tags' must be a string, found a list",
                "content/s/unclosed.md:1:1: error: TOML front matter starting here is not closed by a '+++' line",
                "content/s/unterminated.md:2:15: error: TOML: this string is not closed on its line (add the closing quote; use \"\"\" for a string of several lines)",
            ])
    }

    /// Unknown keys are params, with the same "did you mean" warning as YAML; keys match in any
    /// case (Hugo lowercases them); `title = 3` is the title "3", as `title: 3` is.
    @Test func keyRulesAreYAMLs() throws {
        let site = try TestSite([
            "content/s/a.md": "+++\ntitel = \"Typo\"\nDraft = true\nTitle = 3\n+++\n",
            "content/s/b.md": "---\ntitel: Typo\nDraft: true\nTitle: 3\n---\n",
        ])
        let (s, diagnostics) = site.load(drafts: true)
        #expect(
            diagnostics == [
                "content/s/a.md:2:1: warning: unknown key 'titel' is kept as a param (did you mean 'title'?)",
                "content/s/b.md:2:1: warning: unknown key 'titel' is kept as a param (did you mean 'title'?)",
            ])
        let items = try #require(s?.feed(at: "")?.sections.first?.items)
        #expect(items.map(\.title) == ["3", "3"])
        #expect(items.map(\.draft) == [true, true])
        #expect(items.map { $0.params.map { "\($0.key.string ?? ""): \($0.value.string ?? "")" } } == [["titel: Typo"], ["titel: Typo"]])
    }

    /// `_feed.md` and `_section.md` read TOML too.
    @Test func feedAndSectionFilesReadTOML() throws {
        let site = try TestSite([
            "content/_feed.md": "+++\ntitle = \"Home\"\nsections = [\"post\"]\n+++\nWelcome.\n",
            "content/post/_section.md": "+++\ntitle = \"Posts\"\nlayout = \"grid\"\nsort = \"title\"\n+++\n",
            "content/post/b.md": "+++\ntitle = \"B\"\n+++\n",
            "content/post/a.md": "+++\ntitle = \"A\"\n+++\n",
        ])
        let (s, diagnostics) = site.load()
        #expect(diagnostics == [])
        #expect(s?.feed(at: "")?.title == "Home")
        #expect(s?.feed(at: "")?.sections.first?.title == "Posts")
        #expect(s?.outline() == ["post: post/a, post/b"])
    }
}
