import Dispatch
import FeedgenContent
import FeedgenDiagnostics
import FeedgenLayout
import FeedgenMustache
import FeedgenResolve
import Foundation

/// `feedgen build --previews`: every section of every feed at four widths, in light and dark,
/// side by side on one page (`_previews/index.html`), so an author checks all sizes at a glance.
///
/// Each section gets two standalone pages, `_previews/<feed path>/<section id>.light.html` and
/// `….dark.html`: the feed page's section HTML (the same bytes but for the URLs, which are
/// relative to the preview page; image loading priorities included), inside the same `main[data-feed] .cl-sections`
/// structure and with the same `<head>` (the site's `head` partial, so the same stylesheets) as
/// the feed page. The only differences: `data-color-scheme="light|dark"` on `<html>`, which the
/// built-in theme reads to force a colour scheme instead of following `prefers-color-scheme`;
/// `<base target="_top">`, so a card's link opens in the whole window; and `noindex`.
///
/// The index shows each section page in `<iframe>`s of the nominal widths (320, 390, 768 and
/// 1280 CSS px): a frame is a viewport of its own, so media queries, container queries and the
/// adaptive layout rules apply exactly as on a device of that width. Iframes of sibling files
/// work from `file://`; the one script, a `postMessage` from each frame, only corrects heights.
///
/// Frame heights (no script can measure from `file://`): the section's height in the layout
/// model at that width, with each card's and the header's text estimate as its measured size
/// (``CardHeightEstimate``, the heights deferred cards reserve), so the frame shows the whole
/// section. A section whose layout uses a viewport-relative height (`fractionalHeight` of the
/// collection, CSS `svh`) depends on the frame's own height, because inside a frame `100svh` is
/// the frame's height: its frame is the height `H` at which the section is `H` tall (the section
/// grows linearly with `H`; when it grows as fast as `H` or faster, one screen). Text
/// estimates are off by whole lines where a word wraps differently, so each preview page also
/// posts its section's measured height to the index (`postMessage` works between `file://`
/// documents, which are of different origins), which sets the frame's height to it; frames of
/// viewport-relative sections keep the model's height. Without JavaScript the model's heights stay.
public enum Preview {
    /// The folder of the previews, relative to the output folder. Reserved: no static file
    /// may be written below it, whether or not `--previews` is given.
    public static let folder = OutputPaths.previews

    /// The preview widths (CSS px) with the height of one screen of a device of that width:
    /// iPhone SE (1st gen.) 320×568, iPhone 14 390×844 (the layout model's default viewport),
    /// iPad 768×1024, a 1280×800 laptop.
    public static let widths: [(width: Int, screenHeight: Int)] = [(320, 568), (390, 844), (768, 1024), (1280, 800)]

    public enum Scheme: String, Sendable, CaseIterable {
        case light, dark
    }

    /// `_previews/index.html`.
    public static var indexPath: String { folder + "/index.html" }

    /// The standalone page of one section in one colour scheme:
    /// `_previews/today.dark.html` (home feed), `_previews/recipes/popular.light.html`.
    public static func sectionPath(feed: PreparedFeed, section: String, scheme: Scheme) -> String {
        folder + "/" + (feed.feed.path.isEmpty ? "" : feed.feed.path + "/") + section + "." + scheme.rawValue + ".html"
    }

    /// The frame height (CSS px) for a section whose height at frame height `H` is
    /// `estimate(H)`: `estimate(screenHeight)` rounded up when the layout does not use
    /// viewport-relative heights; otherwise the fixed point `H = a + b·H` of the line through
    /// `estimate(screenHeight)` and `estimate(2 × screenHeight)`, rounded up, or `screenHeight`
    /// when `b ≥ 1` (no fixed point) or an estimate is not finite. At least 1.
    public static func frameHeight(
        usesViewportHeight: Bool, screenHeight: Int, estimate: (Double) -> Double
    ) -> Int {
        let screen = Double(screenHeight)
        let h1 = estimate(screen)
        guard h1.isFinite else { return screenHeight }
        guard usesViewportHeight else { return max(1, Int(h1.rounded(.up))) }
        let h2 = estimate(2 * screen)
        let b = (h2 - h1) / screen
        guard h2.isFinite, b < 1 - 1e-9 else { return screenHeight }
        let fixed = (h1 - b * screen) / (1 - b)
        return max(1, Int((fixed - 1e-6).rounded(.up)))
    }
}

