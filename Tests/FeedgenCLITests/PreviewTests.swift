// `--previews` on the command line and in the summary line.
import FeedgenBuild
import FeedgenDiagnostics
import Foundation
import Testing

@testable import FeedgenCLI

@Suite struct PreviewTests {
    @Test func checkHasNoPreviewsOption() {
        #expect(CommandLineTool.run(["check", repositoryRoot, "--previews"]) == 2)
    }

    @Test func theSummaryNamesTheIndex() {
        var report = BuildReport()
        report.pages = 16
        report.feeds = 2
        report.cards = 24
        report.seconds = 0.25
        report.outputPath = "/tmp/site/public"
        report.previewsPath = "/tmp/site/public/_previews/index.html"
        #expect(BuildCommand.summary(report, write: true)
            == "feedgen: built 16 pages (2 feeds, 24 cards) in 0.25 s, 0 warnings → /tmp/site/public; previews: /tmp/site/public/_previews/index.html")
    }

    /// Counts in the summary, the watch line and "more problems" take their noun's plural
    /// unless they are 1 (the watch line said "1 errors").
    @Test func countsAreSingularForOne() {
        #expect(Terminal.count(1, "error") == "1 error")
        #expect(Terminal.count(0, "warning") == "0 warnings")
        #expect(Terminal.count(2, "error") == "2 errors")
        var report = BuildReport()
        report.seconds = 0.5
        report.exitStatus = 1
        report.diagnostics.error(SourceLocation(path: "content/a.md"), "bad")
        report.diagnostics.append(.warning(SourceLocation(path: "content/b.md"), "odd"))
        #expect(BuildCommand.summary(report, write: true)
            == "feedgen: build failed in 0.50 s: 1 warning, 1 error; previous output left untouched")
    }
}
