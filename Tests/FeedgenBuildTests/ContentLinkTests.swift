import Foundation
import Testing

@testable import FeedgenBuild

/// `[x](../other/item.md)` links between content files (content-format §5).
@Suite struct ContentLinkTests {
    @Test func linksBecomeRelativeLinksToTheRightPage() throws {
        let root = temporaryFolder()
        writeSite(root, [
            "content/today/a.md": "---\ntitle: A\n---\nSee [B](b.md#part) and [the recipe](../recipes/mains/soup.md).\n",
            "content/today/b.md": "---\ntitle: B\n---\nBody of B.\n",
            "content/recipes/_feed.md": "---\ntitle: Recipes\n---\n",
            "content/recipes/mains/soup.md": "---\ntitle: Soup\n---\nSoup.\n",
        ])
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        let page = try String(contentsOfFile: out + "/today/a.html", encoding: .utf8)
        #expect(page.contains(#"<a href="b.html#part">B</a>"#))
        #expect(page.contains(#"<a href="../recipes/mains/soup.html">the recipe</a>"#))
        #expect(!page.contains("feedgen-md:"))
    }

    @Test func aLinkToAMissingItemIsAnErrorAtTheLink() {
        let root = temporaryFolder()
        writeSite(root, [
            "content/today/a.md": "---\ntitle: A\n---\nFirst line.\n\nSee [nothing](../nowhere/gone.md) here.\n",
        ])
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 1)
        #expect(report.diagnostics.sorted.map(\.description) == [
            "content/today/a.md:6:5: error: link '../nowhere/gone.md' leads to content/nowhere/gone.md, which is not a page of this site (missing, a draft, or not yet published); fix the path or remove the link"
        ])
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// Jekyll's `{% link %}` and `{% post_url %}` (content-format §5.3) lead to the page of the
    /// file they name (`_posts/` read as `posts/`; `post_url` whatever the post's extension);
    /// one naming no page is a warning at the link showing the tag, and the link becomes `#`.
    @Test func jekyllLinkTagsLeadToTheirPages() throws {
        let root = temporaryFolder()
        writeSite(root, [
            "content/posts/2020-01-01-a.md":
                "---\ntitle: A\n---\nSee [B]({% link _posts/2020-02-02-b.markdown %}#part), [C]({% post_url 2020-03-03-c %}).\n\nAnd [gone]({% link _docs/history.md %}).\n",
            "content/posts/2020-02-02-b.markdown": "---\ntitle: B\n---\n## Part\n",
            "content/posts/2020-03-03-c.mkd": "---\ntitle: C\n---\nC.\n",
        ])
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0)
        #expect(report.diagnostics.sorted.filter { $0.severity != .note }.map(\.description) == [
            "content/posts/2020-01-01-a.md:6:5: warning: link '{% link _docs/history.md %}' leads to content/docs/history.md, which is not a page of this site (missing, a draft, or not yet published); fix the path or remove the link"
        ])
        let page = try String(contentsOfFile: out + "/posts/a.html", encoding: .utf8)
        #expect(page.contains(#"<a href="b.html#part">B</a>"#))
        #expect(page.contains(#"<a href="c.html">C</a>"#))
        #expect(page.contains(##"<a href="#">gone</a>"##))
    }

    /// Hugo's `ref` / `relref` (content-format §5.3) lead to the page of the file they name:
    /// beside the linking file, else from the content folder, a bare name as the one file of that
    /// name; fragment kept. One naming no page (or a name two files have) is a warning at the link
    /// showing the shortcode. Before, each gave `<a href="">`.
    @Test func hugoRefShortcodesLeadToTheirPages() throws {
        let root = temporaryFolder()
        writeSite(root, [
            "content/posts/bundle/index.md":
                "---\ntitle: Bundle\n---\n[a]({{< ref \"other.md\" >}}), [b]({{< relref \"/posts/other.md#part\" >}}), [c]({{% ref \"posts/other\" %}}), [d]({{< ref \"../other\" >}}).\n\n[gone]({{% ref \"nothing\" %}}) [two]({{< ref \"x.md\" >}})\n",
            "content/posts/other.md": "---\ntitle: Other\n---\n## Part\n",
            "content/posts/x.md": "X.\n",
            "content/posts/sub/x.md": "X.\n",
        ])
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0)
        #expect(report.diagnostics.sorted.filter { $0.severity != .note }.map(\.description) == [
            "content/posts/bundle/index.md:6:1: warning: link '{{% ref \"nothing\" %}}' leads to content/posts/bundle/nothing.md, which is not a page of this site (missing, a draft, or not yet published); fix the path or remove the link",
            "content/posts/bundle/index.md:6:31: warning: link '{{< ref \"x.md\" >}}' leads to content/posts/bundle/x.md, which is not a page of this site (missing, a draft, or not yet published); fix the path or remove the link",
        ])
        let page = try String(contentsOfFile: out + "/posts/bundle/index.html", encoding: .utf8)
        #expect(page.contains(##"<a href="../other.html">a</a>, <a href="../other.html#part">b</a>, <a href="../other.html">c</a>, <a href="../other.html">d</a>."##))
        #expect(page.contains(##"<a href="#">gone</a> <a href="#">two</a>"##))
    }

    @Test func aLinkToADraftIsAnError() {
        let root = temporaryFolder()
        writeSite(root, [
            "content/today/a.md": "---\ntitle: A\n---\n[later](b.md)\n",
            "content/today/b.md": "---\ntitle: B\ndraft: true\n---\nNot yet.\n",
        ])
        let report = build(root, output: temporaryFolder() + "/public")
        #expect(report.exitStatus == 1)
        #expect(report.diagnostics.items.contains { $0.severity == .error && $0.location.line == 4 && $0.location.column == 1 })
    }
}

/// Front-matter links and root-relative body links to content files.
@Suite struct ContentLinkFrontMatterTests {
    @Test func frontMatterLinkToAContentFileLeadsToItsPage() throws {
        let root = temporaryFolder()
        writeSite(root, [
            "content/today/a.md": "---\ntitle: A\nlink: b.md\n---\n",
            "content/today/b.md": "---\ntitle: B\n---\nB body. See [a root link](/today/b.md#top).\n",
        ])
        let out = temporaryFolder() + "/public"
        #expect(build(root, output: out).exitStatus == 0)
        let home = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(home.contains(#"<a href="today/b.html">A</a>"#))
        let b = try String(contentsOfFile: out + "/today/b.html", encoding: .utf8)
        #expect(b.contains(#"<a href="b.html#top">a root link</a>"#))
    }

    @Test func frontMatterLinkToAMissingFileIsAnError() {
        let root = temporaryFolder()
        writeSite(root, [
            "content/today/a.md": "---\ntitle: A\nlink: ../nowhere.md\n---\n",
            "content/today/_section.md": "---\nitems:\n  - {title: I, link: gone.md}\n---\n",
        ])
        let report = build(root, output: temporaryFolder() + "/public")
        #expect(report.exitStatus == 1)
        // At the `link` value, in the item's file or in _section.md for an inline item.
        #expect(report.diagnostics.sorted.map(\.description) == [
            "content/today/_section.md:3:22: error: link 'gone.md' leads to content/today/gone.md, which is not a page of this site (missing, a draft, or not yet published); fix the path or remove the link",
            "content/today/a.md:3:7: error: link '../nowhere.md' leads to content/nowhere.md, which is not a page of this site (missing, a draft, or not yet published); fix the path or remove the link",
        ])
    }
}
