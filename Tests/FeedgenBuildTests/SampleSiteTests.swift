import Foundation
import Testing

@testable import FeedgenBuild

/// The sample site in content/: golden HTML, determinism, the output contract.
@Suite struct SampleSiteTests {
    static let goldenFolder = repositoryRoot + "/Tests/FeedgenBuildTests/Golden"
    static let goldenFiles = ["index.html", "recipes/index.html", "today/morning.html", "assets/layout.css"]

    @Test func buildsTheSampleSite() throws {
        let out = temporaryFolder() + "/public"
        let report = build(repositoryRoot, output: out)
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        #expect(report.diagnostics.errorCount == 0)
        #expect(report.feeds == 2)
        #expect(report.cards == 30)
        let files = snapshot(out)
        for path in ["index.html", "recipes/index.html", "today/morning.html", "today/kisetsu.html", "picks/tea.html",
                     "weather/tokyo.html", "recipes/recipes/miso-soup.html", "assets/theme.css", "assets/layout.css",
                     "assets/recipes/recipes/miso-soup.png", OutputWriter.markerName,
                     // The Latest shelf's own page and a tag page (issue #20).
                     "latest/index.html", "recipes/tags/vegetarian/index.html", "recipes/tags/vegetarian/feed.xml"] {
            #expect(files[path] != nil, "missing \(path)")
        }
    }

    /// Set by scripts/record-golden, which runs only ``recordGolden()``.
    static let recording = ProcessInfo.processInfo.environment["FEEDGEN_RECORD_GOLDEN"] == "1"

    /// Compares the pages with the committed golden copies (only compares: re-recording is
    /// scripts/record-golden).
    @Test(arguments: goldenFiles)
    func matchesGolden(path: String) throws {
        // A whole run with the recording switch set fails rather than pass on what it wrote.
        #expect(!Self.recording, "FEEDGEN_RECORD_GOLDEN=1 is for scripts/record-golden only; nothing was compared")
        let out = temporaryFolder() + "/public"
        #expect(build(repositoryRoot, output: out).exitStatus == 0)
        let actual = try String(contentsOfFile: out + "/" + path, encoding: .utf8)
        let golden = try String(contentsOfFile: Self.goldenFolder + "/" + path, encoding: .utf8)
        #expect(actual == golden, "\(path) differs from Tests/FeedgenBuildTests/Golden/\(path); after checking the change, scripts/record-golden rewrites it")
    }

    /// Rewrites the golden copies from a fresh build: run by scripts/record-golden only (skipped
    /// in test runs).
    @Test(.enabled(if: recording, "re-records the golden files; run by scripts/record-golden"))
    func recordGolden() throws {
        let out = temporaryFolder() + "/public"
        #expect(build(repositoryRoot, output: out).exitStatus == 0)
        for path in Self.goldenFiles {
            let goldenPath = Self.goldenFolder + "/" + path
            try FileManager.default.createDirectory(atPath: (goldenPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.removeItem(atPath: goldenPath)
            try FileManager.default.copyItem(atPath: out + "/" + path, toPath: goldenPath)
        }
    }

    @Test func outputIsByteIdenticalAcrossBuilds() {
        let a = temporaryFolder() + "/public"
        let b = temporaryFolder() + "/elsewhere/out"
        #expect(build(repositoryRoot, output: a).exitStatus == 0)
        #expect(build(repositoryRoot, output: b).exitStatus == 0)
        let sa = snapshot(a)
        let sb = snapshot(b)
        #expect(sa.keys.sorted() == sb.keys.sorted())
        for key in sa.keys { #expect(sa[key] == sb[key], "\(key) differs") }
    }

    @Test func outputContract() throws {
        let out = temporaryFolder() + "/public"
        #expect(build(repositoryRoot, output: out).exitStatus == 0)
        let home = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(home.contains(#"data-section-id="today""#))
        #expect(home.contains(#"data-item-id="today/morning""#))
        #expect(home.contains(#"<a href="today/morning.html">A slow start to Friday</a>"#))
        #expect(home.contains("data-scroller"))
        #expect(home.contains(#"<link rel="stylesheet" href="assets/layout.css">"#))
        // Relative URLs only: no absolute paths or schemes in href/src.
        for page in snapshot(out).keys where page.hasSuffix(".html") {
            let html = try String(contentsOfFile: out + "/" + page, encoding: .utf8)
            #expect(!html.contains(#"href="/"#) && !html.contains(#"src="/"#), "\(page) has a root-relative URL")
            #expect(!html.contains("file://"), "\(page) has a file:// URL")
        }
    }
}