extension SiteRenderer {
    /// The preview files of ``Preview``: two pages per section and the index, sorted by path.
    ///
    /// - Throws: ``TemplateErrors`` when the site's templates fail to render a section or the
    ///   `base` / `head` partials (the same errors the feed pages would report).
    public func previews() throws(TemplateErrors) -> [OutputFile] {
        let pageTemplate: MustacheTemplate
        do {
            pageTemplate = try MustacheTemplate(source: Self.previewPageSource, name: "(feedgen preview page)")
        } catch {
            throw TemplateErrors(error)
        }
        // One job per section, on every core like the feed pages; a section's light and dark
        // pages are siblings, so they share its rendered HTML.
        var jobs: [(feed: PreparedFeed, section: PreparedSection, imagesBefore: Int)] = []
        for feed in site.feeds where feed.ownPage == nil {  // a section in one place: its feed
            // The feed's pages are no section of its page, so they have no preview.
            for (s, before) in zip(feed.sections, imagesBefore(feed)) where !s.section.isPages { jobs.append((feed, s, before)) }
        }
        let all = jobs
        let results = ResultSlots<[OutputFile]>(count: all.count)
        DispatchQueue.concurrentPerform(iterations: all.count) { i in
            // Untyped closure: typed-throws closures crash the Swift 6.3 compiler (see render()).
            results.set(i, Result { () throws -> [OutputFile] in
                let (feed, s, before) = all[i]
                let section = try sectionHTML(s, feed: feed, page: Preview.sectionPath(feed: feed, section: s.section.outputName, scheme: .light), imagesBefore: before)
                var files: [OutputFile] = []
                for scheme in Preview.Scheme.allCases {
                    let path = Preview.sectionPath(feed: feed, section: s.section.outputName, scheme: scheme)
                    let html = try previewPage(s, sectionHTML: section, feed: feed, scheme: scheme, path: path, template: pageTemplate)
                    files.append(OutputFile(path: path, contents: .text(html)))
                }
                return files
            })
        }
        var files: [OutputFile] = []
        for r in results.values {
            switch r {
            case .success(let pages): files += pages
            case .failure(let error as TemplateErrors): throw error
            case .failure(let error): throw TemplateErrors(diagnostics: [.error(SourceLocation(path: "Templates"), "\(error)")])
            }
        }
        files.append(OutputFile(path: Preview.indexPath, contents: .text(try previewIndex())))
        return files.sorted { $0.path < $1.path }
    }

    /// Through the site's `base` partial, whose `head` block this fills: the page has the same
    /// `<head>` (stylesheets, meta) as the feed page, and the section is wrapped exactly as there.
    static let previewPageSource = """
        {{< base}}
        {{$head}}
          <meta name="robots" content="noindex">
          <base target="_top">
        {{/head}}
        {{$content}}
        <main class="cl-page" data-feed="{{feed.key}}">
          <div class="cl-sections">
        {{{html}}}
          </div>
        </main>
        <script>
        /* feedgen previews: the frame fits the section (the index sets its height) */
        new ResizeObserver(function(){var s=document.querySelector("[data-section-id]");
        if(s)parent.postMessage({feedgenPreviewHeight:s.getBoundingClientRect().height},"*")}).observe(document.documentElement);
        </script>
        {{/content}}
        {{/base}}

        """

