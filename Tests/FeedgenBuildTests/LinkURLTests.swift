import Foundation
import Testing

@testable import FeedgenBuild

/// Front-matter links that are already URLs, links that leave the output root, and file names in
/// either Unicode normalization (issue #22 §3 and §6; content-format §5).
@Suite struct LinkURLTests {
    @Test func aLinkThatIsAlreadyAURLIsKeptAsWrittenInPagesAndFeeds() throws {
        let root = temporaryFolder()
        writeSite(root, [
            "feedgen.yaml": "title: T\nbaseURL: https://example.org/blog/\n",
            "content/today/a.md": "---\ntitle: A\nlink: \"files/my%20report.html\"\n---\n",
            "content/today/b.md": "---\ntitle: B\nlink: \"search.html?q=soup#top\"\n---\n",
            "static/files/my report.html": "<p>report</p>\n",
        ])
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        let home = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(home.contains(#"<h3 class="card-title"><a href="files/my%20report.html">A</a></h3>"#))
        #expect(home.contains(#"<h3 class="card-title"><a href="search.html?q=soup#top">B</a></h3>"#))
        let atom = try String(contentsOfFile: out + "/feed.xml", encoding: .utf8)
        #expect(atom.contains(#"<link rel="alternate" type="text/html" href="https://example.org/blog/files/my%20report.html"/>"#))
        #expect(atom.contains(#"<link rel="alternate" type="text/html" href="https://example.org/blog/search.html?q=soup#top"/>"#))
        let json = try String(contentsOfFile: out + "/feed.json", encoding: .utf8)
        #expect(json.contains(#""url" : "https://example.org/blog/files/my%20report.html""#))
        #expect(json.contains(#""url" : "https://example.org/blog/search.html?q=soup#top""#))
    }

    /// `%2F` is a slash once decoded: never a second `/` after `baseURL` (found by FuzzLinks).
    @Test func anEncodedLeadingSlashIsTheOutputRoot() throws {
        let root = temporaryFolder()
        writeSite(root, [
            "feedgen.yaml": "title: T\nbaseURL: https://example.org/blog/\n",
            "content/today/a.md": "---\ntitle: A\nlink: \"%2F%2Fhost/x.html\"\n---\n",
        ])
        let out = temporaryFolder() + "/public"
        #expect(build(root, output: out).exitStatus == 0)
        let home = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(home.contains(#"<a href="host/x.html">A</a>"#))
        let atom = try String(contentsOfFile: out + "/feed.xml", encoding: .utf8)
        #expect(atom.contains(#"href="https://example.org/blog/host/x.html"/>"#))
    }

    @Test func aLinkFromADeeperPageKeepsItsQuery() throws {
        let root = temporaryFolder()
        writeSite(root, [
            "content/recipes/_feed.md": "---\ntitle: Recipes\n---\n",
            "content/recipes/mains/a.md": "---\ntitle: A\nlink: \"/search.html?q=miso%20soup\"\n---\n",
        ])
        let out = temporaryFolder() + "/public"
        #expect(build(root, output: out).exitStatus == 0)
        let page = try String(contentsOfFile: out + "/recipes/index.html", encoding: .utf8)
        #expect(page.contains(#"<a href="../search.html?q=miso%20soup">A</a>"#))
    }

    @Test func aLinkAboveTheOutputRootIsAnErrorAtItsValue() {
        let root = temporaryFolder()
        writeSite(root, [
            "content/today/a.md": "---\ntitle: A\nlink: ../x.html\n---\n",
            "content/today/_section.md": "---\nitems:\n  - {title: I, link: \"/a/../../y.html?z\"}\n---\n",
        ])
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 1)
        #expect(report.diagnostics.sorted.map(\.description) == [
            "content/today/_section.md:3:22: error: 'link' '/a/../../y.html?z' leads outside the output folder; link to a file of the site or write a full URL (https://…)",
            "content/today/a.md:3:7: error: 'link' '../x.html' leads outside the output folder; link to a file of the site or write a full URL (https://…)",
        ])
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}

/// Names compared in NFC: `café` written with U+00E9 (NFC) or with e + U+0301 (NFD, as macOS
/// writes file names) names the same file (issue #22 §6).
@Suite struct UnicodeFileNameTests {
    static let nfc = "caf\u{E9}"
    static let nfd = "cafe\u{301}"
    static let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"></svg>"#

    /// Writes `text` at `root/path` with `path`'s bytes as they are (no normalization).
    static func write(_ root: String, _ path: String, _ text: String) {
        let full = root + "/" + path
        try! FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: full, contents: Data(text.utf8)))
    }

