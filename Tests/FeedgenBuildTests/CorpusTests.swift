import Foundation
import Testing

@testable import FeedgenBuild

/// Real input written by others: Hugo's documentation (~990 Markdown files with YAML front
/// matter) as one section. Unknown front-matter keys become params; `_index.md` files are
/// ignored by the underscore rule.
@Suite struct CorpusTests {
    @Test(
        .enabled(if: sharedFolder != nil, "../shared/corpus/hugodocs not found (the Hugo docs corpus lives beside the repository)")
    )
    func hugoDocsBuildAsOneSection() throws {
        let corpus = try #require(sharedFolder) + "/corpus/hugodocs"
        let root = temporaryFolder("feedgen-corpus")
        try FileManager.default.createDirectory(atPath: root + "/content", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: corpus + "/en", toPath: root + "/content/docs")
        writeSite(root, ["content/docs/_section.md": "---\ntitle: Hugo documentation\nlayout: list\n---\n"])
        var expected = 0
        for case let path as String in FileManager.default.enumerator(atPath: root + "/content/docs")! {
            let name = (path as NSString).lastPathComponent
            if path.hasSuffix(".md"), !path.split(separator: "/").contains(where: { $0.hasPrefix("_") || $0.hasPrefix(".") }), name != "_section.md" {
                expected += 1
            }
        }
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        let errors = report.diagnostics.items.filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(errors.prefix(5))")
        #expect(report.exitStatus == 0)
        // Nothing is dropped silently: every document is a card or a note saying why it was skipped
        // (two of Hugo's pages carry an expiryDate in the past).
        let skipped = report.diagnostics.items.filter { $0.severity == .note && $0.message.hasPrefix("skipped") }
        #expect(report.cards + skipped.count == expected)
        #expect(skipped.count == 2)
        print("hugodocs: \(report.cards) cards, \(report.pages) pages, \(report.diagnostics.warningCount) warnings, built in \(String(format: "%.2f", report.seconds)) s (debug build)")
    }
}
