import Foundation
import Testing

/// `feedgen layout --json` for the pages that views add (issue #20): `--feed` names a section's
/// own page or a tag page by its folder, and the error for an unknown feed lists them.
@Suite struct SectionViewLayoutTests {
    /// Runs `feedgen arguments`: its exit status, standard output and standard error.
    func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: feedgenExecutable)
        process.arguments = arguments
        let (out, err) = (Pipe(), Pipe())
        (process.standardOutput, process.standardError) = (out, err)
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    @Test func ownPagesAndTagPagesAreFeedsOfTheLayoutCommand() throws {
        let root = temporaryFolder()
        var files = ["content/s/_section.md": "---\ntitle: S\nlayout: carousel\nlimit: 1\nseeAll: true\npaginate: 2\n---\n"]
        for i in 1...3 { files["content/s/\(i).md"] = "---\ntitle: \(i)\nweight: \(i)\ntags: [soup]\n---\nBody.\n" }
        writeSite(root, files)
        let home = try run(["layout", root, "--width", "390", "--json"])
        #expect(home.status == 0, "\(home.err)")
        // The feed page shows the `limit`: one card.
        #expect(home.out.contains(#"{"id": "s/1", "frame""#))
        #expect(!home.out.contains(#""id": "s/2""#))
        let page2 = try run(["layout", root, "--width", "390", "--json", "--feed", "s/page/2"])
        #expect(page2.status == 0, "\(page2.err)")
        #expect(page2.out.hasPrefix("{\n  \"feed\": \"/s\",\n"))
        #expect(page2.out.contains(#"{"id": "s/3", "frame""#))
        #expect(!page2.out.contains(#""id": "s/1""#))
        let tag = try run(["layout", root, "--width", "390", "--json", "--feed", "tags/soup"])
        #expect(tag.status == 0, "\(tag.err)")
        #expect(tag.out.hasPrefix("{\n  \"feed\": \"/tags\",\n"))
        let unknown = try run(["layout", root, "--width", "390", "--feed", "nope"])
        #expect(unknown.status == 2)
        #expect(unknown.err == "feedgen: error: no feed 'nope'; feeds: /, s, s/page/2, tags/soup\n")
    }
}
