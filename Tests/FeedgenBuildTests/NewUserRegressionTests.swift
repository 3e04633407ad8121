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
        #expect(messages(report, .warning) == [
            "content/s/_section.md:3:3: warning: below a container width of 400 px the insets and spacing are wider than the container, so items get a negative size (drawn 0 px wide); reduce contentInsets or spacing, or use an adaptive rule for narrow widths"
        ])
    }

    @Test func configurationErrorsExitWithTwo() {
        let root = site(["feedgen.yaml": "titel: x\n", "content/s/a.md": "---\ntitle: A\n---\n"])
        let report = build(root, output: temporaryFolder() + "/public")
        #expect(report.exitStatus == 2)
    }

    @Test func hugoOptionsAreNamedWithFeedgensOwn() {
        func message(_ arguments: [String], command: String = "build") -> String? {
            do {
                _ = try Arguments(arguments, flags: ["--drafts", "--watch"], options: ["--output"], command: command)
                return nil
            } catch let error as UsageError {
                return error.message
            } catch {
                return "\(error)"
            }
        }
        #expect(message(["-D"]) == "unknown option '-D' for 'build' (Hugo's -D is feedgen's --drafts); see 'feedgen build --help'")
        #expect(message(["--destination=out"]) == "unknown option '--destination' for 'build' (Hugo's --destination is feedgen's --output); see 'feedgen build --help'")
        // Only an option the command has is named (this one has no --future).
        #expect(message(["-F"])?.contains("Hugo") == false)
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

    /// Bytes that are not UTF-8 are an error at them, as in a template's data file. (Found in
    /// review: they became U+FFFD, so an id written with them silently matched no item.)
    @Test func bytesThatAreNotUTF8AreAnError() throws {
        let file = temporaryFolder() + "/m.json"
        try Data("{\"items\": {\n  \"caf\u{E9}".utf8 + [0xFF] + "\": {\"width\": 1, \"height\": 2}}}".utf8)
            .write(to: URL(fileURLWithPath: file))
        #expect(throws: LayoutCommand.MeasuredFileError.self) { _ = try LayoutCommand.readMeasurements(file) }
        do {
            _ = try LayoutCommand.readMeasurements(file)
        } catch let error as LayoutCommand.MeasuredFileError {
            #expect(error.diagnostics.items.map(\.description) == ["\(file):2:8: error: file is not valid UTF-8 (invalid byte at offset 20)"])
        }
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

    /// "cannot read data 'd.yaml'" gave no reason (a typo? a folder? permissions?).
    @Test func templateRenderSaysWhyAFileCannotBeRead() throws {
        let folder = temporaryFolder()
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/t.mustache"))
        func message(_ data: String, partials: String? = nil) -> String? {
            do {
                _ = try TemplateCommand.render(file: folder + "/t.mustache", data: data, partials: partials, strict: false)
                return nil
            } catch {
                return (error as? UsageError)?.message
            }
        }
        #expect(message(folder + "/nope.yaml") == "cannot read data '\(folder)/nope.yaml': No such file or directory")
        try Data("{}".utf8).write(to: URL(fileURLWithPath: folder + "/d.json"))
        #expect(message(folder + "/d.json", partials: folder + "/parts") == "cannot read --partials folder '\(folder)/parts': No such file or directory")
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

    @Test func aNulByteInATemplateIsAnError() throws {
        // It went into every page the template rendered.
        let root = temporaryFolder()
        writeSite(root, ["content/s/a.md": "---\ntitle: A\n---\n", "Templates/cards/card.mustache": "<p>\n  \u{0}{{title}}</p>"])
        let report = build(root, output: temporaryFolder() + "/public")
        #expect(report.exitStatus == 1)
        #expect(report.diagnostics.sorted.map(\.description) == ["Templates/cards/card.mustache:2:3: error: file has a NUL byte (offset 6); remove it"])
    }
}

/// Atom and JSON Feed entry ids are unique even when items link to the same page.
@Suite struct FeedEntryIDTests {
    /// A control byte in a body made feed.xml not well-formed (XML 1.0 forbids C0 controls
    /// other than tab, LF and CR), with exit 0. (From a YAML escape it is now an error.)
    @Test func controlCharactersKeepTheAtomFeedWellFormed() throws {
        let root = temporaryFolder()
        writeSite(root, [
            "feedgen.yaml": "title: T\nbaseURL: https://example.org/\n",
            "content/s/a.md": "---\ntitle: A\n---\nBody \u{01} and \u{0C} end.\n",
        ])
        let out = temporaryFolder() + "/public"
        #expect(build(root, output: out).exitStatus == 0)
        let atom = try String(contentsOfFile: out + "/feed.xml", encoding: .utf8)
        #expect(!atom.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" && $0 != "\r" })
        #expect(atom.contains("Body \u{FFFD} and \u{FFFD} end."))
        let bad = temporaryFolder()
        writeSite(bad, ["content/s/a.md": "---\ntitle: \"bad\\x01title\"\n---\n"])
        #expect(build(bad, output: temporaryFolder() + "/public").diagnostics.sorted.map(\.description) == [
            "content/s/a.md:2:8: error: YAML: this string has the control character U+0001 (from an escape); remove it"
        ])
    }

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

/// Unreadable files and folders are errors at their path, in `static/` as in `content/`. As
/// root every file is readable, so the build then runs as `nobody` through setpriv(1) (the test
/// is skipped, with its reason, where that cannot be done).
@Suite struct UnreadableFileTests {
    /// Runs the `feedgen` built beside the tests in `site` as a user who cannot read what mode
    /// 000 protects; nil (with a printed reason) when no such user is available.
    static func buildAsUnprivileged(_ site: String) throws -> (status: Int32, stderr: String)? {
        var executable = LazyLibvipsTests.feedgen
        var arguments = ["build", "--clean"]
        if geteuid() == 0 {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
                print("skipped: running as root without setpriv(1), so mode 000 cannot make a file unreadable")
                return nil
            }
            // `nobody` writes the output inside the site (temporary folders are mode 755).
            _ = chown(site, 65534, 65534)
            arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", executable] + arguments
            executable = "/usr/bin/setpriv"
        }
        let run = try runProcess(executable, arguments, in: site)
        if run.status != 0, run.stderr.isEmpty || run.stderr.contains("setpriv:") {
            print("skipped: cannot run feedgen as nobody: \(run.stderr)")
            return nil
        }
        return run
    }

    @Test(arguments: [
        ("static/locked.txt", "static/locked.txt", "static/locked.txt: error: cannot read the file: Permission denied"),
        ("static/locked/x.txt", "static/locked", "static/locked: error: cannot read this folder"),
    ])
    func anUnreadableStaticFileOrFolderIsAnErrorAtItsPath(file: String, locked: String, message: String) throws {
        let root = temporaryFolder()
        writeSite(root, ["content/s/a.md": "---\ntitle: A\n---\nA.\n", "static/ok.txt": "ok", file: "x"])
        chmod(root + "/" + locked, 0)
        guard let run = try Self.buildAsUnprivileged(root) else { return }
        #expect(run.status == 1)
        #expect(run.stderr.components(separatedBy: "\n").first == message)
        #expect(!FileManager.default.fileExists(atPath: root + "/public"))
    }
}