    func previewPage(
        _ s: PreparedSection, sectionHTML: String, feed: PreparedFeed, scheme: Preview.Scheme, path: String,
        template: MustacheTemplate
    ) throws(TemplateErrors) -> String {
        let label = s.section.title ?? s.section.id
        var page = pageContext(
            title: "Preview: \(label) (\(feed.feed.title), \(scheme.rawValue))", description: nil, lang: feed.feed.lang, page: path)
        if case .object(var object) = page {
            // Not a page of the site: no canonical URL, no feed links.
            object["url"] = .null
            object["feeds"] = .array([])
            object["hasFeeds"] = .bool(false)
            page = .object(object)
        }
        let context: MustacheValue = [
            "page": page, "site": siteContext,
            "feed": ["key": .string(feed.key), "title": .string(feed.feed.title)],
            "html": .string(sectionHTML),
        ]
        var html = try Self.render(template, context, partials: templates)
        // The forced scheme goes on the root element, which the theme's
        // `:root[data-color-scheme]` rules read.
        if let open = html.range(of: "<html") {
            html.insert(contentsOf: " data-color-scheme=\"\(scheme.rawValue)\"", at: open.upperBound)
        }
        return html
    }

    /// The frame heights of every section of `feed` at every preview width, CSS px, in section
    /// order: `[section][width index]` (``Preview/frameHeight(usesViewportHeight:screenHeight:estimate:)``).
    ///
    /// - Throws: ``TemplateErrors`` when a card does not render (its text estimate needs it).
    func previewFrameHeights(_ feed: PreparedFeed) throws(TemplateErrors) -> [[Int]] {
        var profiles: [[CardHeightEstimate]] = []
        for s in feed.sections {
            let cards = try renderCards(s, feed: feed, page: feed.pagePath).cards.map(\.text)
            profiles += DeferredCards.profiles(sections: [s], cards: [cards])
        }
        let css = feed.sections.map { LayoutCSS.rules($0.layout, scope: "").contains("svh") }
        var heights = Array(repeating: [Int](), count: feed.sections.count)
        for (width, screen) in Preview.widths {
            for (i, s) in feed.sections.enumerated() {
                // One section alone, as on its preview page, at the frame's viewport height.
                heights[i].append(Preview.frameHeight(usesViewportHeight: css[i], screenHeight: screen) { viewport in
                    let env = site.layoutEnvironment(feed, width: Double(width), viewportHeight: viewport)
                    let measured = DeferredCards.measurements(sections: [s], profiles: [profiles[i]], environment: env)
                    let resolved = CompositionalLayout.solve([s.input], environment: env, measurements: measured)
                    return resolved.sections.first.map { $0.frame.maxY } ?? 0
                })
            }
        }
        return heights
    }