    @Test(arguments: [(disk: nfd, frontMatter: nfc), (disk: nfc, frontMatter: nfd)])
    func anImageAndALinkAreFoundInTheOtherNormalization(disk: String, frontMatter: String) throws {
        let root = temporaryFolder()
        Self.write(root, "content/today/\(disk).svg", Self.svg)
        Self.write(root, "static/pics/\(disk)-2.svg", Self.svg)
        Self.write(root, "content/today/\(disk).md", "---\ntitle: C\n---\nBody.\n")
        Self.write(root, "content/today/a.md", "---\ntitle: A\nimage: {src: \(frontMatter).svg, alt: x}\n---\nSee [C](\(frontMatter).md).\n")
        Self.write(root, "content/today/b.md", "---\ntitle: B\nimage: {src: /pics/\(frontMatter)-2.svg, alt: y}\n---\n")
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        #expect(report.diagnostics.warningCount == 0, "\(report.diagnostics.items)")
        // The output file keeps the front matter's spelling; the page links to it.
        let encoded = frontMatter.unicodeScalars.count == 4 ? "caf%C3%A9" : "cafe%CC%81"
        let home = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(home.contains(#"src="assets/today/\#(encoded).svg""#))
        #expect(home.contains(#"src="pics/\#(encoded)-2.svg""#))
        #expect(FileManager.default.contents(atPath: out + "/assets/today/\(frontMatter).svg") == Data(Self.svg.utf8))
        let page = try String(contentsOfFile: out + "/today/a.html", encoding: .utf8)
        let diskEncoded = disk.unicodeScalars.count == 4 ? "caf%C3%A9" : "cafe%CC%81"
        #expect(page.contains(#"<a href="\#(diskEncoded).html">C</a>"#))
    }
}

/// Links in `_feed.md` intros and `_section.md` text are checked and rewritten like body links;
/// a missing target is a warning there (an error with `--strict`).
@Suite struct IntroLinkTests {
    static let site = [
        "feedgen.yaml": "title: T\nbaseURL: https://example.org/blog/\n",
        "content/_feed.md": "---\ntitle: Home\n---\nRead [A](posts/notes/a.md#x) or [gone](posts/notes/gone.md).\n",
        "content/posts/_feed.md": "---\ntitle: Posts\n---\n",
        // `#x` is the id of A's heading `X` (an anchor that no page has is a warning too).
        "content/posts/notes/a.md": "---\ntitle: A\n---\nBody A.\n\n## X\n",
        "content/today/_section.md": "---\ntitle: Today\n---\nSee [A](../posts/notes/a.md) and\n[none](nope.md).\n",
        "content/today/t.md": "---\ntitle: T\n---\n",
    ]
    static let warnings = [
        "content/_feed.md:4:33: warning: link 'posts/notes/gone.md' leads to content/posts/notes/gone.md, which is not a page of this site (missing, a draft, or not yet published); fix the path or remove the link",
        "content/today/_section.md:5:1: warning: link 'nope.md' leads to content/today/nope.md, which is not a page of this site (missing, a draft, or not yet published); fix the path or remove the link",
    ]

    @Test func introAndSectionLinksLeadToPages() throws {
        let root = temporaryFolder()
        writeSite(root, Self.site)
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0)
        #expect(report.diagnostics.sorted.filter { $0.severity == .warning }.map(\.description) == Self.warnings)
        let home = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(home.contains(##"<div class="page-intro"><p>Read <a href="posts/notes/a.html#x">A</a> or <a href="#">gone</a>.</p>"##))
        #expect(home.contains(#"<p>See <a href="posts/notes/a.html">A</a> and"#))
        #expect(home.contains(##"<a href="#">none</a>"##))
        for file in ["index.html", "feed.xml", "feed.json"] {
            #expect(try !String(contentsOfFile: out + "/" + file, encoding: .utf8).contains("feedgen-md:"))
        }
    }

    @Test func aMissingIntroLinkTargetIsAnErrorWithStrict() {
        let root = temporaryFolder()
        writeSite(root, Self.site)
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out, strict: true)
        #expect(report.exitStatus == 1)
        #expect(report.diagnostics.sorted.filter { $0.severity == .warning }.map(\.description) == Self.warnings)
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}

/// A body link to a folder (`../posts/`) leads to its `index.html` when the folder is a feed;
/// feeds carry every content link as an absolute URL, never the `feedgen-md:` marker.
@Suite struct FolderLinkTests {
    @Test func aFolderLinkLeadsToItsFeedPageInPagesAndFeeds() throws {
        let root = temporaryFolder()
        writeSite(root, [
            "feedgen.yaml": "title: T\nbaseURL: https://example.org/blog/\n",
            "content/posts/_feed.md": "---\ntitle: Posts\n---\n",
            "content/posts/notes/a.md": "---\ntitle: A\n---\nBody A.\n",
            "content/today/t.md":
                "---\ntitle: T\n---\nGo [home](../), [posts](../posts/#top), [nowhere](../posts/notes/), [A](../posts/notes/a.md) and [ext](https://x.org/a/).\n",
        ])
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0)
        #expect(report.diagnostics.sorted.filter { $0.severity == .warning }.map(\.description) == [
            "content/today/t.md:4:41: warning: link '../posts/notes/' leads to the folder content/posts/notes, which has no page (only a folder with _feed.md has an index.html); fix the path or remove the link"
        ])
        let page = try String(contentsOfFile: out + "/today/t.html", encoding: .utf8)
        #expect(page.contains(##"<p>Go <a href="../index.html">home</a>, <a href="../posts/index.html#top">posts</a>, <a href="#">nowhere</a>, <a href="../posts/notes/a.html">A</a> and <a href="https://x.org/a/">ext</a>.</p>"##))
        let atom = try String(contentsOfFile: out + "/feed.xml", encoding: .utf8)
        #expect(atom.contains(##"Go &lt;a href=&quot;https://example.org/blog/&quot;&gt;home&lt;/a&gt;, &lt;a href=&quot;https://example.org/blog/posts/#top&quot;&gt;posts&lt;/a&gt;, &lt;a href=&quot;#&quot;&gt;nowhere&lt;/a&gt;, &lt;a href=&quot;https://example.org/blog/posts/notes/a.html&quot;&gt;A&lt;/a&gt;"##))
        let json = try String(contentsOfFile: out + "/feed.json", encoding: .utf8)
        #expect(json.contains(##"Go <a href=\"https://example.org/blog/\">home</a>, <a href=\"https://example.org/blog/posts/#top\">posts</a>, <a href=\"#\">nowhere</a>, <a href=\"https://example.org/blog/posts/notes/a.html\">A</a>"##))
        for file in ["today/t.html", "feed.xml", "feed.json", "posts/feed.xml"] {
            #expect(try !String(contentsOfFile: out + "/" + file, encoding: .utf8).contains("feedgen-md:"))
        }
    }

    @Test func aFolderLinkToNoPageIsAnErrorWithStrict() {
        let root = temporaryFolder()
        writeSite(root, ["content/today/t.md": "---\ntitle: T\n---\nSee\n[there](../there/#x).\n"])
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out, strict: true)
        #expect(report.exitStatus == 1)
        #expect(report.diagnostics.sorted.filter { $0.severity == .warning }.map(\.description) == [
            "content/today/t.md:5:1: warning: link '../there/#x' leads to the folder content/there, which has no page (only a folder with _feed.md has an index.html); fix the path or remove the link"
        ])
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
