import Foundation
import Testing

@testable import FeedgenBuild
@testable import FeedgenContent

/// Names longer than file systems allow (issue #22 item 5, content-format §5.2): a long file or
/// folder name gets a shortened page path with a hash; a long explicit `id` is an error at the
/// item that `check` reports too, never exit 2 blaming the output folder, and no temporary file
/// is left behind.
@Suite struct LongNameTests {
    @Test func aLongNameIsShortenedWithAHash() {
        let long = String(repeating: "a", count: 252)
        let short = ItemName.pathSegment(long)
        #expect(short.utf8.count == 200)
        // The example of content-format §5.2: XXH3 of the name, its lower 32 bits.
        #expect(short == String(repeating: "a", count: 191) + "-33273adf")
        // Deterministic, and two names alike up to the cut stay apart.
        #expect(ItemName.pathSegment(long) == short)
        #expect(ItemName.pathSegment(long + "b") != short)
        // Cut at a character boundary (`é` is 2 bytes), and a name within the limit is kept.
        let accents = ItemName.pathSegment(String(repeating: "é", count: 120))
        #expect(accents.utf8.count <= 200 && accents.hasPrefix(String(repeating: "é", count: 95) + "-"))
        #expect(ItemName.pathSegment(String(repeating: "b", count: 200)) == String(repeating: "b", count: 200))
    }

    @Test func aLongFileOrFolderNameBuilds() throws {
        let root = temporaryFolder()
        let name = String(repeating: "a", count: 252)  // + `.md`: 255 bytes, legal; + `.html` is not
        let folder = String(repeating: "f", count: 255)
        writeSite(root, [
            "content/s/\(name).md": "---\ntitle: Long\n---\nBody.\n",
            "content/s/\(folder)/b.md": "---\ntitle: Deep\n---\nBody.\n",
        ])
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        let pages = try FileManager.default.contentsOfDirectory(atPath: out + "/s").sorted()
        #expect(pages.count == 2)
        #expect(pages.allSatisfy { $0.utf8.count <= 205 })
        #expect(pages.contains(ItemName.pathSegment(name) + ".html"))
        #expect(pages.contains(ItemName.pathSegment(folder)))
        let checked = try CacheRobustnessTests.run(["check", root, "--quiet"])
        #expect(checked.status == 0)
    }

    /// A 250-byte image name: its resized variants (`<stem>-<hash>-<width>.webp`) were too long to
    /// write (exit 2 blaming the output folder); the stem is cut to 100 bytes.
    @Test func aLongImageNameGetsShortVariantNames() throws {
        let root = temporaryFolder()
        let image = String(repeating: "i", count: 250) + ".png"
        writeSite(root, ["content/s/a.md": "---\ntitle: A\nimage:\n  src: \(image)\n  alt: Grey\n---\nBody.\n"])
        try Data(TestPNG.make(width: 1200, height: 600)).write(to: URL(fileURLWithPath: root + "/content/s/" + image))
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        let variants = try FileManager.default.contentsOfDirectory(atPath: out + "/images")
        #expect(!variants.isEmpty)
        #expect(variants.allSatisfy { $0.hasPrefix(String(repeating: "i", count: 100) + "-") && $0.utf8.count < 130 })
    }

    /// A section folder of 250 bytes: its previews (`_previews/<name>.light.html`) were too long.
    @Test func aLongSectionNameGetsShortPreviewNames() throws {
        let root = temporaryFolder()
        let section = String(repeating: "s", count: 250)
        writeSite(root, ["content/\(section)/a.md": "---\ntitle: A\n---\nBody.\n"])
        let out = temporaryFolder() + "/public"
        let built = try CacheRobustnessTests.run(["build", root, "--output", out, "--previews", "--quiet"])
        #expect(built.status == 0, "\(built.stderr)")
        let previews = try FileManager.default.contentsOfDirectory(atPath: out + "/_previews").sorted()
        let name = ItemName.pathSegment(section)
        #expect(previews == ["index.html", "\(name).dark.html", "\(name).light.html"])
    }

    @Test func aLongExplicitIDIsAnErrorAtTheItem() throws {
        let root = temporaryFolder()
        let id = String(repeating: "c", count: 252)
        writeSite(root, ["content/s/e.md": "---\ntitle: E\nid: \(id)\n---\nBody.\n"])
        let out = temporaryFolder() + "/public"
        let expected =
            "content/s/e.md:1:1: error: this would write an output file named '\(String(repeating: "c", count: 24))…\(String(repeating: "c", count: 7)).html' (257 bytes), over the file system's limit of 255 bytes for a name; shorten the file or folder name (or the item's 'id')"
        let report = build(root, output: out)
        #expect(report.exitStatus == 1)
        #expect(report.diagnostics.sorted.filter { $0.severity == .error }.map(\.description) == [expected])
        #expect(!FileManager.default.fileExists(atPath: out))
        let checked = try CacheRobustnessTests.run(["check", root, "--quiet"])
        #expect(checked.status == 1)
        #expect(checked.stderr == expected + "\n")
        // No temporary file anywhere: not in the site (its cache folder), not beside the output.
        let left = (FileManager.default.subpaths(atPath: root) ?? []) + (FileManager.default.subpaths(atPath: (out as NSString).deletingLastPathComponent) ?? [])
        #expect(left.filter { $0.contains("tmp") } == [])
    }
}
