@testable import FeedgenResolve
import Foundation
import Testing

@testable import FeedgenBuild

/// Bad input gets `path:line:column: error: …`, exit status 1, and the previous output untouched.
@Suite struct DiagnosticsTests {
    func site(layout: String) -> String {
        let root = temporaryFolder()
        writeSite(root, [
            "content/cards/_section.md": "---\ntitle: Cards\nlayout:\n\(layout)\n---\n",
            "content/cards/a.md": "---\ntitle: A\n---\nBody.\n",
        ])
        return root
    }

    func messages(_ report: BuildReport) -> [String] {
        report.diagnostics.sorted.filter { $0.severity != .note }.map(\.description)
    }

    @Test func countMustBePositive() {
        let report = build(site(layout: "  group:\n    count: 0"), output: temporaryFolder() + "/out")
        #expect(report.exitStatus == 1)
        #expect(messages(report) == ["content/cards/_section.md:5:12: error: 'count' must be at least 1, found 0"])
    }

    @Test func malformedDimension() {
        let report = build(site(layout: "  item:\n    width: fractionalWidth(abc)\n    height: estimate(10)"), output: temporaryFolder() + "/out")
        #expect(report.exitStatus == 1)
        #expect(messages(report) == [
            "content/cards/_section.md:5:12: error: malformed dimension 'fractionalWidth(abc)': the value must be a non-negative number",
            "content/cards/_section.md:6:13: error: malformed dimension 'estimate(10)'; expected fractionalWidth(f), fractionalHeight(f), absolute(v), estimated(v) or uniformAcrossSiblings(v) (did you mean 'estimated'?)",
        ])
    }

    @Test func fractionalInsetsAreRejected() {
        let report = build(site(layout: "  contentInsets: 0.5"), output: temporaryFolder() + "/out")
        #expect(messages(report) == [
            "content/cards/_section.md:4:18: error: inset '0.5' is between 0 and 1, which UIKit reads as a fraction of the container; use 0 or a value of at least 1 px"
        ])
    }

    @Test func unknownLayoutKeySuggestsTheRightOne() {
        let report = build(site(layout: "  interGroupSpaceing: 8"), output: temporaryFolder() + "/out")
        #expect(messages(report) == [
            "content/cards/_section.md:4:3: error: unknown key 'interGroupSpaceing' in layout (did you mean 'interGroupSpacing'?)"
        ])
    }

    @Test func unknownPreset() {
        let root = temporaryFolder()
        writeSite(root, ["content/cards/_section.md": "---\nlayout: carousell\n---\n", "content/cards/a.md": "# A\n"])
        let report = build(root, output: temporaryFolder() + "/out")
        #expect(messages(report) == [
            "content/cards/_section.md:2:9: error: unknown layout preset 'carousell'; expected one of: list, carousel, grid, chips, hero, insetGrouped, or a layout mapping (did you mean 'carousel'?)"
        ])
    }

    @Test func itemsThatCannotFitTheirGroup() {
        let report = build(
            site(layout: "  group:\n    width: absolute(100)\n    height: absolute(50)\n    subitems:\n      - item: {width: absolute(120), height: absolute(50)}"),
            output: temporaryFolder() + "/out")
        #expect(messages(report) == ["content/cards/_section.md:4:3: error: an item width of 120 px cannot fit its group's 100 px content box"])
    }

    @Test func failedBuildLeavesPreviousOutputUntouched() {
        let root = temporaryFolder()
        writeSite(root, ["content/cards/_section.md": "---\nlayout: list\n---\n", "content/cards/a.md": "---\ntitle: A\n---\nBody.\n"])
        let out = temporaryFolder() + "/public"
        #expect(build(root, output: out).exitStatus == 0)
        let before = snapshot(out)
        writeSite(root, ["content/cards/_section.md": "---\nlayout: lisst\n---\n"])
        let report = build(root, output: out)
        #expect(report.exitStatus == 1)
        #expect(snapshot(out) == before)
    }

    @Test func refusesToReplaceAForeignFolder() {
        let root = temporaryFolder()
        writeSite(root, ["content/cards/a.md": "# A\n"])
        let out = temporaryFolder()
        writeSite(out, ["precious.txt": "keep me"])
        let report = build(root, output: out)
        #expect(report.exitStatus == 2)
        #expect(report.diagnostics.items.first?.message.contains("is not empty and was not written by feedgen") == true)
        #expect(snapshot(out)["precious.txt"] == Data("keep me".utf8))
    }

    @Test func refusesTheSiteFolderAsOutput() {
        let root = temporaryFolder()
        writeSite(root, ["content/cards/a.md": "# A\n"])
        let report = build(root, output: root)
        #expect(report.exitStatus == 2)
        #expect(FileManager.default.fileExists(atPath: root + "/content/cards/a.md"))
    }

    @Test func missingContentFolderIsAConfigurationError() {
        let report = build(temporaryFolder(), output: temporaryFolder() + "/out")
        #expect(report.exitStatus == 2)
    }

}

