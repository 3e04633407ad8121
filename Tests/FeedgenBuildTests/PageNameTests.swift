import Foundation
import Testing

@testable import FeedgenBuild

/// The names a root-relative body path may give a page written for Hugo or Jekyll (issue #19 §3,
/// content-format §5.4): Hugo's `url`, `aliases` and `slug`, and date permalinks
/// `/YYYY/MM/DD/slug/` matched on the item's date and slug.
@Suite struct PageNameTests {
    @Test func hugoURLAliasesAndSlugNameThePage() throws {
        let root = temporaryFolder()
        writeSite(root, [
            "content/vagrant/port.md": "---\ntitle: Port\n---\n[a](/p/ymenseo/) [b](/p/ymenseo) [c](/p/ymenseo/index.html) [d](/old/bridge.html) [e](/vagrant/nice-name/) [f](/p/nope/)\n",
            "content/vagrant/bridged-network.md": "---\ntitle: Bridge\nurl: \"p/ymenseo/\"\naliases: [/old/bridge.html]\n---\nB.\n",
            "content/vagrant/x.md": "---\ntitle: X\nslug: nice-name\n---\nX.\n",
        ])
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0)
        #expect(report.diagnostics.sorted.filter { $0.severity != .note }.map(\.description) == [
            "content/vagrant/port.md:4:108: warning: '/p/nope/' names no file or page (looked for static/p/nope/, a page named /p/nope/ and content/p/nope/); fix the path or remove it"
        ])
        let page = try String(contentsOfFile: out + "/vagrant/port.html", encoding: .utf8)
        #expect(page.contains(
            #"<p><a href="bridged-network.html">a</a> <a href="bridged-network.html">b</a> <a href="bridged-network.html">c</a> <a href="bridged-network.html">d</a> <a href="x.html">e</a> <a href="/p/nope/">f</a></p>"#))
    }

    @Test func datePermalinksMatchTheItemsDateAndSlug() throws {
        let root = temporaryFolder()
        writeSite(root, [
            "content/blog/a.md": """
                ---
                title: A
                ---
                [bundle](/blog/2017/05/01/hello-bundle/) [case](/blog/2014/04/16/topic-modeling-in-r/) [front](/2022/12/24/bootstrap-5-3-0-alpha1/) [slug](/2020/1/2/short/) [twin](/2019/03/03/twin/)

                """,
            "content/blog/2017-05-01-hello-bundle/index.md": "---\ntitle: Bundle\n---\nB.\n",
            "content/blog/2014-04-16-topic-modeling-in-R.md": "---\ntitle: Topics\n---\nT.\n",
            "content/blog/2022/bootstrap-5-3-0-alpha1.md": "---\ntitle: Alpha\ndate: 2022-12-24T10:00:00-08:00\n---\nA.\n",
            "content/blog/long-name.md": "---\ntitle: Slugged\ndate: 2020-01-02\nslug: short\n---\nS.\n",
            // Two pages whose slugs differ only in case: the lower-case link names neither.
            "content/blog/x/2019-03-03-Twin.md": "---\ntitle: T1\n---\nT.\n",
            "content/blog/y/2019-03-03-TWIN.md": "---\ntitle: T2\n---\nT.\n",
        ])
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        #expect(report.diagnostics.sorted.filter { $0.severity != .note }.map(\.description) == [
            "content/blog/a.md:4:158: warning: '/2019/03/03/twin/' names no file or page (looked for static/2019/03/03/twin/, a page named /2019/03/03/twin/ and content/2019/03/03/twin/); fix the path or remove it"
        ])
        let page = try String(contentsOfFile: out + "/blog/a.html", encoding: .utf8)
        #expect(page.contains(
            #"<p><a href="2017-05-01-hello-bundle/index.html">bundle</a> <a href="topic-modeling-in-R.html">case</a> <a href="2022/bootstrap-5-3-0-alpha1.html">front</a> <a href="long-name.html">slug</a> <a href="/2019/03/03/twin/">twin</a></p>"#))
    }
}
