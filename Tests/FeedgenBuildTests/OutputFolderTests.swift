import Foundation
import Testing

@testable import FeedgenBuild

/// The output folder and the build cache after builds that fail: a failed build leaves no
/// temporary file anywhere (issue #22, item 5).
@Suite struct OutputFolderTests {
    /// An item whose output name is longer than the file system allows (a 252-byte stem, so a
    /// 257-byte `.html`) fails the first build; the cache folder then holds no `*.tmp-<pid>`.
    @Test func failedFirstBuildLeavesNoTemporaryFile() throws {
        let root = temporaryFolder("long-name")
        let stem = String(repeating: "a", count: 252)
        writeSite(root, [
            "content/posts/\(stem).md": "---\ntitle: Long\n---\nBody\n",
            "content/posts/ok.md": "---\ntitle: Ok\n---\nBody\n",
        ])
        let report = build(root)
        #expect(report.exitStatus != 0)
        let cache = try FileManager.default.contentsOfDirectory(atPath: root + "/.public.feedgen-cache").sorted()
        #expect(cache == ["back", "dirty", "lock", "sources"])
        #expect(!FileManager.default.fileExists(atPath: root + "/public"))
    }
}