/// Containment: nothing is read from outside the site folder.
@Suite struct ContainmentTests {
    @Test func symlinkLeavingTheSiteIsSkippedWithAWarning() throws {
        let outside = temporaryFolder()
        writeSite(outside, ["secret.md": "---\ntitle: Secret\n---\nNot for the site.\n"])
        let root = temporaryFolder()
        writeSite(root, ["content/news/a.md": "---\ntitle: A\n---\nA.\n"])
        try FileManager.default.createSymbolicLink(atPath: root + "/content/news/leak.md", withDestinationPath: outside + "/secret.md")
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0)
        #expect(report.cards == 1)
        let warnings = report.diagnostics.items.filter { $0.severity == .warning }.map(\.description)
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("content/news/leak.md: warning: symbolic link skipped: it leads outside the site folder") == true)
    }

    @Test func imagePathsCannotLeaveTheSite() {
        let root = temporaryFolder()
        writeSite(root, ["content/news/a.md": "---\ntitle: A\nimage: ../../../../etc/hostname\n---\n"])
        let report = build(root, output: temporaryFolder() + "/public")
        #expect(report.exitStatus == 1)
        #expect(report.diagnostics.sorted.filter { $0.severity == .error }.map(\.description) == [
            "content/news/a.md:3:8: error: image path '../../../../etc/hostname' leads outside the site folder; put the image beside the item or in static/"
        ])
    }
}

/// Two inputs that would write one output file are an error naming both.
@Suite struct CollisionTests {
    @Test func caseOnlyDifferenceIsAnError() {
        let root = temporaryFolder()
        writeSite(root, [
            "content/news/Cafe.md": "---\ntitle: One\n---\nBody.\n",
            "content/news/cafe.md": "---\ntitle: Two\n---\nBody.\n",
        ])
        let report = build(root, output: temporaryFolder() + "/public")
        #expect(report.exitStatus == 1)
        #expect(report.diagnostics.sorted.map(\.description) == [
            "content/news/cafe.md:1:1: error: this would write the output file 'news/cafe.html' and 'news/Cafe.html' (they differ only in case or Unicode normalisation), which content/news/Cafe.md:1:1 writes too; rename one of them"
        ])
    }

    /// File names that differ only in Unicode normalisation (`café` in NFC and in NFD) are two
    /// files on Linux but one on macOS: the error names both. (Swift's `==` calls them equal, so
    /// the message showed one name; found in review.)
    @Test func normalisationOnlyDifferenceNamesBothFiles() {
        let root = temporaryFolder()
        let nfc = "caf\u{E9}", nfd = "cafe\u{301}"
        // Two calls: a dictionary literal would call the two names one duplicate key.
        writeSite(root, ["content/news/\(nfc).md": "---\ntitle: One\n---\nBody.\n"])
        writeSite(root, ["content/news/\(nfd).md": "---\ntitle: Two\n---\nBody.\n"])
        let report = build(root, output: temporaryFolder() + "/public")
        #expect(report.exitStatus == 1)
        let messages = report.diagnostics.sorted.map(\.description)
        #expect(messages.count == 1)
        let message = messages.first ?? ""
        #expect(message.utf8.elementsEqual("content/news/\(nfd).md:1:1: error: this would write the output file 'news/\(nfd).html' and 'news/\(nfc).html' (they differ only in case or Unicode normalisation), which content/news/\(nfc).md:1:1 writes too; rename one of them".utf8), "\(message)")
    }

    /// A section of 1,024 items or more makes its detail paths on every core
    /// (``OutputCollisions``): the same error, and items without a page claim nothing.
    @Test func caseOnlyDifferenceInALongSectionIsAnError() {
        let root = temporaryFolder()
        var files = [
            "content/news/Cafe.md": "---\ntitle: One\nweight: 1\n---\nBody.\n",
            "content/news/cafe.md": "---\ntitle: Two\nweight: 2\n---\nBody.\n",
            "content/news/no-page.md": "---\ntitle: Title only\nweight: 3\n---\n",
            "content/news/NO-PAGE.md": "---\ntitle: Title only too\nweight: 4\n---\n",
        ]
        for i in 0..<1_030 { files["content/news/item-\(i).md"] = "---\ntitle: Item \(i)\nweight: \(i + 5)\n---\nBody.\n" }
        writeSite(root, files)
        let report = build(root, output: temporaryFolder() + "/public")
        #expect(report.exitStatus == 1)
        #expect(report.diagnostics.sorted.map(\.description) == [
            "content/news/cafe.md:1:1: error: this would write the output file 'news/cafe.html' and 'news/Cafe.html' (they differ only in case or Unicode normalisation), which content/news/Cafe.md:1:1 writes too; rename one of them"
        ])
    }

    @Test func staticFileCollidingWithAPageIsAnError() {
        let root = temporaryFolder()
        writeSite(root, [
            "content/news/a.md": "---\ntitle: A\n---\nBody.\n",
            "static/news/a.html": "<p>static</p>",
        ])
        let report = build(root, output: temporaryFolder() + "/public")
        #expect(report.exitStatus == 1)
        #expect(report.diagnostics.sorted.map(\.description) == [
            "static/news/a.html: error: this would write the output file 'news/a.html', which content/news/a.md:1:1 writes too; rename one of them"
        ])
    }
}

