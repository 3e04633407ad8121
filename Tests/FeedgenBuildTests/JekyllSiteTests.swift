import Foundation
import Testing

@testable import FeedgenBuild

/// A Jekyll blog's files built as they are (content-format §5.1, §5.2): `.markdown` posts dated by
/// their names, links between them, Liquid in bodies.
@Suite struct JekyllSiteTests {
    @Test func datedMarkdownPostsLinkToEachOther() throws {
        let root = temporaryFolder()
        writeSite(root, [
            "content/posts/2014-01-02-first.markdown": "---\ntitle: First\n---\nSee [the next](2014-02-03-second.md) {{ site.url }}.\n",
            "content/posts/2014-02-03-second.md": "---\ntitle: Second\ncategories: release\n---\nBack to [the first](2014-01-02-first.markdown#top).\n",
        ])
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0)
        #expect(report.diagnostics.sorted.map(\.description).filter { !$0.contains("note:") } == [
            "content/posts/2014-01-02-first.markdown:4:38: warning: Liquid output '{{ site.url }}' is left out of the page: feedgen does not run Liquid"
        ])
        let first = try String(contentsOfFile: out + "/posts/first.html", encoding: .utf8)
        #expect(first.contains(#"<p>See <a href="second.html">the next</a> .</p>"#))
        #expect(first.contains(#"<time datetime="2014-01-02">January 2, 2014</time>"#))
        let second = try String(contentsOfFile: out + "/posts/second.html", encoding: .utf8)
        #expect(second.contains(#"<a href="first.html#top">the first</a>"#))
    }
}
