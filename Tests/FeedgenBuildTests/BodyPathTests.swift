import Foundation
import Testing

@testable import FeedgenBuild

/// Every path in a body goes through one resolver (issue #19 §3, issue #22 §3, content-format
/// §5.4): images copied and sized, root-relative links made relative, files beside an item
/// copied, paths that name nothing or leave the output root reported at the link.
@Suite struct BodyPathTests {
    static let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="12" height="34"/>"#

    @Test func bodyImagesAreCopiedAndSizedAndAMissingOneIsAWarningAtIt() throws {
        let root = temporaryFolder()
        writeSite(root, [
            "content/posts/a.md": "---\ntitle: A\n---\n![a pic](pic.svg) ![static](/images/s.svg)\n\n![gone](nope.png)\n",
            "content/posts/pic.svg": Self.svg,
            "static/images/s.svg": #"<svg xmlns="http://www.w3.org/2000/svg" width="56" height="78"/>"#,
        ])
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0)
        #expect(report.diagnostics.sorted.filter { $0.severity != .note }.map(\.description) == [
            "content/posts/a.md:6:1: warning: 'nope.png' names no file or page (looked for content/posts/nope.png and a page named so); fix the path or remove it"
        ])
        let page = try String(contentsOfFile: out + "/posts/a.html", encoding: .utf8)
        #expect(page.contains(#"<p><img src="../assets/posts/pic.svg" width="12" height="34" alt="a pic" /> <img src="../images/s.svg" width="56" height="78" alt="static" /></p>"#))
        // Kept as written (never `#`, which as an image's source would load the page itself).
        #expect(page.contains(#"<img src="nope.png" alt="gone" />"#))
        #expect(try String(contentsOfFile: out + "/assets/posts/pic.svg", encoding: .utf8) == Self.svg)
        #expect(build(root, output: temporaryFolder() + "/public", strict: true).exitStatus == 1)
    }

    @Test func rootRelativeLinksFilesAndFoldersLeadToTheirOutputFiles() throws {
        let root = temporaryFolder()
        writeSite(root, [
            "content/posts/a.md":
                "---\ntitle: A\n---\n[b](/posts/b/) [b2](b.html) [b3](../posts/b/) [home](/) [report](files/my%20report.pdf?x=1#p) [search](/search.html?q=soup)\n",
            "content/posts/b.md": "---\ntitle: B\n---\nB.\n",
            "content/posts/files/my report.pdf": "%PDF-1.4\n",
            "static/search.html": "<p>search</p>\n",
        ])
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        #expect(report.diagnostics.warningCount == 0)
        let page = try String(contentsOfFile: out + "/posts/a.html", encoding: .utf8)
        #expect(page.contains(
            #"<p><a href="b.html">b</a> <a href="b.html">b2</a> <a href="b.html">b3</a> <a href="../index.html">home</a> <a href="../assets/posts/files/my%20report.pdf?x=1#p">report</a> <a href="../search.html?q=soup">search</a></p>"#))
        #expect(try String(contentsOfFile: out + "/assets/posts/files/my report.pdf", encoding: .utf8) == "%PDF-1.4\n")
    }

    @Test func fragmentsOfPathsToPagesAreChecked() throws {
        let root = temporaryFolder()
        writeSite(root, [
            "content/posts/a.md":
                "---\ntitle: A\n---\n[ok](/posts/b/#part-one) [bad](/posts/b/#nope) [folder](../posts/b/#gone) [file](pic.svg#x) [fine](../posts/b/#part-one)\n",
            "content/posts/b.md": "---\ntitle: B\n---\n## Part one\n\nB.\n",
            "content/posts/pic.svg": Self.svg,
        ])
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0)
        #expect(report.diagnostics.sorted.filter { $0.severity != .note }.map(\.description) == [
            "content/posts/a.md:4:26: warning: link '/posts/b/#nope' leads to no heading or anchor with the id 'nope' on posts/b.html; fix the link or the heading",
            "content/posts/a.md:4:48: warning: link '../posts/b/#gone' leads to no heading or anchor with the id 'gone' on posts/b.html; fix the link or the heading",
        ])
        let page = try String(contentsOfFile: out + "/posts/a.html", encoding: .utf8)
        #expect(page.contains(#"<a href="b.html#part-one">ok</a> <a href="b.html#nope">bad</a>"#))
        #expect(build(root, output: temporaryFolder() + "/public", strict: true).exitStatus == 1)
    }

    @Test func aPathAboveTheOutputRootIsAnErrorAtTheLink() {
        let root = temporaryFolder()
        writeSite(root, ["content/posts/a.md": "---\ntitle: A\n---\nSee [x](../../x.html) and [y](/../y.png).\n"])
        let report = build(root, output: temporaryFolder() + "/public")
        #expect(report.exitStatus == 1)
        #expect(report.diagnostics.sorted.filter { $0.severity == .error }.map(\.description) == [
            "content/posts/a.md:4:5: error: link '../../x.html' leads outside the output folder (above content/ or the site root); link to a file inside the site",
            "content/posts/a.md:4:27: error: link '/../y.png' leads outside the output folder (above content/ or the site root); link to a file inside the site",
        ])
    }

    /// Links in a `_feed.md` intro and a `_section.md` text are rewritten and checked like
    /// an item's (issue #22 §3).
    @Test func introAndSectionTextPathsAreRewrittenAndChecked() throws {
        let root = temporaryFolder()
        writeSite(root, [
            "content/recipes/_feed.md": "---\ntitle: Recipes\n---\nSee [soup](/recipes/mains/soup/) ![logo](logo.svg) [gone](/nowhere/).\n",
            "content/recipes/logo.svg": Self.svg,
            "content/recipes/mains/_section.md": "---\ntitle: Mains\n---\nStart with [the soup](soup.html).\n",
            "content/recipes/mains/soup.md": "---\ntitle: Soup\n---\nSoup.\n",
        ])
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0)
        #expect(report.diagnostics.sorted.filter { $0.severity == .warning }.map(\.description) == [
            "content/recipes/_feed.md:4:52: warning: '/nowhere/' names no file or page (looked for static/nowhere/, a page named /nowhere/ and content/nowhere/); fix the path or remove it"
        ])
        let page = try String(contentsOfFile: out + "/recipes/index.html", encoding: .utf8)
        #expect(page.contains(#"<a href="mains/soup.html">soup</a> <img src="../assets/recipes/logo.svg" width="12" height="34" alt="logo" />"#))
        #expect(page.contains(#"Start with <a href="mains/soup.html">the soup</a>."#))
        #expect(!page.contains("feedgen-md:"))
    }

    /// Feeds: body paths absolute under `baseURL` with its path, never the marker; the
    /// enclosure has its type and length.
    @Test func feedsGetAbsoluteURLsUnderTheBaseURLsPath() throws {
        let root = temporaryFolder()
        writeSite(root, [
            "feedgen.yaml": "title: T\nbaseURL: https://example.org/blog/\n",
            "content/posts/a.md": "---\ntitle: A\nimage: {src: pic.svg, alt: P}\n---\n[b](/posts/b/) ![p](pic.svg) [x](b.md)\n",
            "content/posts/b.md": "---\ntitle: B\n---\nB.\n",
            "content/posts/pic.svg": Self.svg,
        ])
        let out = temporaryFolder() + "/public"
        #expect(build(root, output: out).exitStatus == 0)
        let atom = try String(contentsOfFile: out + "/feed.xml", encoding: .utf8)
        let json = try String(contentsOfFile: out + "/feed.json", encoding: .utf8)
        #expect(atom.contains(
            "&lt;a href=&quot;https://example.org/blog/posts/b.html&quot;&gt;b&lt;/a&gt; &lt;img src=&quot;https://example.org/blog/assets/posts/pic.svg&quot; alt=&quot;p&quot; /&gt; &lt;a href=&quot;https://example.org/blog/posts/b.html&quot;&gt;x&lt;/a&gt;"))
        #expect(atom.contains(#"<link rel="enclosure" type="image/svg+xml" length="\#(Self.svg.utf8.count)" href="https://example.org/blog/assets/posts/pic.svg"/>"#))
        #expect(json.contains(#"<a href=\"https://example.org/blog/posts/b.html\">b</a>"#))
        #expect(!atom.contains("feedgen-md:") && !json.contains("feedgen-md:"))
    }

    /// Incremental builds stay byte-identical to clean builds: a body image that changes size,
    /// a missing one that appears, and an edit of a body with paths each give the clean output.
    @Test func incrementalBuildsOfBodyPathsEqualCleanBuilds() throws {
        let root = temporaryFolder()
        writeSite(root, [
            "content/posts/a.md": "---\ntitle: A\n---\n![p](pic.svg) ![later](later.svg)\n",
            "content/posts/b.md": "---\ntitle: B\n---\nB.\n",
            "content/posts/pic.svg": Self.svg,
        ])
        let out = temporaryFolder() + "/public"
        #expect(build(root, output: out).exitStatus == 0)
        func expectClean(_ step: String) {
            let clean = temporaryFolder() + "/public"
            #expect(build(root, output: clean).exitStatus == 0)
            let (a, b) = (snapshot(out).filter { !$0.key.hasPrefix(".") }, snapshot(clean).filter { !$0.key.hasPrefix(".") })
            #expect(a.keys.sorted() == b.keys.sorted(), "\(step)")
            #expect(a.filter { b[$0.key] != $0.value }.keys.sorted() == [], "\(step)")
        }
        writeSite(root, ["content/posts/pic.svg": #"<svg xmlns="http://www.w3.org/2000/svg" width="90" height="10"/>"#])
        #expect(build(root, output: out).exitStatus == 0)
        #expect(try String(contentsOfFile: out + "/posts/a.html", encoding: .utf8).contains(#"width="90" height="10""#))
        expectClean("the image changed size")
        writeSite(root, ["content/posts/later.svg": Self.svg])
        #expect(build(root, output: out).exitStatus == 0)
        #expect(try String(contentsOfFile: out + "/posts/a.html", encoding: .utf8).contains(#"<img src="../assets/posts/later.svg" width="12" height="34" alt="later" />"#))
        expectClean("the missing image appeared")
        writeSite(root, ["content/posts/a.md": "---\ntitle: A\n---\nNow ![p](pic.svg) [b](/posts/b/)\n"])
        #expect(build(root, output: out).exitStatus == 0)
        expectClean("the body changed")
    }
}
