/// Conventions of Hugo, Jekyll and MkDocs sites read unchanged (content-format §5, §5.2):
/// `name.<lang>.md` translations, default titles, MkDocs' `date: {created:}`, Hugo's `build`.
import Foundation
import Testing

@testable import FeedgenBuild
@testable import FeedgenContent

@Suite struct ContentConventionTests {
    /// A site (`language` as given) with one `posts` section holding `files`.
    static func site(_ files: [String: String], language: String = "en") -> String {
        let root = temporaryFolder("feedgen-conventions") + "/site"
        var all: [String: String] = [
            "feedgen.yaml": "title: C\nlanguage: \(language)\nbaseURL: https://example.org/\n",
            "content/posts/_section.md": "---\ntitle: Posts\nlayout: list\n---\n",
        ]
        for (path, text) in files { all[path] = text }
        writeSite(root, all)
        return root
    }

    static func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    static func ids(_ html: String) -> [String] { html.matches(of: /data-item-id="([^"]*)"/).map { String($0.1) } }

    /// `?` and `#` are found on bytes, except where a neighbouring non-ASCII byte may join them
    /// into a larger character (FuzzLinks: `#` and U+05BF is no fragment's `#`).
    @Test func linksSplitAtTheirFirstQueryOrFragmentCharacter() {
        for (link, path, suffix) in [
            ("a/b.html?x=1#p", "a/b.html", "?x=1#p"), ("a#p?q", "a", "#p?q"), ("plain", "plain", ""),
            ("#\u{5BF}@g", "#\u{5BF}@g", ""), ("a#\u{5BF}b#c", "a#\u{5BF}b", "#c"), ("é#x", "é", "#x"), ("\u{600}#x", "\u{600}#x", ""),
        ] {
            let split = LinkResolver.split(link)
            #expect(String(split.path) == path && String(split.suffix) == suffix, "\(link)")
            #expect(split.suffix.isEmpty || split.suffix.first == "?" || split.suffix.first == "#")
        }
    }

    @Test func languageCodesOfFileNames() {
        #expect(ItemLanguage.split("index.es")! == ("index", "es"))
        #expect(ItemLanguage.split("post.pt-BR")! == ("post", "pt-BR"))
        #expect(ItemLanguage.split("notes.new") == nil)  // three letters: not read
        #expect(ItemLanguage.split("v1.2") == nil)
        #expect(ItemLanguage.split(".es") == nil)
        #expect(ItemLanguage.split("a.es-x") == nil)
        // A dot that a combining mark or a prepended character makes part of a larger character
        // is no dot between a name and a code.
        #expect(ItemLanguage.split("post.\u{301}es") == nil)
        #expect(ItemLanguage.split("post\u{600}.es") == nil)
        #expect(ItemLanguage.split("a\u{301}.es")! == ("a\u{301}", "es"))
        #expect(ItemLanguage.isSiteLanguage("en", site: "en-US"))
        #expect(!ItemLanguage.isSiteLanguage("en-GB", site: "en"))
    }

