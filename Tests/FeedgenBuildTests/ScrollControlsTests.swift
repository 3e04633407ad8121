import Foundation
import Testing

@testable import FeedgenBuild
import FeedgenDiagnostics

/// Previous/Next buttons of sideways-scrolling sections and the hero's WAI-ARIA APG carousel
/// markup (issue 8 §1, web-output §1.4): the exact HTML written. The browser behaviour is in
/// Tests/browser/test_carousel_controls.py.
@Suite struct ScrollControlsTests {
    /// Builds a one-feed site whose section `s` has `sectionFile` as `_section.md` and `items`
    /// (name → front matter lines) as items, and returns the home page.
    func home(_ sectionFile: String, items: [String: String], files: [String: String] = [:]) throws -> (String, BuildReport) {
        let root = temporaryFolder()
        var all = files
        all["content/_feed.md"] = "---\ntitle: Home\n---\n"
        all["content/s/_section.md"] = sectionFile
        for (name, fields) in items { all["content/s/\(name).md"] = "---\n\(fields)\n---\n" }
        writeSite(root, all)
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        guard report.exitStatus == 0 else { return ("", report) }
        return (try String(contentsOfFile: out + "/index.html", encoding: .utf8), report)
    }

    /// The `<section>…</section>` of `id` in `html`.
    func section(_ html: String, _ id: String) throws -> String {
        let start = try #require(html.range(of: "<section class=\"cl-section"))
        let end = try #require(html.range(of: "</section>", range: start.upperBound..<html.endIndex))
        let text = String(html[start.lowerBound..<end.upperBound])
        #expect(text.contains("data-section-id=\"\(id)\""))
        return text
    }

    static let script = try! String(
        contentsOfFile: repositoryRoot + "/Templates/partials/scroll-controls-script.mustache", encoding: .utf8)
    static let gestures = try! String(
        contentsOfFile: repositoryRoot + "/Templates/partials/scroll-gestures-script.mustache", encoding: .utf8)

    let cards = ["a": "title: A\nlink: https://example.org/a\nweight: 1", "b": "title: B\nlink: https://example.org/b\nweight: 2"]

