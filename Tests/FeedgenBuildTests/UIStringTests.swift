import Foundation
import Testing

@testable import FeedgenBuild
import FeedgenDiagnostics

/// The UI text feedgen writes itself comes from partials a site overrides to translate it:
/// a footer's item count (`partials/item-count.mustache`) and the hero carousel's role
/// descriptions (`partials/carousel-roledescription.mustache`,
/// `partials/slide-roledescription.mustache`), as the slide labels (ScrollControlsTests).
@Suite struct UIStringTests {
    let controls = ScrollControlsTests()

    /// A hero section `s` with a footer, holding `count` items.
    func hero(_ count: Int, files: [String: String] = [:]) throws -> (String, BuildReport) {
        var items: [String: String] = [:]
        for i in 0..<count { items["i\(i)"] = "title: I\(i)\nlink: https://example.org/\(i)\nweight: \(i + 1)" }
        return try controls.home(
            "---\ntitle: T\nlayout:\n  preset: hero\n  footer: {height: estimated(30)}\n---\n", items: items, files: files)
    }

    static let french = [
        "Templates/partials/item-count.mustache": "{{count}} {{#one}}élément{{/one}}{{^one}}éléments{{/one}}\n",
        "Templates/partials/carousel-roledescription.mustache": "carrousel\n",
        "Templates/partials/slide-roledescription.mustache": "diapositive\n",
    ]

    @Test func defaultsAreTheEnglishText() throws {
        let (two, report) = try hero(2)
        #expect(report.diagnostics.sorted.filter { $0.severity != .note } == [])
        let s = try controls.section(two, "s")
        #expect(s.hasPrefix(
            #"<section class="cl-section cl-preset-hero" data-section-id="s" aria-labelledby="sec-s" aria-roledescription="carousel">"#))
        #expect(s.contains(
            #"<div class="cl-item" role="group" aria-roledescription="slide" aria-label="1 of 2"><div class="cl-cell" data-item-id="s/i0">"#))
        #expect(s.contains(
            #"<div class="cl-item" role="group" aria-roledescription="slide" aria-label="2 of 2"><div class="cl-cell" data-item-id="s/i1">"#))
        #expect(s.contains("\n  <footer class=\"cl-footer\"><p class=\"cl-footer-text\">2 items</p></footer>\n"))
        let (one, _) = try hero(1)
        #expect(try controls.section(one, "s").contains(#"<p class="cl-footer-text">1 item</p>"#))
        // An empty section is its header and footer.
        let (none, _) = try hero(0)
        #expect(try controls.section(none, "s").contains(#"<p class="cl-footer-text">0 items</p>"#))
        // No footer, no count; no slideshow, no role descriptions.
        let (list, _) = try controls.home("---\ntitle: L\nlayout: list\n---\n", items: controls.cards)
        #expect(!list.contains("cl-footer"))
        #expect(!list.contains("aria-roledescription"))
    }

    /// A French site overrides the three partials and gets exactly their text, trimmed, where
    /// the English was; `one` is true only for a count of 1.
    @Test func aSiteTranslatesEachPartial() throws {
        let (html, report) = try hero(2, files: Self.french)
        #expect(report.diagnostics.sorted.filter { $0.severity != .note } == [])
        let s = try controls.section(html, "s")
        #expect(s.hasPrefix(
            #"<section class="cl-section cl-preset-hero" data-section-id="s" aria-labelledby="sec-s" aria-roledescription="carrousel">"#))
        #expect(s.contains(
            #"<div class="cl-item" role="group" aria-roledescription="diapositive" aria-label="1 of 2"><div class="cl-cell" data-item-id="s/i0">"#))
        #expect(s.contains(
            #"<div class="cl-item" role="group" aria-roledescription="diapositive" aria-label="2 of 2"><div class="cl-cell" data-item-id="s/i1">"#))
        #expect(s.contains(#"<footer class="cl-footer"><p class="cl-footer-text">2 éléments</p></footer>"#))
        #expect(!s.contains("\"slide\"") && !s.contains("\"carousel\"") && !s.contains("items"))
        let (one, _) = try hero(1, files: Self.french)
        #expect(try controls.section(one, "s").contains(#"<p class="cl-footer-text">1 élément</p>"#))
        let (none, _) = try hero(0, files: Self.french)
        #expect(try controls.section(none, "s").contains(#"<p class="cl-footer-text">0 éléments</p>"#))
    }

    /// The text is plain text: escaped once as the attribute value or element content.
    @Test func theTextIsEscaped() throws {
        let odd = "{{! note }}\n  \"Q\" <b> & 'a'\t\n"
        let (html, _) = try hero(1, files: [
            "Templates/partials/item-count.mustache": "{{count}} \"Q\" <b> & 'a'\n",
            "Templates/partials/carousel-roledescription.mustache": odd,
            "Templates/partials/slide-roledescription.mustache": odd,
        ])
        let s = try controls.section(html, "s")
        let escaped = "&quot;Q&quot; &lt;b&gt; &amp; &#39;a&#39;"
        #expect(s.contains(#"aria-labelledby="sec-s" aria-roledescription="\#(escaped)">"#))
        #expect(s.contains(#"<div class="cl-item" role="group" aria-roledescription="\#(escaped)" aria-label="1 of 1">"#))
        #expect(s.contains(#"<p class="cl-footer-text">1 \#(escaped)</p>"#))
    }

