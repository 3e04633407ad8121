import Foundation
import Testing

@testable import FeedgenBuild
import FeedgenDiagnostics

/// Problems a first-time user found by trying to break feedgen; each is now an exact diagnostic.
@Suite struct NewUserRegressionTests {
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

    @Test func hugeCountIsAnErrorNotAHang() {
        let root = site([
            "content/s/_section.md": "---\nlayout:\n  group: {count: 1000000000}\n---\n", "content/s/a.md": "---\ntitle: A\n---\n",
        ])
        let report = build(root, output: temporaryFolder() + "/public")
        #expect(messages(report) == ["content/s/_section.md:3:18: error: 'count' must be at most 1000, found 1000000000"])
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
        #expect(messages(report, .warning) == [
            "content/s/_section.md:3:3: warning: below a container width of 400 px the insets and spacing are wider than the container, so items get a negative size (drawn 0 px wide); reduce contentInsets or spacing, or use an adaptive rule for narrow widths"
        ])
    }

    @Test func configurationErrorsExitWithTwo() {
        let root = site(["feedgen.yaml": "titel: x\n", "content/s/a.md": "---\ntitle: A\n---\n"])
        let report = build(root, output: temporaryFolder() + "/public")
        #expect(report.exitStatus == 2)
    }

    @Test func staticFileShadowingAGeneratedStylesheetIsAnError() {
        let root = site(["content/s/a.md": "---\ntitle: A\n---\n", "static/assets/layout.css": "body{}"])
        let report = build(root, output: temporaryFolder() + "/public")
        #expect(messages(report) == [
            "static/assets/layout.css: error: this would write the output file 'assets/layout.css', which (generated by feedgen) writes too; rename one of them"
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

    @Test func newRefusesNamesThatCannotBePages() {
        let dir = temporaryFolder() + "/site"
        #expect(CommandLineTool.run(["init", dir]) == 0)
        #expect(CommandLineTool.run(["new", "today/my card", "--site", dir]) == 2)
        #expect(!FileManager.default.fileExists(atPath: dir + "/content/today/my card.md"))
    }

    @Test func chipsSectionsDrawPlainItemsAsChips() throws {
        let root = site(["content/words/_section.md": "---\nlayout: chips\nitems:\n  - {title: Pasta}\n---\n"])
        let out = temporaryFolder() + "/public"
        #expect(build(root, output: out).exitStatus == 0)
        let html = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(html.contains(#"<div class="chip"><span>Pasta</span></div>"#))
    }
}

/// `feedgen layout --measured FILE`: every value is checked and every mistake is named.
@Suite struct MeasuredFileTests {
    func problem(_ json: String) -> String? {
        let file = temporaryFolder() + "/m.json"
        try! Data(json.utf8).write(to: URL(fileURLWithPath: file))
        do {
            _ = try LayoutCommand.readMeasurements(file)
            return nil
        } catch let error as LayoutCommand.MeasuredFileError {
            return error.diagnostics.items.map(\.description).joined(separator: "\n").replacingOccurrences(of: file, with: "m.json")
        } catch {
            return "\(error)"
        }
    }

    @Test func validFileReads() throws {
        let file = temporaryFolder() + "/m.json"
        try Data(#"{"items": {"a": {"width": 120, "height": 80.5}}, "headers": {"s": 30}, "footers": {"s": 1e1}}"#.utf8)
            .write(to: URL(fileURLWithPath: file))
        let m = try LayoutCommand.readMeasurements(file)
        #expect(m.items["a"]?.width == 120)
        #expect(m.items["a"]?.height == 80.5)
        #expect(m.headers["s"] == 30)
        #expect(m.footers["s"] == 10)
    }

    @Test func mistakesAreNamedByKeyPath() {
        #expect(problem(#"{"items": {"a": {"width": 10, "height": -3}}}"#) == "m.json: error: 'items.a.height' must be between 0 and 100000 px, found -3")
        #expect(problem(#"{"items": {"a": {"width": "10", "height": 3}}}"#) == "m.json: error: 'items.a.width' must be a number of CSS px")
        #expect(problem(#"{"items": {"a": {"width": 10}}}"#) == "m.json: error: 'items.a.height' must be a number of CSS px")
        #expect(problem(#"{"items": {"a": 5}}"#) == "m.json: error: 'items.a' must be an object {\"width\": W, \"height\": H}")
        #expect(problem(#"{"headers": {"s": 1e9}}"#) == "m.json: error: 'headers.s' must be between 0 and 100000 px, found 1e9")
        #expect(problem(#"{"headers": {"s": 1e400}}"#) == "m.json: error: 'headers.s' must be between 0 and 100000 px, found 1e400")
        #expect(problem(#"{"item": {}}"#) == "m.json: error: 'item' is not a --measured key; use \"items\", \"headers\" or \"footers\"")
        #expect(problem("[1]") == "m.json: error: a --measured file holds a JSON object with \"items\", \"headers\" and/or \"footers\"")
    }

    /// JSON mistakes are located; a repeated id is one, not a silently dropped value.
    @Test func syntaxErrorsAndRepeatedKeysHaveTheirPlace() {
        #expect(problem("{\"items\": ") == "m.json:1:11: error: unexpected end of JSON, expected a value")
        #expect(problem("{\"items\": {\"a\": [1, }}") == "m.json:1:21: error: unexpected character '}', expected a value")
        #expect(
            problem("{\"headers\": {\n  \"s\": 10,\n  \"s\": 12\n}}")
                == "m.json:3:3: error: duplicate key 's' in an object (first at line 2, column 3); keep one of them")
    }

    /// The command prints the located error on stderr and exits 1.
    @Test func theCommandExitsOneWithTheLocatedError() throws {
        let root = temporaryFolder()
        writeSite(root, ["content/cards/_section.md": "---\nlayout: list\n---\n", "content/cards/a.md": "---\ntitle: A\n---\n"])
        try Data("{\"items\": {\"a\": {\"width\": 1,}}}".utf8).write(to: URL(fileURLWithPath: root + "/m.json"))
        let result = try CacheRobustnessTests.run(["layout", root, "--width", "390", "--measured", root + "/m.json"])
        #expect(result.status == 1)
        #expect(result.stderr == "\(root)/m.json:1:29: error: expected a string key\n")
    }
}

/// GitHub annotations name files from the working folder; text diagnostics from the site.
@Suite struct DiagnosticPathTests {
    func printed(siteRoot: String, format: Terminal.ErrorFormat) -> String {
        var terminal = Terminal(environment: ["NO_COLOR": "1"])
        terminal.errorFormat = format
        terminal.showPaths(fromSiteRoot: siteRoot)
        var diagnostics = Diagnostics()
        diagnostics.warning(SourceLocation(path: "content/s/a.md", line: 3, column: 8), "check this")
        diagnostics.append(.note(SourceLocation(path: "."), "about the site"))
        return terminal.text(of: diagnostics)
    }

    @Test func annotationsOfASiteInASubfolderNameFilesFromTheWorkingFolder() {
        #expect(
            printed(siteRoot: "docs/site", format: .github) == """
                .: note: about the site
                ::notice file=docs/site::about the site
                content/s/a.md:3:8: warning: check this
                ::warning file=docs/site/content/s/a.md,line=3,col=8::check this

                """)
    }

    @Test func textDiagnosticsStayRelativeToTheSite() {
        let cwd = FileManager.default.currentDirectoryPath
        let expected = ".: note: about the site\ncontent/s/a.md:3:8: warning: check this\n"
        #expect(printed(siteRoot: "docs/site", format: .text) == expected)
        #expect(printed(siteRoot: cwd, format: .github).contains("::warning file=content/s/a.md,line=3,col=8::check this\n"))
        #expect(printed(siteRoot: "/nonexistent/site", format: .github).contains("::warning file=/nonexistent/site/content/s/a.md,"))
    }

    @Test func unwritableOutputExitsWithTwo() throws {
        let root = temporaryFolder()
        writeSite(root, ["content/s/a.md": "---\ntitle: A\n---\n", "blocker": "a file where a folder must be"])
        let report = build(root, output: root + "/blocker/public")
        #expect(report.exitStatus == 2)
        #expect(report.diagnostics.sorted.first?.message.hasPrefix("cannot write the output folder: ") == true)
    }
}

/// A template or data file that is not UTF-8 is an error at the bad byte, not "cannot read".
@Suite struct TemplateEncodingTests {
    @Test func templateRenderNamesTheBadByte() throws {
        let folder = temporaryFolder()
        try Data([0x48, 0x69, 0x0A, 0x7B, 0x7B, 0xFF, 0x7D, 0x7D]).write(to: URL(fileURLWithPath: folder + "/t.mustache"))
        try Data("{}".utf8).write(to: URL(fileURLWithPath: folder + "/d.json"))
        let (output, diagnostics) = try TemplateCommand.render(
            file: folder + "/t.mustache", data: folder + "/d.json", partials: nil, strict: false)
        #expect(output == nil)
        #expect(diagnostics.sorted.map(\.description) == ["\(folder)/t.mustache:2:3: error: file is not valid UTF-8 (invalid byte at offset 5)"])
        #expect(CommandLineTool.run(["template", "render", folder + "/t.mustache", "--data", folder + "/d.json"]) == 1)
        #expect(CommandLineTool.run(["template", "render", folder + "/missing.mustache", "--data", folder + "/d.json"]) == 2)
    }

    @Test func overrideInTemplatesNamesTheBadByte() throws {
        let root = temporaryFolder()
        writeSite(root, ["content/s/a.md": "---\ntitle: A\n---\n"])
        try FileManager.default.createDirectory(atPath: root + "/Templates/cards", withIntermediateDirectories: true)
        try Data([0x3C, 0x70, 0x3E, 0xC3, 0x28]).write(to: URL(fileURLWithPath: root + "/Templates/cards/card.mustache"))
        let report = build(root, output: temporaryFolder() + "/public")
        #expect(report.exitStatus == 1)
        #expect(report.diagnostics.sorted.map(\.description) == ["Templates/cards/card.mustache:1:4: error: file is not valid UTF-8 (invalid byte at offset 3)"])
    }
}

/// Atom and JSON Feed entry ids are unique even when items link to the same page.
@Suite struct FeedEntryIDTests {
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
