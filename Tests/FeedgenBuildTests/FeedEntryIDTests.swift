import Foundation
import Testing

@testable import FeedgenBuild
import FeedgenDiagnostics

/// Atom and JSON Feed entry ids are unique even when items link to the same page.
@Suite struct FeedEntryIDTests {
    /// A control byte in a body made feed.xml not well-formed (XML 1.0 forbids C0 controls
    /// other than tab, LF and CR), with exit 0. (From a YAML escape it is now an error.)
    @Test func controlCharactersKeepTheAtomFeedWellFormed() throws {
        let root = temporaryFolder()
        writeSite(root, [
            "feedgen.yaml": "title: T\nbaseURL: https://example.org/\n",
            "content/s/a.md": "---\ntitle: A\n---\nBody \u{01} and \u{0C} end.\n",
        ])
        let out = temporaryFolder() + "/public"
        #expect(build(root, output: out).exitStatus == 0)
        let atom = try String(contentsOfFile: out + "/feed.xml", encoding: .utf8)
        #expect(!atom.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" && $0 != "\r" })
        #expect(atom.contains("Body \u{FFFD} and \u{FFFD} end."))
        let bad = temporaryFolder()
        writeSite(bad, ["content/s/a.md": "---\ntitle: \"bad\\x01title\"\n---\n"])
        #expect(build(bad, output: temporaryFolder() + "/public").diagnostics.sorted.map(\.description) == [
            "content/s/a.md:2:8: error: YAML: this string has the control character U+0001 (from an escape); remove it"
        ])
    }

    @Test func itemsSharingALinkGetDistinctIDs() throws {
        let root = temporaryFolder()
        writeSite(root, [
            "feedgen.yaml": "title: T\nbaseURL: https://example.org/\n",
            "content/s/a.md": "---\ntitle: A\n---\nBody.\n",
            "content/s/b.md": "---\ntitle: B\nlink: a.md\n---\n",
            "content/s/c.md": "---\ntitle: C\nlink: a.md\n---\n",
        ])
        let out = temporaryFolder() + "/public"
        #expect(build(root, output: out).exitStatus == 0)
        let atom = try String(contentsOfFile: out + "/feed.xml", encoding: .utf8)
        let ids = atom.components(separatedBy: "\n").filter { $0.hasPrefix("    <id>") }
        #expect(ids == [
            "    <id>https://example.org/s/a.html</id>",
            "    <id>https://example.org/#s/b</id>",
            "    <id>https://example.org/#s/c</id>",
        ])
        #expect(atom.components(separatedBy: "href=\"https://example.org/s/a.html\"").count - 1 == 3)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/feed.json"))) as? [String: Any]
        let items = json?["items"] as? [[String: Any]] ?? []
        #expect(items.map { $0["id"] as? String } == ["https://example.org/s/a.html", "https://example.org/#s/b", "https://example.org/#s/c"])
        #expect(items.map { $0["url"] as? String } == Array(repeating: "https://example.org/s/a.html", count: 3))
    }
}
