// Scaffolding: `feedgen init` and `feedgen new`.
import FeedgenBuild
import FeedgenIncremental
import Foundation
import Testing

@testable import FeedgenCLI

@Suite struct AuthoringTests {
    @Test func initThenBuildWorksInAnEmptyFolder() {
        let dir = temporaryFolder() + "/mysite"
        #expect(CommandLineTool.run(["init", dir]) == 0)
        let report = build(dir)
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        #expect(report.cards == 5)
        #expect(FileManager.default.fileExists(atPath: dir + "/public/index.html"))
        #expect(FileManager.default.fileExists(atPath: dir + "/public/today/hello.html"))
        // init refuses a folder that is not empty.
        #expect(CommandLineTool.run(["init", dir]) == 2)
    }

    @Test func initRefusesAnEmptyNameAFileAndNeverOverwrites() throws {
        let root = temporaryFolder()
        try "title: Mine\n".write(toFile: root + "/feedgen.yaml", atomically: false, encoding: .utf8)
        // 'feedgen init ""' named the current folder, which was never listed: a site's own files
        // were overwritten (exit 0). Run as a child process in `root` (the tests share one cwd).
        let feedgen = feedgenExecutable
        try #require(FileManager.default.isExecutableFile(atPath: feedgen))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: feedgen)
        process.arguments = ["init", ""]
        process.currentDirectoryURL = URL(fileURLWithPath: root)
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 2)
        #expect(message == "feedgen: error: 'init' needs one folder: feedgen init DIR\n")
        #expect(try String(contentsOfFile: root + "/feedgen.yaml", encoding: .utf8) == "title: Mine\n")
        #expect(!FileManager.default.fileExists(atPath: root + "/content"))
        // A file named DIR is a usage error (exit 2), not a Foundation error dump (exit 1).
        #expect(CommandLineTool.run(["init", root + "/feedgen.yaml"]) == 2)
        #expect(try String(contentsOfFile: root + "/feedgen.yaml", encoding: .utf8) == "title: Mine\n")
    }

    @Test func newCreatesADraftItemThatBuildsWithDrafts() throws {
        let dir = temporaryFolder() + "/site"
        #expect(CommandLineTool.run(["init", dir]) == 0)
        #expect(CommandLineTool.run(["new", "today/lunch-plans", "--site", dir]) == 0)
        let text = try String(contentsOfFile: dir + "/content/today/lunch-plans.md", encoding: .utf8)
        #expect(text.hasPrefix("---\ntitle: Lunch plans\ndate: "))
        #expect(text.contains("\ndraft: true\n---\n"))
        var options = BuildOptions(siteRoot: dir, now: fixedNow)
        options.drafts = true
        #expect(SiteBuilder.build(options).cards == 6)
        #expect(CommandLineTool.run(["new", "today/lunch-plans", "--site", dir]) == 2)
        #expect(CommandLineTool.run(["new", "../escape", "--site", dir]) == 2)
    }
}
