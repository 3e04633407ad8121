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
        #expect(report.cards == 26)
        let files = snapshot(out)
        for path in ["index.html", "recipes/index.html", "today/morning.html", "today/kisetsu.html", "picks/tea.html",
                     "weather/tokyo.html", "recipes/recipes/miso-soup.html", "assets/theme.css", "assets/layout.css",
                     "assets/recipes/recipes/miso-soup.png", OutputWriter.markerName] {
            #expect(files[path] != nil, "missing \(path)")
        }
    }

    /// Compares the pages with the committed golden copies. Set FEEDGEN_UPDATE_GOLDEN=1 to rewrite them.
    @Test(arguments: goldenFiles)
    func matchesGolden(path: String) throws {
        let out = temporaryFolder() + "/public"
        #expect(build(repositoryRoot, output: out).exitStatus == 0)
        let actual = try String(contentsOfFile: out + "/" + path, encoding: .utf8)
        let goldenPath = Self.goldenFolder + "/" + path
        if ProcessInfo.processInfo.environment["FEEDGEN_UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(atPath: (goldenPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try actual.write(toFile: goldenPath, atomically: true, encoding: .utf8)
        }
        let golden = try String(contentsOfFile: goldenPath, encoding: .utf8)
        #expect(actual == golden, "\(path) differs from Tests/FeedgenBuildTests/Golden/\(path); run with FEEDGEN_UPDATE_GOLDEN=1 after checking the change")
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
