import Foundation
import Testing

@testable import FeedgenBuild
@testable import FeedgenEmit
import FeedgenLayout

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
            guard case .utf8(let spliced) = try renderer.feedPage(feed).contents else { throw CancellationError() }
            return (String(decoding: spliced, as: UTF8.self), try renderer.render("feed.mustache", try renderer.feedContext(feed)))
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
    /// is one character: the card still gets its newline), whether it is text or bytes.
    @Test func cardEndings() throws {
        let cases: [(String, Bool)] = [("<p>a</p>\n", true), ("\n", true), ("<p>a</p>\r\n", false), ("<p>a</p>", false), ("", false)]
        for (html, ends) in cases {
            #expect(CardHTML(html).endsWithLineFeed == ends)
            let owner = Owner(Array(html.utf8))
            let bytes = CardHTML(unsafeUTF8: owner.bytes, owner: owner)
            #expect(bytes.endsWithLineFeed == ends)
            #expect(bytes.utf8Count == html.utf8.count)
            #expect(bytes.text == html)
            #expect(bytes == CardHTML(html))
        }
    }

    /// Bytes kept alive by an owner (as the card cache's mapping keeps a card's bytes).
    final class Owner: @unchecked Sendable {
        let bytes: UnsafeRawBufferPointer
        init(_ content: [UInt8]) {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: content.count, alignment: 1)
            content.withUnsafeBytes { buffer.copyMemory(from: $0) }
            bytes = UnsafeRawBufferPointer(buffer)
        }
        deinit { bytes.deallocate() }
    }

    /// A fragment decoded with an owner keeps its HTML in the owner's bytes (no copy, no
    /// `String`), and writes the same page bytes as the same HTML as text.
    @Test func cachedCardsStayBytes() throws {
        let html = "<article class=\"card\"><h3>Tïtle &amp; co</h3></article>"
        let owner = Owner(CardFragment(html: html, estimate: nil).encoded())
        let fragment = try #require(CardFragment(decoding: owner.bytes, owner: owner))
        #expect(fragment == CardFragment(html: html, estimate: nil))
        let base = try #require(owner.bytes.baseAddress)
        fragment.html.withUTF8 { bytes in
            #expect(bytes.baseAddress == base + (owner.bytes.count - html.utf8.count))
        }
        let layout = LayoutPreset.list.expansion
        let fromBytes = SectionHTML.groups(layout: layout, ids: ["a"], cards: [fragment.html], headingID: nil, label: "A", focusable: false)
        let fromText = SectionHTML.groups(layout: layout, ids: ["a"], cards: [CardHTML(html)], headingID: nil, label: "A", focusable: false)
        #expect(fromBytes == fromText)
        #expect(fromBytes.contains("data-item-id=\"a\">\n\(html)\n    </div></div>"))
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