/// Resource bounds (docs/limits.md).
@Suite struct LimitTests {
    @Test func oversizedFileIsAnError() throws {
        let root = temporaryFolder()
        writeSite(root, ["content/news/ok.md": "---\ntitle: OK\n---\n"])
        let big = String(repeating: "a", count: (16 << 20) + 1)
        try Data(big.utf8).write(to: URL(fileURLWithPath: root + "/content/news/big.md"))
        let report = build(root, output: temporaryFolder() + "/public")
        #expect(report.exitStatus == 1)
        #expect(report.diagnostics.sorted.map(\.description) == [
            "content/news/big.md: error: cannot read the file: the file is 16777217 bytes, over the limit of 16 MiB"
        ])
    }
}

@Suite struct OutputRefusalTests {
    @Test(arguments: ["/", "HOME", "SITE/content", "SITE/content/news", "SITE/static", "SITE/.."])
    func refusesDangerousOutputFolders(_ output: String) {
        let root = temporaryFolder()
        writeSite(root, ["content/news/a.md": "---\ntitle: A\n---\nA.\n"])
        let path = output.replacingOccurrences(of: "SITE", with: root)
            .replacingOccurrences(of: "HOME", with: FileManager.default.homeDirectoryForCurrentUser.path)
        let report = build(root, output: path)
        #expect(report.exitStatus == 2)
        #expect(report.diagnostics.items.first?.message.hasPrefix("refusing to write the site into") == true)
        #expect(FileManager.default.fileExists(atPath: root + "/content/news/a.md"))
        // Nothing is created for it either: no build cache beside the refused folder (`/` and
        // the home folder are left out: an older build may have left one there).
        if output.hasPrefix("SITE") { #expect(!FileManager.default.fileExists(atPath: BuildCache.folder(forOutput: path))) }
        if output == "SITE/.." {
            // Not "the site or one of its source folders": the folder holds the site.
            #expect(report.diagnostics.items.first?.message.hasSuffix("': it is a folder holding the site; choose another --output folder") == true)
        }
    }
}

/// The output folder cannot be made.
@Suite struct DiagnosticPathTests {
    @Test func unwritableOutputExitsWithTwo() throws {
        let root = temporaryFolder()
        writeSite(root, ["content/s/a.md": "---\ntitle: A\n---\n", "blocker": "a file where a folder must be"])
        let report = build(root, output: root + "/blocker/public")
        #expect(report.exitStatus == 2)
        #expect(report.diagnostics.sorted.first?.message.hasPrefix("cannot write the output folder: ") == true)
    }
}
