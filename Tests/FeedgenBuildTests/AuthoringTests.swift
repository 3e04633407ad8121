import Foundation
import Testing

@testable import FeedgenBuild
@testable import FeedgenDiagnostics

/// Scaffolding, strict mode and the GitHub annotation format.
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
        let feedgen = CacheRobustnessTests.feedgen
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

    @Test func strictTurnsWarningsIntoErrors() {
        let root = temporaryFolder()
        writeSite(root, ["content/news/a.md": "---\ntitel: Typo\n---\nBody.\n"])
        let relaxed = build(root, output: temporaryFolder() + "/out")
        #expect(relaxed.exitStatus == 0)
        #expect(relaxed.diagnostics.warningCount == 1)
        let strict = build(root, output: temporaryFolder() + "/out", strict: true)
        #expect(strict.exitStatus == 1)
    }

    @Test func githubAnnotationFormat() {
        let d = Diagnostic.error(SourceLocation(path: "content/a,b.md", line: 3, column: 7), "bad value: 50%\nsecond line")
        #expect(d.description == "content/a,b.md:3:7: error: bad value: 50%\nsecond line")
        #expect(d.githubAnnotation == "::error file=content/a%2Cb.md,line=3,col=7::bad value: 50%25%0Asecond line")
        let w = Diagnostic.warning(SourceLocation(path: "feedgen.yaml"), "x")
        #expect(w.githubAnnotation == "::warning file=feedgen.yaml::x")
    }
}

/// Template lint reaches the build: a name no context provides is a warning, an error with --strict.
@Suite struct TemplateLintWiringTests {
    @Test func unknownTemplateVariableWarnsAndFailsUnderStrict() {
        let root = temporaryFolder()
        writeSite(root, [
            "content/news/a.md": "---\ntitle: A\n---\nBody.\n",
            "Templates/cards/card.mustache": "<article class=\"card\"><h3>{{title}}</h3>{{subtitel}}</article>\n",
        ])
        let relaxed = build(root, output: temporaryFolder() + "/public")
        #expect(relaxed.exitStatus == 0)
        let warnings = relaxed.diagnostics.items.filter { $0.severity == .warning }
        #expect(warnings.count == 1)
        #expect(warnings.first?.location.path == "Templates/cards/card.mustache")
        #expect(warnings.first?.message.contains("subtitel") == true)
        #expect(build(root, output: temporaryFolder() + "/public", strict: true).exitStatus == 1)
    }
}
