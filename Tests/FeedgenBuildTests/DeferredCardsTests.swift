import Foundation
import Testing

@testable import FeedgenBuild
import FeedgenLayout
@testable import FeedgenEmit

/// The text-length estimate of a card's height (`CardHeightEstimate`) and the cards a long
/// section defers (`DeferredCards`, docs/layout.md "Long sections").
@Suite struct DeferredCardsTests {
    static func card(_ title: String, _ description: String? = nil, image: (Int, Int)? = nil) -> String {
        var html = "<article class=\"card\">\n"
        if let (w, h) = image { html += "  <img class=\"card-image\" src=\"a.png\" width=\"\(w)\" height=\"\(h)\" alt=\"\">\n" }
        html += "  <div class=\"card-body\">\n    <h3 class=\"card-title\"><a href=\"x.html\">\(title)</a></h3>\n"
        if let description { html += "    <p class=\"card-description\">\(description)</p>\n" }
        return html + "  </div>\n</article>\n"
    }

    @Test func oneLineTitleAndDescription() {
        // 16 padding + 1.3 × 16.8 title + 6 margin + 1.4 × 16 description + 16 padding.
        let e = CardHeightEstimate(html: Self.card("Hello", "A short line."))
        #expect(abs(e.height(width: 374) - 82.24) < 1e-9)
        #expect(abs(e.height(width: 1264) - 82.24) < 1e-9)
        #expect(abs(CardHeightEstimate(html: Self.card("Hello")).height(width: 374) - 53.84) < 1e-9)
    }

    @Test func longTextWrapsByItsAdvanceAtTheCardWidth() {
        // 100 × "word": 100 × 4 × 0.47 × 16 + 99 spaces × 0.6 × 0.47 × 16 = 3,454.69 px of text.
        let e = CardHeightEstimate(html: Self.card("Hello", Array(repeating: "word", count: 100).joined(separator: " ")))
        // 374 − 32 − 1.5 × 16 = 318 px a line: 11 lines; 1264 px: 1,208 px a line: 3 lines.
        #expect(abs(e.height(width: 374) - (16 + 21.84 + 6 + 11 * 22.4 + 16)) < 1e-9)
        #expect(abs(e.height(width: 1264) - (16 + 21.84 + 6 + 3 * 22.4 + 16)) < 1e-9)
    }

    @Test func textRunsAroundTagsEntitiesAndSpacesAddUpGlyphByGlyph() {
        // Runs of every length from 1 to 40, with a tag, an entity or a space at every place: the
        // same height as the text one byte at a time (each glyph 0.47 × 16 px, a space 0.6 of one).
        for length in 1...40 {
            for k in 0..<length {
                var text = Array(repeating: "x", count: length)
                text[k] = ["<span>y</span>", "&amp;", " "][k % 3]
                let html = "<p>" + text.joined() + "</p>"
                // A space (k ≥ 2, after text) is counted where it is read, also at the end.
                let spaces = k % 3 == 2 ? 1.0 : 0
                let glyphs = Double(length) - spaces
                let advance = glyphs * 0.47 * 16 + spaces * 0.6 * 0.47 * 16
                let e = CardHeightEstimate(html: html)
                let lines = max(1, (advance / 50).rounded(.up))
                #expect(abs(e.height(width: 50 + 1.5 * 16) - (16 + lines * 22.4 + 16)) < 1e-6, "\(html)")
            }
        }
    }

    @Test func cjkGlyphsAreOneEmWide() {
        // 20 ideographs × 16 px = 320 px > 318 px: two lines at 374 px.
        let e = CardHeightEstimate(html: Self.card("Hello", String(repeating: "日", count: 20)))
        #expect(abs(e.height(width: 374) - (16 + 21.84 + 6 + 2 * 22.4 + 16)) < 1e-9)
    }

    @Test func cardImageFollowsTheCardWidthUpTo320Px() {
        let e = CardHeightEstimate(html: Self.card("Hello", image: (800, 600)), preset: "list")
        #expect(abs(e.height(width: 374) - (280.5 + 53.84)) < 1e-9)
        #expect(abs(e.height(width: 1264) - (320 + 53.84)) < 1e-9)
        // In a carousel or hero the height is not capped (the card's size is fixed anyway); the
        // width never exceeds the source's 800 px, in any preset.
        let hero = CardHeightEstimate(html: Self.card("Hello", image: (800, 600)), preset: "hero")
        #expect(abs(hero.height(width: 1264) - (600 + 53.84)) < 1e-9)
        let small = CardHeightEstimate(html: Self.card("Hello", image: (480, 270)), preset: "list")
        #expect(abs(small.height(width: 672) - (270 + 53.84)) < 1e-9)
    }

