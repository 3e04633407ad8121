import Foundation
import Testing

@testable import FeedgenBuild
import FeedgenIncremental
import FeedgenDiagnostics

/// Bad input of many kinds (links leaving the site, impossible layouts, unknown options, shadowed
/// outputs) is an exact diagnostic rather than silence, a hang or a crash.
@Suite struct BadInputDiagnosticsTests {
    func site(_ files: [String: String]) -> String {
        let root = temporaryFolder()
        writeSite(root, files)
        return root
    }

    func messages(_ report: BuildReport, _ severity: Severity = .error) -> [String] {
        report.diagnostics.sorted.filter { $0.severity == severity }.map(\.description)
    }

    @Test func imageSymlinkLeavingTheSiteIsAnErrorAndNotCopied() throws {
        let outside = temporaryFolder()
        writeSite(outside, ["secret.png": "not for the site"])
        let root = site(["content/s/i.md": "---\ntitle: I\nimage: img.png\n---\n"])
        try FileManager.default.createSymbolicLink(atPath: root + "/content/s/img.png", withDestinationPath: outside + "/secret.png")
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 1)
        #expect(messages(report).count == 1)
        #expect(messages(report).first?.hasPrefix("content/s/i.md:3:8: error: image 'img.png' is a symbolic link that leads outside the site folder") == true)
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func staticSymlinkLeavingTheSiteIsSkipped() throws {
        let outside = temporaryFolder()
        writeSite(outside, ["secret.txt": "not for the site"])
        let root = site(["content/s/a.md": "---\ntitle: A\n---\nA.\n", "static/ok.txt": "ok"])
        try FileManager.default.createSymbolicLink(atPath: root + "/static/leak.txt", withDestinationPath: outside + "/secret.txt")
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0)
        #expect(messages(report, .warning).first?.hasPrefix("static/leak.txt: warning: symbolic link skipped: it leads outside the site folder") == true)
        #expect(FileManager.default.fileExists(atPath: out + "/ok.txt"))
        #expect(!FileManager.default.fileExists(atPath: out + "/leak.txt"))
    }

    @Test func danglingSymlinkInContentIsAWarningNotSilence() throws {
        let root = site(["content/s/a.md": "---\ntitle: A\n---\nA.\n", "static/ok.txt": "ok"])
        try FileManager.default.createSymbolicLink(atPath: root + "/content/s/gone.md", withDestinationPath: "../../nowhere.md")
        try FileManager.default.createSymbolicLink(atPath: root + "/static/gone.css", withDestinationPath: "missing.css")
        let report = build(root, output: temporaryFolder() + "/public")
        #expect(report.exitStatus == 0)
        #expect(
            messages(report, .warning) == [
                "content/s/gone.md: warning: symbolic link skipped: its target '../../nowhere.md' does not exist",
                "static/gone.css: warning: symbolic link skipped: its target 'missing.css' does not exist",
            ])
    }

    @Test func aStaticFolderReachedTwiceIsAWarningNotSilence() throws {
        let root = site(["content/s/a.md": "---\ntitle: A\n---\nA.\n", "static/img/a.txt": "a"])
        try FileManager.default.createSymbolicLink(atPath: root + "/static/img2", withDestinationPath: "img")
        try FileManager.default.createSymbolicLink(atPath: root + "/static/img/loop", withDestinationPath: "..")
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0)
        #expect(
            messages(report, .warning) == [
                "static/img/loop: warning: folder skipped: it was already read through another path (a symbolic link loop?)",
                "static/img2: warning: folder skipped: it was already read through another path (a symbolic link loop?)",
            ])
        #expect(FileManager.default.fileExists(atPath: out + "/img/a.txt"))
    }

    @Test func hugeCountIsAnErrorNotAHang() {
        let root = site([
            "content/s/_section.md": "---\nlayout:\n  group: {count: 1000000000}\n---\n", "content/s/a.md": "---\ntitle: A\n---\n",
        ])
        let report = build(root, output: temporaryFolder() + "/public")
        #expect(messages(report) == ["content/s/_section.md:3:18: error: 'count' must be at most 1000, found 1000000000"])
    }

    @Test func groupsNestedTooDeepAreAnErrorNotAHang() {
        // 12 levels of half-width groups took minutes (each level doubles what a group holds).
        var yaml = "---\nlayout:\n  group:\n    height: absolute(100)\n    subitems:\n"
        var indent = "      "
        for _ in 0..<12 {
            yaml += indent + "- group:\n" + indent + "    width: fractionalWidth(0.5)\n" + indent + "    subitems:\n"
            indent += "      "
        }
        yaml += indent + "- item: {width: absolute(10), height: fractionalHeight(1.0)}\n---\n"
        let root = site(["content/s/_section.md": yaml, "content/s/a.md": "---\ntitle: A\n---\n"])
        let report = build(root, output: temporaryFolder() + "/public")
        #expect(report.exitStatus == 1)
        #expect(messages(report) == [
            "content/s/_section.md:30:57: error: groups nest at most 8 levels deep below the section's group; this one is 9 deep"
        ])
    }

    @Test func aRemoteImageWithoutItsSizeIsAWarning() {
        let root = site([
            "content/s/a.md": "---\ntitle: A\nimage: {src: \"https://cdn.example.org/x.png\", alt: x}\n---\n",
            "content/s/b.md": "---\ntitle: B\nimage: {src: \"https://cdn.example.org/y.png\", alt: y, width: 40, height: 30}\n---\n",
        ])
        let report = build(root, output: temporaryFolder() + "/public")
        #expect(report.exitStatus == 0)
        #expect(messages(report, .warning) == [
            "content/s/a.md:3:8: warning: image 'https://cdn.example.org/x.png' is remote, so feedgen cannot read its size and the page shifts when it loads; give its 'width' and 'height' in an image mapping"
        ])
    }

    @Test func emptyTagsAreAnError() {
        let root = site(["content/s/a.md": "---\ntitle: A\ntags: [a, \"\", \"  \"]\n---\n"])
        let report = build(root, output: temporaryFolder() + "/public")
        #expect(messages(report) == [
            "content/s/a.md:3:11: error: an entry of 'tags' is empty; remove it",
            "content/s/a.md:3:15: error: an entry of 'tags' is empty; remove it",
        ])
    }

    @Test func zeroSizesAreAWarning() {
        // fractionalWidth(0) items were built, 0 px wide, without a word.
        let root = site([
            "content/s/_section.md": "---\nlayout:\n  item: {width: fractionalWidth(0), height: 44}\n  group: {height: absolute(0)}\n  adaptive:\n    - minWidth: 700\n      group: {count: 2}\n---\n",
            "content/s/a.md": "---\ntitle: A\n---\n",
        ])
        let report = build(root, output: temporaryFolder() + "/public")
        #expect(report.exitStatus == 0)
        #expect(messages(report, .warning) == [
            "content/s/_section.md:3:17: warning: the item's 'width' is 0, so its cards are 0 px wide and cannot be seen; give it a size",
            "content/s/_section.md:4:19: warning: the group's 'height' is 0, so its cards are 0 px high and cannot be seen; give it a size",
        ])
    }

    @Test func hugeInsetsAreErrors() {
        let root = site([
            "content/s/_section.md": "---\nlayout:\n  contentInsets: 1e308\n---\n", "content/s/a.md": "---\ntitle: A\n---\n",
        ])
        let report = build(root, output: temporaryFolder() + "/public")
        #expect(messages(report) == ["content/s/_section.md:3:18: error: 'contentInsets' must be at most 100000 px, found '1e308'"])
    }

    @Test func insetsWiderThanTheContainerAreAWarning() {
        let root = site([
            "content/s/_section.md": "---\nlayout:\n  contentInsets: {leading: 200, trailing: 200}\n---\n", "content/s/a.md": "---\ntitle: A\n---\n",
        ])
        let report = build(root, output: temporaryFolder() + "/public")
        #expect(report.exitStatus == 0)
        // 400 px of insets inside the list preset's readable guide (16 px margins on narrow pages).
        #expect(messages(report, .warning) == [
            "content/s/_section.md:3:3: warning: below a container width of 432 px the insets and spacing are wider than the container, so items get a negative size (drawn 0 px wide); reduce contentInsets or spacing, or use an adaptive rule for narrow widths"
        ])
    }

    @Test func configurationErrorsExitWithTwo() {
        let root = site(["feedgen.yaml": "titel: x\n", "content/s/a.md": "---\ntitle: A\n---\n"])
        let report = build(root, output: temporaryFolder() + "/public")
        #expect(report.exitStatus == 2)
    }

    /// `feedgen check` passed (exit 0) a site whose `output` lies in content/, which `build`
    /// refuses with exit 2.
    @Test func checkRefusesTheOutputFoldersBuildRefuses() {
        let root = site(["feedgen.yaml": "output: content/pub\n", "content/s/a.md": "---\ntitle: A\n---\n"])
        var options = BuildOptions(siteRoot: root, now: fixedNow)
        options.write = false
        let report = SiteBuilder.build(options)
        #expect(report.exitStatus == 2)
        let real = URL(fileURLWithPath: root).standardizedFileURL.path
        #expect(messages(report) == [
            "\(real)/content/pub: error: refusing to write the site into '\(real)/content/pub', inside the site's content/ folder; choose another --output folder"
        ])
        #expect(!FileManager.default.fileExists(atPath: root + "/content/pub"))
    }

    /// Was exit 2, "cannot write the output folder: feed.xml/q.html: Not a directory", blaming
    /// the output folder for an item whose page would sit inside the feed's Atom file.
    @Test func pageInsideAGeneratedFileIsAnErrorAtTheItem() {
        let root = site([
            "feedgen.yaml": "baseURL: https://example.org/\n",
            "content/posts/idx.md": "---\ntitle: Q\nid: feed.xml/q\n---\nbody\n",
        ])
        let report = build(root, output: temporaryFolder() + "/public")
        #expect(report.exitStatus == 1)
        #expect(messages(report).filter { $0.contains("error:") } == [
            "content/posts/idx.md:1:1: error: this would write the output file 'feed.xml/q.html' inside 'feed.xml', which feedgen itself writes as a file; rename one of them"
        ])
    }

    @Test func staticFileShadowingAGeneratedFileIsAnError() {
        // The watch build's reload script replaced static/_feedgen/live-reload.js silently.
        let root = site([
            "content/s/a.md": "---\ntitle: A\n---\n", "static/assets/layout.css": "body{}",
            "static/_feedgen/live-reload.js": "x",
        ])
        let report = build(root, output: temporaryFolder() + "/public")
        #expect(messages(report) == [
            "static/_feedgen/live-reload.js: error: this would write the output file '_feedgen/live-reload.js', which feedgen's watch mode writes too; rename one of them",
            "static/assets/layout.css: error: this would write the output file 'assets/layout.css', which feedgen itself writes too; rename one of them",
        ])
    }

    @Test func aNonImageIsAnError() {
        let root = site(["content/s/a.md": "---\ntitle: A\nimage: b.md\n---\n", "content/s/b.md": "---\ntitle: B\n---\n"])
        let report = build(root, output: temporaryFolder() + "/public")
        #expect(messages(report) == [
            "content/s/a.md:3:8: error: 'b.md' is not an image feedgen can read (PNG, JPEG, GIF, WebP or SVG); give its 'width' and 'height' in an image mapping, or use an image file"
        ])
    }

    @Test func themeTokensCannotBreakOutOfTheStylesheet() {
        let root = site([
            "feedgen.yaml": "theme:\n  cornerRadius: \"4px; } body { display:none } x {\"\n  \"bad name\": 1\n",
            "content/s/a.md": "---\ntitle: A\n---\n",
        ])
        let report = build(root, output: temporaryFolder() + "/public")
        #expect(report.exitStatus == 2)
        #expect(messages(report).count == 2)
    }

    @Test func chipsSectionsDrawPlainItemsAsChips() throws {
        let root = site(["content/words/_section.md": "---\nlayout: chips\nitems:\n  - {title: Pasta}\n---\n"])
        let out = temporaryFolder() + "/public"
        #expect(build(root, output: out).exitStatus == 0)
        let html = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(html.contains(#"<div class="chip"><span>Pasta</span></div>"#))
    }
}
