import Foundation
import FeedgenDiagnostics
import Testing

@testable import FeedgenBuild
import FeedgenIncremental
import FeedgenEmit

/// `feedgen build --previews` (issue 8 item 5): `_previews/index.html` with every section at
/// 320, 390, 768 and 1280 px in light and dark, each section on a standalone page per scheme.
@Suite struct PreviewTests {
    struct Frame: Equatable, CustomStringConvertible {
        var caption: String
        var src: String
        var width: Int
        var height: Int
        var title: String
        var description: String { "\(caption) | \(src) \(width)×\(height) | \(title)" }
    }

    /// The figures of the index, in document order.
    static func frames(_ html: String) throws -> [Frame] {
        let pattern = try NSRegularExpression(pattern: #"<figure class="pv-frame"><figcaption>([^<]*)</figcaption><iframe src="([^"]*)" width="(\d+)" height="(\d+)"(?: data-fit)? title="([^"]*)" loading="lazy"></iframe></figure>"#)
        let ns = html as NSString
        return pattern.matches(in: html, range: NSRange(location: 0, length: ns.length)).map { m in
            Frame(
                caption: ns.substring(with: m.range(at: 1)), src: ns.substring(with: m.range(at: 2)),
                width: Int(ns.substring(with: m.range(at: 3)))!, height: Int(ns.substring(with: m.range(at: 4)))!,
                title: ns.substring(with: m.range(at: 5)))
        }
    }

    /// The frames one section should have: light row then dark row, 320 → 1280 px.
    static func expected(feed: String, label: String, page: String, heights: [Int]) -> [Frame] {
        var out: [Frame] = []
        for scheme in ["light", "dark"] {
            for (i, width) in [320, 390, 768, 1280].enumerated() {
                out.append(Frame(
                    caption: "\(width) px, \(scheme)", src: "\(page).\(scheme).html", width: width, height: heights[i],
                    title: "\(feed) › \(label): \(width) px, \(scheme)"))
            }
        }
        return out
    }

    func buildWithPreviews(_ site: String, _ out: String) -> Int32 {
        var options = BuildOptions(siteRoot: site, output: out, now: fixedNow)
        options.previews = true
        return SiteBuilder.build(options).exitStatus
    }

    @Test func theOptionWritesTheIndexAndTwoPagesPerSection() throws {
        let out = temporaryFolder() + "/public"
        #expect(buildWithPreviews(repositoryRoot, out) == 0)
        let previews = snapshot(out).keys.filter { $0.hasPrefix("_previews/") }.sorted()
        #expect(previews == [
            "_previews/index.html",
            "_previews/latest.dark.html", "_previews/latest.light.html",
            "_previews/picks.dark.html", "_previews/picks.light.html",
            "_previews/recipes/featured.dark.html", "_previews/recipes/featured.light.html",
            "_previews/recipes/popular.dark.html", "_previews/recipes/popular.light.html",
            "_previews/recipes/recipes.dark.html", "_previews/recipes/recipes.light.html",
            "_previews/today.dark.html", "_previews/today.light.html",
            "_previews/weather.dark.html", "_previews/weather.light.html",
        ])
    }

    @Test func withoutTheOptionNothingIsWrittenAndAPreviousPreviewIsNotKept() {
        let out = temporaryFolder() + "/public"
        #expect(buildWithPreviews(repositoryRoot, out) == 0)
        #expect(FileManager.default.fileExists(atPath: out + "/_previews/index.html"))
        let report = build(repositoryRoot, output: out)
        #expect(report.exitStatus == 0)
        #expect(report.previewsPath == nil)
        #expect(!FileManager.default.fileExists(atPath: out + "/_previews"))
    }

    /// Every section × 4 widths × 2 schemes, labelled, with the model's height estimate at
    /// each width (at most one screen: 568, 844, 1024, 800 px).
    @Test func theIndexListsEveryFrameOfTheSampleSite() throws {
        let out = temporaryFolder() + "/public"
        #expect(buildWithPreviews(repositoryRoot, out) == 0)
        let index = try String(contentsOfFile: out + "/_previews/index.html", encoding: .utf8)
        let expected =
            Self.expected(feed: "Today", label: "Today", page: "today", heights: [606, 561, 472, 472])
            + Self.expected(feed: "Today", label: "Weather", page: "weather", heights: [191, 191, 191, 191])
            + Self.expected(feed: "Today", label: "Latest", page: "latest", heights: [345, 324, 324, 324])
            + Self.expected(feed: "Today", label: "Picks", page: "picks", heights: [345, 324, 324, 324])
            + Self.expected(feed: "Recipes", label: "Today&#39;s pick", page: "recipes/featured", heights: [218, 253, 442, 394])
            + Self.expected(feed: "Recipes", label: "Popular searches", page: "recipes/popular", heights: [226, 182, 138, 138])
            + Self.expected(feed: "Recipes", label: "Recipes", page: "recipes/recipes", heights: [1351, 1419, 1604, 1604])
        let found = try Self.frames(index)
        #expect(found.count == 56)
        #expect(found == expected, "\(found.map(\.description).joined(separator: "\n"))")
        #expect(index.contains(#"<h3 id="pv-feed-1-s0">Today&#39;s pick <code>featured</code></h3>"#))
        #expect(index.contains(#"<h2 id="pv-feed-1">Recipes <small>(<a href="../recipes/index.html">recipes/index.html</a>)</small></h2>"#))
        // One script: it sets each frame's height to the height its page posts.
        #expect(index.components(separatedBy: "<script").count == 2)
        #expect(index.components(separatedBy: " data-fit ").count == 57)
        #expect(index.contains("iframe[data-fit]"))
    }

    /// The section page holds the feed page's own section HTML (URLs made relative to the
    /// preview page), the same stylesheets, and the forced scheme on <html>.
    @Test func aSectionPageReusesTheRealSectionHTML() throws {
        let out = temporaryFolder() + "/public"
        #expect(buildWithPreviews(repositoryRoot, out) == 0)
        let home = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        let feedPage = try String(contentsOfFile: out + "/recipes/index.html", encoding: .utf8)
        for scheme in ["light", "dark"] {
            let today = try String(contentsOfFile: out + "/_previews/today.\(scheme).html", encoding: .utf8)
            // _previews/today.light.html is one folder deeper than index.html.
            #expect(try #require(Self.section("today", in: today)).replacingOccurrences(of: "=\"../", with: "=\"")
                == Self.section("today", in: home))
            let preview = try String(contentsOfFile: out + "/_previews/recipes/recipes.\(scheme).html", encoding: .utf8)
            #expect(preview.hasPrefix("<!doctype html>\n<html data-color-scheme=\"\(scheme)\" lang=\"en\">\n"))
            #expect(preview.contains(#"<link rel="stylesheet" href="../../assets/theme.css">"#))
            #expect(preview.contains(#"<link rel="stylesheet" href="../../assets/layout.css">"#))
            #expect(preview.contains("<base target=\"_top\">\n</head>"))
            #expect(preview.contains(#"<meta name="robots" content="noindex">"#))
            #expect(preview.contains(#"<main class="cl-page" data-feed="/recipes">"#))
            #expect(!preview.contains("rel=\"canonical\""))
            let section = try #require(Self.section("recipes", in: preview))
            let real = try #require(Self.section("recipes", in: feedPage))
            // From _previews/recipes/ instead of recipes/.
            let normalized = section.replacingOccurrences(of: "=\"../../recipes/", with: "=\"")
                .replacingOccurrences(of: "=\"../../assets/", with: "=\"../assets/")
                .replacingOccurrences(of: "../../images/", with: "../images/")  // image variants in srcset lists
            #expect(normalized == real)
            #expect(section.contains(#"<img class="card-image" src="../../assets/recipes/recipes/miso-soup.png""#))
        }
    }

    static func section(_ id: String, in html: String) -> String? {
        guard let start = html.range(of: "<section class=\"cl-section"),
            let tail = html.range(of: "data-section-id=\"\(id)\"", range: start.lowerBound..<html.endIndex)
        else { return nil }
        let open = html.range(of: "<section class=\"cl-section", options: .backwards, range: html.startIndex..<tail.lowerBound)!
        let close = html.range(of: "</section>", range: tail.upperBound..<html.endIndex)!
        return String(html[open.lowerBound..<close.upperBound])
    }

    /// The built-in theme forces a scheme through `data-color-scheme`; without it (the real
    /// pages) the dark colours still follow prefers-color-scheme, and the feedgen.yaml tokens
    /// still come last with the same specificity.
    @Test func theThemeForcesASchemeOnlyThroughTheAttribute() throws {
        let theme = try #require(TemplateSet.builtinFiles["theme.css"])
        #expect(theme.contains("@media (prefers-color-scheme: dark) {\n  :root:where(:not([data-color-scheme=\"light\"])) {\n    --background: #000000;"))
        #expect(theme.contains(":root:where([data-color-scheme=\"light\"]) { color-scheme: light; }"))
        #expect(theme.contains(":root:where([data-color-scheme=\"dark\"]) {\n  color-scheme: dark;\n  --background: #000000;"))
        // The two dark palettes (preference and forced) are the same declarations.
        func declarations(after marker: String) throws -> [String] {
            let start = try #require(theme.range(of: marker))
            let end = try #require(theme.range(of: "}", range: start.upperBound..<theme.endIndex))
            return theme[start.upperBound..<end.lowerBound].split(separator: "\n")
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("--") }
        }
        let preferred = try declarations(after: ":root:where(:not([data-color-scheme=\"light\"])) {")
        let forced = try declarations(after: ":root:where([data-color-scheme=\"dark\"]) {")
        #expect(preferred.count == 9)  // background, card, section, shadow, text, secondary text, tint, separator, fill
        #expect(preferred == forced)
    }

    /// A layout with a viewport-relative height (CSS svh) gets the frame height at which the
    /// section is as tall as its frame, because inside a frame 100svh is the frame's height:
    /// header 42 + top inset 8 + half of (H − 16) + bottom inset 8 = H at H = 100.
    @Test func viewportRelativeSectionsFitTheirFrame() throws {
        let root = temporaryFolder()
        writeSite(root, [
            "content/_feed.md": "---\ntitle: Home\n---\n",
            "content/tall/_section.md": """
                ---
                title: Tall
                layout:
                  item: {width: fractionalWidth(1.0), height: fractionalHeight(1.0)}
                  group: {width: fractionalWidth(1.0), height: fractionalHeight(0.5)}
                ---

                """,
            "content/tall/a.md": "---\ntitle: A\n---\n",
        ])
        let out = root + "/public"
        #expect(buildWithPreviews(root, out) == 0)
        #expect(try String(contentsOfFile: out + "/assets/layout.css", encoding: .utf8).contains("svh"))
        let index = try String(contentsOfFile: out + "/_previews/index.html", encoding: .utf8)
        #expect(try Self.frames(index) == Self.expected(feed: "Home", label: "Tall", page: "tall", heights: [100, 100, 100, 100]))
        #expect(!index.contains(" data-fit "))
        // One feed: no list of feeds.
        #expect(!index.contains("aria-label=\"Feeds\""))
    }

    @Test func frameHeightRule() {
        #expect(Preview.frameHeight(usesViewportHeight: false, screenHeight: 844) { _ in 376 } == 376)
        #expect(Preview.frameHeight(usesViewportHeight: false, screenHeight: 844) { _ in 375.2 } == 376)
        // Taller than a screen: the whole section (frames used to stop at one screen).
        #expect(Preview.frameHeight(usesViewportHeight: false, screenHeight: 568) { _ in 2000 } == 2000)
        // Viewport-relative: the height at which the section is as tall as its frame.
        #expect(Preview.frameHeight(usesViewportHeight: true, screenHeight: 1024) { 60 + 0.5 * $0 } == 120)
        #expect(Preview.frameHeight(usesViewportHeight: true, screenHeight: 1024) { 60 + $0 } == 1024)
        #expect(Preview.frameHeight(usesViewportHeight: false, screenHeight: 800) { _ in 0 } == 1)
        #expect(Preview.frameHeight(usesViewportHeight: false, screenHeight: 800) { _ in .infinity } == 800)
    }

    /// `_previews/` belongs to feedgen, with or without --previews.
    @Test func aStaticFolderNamedPreviewsIsAnError() {
        for previews in [false, true] {
            let root = temporaryFolder()
            writeSite(root, [
                "content/news/a.md": "---\ntitle: A\n---\nBody.\n",
                "static/_previews/index.html": "<p>mine</p>",
                "static/_Previews/notes.txt": "mine",
            ])
            var options = BuildOptions(siteRoot: root, output: root + "/public", now: fixedNow)
            options.previews = previews
            let report = SiteBuilder.build(options)
            #expect(report.exitStatus == 1)
            #expect(report.diagnostics.sorted.map(\.description) == [
                "static/_Previews/notes.txt: error: this would write the output file '_Previews/notes.txt', but '_previews/' is reserved for the section previews of 'feedgen build --previews'; rename or move it",
                "static/_previews/index.html: error: this would write the output file '_previews/index.html', but '_previews/' is reserved for the section previews of 'feedgen build --previews'; rename or move it",
            ])
            #expect(!FileManager.default.fileExists(atPath: root + "/public"))
        }
    }

    /// Content folders starting with `_` are not feeds or sections (content-format §1), so a
    /// content folder named `_previews` cannot collide: it is ignored.
    @Test func aContentFolderNamedPreviewsIsIgnored() throws {
        let root = temporaryFolder()
        writeSite(root, [
            "content/_feed.md": "---\ntitle: Home\n---\n",
            "content/news/a.md": "---\ntitle: A\n---\nBody.\n",
            "content/_previews/_section.md": "---\ntitle: Mine\n---\n",
            "content/_previews/index.md": "---\ntitle: Index\n---\nBody.\n",
        ])
        let out = root + "/public"
        #expect(buildWithPreviews(root, out) == 0)
        let previews = snapshot(out).keys.filter { $0.hasPrefix("_previews/") }.sorted()
        #expect(previews == ["_previews/index.html", "_previews/news.dark.html", "_previews/news.light.html"])
    }

    /// In watch mode only the index polls for rebuilds (it reloads its frames with it).
    @Test func liveReloadGoesIntoTheIndexOnly() throws {
        var options = BuildOptions(siteRoot: repositoryRoot, output: temporaryFolder() + "/public", now: fixedNow)
        options.previews = true
        options.liveReload = true
        let report = SiteBuilder.build(options)
        #expect(report.exitStatus == 0)
        let out = try #require(report.outputPath)
        let index = try String(contentsOfFile: out + "/_previews/index.html", encoding: .utf8)
        #expect(index.contains("<script src=\"../_feedgen/live-reload.js\"></script>\n</head>"))
        let frame = try String(contentsOfFile: out + "/_previews/today.dark.html", encoding: .utf8)
        #expect(!frame.contains("live-reload"))
        let feedPage = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(feedPage.contains("<script src=\"_feedgen/live-reload.js\"></script>"))
    }

    @Test func previewsAreDeterministic() {
        let a = temporaryFolder() + "/public"
        let b = temporaryFolder() + "/other/out"
        #expect(buildWithPreviews(repositoryRoot, a) == 0)
        #expect(buildWithPreviews(repositoryRoot, b) == 0)
        let sa = snapshot(a)
        let sb = snapshot(b)
        #expect(sa.keys.sorted() == sb.keys.sorted())
        for key in sa.keys where key.hasPrefix("_previews/") { #expect(sa[key] == sb[key], "\(key) differs") }
    }
}
