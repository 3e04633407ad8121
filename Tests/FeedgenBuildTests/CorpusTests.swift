import Foundation
import Testing

@testable import FeedgenBuild
import FeedgenContent
import FeedgenDiagnostics

/// Real input written by others: Hugo's documentation (~990 Markdown files with YAML front
/// matter) as one section. Unknown front-matter keys become params; `_index.md` files are
/// ignored by the underscore rule.
@Suite struct CorpusTests {
    @Test(
        .enabled(if: sharedFolder != nil, "../shared/corpus/hugodocs not found (the Hugo docs corpus lives beside the repository)")
    )
    func hugoDocsBuildAsOneSection() throws {
        let corpus = try #require(sharedFolder) + "/corpus/hugodocs"
        let root = temporaryFolder("feedgen-corpus")
        try FileManager.default.createDirectory(atPath: root + "/content", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: corpus + "/en", toPath: root + "/content/docs")
        writeSite(root, ["content/docs/_section.md": "---\ntitle: Hugo documentation\nlayout: list\n---\n"])
        var expected = 0
        for case let path as String in FileManager.default.enumerator(atPath: root + "/content/docs")! {
            let name = (path as NSString).lastPathComponent
            if path.hasSuffix(".md"), !path.split(separator: "/").contains(where: { $0.hasPrefix("_") || $0.hasPrefix(".") }), name != "_section.md" {
                expected += 1
            }
        }
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        let errors = report.diagnostics.items.filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(errors.prefix(5))")
        #expect(report.exitStatus == 0)
        // Nothing is dropped silently: every document is a card or a note saying why it was skipped
        // (two of Hugo's pages carry an expiryDate in the past). The section is longer than the
        // page size (content-format §4.1): the feed page shows its first 100 cards, and its own
        // pages (docs/index.html, docs/page/2/index.html, …) hold every card, once.
        let skipped = report.diagnostics.items.filter { $0.severity == .note && $0.message.hasPrefix("skipped") }
        #expect(report.cards == 100)
        let ids = Self.ownPageCells(out, folder: "docs")
        #expect(ids.count + skipped.count == expected)
        #expect(Set(ids).count == ids.count)
        #expect(ids.count == 880)
        #expect(skipped.count == 2)
        print("hugodocs: \(report.cards) cards, \(report.pages) pages, \(report.diagnostics.warningCount) warnings, built in \(String(format: "%.2f", report.seconds)) s (debug build)")
    }

