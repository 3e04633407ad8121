// Body edits of items with warnings: patched, with the diagnostics of a clean build.
import Foundation
import Testing

@testable import FeedgenBuild
@testable import FeedgenIncremental

/// A patch build reads only the changed items, yet reports what a clean build reports: their
/// warnings (Liquid, dead body paths) replace their last ones, line for line, in the printed
/// order (``PatchBuild/merged(_:fresh:lint:paths:changes:feeds:strict:)``).
@Suite struct PatchWarningsTests {
    static let dead =
        "'/nowhere/page/' names no file or page (looked for static/nowhere/page/, a page named /nowhere/page/ and content/nowhere/page/); fix the path or remove it"

    static func entry(_ body: String) -> String { "---\ntitle: Entry 30\nweight: 31\n---\nEntry 30: word word word.\n" + body }

    @Test func bodyEditsOfAnItemWithWarningsArePatched() throws {
        let site = try PatchBuildTests.makeSite()
        let path = "content/zlong/entry-30.md"
        try Self.entry("\nSee [nothing](/nowhere/page/).\n").write(toFile: site + "/" + path, atomically: true, encoding: .utf8)
        var report = PatchBuildTests.buildAndCompare(site, "a dead link")
        #expect(report.diagnostics.items.filter { $0.location.path == path }.map(\.message) == [Self.dead])
        let others = report.diagnostics.items.filter { $0.location.path != path }.map(\.description)

        // Another link to the same nothing and a Liquid output: two more warnings, patched.
        try PatchBuildTests.append(site, path, "\nAgain [nothing](/nowhere/page/), and {{ page.x }}.\n")
        report = PatchBuildTests.buildAndCompare(site, "more warnings")
        #expect(report.patched)
        let mine = report.diagnostics.items.filter { $0.location.path == path }
        #expect(mine.map(\.location.line) == [7, 9, 9])
        #expect(mine.filter { $0.message == Self.dead }.map(\.location.line) == [7, 9])
        #expect(mine.allSatisfy { $0.severity == .warning })
        // Every other diagnostic stays as it was.
        #expect(report.diagnostics.items.filter { $0.location.path != path }.map(\.description) == others)

        // The Liquid output removed: one warning fewer, patched.
        try Self.entry("\nSee [nothing](/nowhere/page/).\n\nAgain [nothing](/nowhere/page/).\n").write(
            toFile: site + "/" + path, atomically: true, encoding: .utf8)
        report = PatchBuildTests.buildAndCompare(site, "fewer warnings")
        #expect(report.patched)
        #expect(report.diagnostics.items.filter { $0.location.path == path }.map(\.location.line) == [7, 9])

        // Dropping the dead links: another item's spelling of them could come first now (the
        // usual path decides).
        try Self.entry("\nNo links.\n").write(toFile: site + "/" + path, atomically: true, encoding: .utf8)
        report = PatchBuildTests.buildAndCompare(site, "dead links dropped")
        #expect(!report.patched)
        #expect(report.diagnostics.items.filter { $0.location.path == path }.isEmpty)
    }
}
