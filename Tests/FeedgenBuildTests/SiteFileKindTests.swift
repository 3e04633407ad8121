import Foundation
import Testing

@testable import FeedgenBuild

/// A site's own files that are not regular files (a FIFO left by a tool, a socket) are errors at
/// their path, found without waiting: opening a FIFO for reading blocks until a writer comes, and
/// a FIFO named `feedgen.yaml` or a template hung `feedgen build` forever.
@Suite struct SiteFileKindTests {
    /// A small site built once into `root/out` (its feed page's HTML is `before`), then a FIFO
    /// put at `name` (site-relative) in place of whatever was there.
    static func siteBuiltThenFIFO(at name: String) throws -> (root: String, output: String, before: String) {
        let root = temporaryFolder()
        try CacheRobustnessTests.makeSite(root)
        let output = root + "/out"
        #expect(try CacheRobustnessTests.build(root, output).status == 0)
        let before = try String(contentsOfFile: output + "/index.html", encoding: .utf8)
        try FileManager.default.createDirectory(
            atPath: (root + "/" + name as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = unlink(root + "/" + name)
        try #require(mkfifo(root + "/" + name, 0o644) == 0)
        return (root, output, before)
    }

    /// The build finishes within its limit, fails with `status`, names the file, and leaves the
    /// previous output as it was.
    @Test(arguments: [
        ("feedgen.yaml", Int32(2)), ("Templates/cards/card.mustache", Int32(1)),
        ("Templates/partials/slide-label.mustache", Int32(1)),
    ])
    func aFIFOInTheSiteIsAnErrorNotAHang(name: String, status: Int32) throws {
        let (root, output, before) = try Self.siteBuiltThenFIFO(at: name)
        let result = try CacheRobustnessTests.run(["build", root, "--output", output, "--quiet"], limit: 30)
        #expect(!result.timedOut)
        #expect(result.status == status)
        #expect(result.stderr.hasPrefix(name + ": error: cannot read"), "\(result.stderr)")
        #expect(result.stderr.contains("not a regular file"), "\(result.stderr)")
        #expect(try String(contentsOfFile: output + "/index.html", encoding: .utf8) == before)
    }

    /// A FIFO in `content/` or `static/` is an error at its path (it was skipped without a
    /// word, so a section lost its `_section.md` title and an item its card); a hidden one is
    /// ignored like any hidden file.
    @Test(arguments: ["content/cards/_section.md", "content/cards/pipe.md", "content/cards/notes.txt", "static/p.txt"])
    func aFIFOInContentOrStaticIsAnError(name: String) throws {
        let (root, output, before) = try Self.siteBuiltThenFIFO(at: name)
        try #require(mkfifo(root + "/content/cards/.hidden.md", 0o644) == 0)
        let result = try CacheRobustnessTests.run(["build", root, "--output", output, "--quiet"], limit: 30)
        #expect(!result.timedOut)
        #expect(result.status == 1)
        #expect(
            result.stderr.hasPrefix(
                name + ": error: cannot read: not a regular file (a FIFO, socket or device); replace it with a file or remove it\n"),
            "\(result.stderr)")
        #expect(!result.stderr.contains(".hidden.md"))
        #expect(try String(contentsOfFile: output + "/index.html", encoding: .utf8) == before)
    }

    /// `template render` still reads its data from a pipe (`--data <(…)`): only a site's own
    /// files must be regular.
    @Test func templateRenderReadsDataFromAPipe() throws {
        let root = temporaryFolder()
        try "{{n}}".write(toFile: root + "/t.mustache", atomically: false, encoding: .utf8)
        try #require(mkfifo(root + "/data.json", 0o644) == 0)
        let writer = Thread {
            let fd = open(root + "/data.json", O_WRONLY)
            if fd >= 0 {
                let bytes = Array("{\"n\": 1.50}".utf8)
                _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                close(fd)
            }
        }
        writer.start()
        let result = try CacheRobustnessTests.run(["template", "render", root + "/t.mustache", "--data", root + "/data.json"], limit: 30)
        #expect(!result.timedOut)
        #expect(result.status == 0, "\(result.stderr)")
    }
}