    /// Only sections that show the text render its partial: a partial that cannot render (a
    /// dynamic partial that names no template) breaks only the builds that use it.
    @Test func onlySectionsThatShowTheTextRenderIt() throws {
        let broken = [
            "Templates/partials/item-count.mustache": "{{count}} {{>*count}}\n",
            "Templates/partials/carousel-roledescription.mustache": "{{>*x}}\n",
            "Templates/partials/slide-roledescription.mustache": "{{>*x}}\n",
        ]
        // A carousel without a footer is no slideshow and has no footer.
        let (carousel, ok) = try controls.home("---\ntitle: T\nlayout: carousel\n---\n", items: controls.cards, files: broken)
        #expect(ok.exitStatus == 0)
        #expect(carousel.contains(#"<div class="cl-item" role="listitem"><div class="cl-cell" data-item-id="s/a">"#))
        let (_, footer) = try controls.home(
            "---\ntitle: T\nlayout:\n  preset: list\n  footer: {height: estimated(30)}\n---\n", items: controls.cards,
            files: ["Templates/partials/item-count.mustache": broken["Templates/partials/item-count.mustache"]!])
        #expect(footer.exitStatus == 1)
        #expect(footer.diagnostics.sorted.map(\.description) == ["Templates/partials/item-count.mustache:1:11: error: unknown partial '2'"])
        let (_, slides) = try hero(2, files: ["Templates/partials/slide-roledescription.mustache": "{{>*x}}\n"])
        #expect(slides.exitStatus == 1)
        #expect(slides.diagnostics.sorted.filter { $0.severity == .error }.map(\.description) == [
            "Templates/partials/slide-roledescription.mustache:1:1: error: dynamic name '*x' does not resolve to a partial name",
        ])
    }

    /// A partial that renders no text would leave a slide without a name, or write an empty
    /// `aria-roledescription` (not allowed, WAI-ARIA 1.2): an error naming the partial, and
    /// nothing written. An empty item count is allowed (the footer shows no text).
    @Test func emptyAccessibleTextIsAnError() throws {
        let cases = [
            ("Templates/partials/slide-label.mustache", " {{! none }}\n",
             "Templates/partials/slide-label.mustache: error: renders no text for slide 1 of 2: each slide needs an accessible name (WAI-ARIA APG, carousel pattern); give the partial text, e.g. '{{text}}' or '{{index}} of {{count}}'"),
            ("Templates/partials/slide-roledescription.mustache", "{{#lang}}diapositive{{/lang}}\n",
             "Templates/partials/slide-roledescription.mustache: error: renders no text: an aria-roledescription must not be empty (WAI-ARIA 1.2); give the partial text, or remove it to use the built-in one"),
            ("Templates/partials/carousel-roledescription.mustache", "\n",
             "Templates/partials/carousel-roledescription.mustache: error: renders no text: an aria-roledescription must not be empty (WAI-ARIA 1.2); give the partial text, or remove it to use the built-in one"),
        ]
        for (path, text, message) in cases {
            let (_, report) = try hero(2, files: [path: text])
            #expect(report.exitStatus == 1, "\(path)")
            #expect(report.diagnostics.sorted.filter { $0.severity == .error }.map(\.description) == [message])
        }
        let (html, report) = try hero(2, files: ["Templates/partials/item-count.mustache": "\n"])
        #expect(report.exitStatus == 0)
        #expect(try controls.section(html, "s").contains(#"<p class="cl-footer-text"></p>"#))
    }

    /// `--strict` checks each partial against its own context: `count` and `one` for the item
    /// count, nothing for the role descriptions.
    @Test func eachPartialIsLintedAgainstItsOwnContext() throws {
        let root = temporaryFolder()
        writeSite(root, [
            "content/s/a.md": "---\ntitle: A\n---\n",
            "Templates/partials/item-count.mustache": "{{count}} {{#one}}x{{/one}}{{cont}} {{section.itemCount}}\n",
            "Templates/partials/carousel-roledescription.mustache": "carrousel {{count}}\n",
            "Templates/partials/slide-roledescription.mustache": "{{#lang}}diapositive{{/lang}}\n",
        ])
        let report = build(root, output: temporaryFolder() + "/public", strict: true)
        #expect(report.exitStatus == 1)
        #expect(report.diagnostics.sorted.map(\.description) == [
            "Templates/partials/carousel-roledescription.mustache:1:11: warning: no value 'count' in the context of a role description; it renders as nothing",
            "Templates/partials/item-count.mustache:1:28: warning: no value 'cont' in the context of an item count; it renders as nothing (did you mean 'count'?)",
            "Templates/partials/item-count.mustache:1:37: warning: no value 'section.itemCount' in the context of an item count; it renders as nothing",
            "Templates/partials/slide-roledescription.mustache:1:1: warning: no value 'lang' in the context of a role description; it renders as nothing",
        ])
        writeSite(root, Self.french)
        let clean = build(root, output: temporaryFolder() + "/public", strict: true)
        #expect(clean.exitStatus == 0)
        #expect(clean.diagnostics.sorted.filter { $0.severity != .note } == [])
    }
}
