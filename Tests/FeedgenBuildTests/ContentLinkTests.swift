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