    @Test func bodyBlocksCollapseMarginsAndPreKeepsItsLines() {
        let html = "<div class=\"card-body\"><p>One.</p><p>Two.</p><pre><code>a\nb\nc\n</code></pre></div>"
        // 16 padding, p (16 margin) 22.4, max(16, 16) gap, 22.4, max(16, 14) gap, the theme's pre:
        // 13 padding and border, 3 × 14 × 1.45, 13, then its 14 margin, 16 padding.
        let e = CardHeightEstimate(html: html)
        #expect(abs(e.height(width: 374) - (16 + 16 + 22.4 + 16 + 22.4 + 16 + 13 + 3 * 20.3 + 13 + 14 + 16)) < 1e-9)
        #expect(CardHeightEstimate(html: "<div class=\"card-body\"></div>").isEmpty)
    }

    static func longSite(_ n: Int, layout: String = "list") -> String {
        let root = temporaryFolder()
        var files = ["content/many/_section.md": "---\ntitle: Many\nlayout: \(layout)\n---\n"]
        for i in 0..<n {
            files["content/many/c\(String(format: "%03d", i)).md"] = "---\ntitle: Card \(i)\nweight: \(i + 1)\n---\n"
        }
        writeSite(root, files)
        return root
    }

    @Test func everyElementNameIsReadInEitherCaseAndOthersAreOther() {
        // The reader finds names by a switch over their packed bytes: each case must match its name.
        func named(_ s: String) -> CardHeightEstimate.Element {
            Array(s.utf8).withUnsafeBufferPointer { CardHeightEstimate.Element.named($0) }
        }
        for e in CardHeightEstimate.Element.allCases where e != .other {
            #expect(named(String(describing: e)) == e)
            #expect(named(String(describing: e).uppercased()) == e)
        }
        for s in ["", "x", "span", "h7", "blockquotes", "figcaptio", "blockquo", "tablex", "\u{1}p"] { #expect(named(s) == .other, "\(s)") }
        // Tags read on the fast path (`<NAME>`) and through the attribute path are the same element.
        let a = CardHeightEstimate(html: "<BLOCKQUOTE>Hello</blockquote><P>x</P>")
        let b = CardHeightEstimate(html: "<blockquote x>Hello</BLOCKQUOTE ><p y=\"1\">x</p >")
        #expect(a.pieces == b.pieces)
        #expect(abs(a.height(width: 374) - (16 + 22.4 + 16 + 22.4 + 16)) < 1e-9)
    }

    @Test func cardsBelowTheFirstScreenOfALongListAreDeferred() throws {
        let out = temporaryFolder() + "/public"
        #expect(build(Self.longSite(40), output: out).exitStatus == 0)
        let page = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        // Header 16 + 26 px, inset 8, cards 53.84 px + 12 spacing: card 13 is the first to start
        // below 900 px (at 390 and at 1280 px alike: one-line cards).
        #expect(page.components(separatedBy: "cl-cv").count - 1 == 27)
        #expect(page.contains("<div class=\"cl-item\" role=\"listitem\"><div class=\"cl-cell\" data-item-id=\"many/c012\">"))
        #expect(page.contains("<div class=\"cl-item cl-cv\" role=\"listitem\" style=\"--cl-est:54px\"><div class=\"cl-cell\" data-item-id=\"many/c013\">"))
        let css = try String(contentsOfFile: out + "/assets/layout.css", encoding: .utf8)
        #expect(css.contains(".cl-cv { content-visibility: auto; contain-intrinsic-block-size: auto var(--cl-est); overflow-clip-margin: 8px; }"))
    }

    /// The estimates are made at the column width the page's CSS gives: with the theme's
    /// `layoutMargin` token at 60 px the list's column is 390 − 2 × 60 px at 390, not 390 − 2 × 16
    /// (the deferred cards solved the layout with the default margins while the CSS and the
    /// previews used the token).
    @Test func estimatesFollowTheThemesLayoutMargin() throws {
        let long = Array(repeating: "word", count: 30).joined(separator: " ")
        func estimate(theme: String) throws -> String {
            let root = Self.longSite(0)
            var files = ["feedgen.yaml": "title: Margins\n\(theme)"]
            for i in 0..<40 {
                files["content/many/c\(String(format: "%03d", i)).md"] = "---\ntitle: Card \(i)\ndescription: \(long)\nweight: \(i + 1)\n---\n"
            }
            writeSite(root, files)
            let out = temporaryFolder() + "/public"
            #expect(build(root, output: out).exitStatus == 0)
            let page = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
            let cell = try #require(page.components(separatedBy: "style=\"--cl-est:").dropFirst().first)
            return String(cell.prefix { $0 != "\"" })
        }
        // 30 words: 30 × 4 × 0.47 × 16 + 29 × 0.6 × 0.47 × 16 = 1,033 px of text; 358 − 32 − 24 =
        // 302 px a line gives 4 lines (16 + 21.84 + 6 + 4 × 22.4 + 16 = 149 px); 270 − 32 − 24 =
        // 214 px a line gives 5 lines (172 px). At 1280 px the readable column (672 px) gives 2 lines
        // either way (105 px).
        #expect(try estimate(theme: "") == "149px;--cl-est-wide:105px")
        #expect(try estimate(theme: "theme:\n  layoutMargin: 60px\n") == "172px;--cl-est-wide:105px")
    }

    @Test func shortSectionsAndCarouselsAreNeverDeferred() throws {
        for (n, layout) in [(31, "list"), (40, "carousel"), (40, "chips")] {
            let out = temporaryFolder() + "/public"
            #expect(build(Self.longSite(n, layout: layout), output: out).exitStatus == 0)
            let page = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
            #expect(!page.contains("cl-cv"), "\(n) \(layout)")
        }
    }
    /// Two sections whose folder names differ only in Unicode normalisation (`café` precomposed
    /// and decomposed: one key of a Swift dictionary, two folders on Linux) keep their own
    /// estimates: the decomposed section of long cards is estimated as when the other section
    /// has another name, not with the precomposed section's short cards.
    @Test func sectionsWhoseNamesAreCanonicallyEqualKeepTheirOwnEstimates() throws {
        let long = Array(repeating: "word", count: 60).joined(separator: " ")
        func page(otherSection: String) throws -> String {
            let root = temporaryFolder()
            var files: [String: String] = [:]
            for i in 0..<40 {
                let n = String(format: "%03d", i)
                files["content/\(otherSection)/a\(n).md"] = "---\ntitle: Card \(i)\nweight: \(i + 1)\n---\n"
                files["content/cafe\u{301}/b\(n).md"] = "---\ntitle: Card \(i)\ndescription: \(long)\nweight: \(i + 1)\n---\n"
            }
            #expect(files.count == 80)
            writeSite(root, files)
            let out = temporaryFolder() + "/public"
            let report = build(root, output: out)
            #expect(report.exitStatus == 0)
            #expect(report.cards == 80)
            return try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        }
        // The style of the item whose id is `id` (ids in the two sections differ: a… and b…).
        func style(_ page: String, _ id: String) -> String? {
            let cells = page.components(separatedBy: "<div class=\"cl-cell\" data-item-id=\"")
            guard let k = cells.dropFirst().firstIndex(where: { $0.hasPrefix(id + "\"") }) else { return nil }
            return cells[k - 1].components(separatedBy: "<div class=\"cl-item").last
        }
        let equal = try page(otherSection: "caf\u{E9}")
        let apart = try page(otherSection: "other")
        for i in [20, 39] {
            let id = "b0\(i)"
            let expected = try #require(style(apart, "cafe\u{301}/" + id))
            #expect(expected.contains("--cl-est:"))
            #expect(style(equal, "cafe\u{301}/" + id) == expected, "\(id)")
            #expect(style(equal, "caf\u{E9}/a0\(i)") != expected)
        }
    }

    /// Two titled sections whose folder names differ only in Unicode normalisation keep their
    /// own header estimates (by section index, as the cards'): a one-line title and a title that
    /// wraps, at 390 px. Keyed by section id, both got the height of the last one estimated.
    @Test func canonicallyEqualSectionsKeepTheirOwnHeaderEstimates() throws {
        let root = temporaryFolder()
        let long = Array(repeating: "Lengthy", count: 12).joined(separator: " ")
        // Two calls: the two `_section.md` paths are one key of a Swift dictionary.
        writeSite(root, [
            "content/caf\u{E9}/_section.md": "---\ntitle: Short\nweight: 1\n---\n", "content/caf\u{E9}/a.md": "---\ntitle: A\n---\n",
        ])
        writeSite(root, [
            "content/cafe\u{301}/_section.md": "---\ntitle: \(long)\nweight: 2\n---\nSome supporting text.\n",
            "content/cafe\u{301}/b.md": "---\ntitle: B\n---\n",
        ])
        var report = BuildReport()
        let (prepared, templates) = Pipeline.prepare(BuildOptions(siteRoot: root, now: 0), report: &report)
        let site = try #require(prepared)
        let feed = try #require(site.feeds.first { $0.feed.path.isEmpty })
        #expect(feed.sections.map { Array($0.section.id.unicodeScalars) } == [Array("caf\u{E9}".unicodeScalars), Array("cafe\u{301}".unicodeScalars)])
        let env = site.layoutEnvironment(feed, width: 390, viewportHeight: 844)
        let m = try SiteRenderer(site: site, templates: try #require(templates)).textEstimates(feed: feed, environment: env)
        // 16 px padding + 26 px (one 20 px line at line height 1.3); the long title (84 bold
        // glyphs and 11 spaces: 906 px at 0.50 em) wraps to three lines (78 px) in the 358 px
        // header (328 px a line), and its text adds 4 px and one 15.2 px line at 1.4 (21.28 px).
        // Keyed by section id, both headers were 119.28 px.
        #expect(m.indexedHeaders.mapValues { ($0 * 1000).rounded() / 1000 } == [0: 42, 1: 119.28])
        #expect(m.headers.isEmpty)
        let solved = CompositionalLayout.solve(feed.sections.map(\.input), environment: env, measurements: m)
        #expect(solved.sections.map { $0.headerFrame.map { ($0.height * 1000).rounded() / 1000 } } == [42, 119.28])
    }
}