    /// The `data-item-id`s on a section's own pages at `<out>/<folder>/`, page after page.
    static func ownPageCells(_ out: String, folder: String) -> [String] {
        var ids: [String] = []
        var n = 1
        while let html = try? String(contentsOfFile: out + "/" + folder + (n == 1 ? "" : "/page/\(n)") + "/index.html", encoding: .utf8) {
            ids += html.components(separatedBy: "data-item-id=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
            n += 1
        }
        return ids
    }

    /// The text of `html` outside `<pre>` and `<code>` elements (where Liquid in a code example is
    /// code, as Jekyll shows it after `{% raw %}`).
    static func outsideCode(_ html: String) -> String {
        var text = html
        for element in ["pre", "code"] {
            while let open = text.range(of: "<\(element)"), let close = text.range(of: "</\(element)>", range: open.upperBound..<text.endIndex) {
                text.removeSubrange(open.lowerBound..<close.upperBound)
            }
        }
        return text
    }

    /// Jekyll's own release posts (102 files: `.markdown` and `.md`, dated by file name and front
    /// matter, with Liquid tags, outputs, `highlight` and `raw`), copied unchanged into one section.
    /// One post's date has a stray year (`2023-01-29 18:30:22 2023 -0800`): exactly that error;
    /// with it fixed in a copy, every post is a dated card and no page holds Liquid text.
    @Test(
        .enabled(if: sharedFolder != nil, "../shared/corpus/jekyll-posts not found (the Jekyll posts corpus lives beside the repository)")
    )
    func jekyllPostsBuildUnchanged() throws {
        let corpus = try #require(sharedFolder) + "/corpus/jekyll-posts"
        let root = temporaryFolder("feedgen-jekyll")
        let posts = try FileManager.default.contentsOfDirectory(atPath: corpus).filter { $0.hasSuffix(".md") || $0.hasSuffix(".markdown") }
        #expect(posts.count == 102)
        try FileManager.default.createDirectory(atPath: root + "/content/posts", withIntermediateDirectories: true)
        for name in posts { try FileManager.default.copyItem(atPath: corpus + "/" + name, toPath: root + "/content/posts/" + name) }
        writeSite(root, [
            "content/_feed.md": "---\ntitle: Jekyll releases\n---\n",
            "content/posts/_section.md": "---\ntitle: Posts\nlayout: list\n---\n",
        ])
        let out = temporaryFolder() + "/public"
        let broken = build(root, output: out)
        #expect(broken.exitStatus == 1)
        #expect(
            broken.diagnostics.items.filter { $0.severity == .error }.map(\.description) == [
                "content/posts/2023-01-29-jekyll-3-9-3-released.markdown:3:7: error: invalid date '2023-01-29 18:30:22 2023 -0800': \(ContentDate.acceptedForms)"
            ])

        let stray = root + "/content/posts/2023-01-29-jekyll-3-9-3-released.markdown"
        let text = try String(contentsOfFile: stray, encoding: .utf8)
        try text.replacingOccurrences(of: "18:30:22 2023 -0800", with: "18:30:22 -0800").write(toFile: stray, atomically: true, encoding: .utf8)
        let report = build(root, output: out)
        #expect(report.exitStatus == 0)
        #expect(report.diagnostics.errorCount == 0)
        // 102 posts: the feed page shows the first 100 (content-format §4.1), the section's two
        // own pages all of them.
        #expect(report.cards == 100)
        #expect(Self.ownPageCells(out, folder: "posts").count == 102)
        let index = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        let second = try String(contentsOfFile: out + "/posts/page/2/index.html", encoding: .utf8)
        func datedCards(_ html: String) -> Int { html.components(separatedBy: "<p class=\"card-date\"><time datetime=\"").count - 1 }
        #expect(datedCards(index) == 100)
        let dated = datedCards(index) + datedCards(second)
        #expect(dated == 102)
        var pagesWithLiquid: [String] = []
        for name in posts {
            let stem = name.hasSuffix(".md") ? name.dropLast(3) : name.dropLast(".markdown".count)
            let slug = stem.split(separator: "-", maxSplits: 3).last!
            let page = try String(contentsOfFile: out + "/posts/\(slug).html", encoding: .utf8)
            let prose = Self.outsideCode(page)
            if ["{%", "{{", "%}", "}}", "{:"].contains(where: prose.contains) { pagesWithLiquid.append(name) }
        }
        #expect(pagesWithLiquid == [])
        // `{% highlight %}` blocks are code blocks of their language.
        let ruby = try String(contentsOfFile: out + "/posts/jekyll-1-5-1-released.html", encoding: .utf8)
        #expect(ruby.components(separatedBy: "<pre tabindex=\"0\"><code class=\"language-ruby\">").count - 1 == 2)
        let raw = try String(contentsOfFile: out + "/posts/jekyll-3-5-0-released.html", encoding: .utf8)
        #expect(raw.contains("<code>{{ layout }}</code>"))

        // `{% link _posts/… %}` and `{% post_url … %}` lead to the posts' pages (§5.3).
        let linking = try String(contentsOfFile: out + "/posts/jekyll-3-4-3-released.html", encoding: .utf8)
        #expect(linking.contains(#"<a href="jekyll-3-4-0-released.html">v3.4.0</a>"#))
        let byName = try String(contentsOfFile: out + "/posts/jekyll-turns-2-0-0.html", encoding: .utf8)
        #expect(byName.contains(#"href="jekyll-1-0-0-released.html""#))

        var kinds: [String: Int] = [:]
        for d in report.diagnostics.items where d.severity == .warning { kinds[d.kind, default: 0] += 1 }
        let byKind = kinds.sorted { $0.value > $1.value }.map { "\($0.value) × \($0.key)" }
        #expect(
            byKind == [
                // Root-relative links into Jekyll's documentation and (once `{{ site.repository }}`
                // is left out) GitHub issues: neither is in the corpus (content-format §5.4); the
                // three `/news/YYYY/MM/DD/slug/` permalinks among them lead to their posts.
                // 2016-10-06-jekyll-3-3-is-here's two `[…]({{ "/docs/…" | relative_url }})` are
                // the root-relative paths they name (§5.3), no longer left out.
                "111 × warning: '…' names no file or page (looked for …, a page named … and …); fix the path or remove it",
                "45 × warning: Liquid output '…' is left out of the page: feedgen does not run Liquid",
                "10 × warning: Liquid tag '…' is left out of the page: feedgen does not run Liquid",
                // `{% link _docs/history.md %}#v3-9-4`: Jekyll's documentation is not in the corpus
                // (§5.3); before the tag was read, the `#v3-9-4` left was a dead same-page anchor.
                "3 × warning: link '…' leads to …, which is not a page of this site (missing, a draft, or not yet published); fix the path or remove the link",
                // Raw HTML in 3 posts (4 places): one warning per text, with the count (§5).
                "2 × warning: raw HTML omitted (Markdown safe mode); set '…' in feedgen.yaml to keep it",
                "1 × warning: raw HTML omitted (Markdown safe mode) at … places in this text, the first here; set '…' in feedgen.yaml to keep it",
            ])
        print("jekyll-posts: \(report.cards) cards, \(dated) dated, \(report.diagnostics.warningCount) warnings: \(byKind.joined(separator: "; "))")
    }
}
