import FeedgenStorage
import Foundation
import Testing

@testable import FeedgenBuild
@testable import FeedgenEmit
@testable import FeedgenIncremental
import FeedgenContent
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
            let page = try renderer.feedPage(feed)
            guard case .chunks = page.contents, let spliced = page.utf8Bytes else { throw CancellationError() }
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
    /// A feed page's pieces (copied bytes and cards borrowed from the card cache) hash as their
    /// joined bytes, and are written as them, past writev's limit of 1,024 parts a call.
    @Test func chunksHashAndWriteAsTheirBytes() throws {
        let owner = Owner(Array((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }))
        let chunks = ByteChunks()
        var expected: [UInt8] = []
        var offset = 0
        for k in 0..<1500 {
            let text = String(repeating: "é<", count: k % 23)  // 0 to 66 bytes
            chunks.append(text)
            expected += text.utf8
            let length = (k * 13) % 41  // 0 to 40 bytes, empty pieces too
            if offset + length > owner.bytes.count { offset = 0 }
            let slice = UnsafeRawBufferPointer(rebasing: owner.bytes[offset..<(offset + length)])
            chunks.append(card: CardHTML(unsafeUTF8: slice, owner: owner))
            expected += slice
            offset += length
        }
        #expect(chunks.count == expected.count)
        #expect(chunks.bytes == expected)
        #expect(chunks.stableHash == StableHasher.hash(expected))
        let pieces = chunks.withPieces { $0.count }
        #expect(pieces > 1024)
        let root = temporaryFolder()
        let output = root + "/public"
        try OutputWriter.write([OutputFile(path: "index.html", contents: .chunks(chunks))], to: output)
        let written = try #require(FileManager.default.contents(atPath: output + "/index.html"))
        #expect([UInt8](written) == expected)
    }

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
