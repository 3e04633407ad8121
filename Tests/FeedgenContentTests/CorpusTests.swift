import FeedgenDiagnostics
import Foundation
import Testing

@testable import FeedgenContent

/// Loads the real Hugo documentation (`../shared/corpus/hugodocs/en`, about 900 Markdown files
/// with YAML front matter) as one section `docs` of a temporary site.
@Suite struct CorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/corpus/hugodocs").standardized.path

    /// `.md` files below `folder` with no `.`/`_`-prefixed path component: the items expected.
    static func expectedItems(in folder: String) -> [String] {
        var result: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let path = enumerator?.nextObject() as? String {
            let parts = path.split(separator: "/")
            if path.hasSuffix(".md"), !parts.contains(where: { $0.hasPrefix("_") || $0.hasPrefix(".") }) {
                result.append("docs/" + path.dropLast(3))
            }
        }
        return result.sorted()
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: corpus + "/en"), "../shared/corpus/hugodocs not found"))
    func hugoDocsAsOneSection() throws {
        let english = Self.corpus + "/en"
        let site = try TestSite([:])
        // A copy: symbolic links that leave the site folder are refused (containment).
        try FileManager.default.createDirectory(atPath: site.root + "/content", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: english, toPath: site.root + "/content/docs")
        let expected = Self.expectedItems(in: english)

        let clock = ContinuousClock()
        let start = clock.now
        let (loaded, diagnostics) = SiteLoader.load(
            siteRoot: site.root,
            options: LoadOptions(drafts: true, future: true, expired: true, now: ContentDate.parse("2026-11-29")!))
        let elapsed = clock.now - start

        let errors = diagnostics.items.filter { $0.severity == .error }.map(\.description)
        #expect(errors == [])
        let s = try #require(loaded)
        #expect(s.feeds.count == 1)
        #expect(s.feeds[0].sections.map(\.id) == ["docs"])
        let items = s.feeds[0].sections[0].items
        #expect(items.map(\.id).sorted() == expected)
        #expect(items.count > 800)
        // Every item has a title; most have a description from front matter or the first paragraph.
        #expect(items.allSatisfy { !$0.title.isEmpty })
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        print(
            "hugodocs: \(items.count) items, \(diagnostics.warningCount) warnings, loaded in \(Int(milliseconds.rounded())) ms"
        )
        for warning in diagnostics.items where warning.severity == .warning { print("  \(warning)") }
    }
}
