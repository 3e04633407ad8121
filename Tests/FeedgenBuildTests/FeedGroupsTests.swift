import Foundation
import Testing

@testable import FeedgenBuild
@testable import FeedgenEmit

/// A feed page's cards are written once, where the templates put a placeholder
/// (`FeedGroups`): the page must be byte-identical to rendering the cards through
/// `section.mustache` and `feed.mustache`, whatever the templates do with them.
@Suite struct FeedGroupsTests {
    /// The page both ways: spliced (`feedPage`) and through the templates.
    func bothWays(_ overrides: [String: String]) throws -> [(spliced: String, rendered: String)] {
        let root = temporaryFolder()
        var files: [String: String] = [
            "content/_feed.md": "---\ntitle: Home\n---\n",
            "content/a/_section.md": "---\ntitle: A & B\nlayout: grid\n---\n",
            "content/b/_section.md": "---\ntitle: Shelf\nlayout: carousel\n---\n",
        ]
        for i in 0..<30 {
            files["content/a/item-\(i).md"] = "---\ntitle: \"Item <\(i)> & 'co'\"\n---\nBody \(i) with \"quotes\" & <em>tags</em>.\n"
        }
        for i in 0..<4 { files["content/b/card-\(i).md"] = "---\ntitle: Card \(i)\n---\n" }
        for (path, text) in overrides { files["Templates/" + path] = text }
        writeSite(root, files)
        let (report, prepared, templates) = prepare(root)
        #expect(!report.diagnostics.hasErrors, "\(report.diagnostics.items)")
        let site = try #require(prepared)
        let renderer = SiteRenderer(site: site, templates: try #require(templates))
        return try site.feeds.map { feed in
            guard case .text(let spliced) = try renderer.feedPage(feed).contents else { throw CancellationError() }
            return (spliced, try renderer.render("feed.mustache", try renderer.feedContext(feed)))
        }
    }

    @Test func defaultTemplates() throws {
        let pages = try bothWays([:])
        #expect(!pages.isEmpty)
        for page in pages {
            #expect(page.spliced == page.rendered)
            #expect(page.spliced.contains("Body 29 with"))
            #expect(!page.spliced.contains("\u{FFFE}"))
        }
    }

    /// A card's HTML gets a newline after it unless it ends with a lone line feed (a final CRLF
    /// is one character: the card still gets its newline).
    @Test func cardEndings() {
        #expect(SectionHTML.endsWithLineFeed("<p>a</p>\n"))
        #expect(SectionHTML.endsWithLineFeed("\n"))
        #expect(!SectionHTML.endsWithLineFeed("<p>a</p>\r\n"))
        #expect(!SectionHTML.endsWithLineFeed("<p>a</p>"))
        #expect(!SectionHTML.endsWithLineFeed(""))
    }

    /// Escaped once or twice, used twice, or not at all; inside a partial with indentation.
    @Test func templatesThatEscapeRepeatOrDropTheCards() throws {
        let variants: [[String: String]] = [
            ["section.mustache": "<section>{{groupsHTML}}\n|{{{groupsHTML}}}|{{&groupsHTML}}</section>\n"],
            ["section.mustache": "<section>{{groupsHTML}}</section>\n",
             "feed.mustache": "<main>{{#sections}}{{html}}{{/sections}}</main>\n"],
            ["section.mustache": "<section>{{section.id}}</section>\n"],
            ["feed.mustache": "<main>\n{{#sections}}\n  {{> wrap}}\n{{/sections}}\n</main>\n",
             "partials/wrap.mustache": "<div>\n  {{{html}}}\n</div>\n"],
        ]
        for overrides in variants {
            for page in try bothWays(overrides) {
                #expect(page.spliced == page.rendered, "\(overrides.keys.sorted())")
                #expect(!page.spliced.contains("\u{FFFE}"))
            }
        }
    }
}