    @Test func translationsBesideAnItemAreLeftOutWithAWarningEach() throws {
        let root = Self.site([
            "content/posts/x/index.md": "---\ntitle: X\n---\nHello.\n",
            "content/posts/x/index.es.md": "---\ntitle: X es\n---\nHola.\n",
            "content/posts/x/index.pt.md": "---\ntitle: X pt\n---\nOlá.\n",
            "content/posts/y.en.md": "---\ntitle: Y\n---\nY.\n",
            "content/posts/y.fr.md": "---\ntitle: Y fr\n---\nY.\n",
            "content/posts/solo.es.md": "---\ntitle: Solo\n---\nSolo.\n",
        ])
        let out = root + "/../public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        let suffix = "and is left out: feedgen builds a site in one language (language: en); build each language as its own site"
        #expect(report.diagnostics.items.filter { $0.severity != .note }.map(\.description) == [
            "content/posts/x/index.es.md:1:1: warning: 'x/index.es.md' is a translation (es) of 'x/index.md' " + suffix,
            "content/posts/x/index.pt.md:1:1: warning: 'x/index.pt.md' is a translation (pt) of 'x/index.md' " + suffix,
            "content/posts/y.fr.md:1:1: warning: 'y.fr.md' is a translation (fr) of 'y.en.md' " + suffix,
        ])
        let home = Self.read(out + "/index.html")
        #expect(Self.ids(home) == ["posts/solo", "posts/x/index", "posts/y"])
        // `y.en.md` is `y.md` on an `en` site (no lang of its own); the lone `solo.es.md` is in Spanish.
        #expect(Self.read(out + "/posts/y.html").contains(#"<html lang="en""#))
        #expect(Self.read(out + "/posts/solo.html").contains(#"<html lang="es""#))
        #expect(!home.contains("X es"))
    }

    @Test func aLevelOneHeadingIsTheDefaultTitleElseTheTitleizedSlug() throws {
        let root = Self.site([
            "content/posts/setup.md": "# Install *feedgen*\n\nRun it.\n",
            "content/posts/active-learning.md": "Text first.\n\n# Later heading\n",
            "content/posts/2024-03-05-iOS-tips_and-更多.md": "Tips.\n",
            "content/posts/b/index.md": "Bundle.\n",
            "content/posts/titled.md": "---\ntitle: Given\n---\n# Body heading\n\nText.\n",
        ])
        let out = root + "/../public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        let home = Self.read(out + "/index.html")
        for title in ["Install feedgen", "Active Learning", "IOS Tips And 更多", "B", "Given"] {
            #expect(home.contains(">\(title)</a>"), "\(title)")
        }
        let setup = Self.read(out + "/posts/setup.html")
        #expect(setup.components(separatedBy: "<h1").count - 1 == 1)  // the page's title heading only
        #expect(setup.contains("<p>Run it.</p>"))
        // A title in the front matter keeps the body's heading.
        #expect(Self.read(out + "/posts/titled.html").contains(#"<h1 id="body-heading">Body heading</h1>"#))
    }

    @Test func mkdocsCreatedIsTheDate() throws {
        let root = Self.site(["content/posts/a.md": "---\ntitle: A\ndate: {created: 2024-01-01, updated: 2024-02-01}\n---\nA.\n"])
        let out = root + "/../public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        #expect(Self.read(out + "/posts/a.html").contains(#"<time datetime="2024-01-01">"#))
        // Without `created`, the mapping is no date.
        writeSite(root, ["content/posts/b.md": "---\ntitle: B\ndate:\n  updated: 2024-02-01\n---\nB.\n"])
        #expect(build(root, output: out).diagnostics.items.map(\.description) == [
            "content/posts/b.md:4:3: error: 'date' must be a date, found a mapping"
        ])
    }

    @Test func hugoBuildOptions() throws {
        let root = Self.site([
            "content/posts/shown.md": "---\ntitle: Shown\ntags: [t]\n---\nS.\n",
            "content/posts/hidden.md": "---\ntitle: Hidden\ntags: [t]\n_build: {list: never}\n---\nH.\n",
            "content/posts/off.md": "---\ntitle: Off\nbuild:\n  list: false\n  render: never\n---\nO.\n",
            "content/posts/nopage.md": "---\ntitle: No page\nbuild: {render: false, junk: 1}\n---\nN.\n",
        ])
        let out = root + "/../public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        #expect(report.diagnostics.items.map(\.description) == [
            "content/posts/nopage.md:3:24: warning: unknown build option 'junk' is ignored (Hugo's are list, render and publishResources)"
        ])
        #expect(Self.ids(Self.read(out + "/index.html")) == ["posts/nopage", "posts/shown"])
        #expect(Self.ids(Self.read(out + "/tags/t/index.html")) == ["posts/shown"])
        // The unlisted item's page is written; `render: never` gives none, and its card no link.
        #expect(FileManager.default.fileExists(atPath: out + "/posts/hidden.html"))
        #expect(!FileManager.default.fileExists(atPath: out + "/posts/off.html"))
        #expect(!FileManager.default.fileExists(atPath: out + "/posts/nopage.html"))
        #expect(!Self.read(out + "/index.html").contains("nopage.html"))
        let feed = Self.read(out + "/feed.xml")
        #expect(!feed.contains("Hidden") && feed.contains("Shown"))
    }
}
