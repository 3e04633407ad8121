import Foundation
import Testing

@testable import FeedgenBuild
import FeedgenDiagnostics

/// Problems with a section's own pages: a page whose path an item's page also has is an error at
/// both, naming the other (never one file over the other); `pageLayout` on a section that has no
/// own pages is a warning saying how to give it some.
@Suite struct OwnPageDiagnosticsTests {
    /// A home feed with `posts`: five items, `paginate: 2`, and `files` besides.
    static func site(_ files: [String: String], section: String = "---\ntitle: Posts\npaginate: 2\n---\n") -> String {
        let root = temporaryFolder("feedgen-own") + "/site"
        var all = ["content/_feed.md": "---\nsections: [posts]\n---\n", "content/posts/_section.md": section]
        for i in 1...5 { all["content/posts/p\(i).md"] = "---\ntitle: P\(i)\nweight: \(i)\n---\nBody.\n" }
        for (path, text) in files { all[path] = text }
        writeSite(root, all)
        return root
    }

    @Test func anItemOnAnOwnPagesPathIsAnErrorAtBoth() throws {
        let root = Self.site([
            "content/posts/index.md": "---\ntitle: Index\nweight: 9\n---\nBody.\n",
            "content/posts/paged.md": "---\ntitle: Paged\nid: posts/page/2/index\nweight: 10\n---\nBody.\n",
        ])
        let out = root + "/../public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 1)
        #expect(report.diagnostics.items.map(\.description).sorted() == [
            "content/posts/_section.md:3:11: error: page 2 of the section 'posts' would be the output file 'posts/page/2/index.html', which content/posts/paged.md:1:1 writes too; rename that file (or its 'id') or the section's folder",
            "content/posts/_section.md:3:11: error: the page of the section 'posts' would be the output file 'posts/index.html', which content/posts/index.md:1:1 writes too; rename that file (or its 'id') or the section's folder",
            "content/posts/index.md:1:1: error: this would write the output file 'posts/index.html', which is the page of the section 'posts' (content/posts/_section.md:3:11); rename this file (or give it another 'id') or the section's folder",
            "content/posts/paged.md:1:1: error: this would write the output file 'posts/page/2/index.html', which is page 2 of the section 'posts' (content/posts/_section.md:3:11); rename this file (or give it another 'id') or the section's folder",
        ])
        // Nothing is written: neither page replaces the other.
        #expect(!FileManager.default.fileExists(atPath: out + "/posts/index.html"))
    }

    /// A section paginated by default (no key to point at) is reported at its `_section.md`.
    @Test func aSectionPaginatedByDefaultIsReportedAtItsFile() throws {
        let root = Self.site(
            ["feedgen.yaml": "paginate: 2\n", "content/posts/index.md": "---\ntitle: Index\nweight: 9\n---\nBody.\n"],
            section: "---\ntitle: Posts\n---\n")
        let report = build(root, output: root + "/../public")
        #expect(report.exitStatus == 1)
        #expect(report.diagnostics.items.map(\.description).sorted().first
            == "content/posts/_section.md:1:1: error: the page of the section 'posts' would be the output file 'posts/index.html', which content/posts/index.md:1:1 writes too; rename that file (or its 'id') or the section's folder")
    }

    @Test func pageLayoutWithoutOwnPagesSaysWhatToDo() throws {
        let short = build(Self.site([:], section: "---\ntitle: Posts\npageLayout: grid\n---\n"), output: temporaryFolder() + "/public")
        #expect(short.exitStatus == 0)
        #expect(short.diagnostics.items.filter { $0.severity != .note }.map(\.description) == [
            "content/posts/_section.md:3:13: warning: 'pageLayout' is ignored: this section has no own pages (its 5 items fit on its feed page, which shows up to 100); add 'seeAll: true' or 'paginate: N' to give it some, or remove 'pageLayout'"
        ])
        let limited = build(
            Self.site([:], section: "---\ntitle: Posts\nlimit: 2\npageLayout: grid\n---\n"), output: temporaryFolder() + "/public")
        #expect(limited.diagnostics.items.filter { $0.severity != .note }.map(\.description) == [
            "content/posts/_section.md:4:13: warning: 'pageLayout' is ignored: this section has no own pages (its 'limit' cuts it short, and without 'seeAll' nothing links to the rest); add 'seeAll: true' or 'paginate: N' to give it some, or remove 'pageLayout'"
        ])
        // A long section paginated by default uses it: no warning.
        let long = build(
            Self.site(["feedgen.yaml": "paginate: 2\n"], section: "---\ntitle: Posts\npageLayout: grid\n---\n"),
            output: temporaryFolder() + "/public")
        #expect(long.exitStatus == 0)
        #expect(long.diagnostics.items.filter { $0.severity != .note }.isEmpty, "\(long.diagnostics.items)")
    }
}
