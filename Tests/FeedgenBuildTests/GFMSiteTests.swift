/// Whole builds with GitHub Flavored Markdown: footnote ids across items, anchor checks between
/// items, `markdown.gfm: false`, and the tables of Hugo's documentation.
import Foundation
import Testing

@testable import FeedgenBuild

@Suite struct GFMSiteTests {
    static let site = [
        "feedgen.yaml": "title: T\n",
        "content/_feed.md": "---\ntitle: Home\n---\nSee [the part](notes/a.md#part) and [gone](notes/a.md#gone).\n",
        // A card template that shows bodies: two items' footnotes on one page.
        "Templates/cards/card.mustache": "<article class=\"card\"><h3>{{title}}</h3>{{{html}}}</article>\n",
        "content/notes/a.md": "---\ntitle: A\n---\nA note[^1], [back](#fn-1).\n\n## Part\n\n[^1]: A's note.\n",
        "content/notes/b.md":
            "---\ntitle: B\n---\nB note[^1], [to A](a.md#part), [to A](a.md#prat)\nand [here](#nowhere).\n\n[^1]: B's note.\n",
    ]

    @Test func footnoteIDsAreUniqueAcrossItemsAndAnchorsAreChecked() throws {
        let root = temporaryFolder()
        writeSite(root, Self.site)
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0)
        #expect(report.diagnostics.sorted.filter { $0.severity == .warning }.map(\.description) == [
            "content/_feed.md:4:37: warning: link 'notes/a.md#gone' leads to no heading or anchor with the id 'gone' on content/notes/a.md; fix the link or the heading",
            "content/notes/b.md:4:32: warning: link 'a.md#prat' leads to no heading or anchor with the id 'prat' on content/notes/a.md (did you mean 'part'?); fix the link or the heading",
            "content/notes/b.md:5:5: warning: link '#nowhere' leads to no heading or anchor with the id 'nowhere' on this page; fix the link or the heading",
        ])
        let home = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(home.contains(##"<a href="#fn-notes-a-1" id="fnref-notes-a-1" data-footnote-ref>1</a>"##))
        #expect(home.contains(##"<a href="#fn-notes-b-1" id="fnref-notes-b-1" data-footnote-ref>1</a>"##))
        #expect(home.contains(##"<li id="fn-notes-a-1">"##) && home.contains(##"<li id="fn-notes-b-1">"##))
        #expect(home.contains(##"<a href="#fn-notes-a-1">back</a>"##))
        #expect(home.contains(##"<a href="notes/a.html#part">the part</a>"##))
        // Every id of the page appears once.
        let ids = home.matches(of: /\sid="([^"]+)"/).map { String($0.1) }
        #expect(ids.count == Set(ids).count, "\(ids)")
        let a = try String(contentsOfFile: out + "/notes/a.html", encoding: .utf8)
        #expect(a.contains(#"<h2 id="part">Part</h2>"#))
    }

    @Test func deadAnchorsAreErrorsWithStrict() {
        let root = temporaryFolder()
        writeSite(root, Self.site)
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out, strict: true)
        #expect(report.exitStatus == 1)
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func gfmFalseIsStrictCommonMark() throws {
        let root = temporaryFolder()
        writeSite(root, [
            "feedgen.yaml": "title: T\nmarkdown:\n  gfm: false\n",
            "content/notes/a.md": "---\ntitle: A\n---\n| a |\n|---|\n\n~~s~~ www.x.org\n\n## Part\n",
        ])
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0)
        let a = try String(contentsOfFile: out + "/notes/a.html", encoding: .utf8)
        // No table: smart punctuation makes the `---` an em dash, as CommonMark says.
        #expect(a.contains("<p>| a |\n|—|</p>\n<p>~~s~~ www.x.org</p>\n<h2 id=\"part\">Part</h2>"))
    }

    @Test func gfmMustBeABoolean() {
        let root = temporaryFolder()
        writeSite(root, ["feedgen.yaml": "title: T\nmarkdown: {gfm: yes, tables: true}\n", "content/a/b.md": "x\n"])
        let report = build(root, output: temporaryFolder() + "/public")
        #expect(report.exitStatus != 0)
        #expect(report.diagnostics.sorted.map(\.description) == [
            "feedgen.yaml:2:17: error: 'gfm' must be true or false, found 'yes'",
            "feedgen.yaml:2:22: error: unknown key 'tables' in 'markdown' (known keys: unsafe, smart, gfm)",
        ])
    }

    /// Hugo's documentation: 172 table delimiter rows outside code blocks; 169 become tables, the
    /// other three have a header of 2 cells over a delimiter row of 3, not a table in GFM (nor on
    /// GitHub). Its definition lists are definition lists.
    @Test(.enabled(if: sharedFolder != nil, "../shared/corpus/hugodocs not found"))
    func hugoDocsTablesAreTables() throws {
        let root = temporaryFolder("feedgen-corpus")
        try FileManager.default.createDirectory(atPath: root + "/content", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: sharedFolder! + "/corpus/hugodocs/en", toPath: root + "/content/docs")
        writeSite(root, ["content/docs/_section.md": "---\ntitle: Hugo documentation\nlayout: list\n---\n"])
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0)
        var tables = 0
        var headingIDs = 0
        var definitionLists = 0
        var terms = 0
        var colonLines: [String] = []
        for case let path as String in FileManager.default.enumerator(atPath: out)! where path.hasSuffix(".html") {
            let page = try String(contentsOfFile: out + "/" + path, encoding: .utf8)
            tables += page.matches(of: /<table>/).count
            headingIDs += page.matches(of: /<h[2-6] id="/).count
            definitionLists += page.matches(of: /<dl>/).count
            terms += page.matches(of: /<dt>/).count
            // A definition left as text: a paragraph line starting with `: `.
            if page.contains(#/<p>[^<]*\n: /#) || page.contains("<dt>:") { colonLines.append(path) }
        }
        let anchors = report.diagnostics.items.filter { $0.message.contains("leads to no heading or anchor") }
        print("hugodocs: \(tables) tables, \(headingIDs) heading ids, \(anchors.count) dead anchors, \(definitionLists) definition lists with \(terms) terms")
        #expect(tables == 169)
        // 132 of its files write Goldmark's definition lists; on the site's pages (an item's own
        // page and its card) they are 208 lists of 1,144 terms, and no `: ` line is left as text.
        #expect(definitionLists == 208)
        #expect(terms == 1_144)
        #expect(colonLines == [])
    }
}