    @Test func carouselHeaderHoldsHiddenButtonsThatControlTheScroller() throws {
        let (html, report) = try home("---\ntitle: Picks & more\nlayout: carousel\n---\n", items: cards)
        #expect(report.exitStatus == 0)
        let s = try section(html, "s")
        #expect(s.hasPrefix("""
            <section class="cl-section cl-preset-carousel" data-section-id="s" aria-labelledby="sec-s">
              <header class="cl-header">
                <div class="cl-title-row">
                  <h2 id="sec-s">Picks &amp; more</h2>
                  <div class="cl-controls" data-controls hidden>
                    <button type="button" class="cl-control" data-step="-1" aria-controls="scroller-s" aria-disabled="true"><svg viewBox="0 0 16 16" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true" focusable="false"><path d="M10 3 5 8l5 5"/></svg><span class="cl-visually-hidden">Previous: Picks &amp; more</span></button>
                    <button type="button" class="cl-control" data-step="1" aria-controls="scroller-s" aria-disabled="false"><svg viewBox="0 0 16 16" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true" focusable="false"><path d="m6 3 5 5-5 5"/></svg><span class="cl-visually-hidden">Next: Picks &amp; more</span></button>
                  </div>
                </div>
              </header>
              <div class="cl-groups" id="scroller-s" role="list" aria-labelledby="sec-s" data-scroller>
                <div class="cl-item" role="listitem"><div class="cl-cell" data-item-id="s/a">

            """))
        // The scripts: once each, after <main>, inline and classic: the buttons', then the
        // gestures' (every page with a sideways scroller).
        #expect(html.components(separatedBy: "<script").count == 3)
        #expect(html.hasSuffix("</main>\n" + Self.script + Self.gestures + "</body>\n</html>\n"))
        #expect(Self.script.utf8.count <= 1024)
    }

    @Test func heroIsAnAPGCarouselOfSlides() throws {
        var items = cards
        items["c"] = "title: C\nweight: 3"
        let (html, _) = try home("---\ntitle: Today's pick\nlayout: hero\n---\n", items: items)
        let s = try section(html, "s")
        #expect(s.hasPrefix("""
            <section class="cl-section cl-preset-hero" data-section-id="s" aria-labelledby="sec-s" aria-roledescription="carousel">
            """))
        #expect(s.contains("<span class=\"cl-visually-hidden\">Previous slide: Today&#39;s pick</span>"))
        #expect(s.contains("<span class=\"cl-visually-hidden\">Next slide: Today&#39;s pick</span>"))
        #expect(s.contains("""
              <div class="cl-groups" id="scroller-s" aria-atomic="false" aria-live="polite" data-scroller>
                <div class="cl-item" role="group" aria-roledescription="slide" aria-label="1 of 3"><div class="cl-cell" data-item-id="s/a">
            """))
        #expect(s.contains(#"<div class="cl-item" role="group" aria-roledescription="slide" aria-label="2 of 3"><div class="cl-cell" data-item-id="s/b">"#))
        #expect(s.contains(#"<div class="cl-item" role="group" aria-roledescription="slide" aria-label="3 of 3"><div class="cl-cell" data-item-id="s/c">"#))
        #expect(!s.contains("role=\"list"))
    }

    /// The slide labels come from `partials/slide-label.mustache`, which a site overrides to
    /// translate them: rendered once per slide with `index` (from 1) and `count`, trimmed, and
    /// escaped as the attribute value.
    @Test func slideLabelsComeFromTheOverridablePartial() throws {
        var items: [String: String] = [:]
        for (i, name) in ["a", "b", "c", "d", "e"].enumerated() { items[name] = "title: \(name.uppercased())\nweight: \(i + 1)" }
        let (html, report) = try home(
            "---\ntitle: \u{C0} la une\nlayout: hero\n---\n", items: items,
            files: ["Templates/partials/slide-label.mustache": "{{index}} sur {{count}}\n"])
        #expect(report.diagnostics.sorted.filter { $0.severity != .note } == [])
        let s = try section(html, "s")
        for (i, name) in ["a", "b", "c", "d", "e"].enumerated() {
            #expect(s.contains(
                #"<div class="cl-item" role="group" aria-roledescription="slide" aria-label="\#(i + 1) sur 5"><div class="cl-cell" data-item-id="s/\#(name)">"#))
        }
        #expect(s.contains(#"aria-label="2 sur 5""#))
        #expect(!s.contains(" of 5"))

        // Plain text, escaped once; whitespace around it (a standalone comment line) trimmed.
        let (quoted, _) = try home(
            "---\ntitle: T\nlayout: hero\n---\n", items: cards,
            files: ["Templates/partials/slide-label.mustache": "{{! translated }}\n  Slide \"{{index}}\" <of> {{count}} & more\t\n\n"])
        #expect(try section(quoted, "s").contains(
            #"aria-roledescription="slide" aria-label="Slide &quot;1&quot; &lt;of&gt; 2 &amp; more"><div class="cl-cell" data-item-id="s/a">"#))
    }

    /// Only slideshows render the partial: a label that cannot render (a dynamic partial that
    /// names no template) stops a hero's build at its position, and leaves a carousel's alone.
    @Test func onlySlideshowsRenderTheSlideLabel() throws {
        let broken = ["Templates/partials/slide-label.mustache": "{{index}} {{>*index}}\n"]
        let (carousel, ok) = try home("---\ntitle: T\nlayout: carousel\n---\n", items: cards, files: broken)
        #expect(ok.exitStatus == 0)
        #expect(carousel.contains(#"<div class="cl-item" role="listitem"><div class="cl-cell" data-item-id="s/a">"#))
        let (_, failed) = try home("---\ntitle: T\nlayout: hero\n---\n", items: cards, files: broken)
        #expect(failed.exitStatus == 1)
        #expect(failed.diagnostics.sorted.map(\.description) == ["Templates/partials/slide-label.mustache:1:11: error: unknown partial '1'"])
    }

    /// `--strict` checks the partial against its own context (`index`, `count`), not against
    /// the section's.
    @Test func slideLabelIsLintedAgainstItsOwnContext() throws {
        let root = temporaryFolder()
        writeSite(root, [
            "content/s/a.md": "---\ntitle: A\n---\n",
            "Templates/partials/slide-label.mustache": "{{index}}/{{count}} {{indx}} {{section.title}}\n",
        ])
        let report = build(root, output: temporaryFolder() + "/public", strict: true)
        #expect(report.exitStatus == 1)
        #expect(report.diagnostics.sorted.map(\.description) == [
            "Templates/partials/slide-label.mustache:1:21: warning: no value 'indx' in the context of a slide label; it renders as nothing (did you mean 'index'?)",
            "Templates/partials/slide-label.mustache:1:30: warning: no value 'section.title' in the context of a slide label; it renders as nothing",
        ])
        writeSite(root, ["Templates/partials/slide-label.mustache": "{{#count}}{{index}} / {{count}}{{/count}}\n"])
        let clean = build(root, output: temporaryFolder() + "/public", strict: true)
        #expect(clean.exitStatus == 0)
        #expect(clean.diagnostics.sorted.filter { $0.severity != .note } == [])
    }

    @Test func heroWithoutLinksIsANamedFocusableGroup() throws {
        let (html, _) = try home("---\ntitle: Banner\nlayout: hero\n---\n", items: ["a": "title: A", "b": "title: B"])
        #expect(try section(html, "s").contains("""
              <div class="cl-groups" id="scroller-s" role="group" aria-labelledby="sec-s" aria-atomic="false" aria-live="polite" data-scroller tabindex="0">
            """))
    }

    @Test func heroThatDoesNotScrollIsAList() throws {
        let (html, _) = try home(
            "---\ntitle: Banner\nlayout:\n  preset: hero\n  orthogonalScrollingBehavior: none\n---\n", items: cards)
        let s = try section(html, "s")
        #expect(s.hasPrefix("""
            <section class="cl-section cl-preset-hero" data-section-id="s" aria-labelledby="sec-s">
              <header class="cl-header">
                <h2 id="sec-s">Banner</h2>
              </header>
              <div class="cl-groups" role="list" aria-labelledby="sec-s">
            """))
        #expect(!html.contains("<script"))
    }

    @Test func controlsFalseLeavesTheShelfWithoutButtonsOrScript() throws {
        let (html, _) = try home("---\ntitle: Picks\nlayout: carousel\ncontrols: false\n---\n", items: cards)
        let s = try section(html, "s")
        #expect(s.hasPrefix("""
            <section class="cl-section cl-preset-carousel" data-section-id="s" aria-labelledby="sec-s">
              <header class="cl-header">
                <h2 id="sec-s">Picks</h2>
              </header>
              <div class="cl-groups" id="scroller-s" role="list" aria-labelledby="sec-s" data-scroller>
            """))
        #expect(!html.contains(Self.script) && !html.contains("cl-control"))
        #expect(html.contains(Self.gestures))
    }

    @Test func untitledOrNonScrollingSectionsHaveNoButtons() throws {
        let (untitled, _) = try home("---\nlayout: carousel\n---\n", items: cards)
        #expect(try section(untitled, "s").contains(#"<div class="cl-groups" id="scroller-s" role="list" aria-label="s" data-scroller>"#))
        #expect(!untitled.contains(Self.script) && !untitled.contains("cl-control") && untitled.contains(Self.gestures))
        let (list, _) = try home("---\ntitle: List\nlayout: list\n---\n", items: cards)
        #expect(try section(list, "s").contains(#"<div class="cl-groups" role="list" aria-labelledby="sec-s">"#))
        #expect(!list.contains("<script") && !list.contains("cl-control") && !list.contains("scroller-"))
    }

    @Test func controlsMustBeABoolean() throws {
        let (_, report) = try home("---\ntitle: Picks\nlayout: carousel\ncontrols: sometimes\n---\n", items: cards)
        #expect(report.exitStatus == 1)
        #expect(report.diagnostics.sorted.filter { $0.severity == .error }.map(\.description) == [
            "content/s/_section.md:4:11: error: 'controls' must be true or false, found 'sometimes'"
        ])
    }
}
