import Foundation
import Testing

@testable import FeedgenBuild

/// A section long enough for its cards to render in parallel keeps snapshot order and
/// byte-identical output (on one feed page: `paginate: false`).
@Suite struct LargeSectionTests {
    @Test func parallelCardsKeepOrderAndBytes() throws {
        let root = temporaryFolder()
        var files: [String: String] = ["content/many/_section.md": "---\ntitle: Many\nlayout: grid\npaginate: false\n---\n"]
        for i in 0..<700 {
            files["content/many/card-\(String(format: "%04d", i)).md"] = "---\ntitle: Card \(i)\nweight: \(700 - i)\n---\nBody \(i).\n"
        }
        writeSite(root, files)
        let a = temporaryFolder() + "/public"
        let b = temporaryFolder() + "/public"
        #expect(build(root, output: a).exitStatus == 0)
        #expect(build(root, output: b).exitStatus == 0)
        let pageA = try String(contentsOfFile: a + "/index.html", encoding: .utf8)
        let pageB = try String(contentsOfFile: b + "/index.html", encoding: .utf8)
        #expect(pageA == pageB)
        // weight 1 is card 699, so ids appear in descending file order.
        let ids = pageA.components(separatedBy: "data-item-id=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(ids.count == 700)
        #expect(ids.first == "many/card-0699")
        #expect(ids.last == "many/card-0000")
        #expect(ids == ids.sorted(by: >))
    }
}