    /// `_previews/index.html`: per feed, per section, a grid of frames, the light ones in the
    /// first row and the dark ones below, each labelled with its width and scheme. Self-contained
    /// (inline stylesheet, system colours), so it looks the same whatever the site's theme.
    func previewIndex() throws(TemplateErrors) -> String {
        let config = site.site.config
        let here = Preview.indexPath
        let widthList = Preview.widths.map { "\($0.width)" }
        let widthsText = widthList.dropLast().joined(separator: ", ") + " and " + widthList.last! + " px"
        var out = """
            <!doctype html>
            <html lang="\(HTML.escape(config.language))"\(Self.isRightToLeft(config.language) ? " dir=\"rtl\"" : "")>
            <head>
              <meta charset="utf-8">
              <meta name="viewport" content="width=device-width, initial-scale=1">
              <meta name="color-scheme" content="light dark">
              <meta name="robots" content="noindex">
              <meta name="generator" content="feedgen">
              <title>Previews – \(HTML.escape(config.title))</title>
              <style>
                :root { color-scheme: light dark; background: Canvas; color: CanvasText; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.4; }
                body { margin: 0; padding: 16px; }
                h1 { margin: 0 0 8px; font-size: 1.75rem; }
                h2 { margin: 32px 0 0; font-size: 1.4rem; border-block-start: 1px solid GrayText; padding-block-start: 16px; }
                h3 { margin: 24px 0 8px; font-size: 1.1rem; }
                code { font-size: .9em; }
                a { color: #0a5dc2; }
                @media (prefers-color-scheme: dark) { a { color: #64a8ff; } }
                .pv-feeds ul { display: flex; flex-wrap: wrap; gap: 4px 16px; padding: 0; list-style: none; }
                .pv-strip { overflow-x: auto; padding-block-end: 8px; }
                .pv-grid { display: grid; grid-template-columns: repeat(\(Preview.widths.count), max-content); gap: 16px; align-items: start; inline-size: max-content; }
                .pv-frame { margin: 0; }
                .pv-frame figcaption { font-size: .85rem; margin-block-end: 4px; }
                .pv-frame iframe { display: block; box-sizing: content-box; border: 1px solid GrayText; background: Canvas; }
              </style>
            </head>
            <body>
            <header>
              <h1>Previews</h1>
              <p>Every section of every feed at \(widthsText), in light and dark. Each frame is as wide as its label says, so the section lays out as on a screen of that width, and as tall as the section. Written by <code>feedgen build --previews</code>; the site does not link here.</p>

            """
        if site.feeds.count(where: { $0.ownPage == nil }) > 1 {
            out += "  <nav class=\"pv-feeds\" aria-label=\"Feeds\">\n    <ul>\n"
            for (f, feed) in site.feeds.enumerated() where feed.ownPage == nil {
                out += "      <li><a href=\"#pv-feed-\(f)\">\(HTML.escape(feed.feed.title))</a></li>\n"
            }
            out += "    </ul>\n  </nav>\n"
        }
        // The frames' own measurements correct the model's estimates (text estimates are off
        // by whole lines where a word wraps differently): each preview page posts its section's
        // height; frames of viewport-relative sections keep theirs (their height is their svh).
        // Written before the first frame, so no message comes before the listener.
        out += "<script>\n"
        out += "addEventListener(\"message\",function(e){var h=e.data&&e.data.feedgenPreviewHeight;if(typeof h!=\"number\")return;\n"
        out += "document.querySelectorAll(\"iframe[data-fit]\").forEach(function(f){if(f.contentWindow===e.source)f.height=Math.max(1,Math.ceil(h-.01))})});\n"
        out += "</script>\n"
        out += "</header>\n<main>\n"
        for (f, feed) in site.feeds.enumerated() where feed.ownPage == nil {
            let feedPage = RelativeURL.relative(from: here, to: feed.pagePath)
            out += "<section aria-labelledby=\"pv-feed-\(f)\">\n"
            out += "  <h2 id=\"pv-feed-\(f)\">\(HTML.escape(feed.feed.title)) <small>(<a href=\"\(HTML.escape(feedPage))\">\(HTML.escape(feed.pagePath))</a>)</small></h2>\n"
            if !feed.sections.contains(where: { !$0.section.isPages }) { out += "  <p>This feed has no sections.</p>\n" }
            let heights = try previewFrameHeights(feed)
            let css = feed.sections.map { LayoutCSS.rules($0.layout, scope: "").contains("svh") }
            for (i, s) in feed.sections.enumerated() where !s.section.isPages {
                let label = s.section.title ?? s.section.id
                let headingID = "pv-feed-\(f)-s\(i)"
                out += "  <section aria-labelledby=\"\(headingID)\">\n"
                out += "    <h3 id=\"\(headingID)\">\(HTML.escape(label)) <code>\(HTML.escape(s.section.id))</code></h3>\n"
                // A scroller must be reachable by keyboard (frames inside don't count for axe).
                out += "    <div class=\"pv-strip\" role=\"group\" aria-labelledby=\"\(headingID)\" tabindex=\"0\">\n      <div class=\"pv-grid\">\n"
                for scheme in Preview.Scheme.allCases {
                    let src = RelativeURL.relative(from: here, to: Preview.sectionPath(feed: feed, section: s.section.outputName, scheme: scheme))
                    let fit = css[i] ? "" : " data-fit"
                    for (w, (width, _)) in Preview.widths.enumerated() {
                        let caption = "\(width) px, \(scheme.rawValue)"
                        let title = "\(feed.feed.title) › \(label): \(caption)"
                        out += "        <figure class=\"pv-frame\"><figcaption>\(caption)</figcaption>"
                        out += "<iframe src=\"\(HTML.escape(src))\" width=\"\(width)\" height=\"\(heights[i][w])\"\(fit) title=\"\(HTML.escape(title))\" loading=\"lazy\"></iframe></figure>\n"
                    }
                }
                out += "      </div>\n    </div>\n  </section>\n"
            }
            out += "</section>\n"
        }
        out += "</main>\n</body>\n</html>\n"
        return out
    }
}
