import Foundation
import Testing

@testable import FeedgenBuild

/// Paths in raw HTML (`markdown.unsafe: true`) go through the resolver Markdown links and images
/// use (issue #19 §3, content-format §5.4): `src`, `href`, `srcset` and `poster` values are
/// copied, rewritten relative, or a warning at their position.
@Suite struct RawHTMLPathTests {
    static let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="12" height="34"/>"#
    static let unsafe = "title: T\nbaseURL: https://example.org/blog/\nmarkdown: {unsafe: true}\n"

    @Test func rawImagesAndLinksAreCopiedRewrittenAndReported() throws {
        let root = temporaryFolder()
        writeSite(root, [
            "feedgen.yaml": Self.unsafe,
            "content/posts/a.md": """
                ---
                title: A
                ---
                <div><img src="/assets/d.svg"></div>

                Inline <img src="pic.svg" width="300"> and <a href="b.md#top">b</a>, <a href='/posts/b/'>b2</a>.

                <video poster="pic.svg"><source src="clip.mp4" type="video/mp4"></video>
                <picture><source srcset="pic.svg 1x, /assets/d.svg 2x"><img src=gone.png alt=""></picture>
                <!-- <img src="commented.png"> --><a href="https://example.org/x">x</a> <a href="#top">t</a>

                """,
            "content/posts/b.md": "---\ntitle: B\n---\nB.\n",
            "content/posts/pic.svg": Self.svg,
            "content/posts/clip.mp4": "mp4",
            "static/assets/d.svg": #"<svg xmlns="http://www.w3.org/2000/svg" width="56" height="78"/>"#,
        ])
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0)
        #expect(report.diagnostics.sorted.filter { $0.severity != .note }.map(\.description) == [
            "content/posts/a.md:9:65: warning: 'gone.png' names no file or page (looked for content/posts/gone.png and a page named so); fix the path or remove it"
        ])
        let page = try String(contentsOfFile: out + "/posts/a.html", encoding: .utf8)
        #expect(page.contains(#"<div><img src="../assets/d.svg" width="56" height="78"></div>"#))
        // A tag with a size of its own keeps it (no second `width`).
        #expect(page.contains(#"<p>Inline <img src="../assets/posts/pic.svg" width="300"> and <a href="b.html#top">b</a>, <a href='b.html'>b2</a>.</p>"#))
        #expect(page.contains(#"<video poster="../assets/posts/pic.svg"><source src="../assets/posts/clip.mp4" type="video/mp4"></video>"#))
        #expect(page.contains(#"<picture><source srcset="../assets/posts/pic.svg 1x, ../assets/d.svg 2x"><img src="gone.png" alt=""></picture>"#))
        #expect(page.contains(##"<!-- <img src="commented.png"> --><a href="https://example.org/x">x</a> <a href="#top">t</a>"##))
        #expect(try String(contentsOfFile: out + "/assets/posts/clip.mp4", encoding: .utf8) == "mp4")
        #expect(!page.contains("feedgen-md:"))
        // The feed gets the same files, absolute under baseURL.
        let json = try String(contentsOfFile: out + "/feed.json", encoding: .utf8)
        #expect(json.contains(#"<div><img src=\"https://example.org/blog/assets/d.svg\"></div>"#))
        #expect(json.contains(#"<source srcset=\"https://example.org/blog/assets/posts/pic.svg 1x, https://example.org/blog/assets/d.svg 2x\">"#))
        #expect(json.contains(#"<a href='https://example.org/blog/posts/b.html'>b2</a>"#))
        #expect(!json.contains("feedgen-md:"))
        #expect(build(root, output: temporaryFolder() + "/public", strict: true).exitStatus == 1)
    }

    /// Safe mode drops raw HTML: nothing in it is resolved or reported beyond the omission.
    @Test func safeModeLeavesRawHTMLPathsAlone() throws {
        let root = temporaryFolder()
        writeSite(root, ["content/posts/a.md": "---\ntitle: A\n---\n<img src=\"gone.png\">\n"])
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.diagnostics.sorted.filter { $0.severity != .note }.map(\.description) == [
            "content/posts/a.md:4:1: warning: raw HTML omitted (Markdown safe mode); set 'markdown.unsafe: true' in feedgen.yaml to keep it"
        ])
    }
}
