import Foundation
import Testing

@testable import FeedgenBuild
import FeedgenDiagnostics

/// A template or data file that is not UTF-8 is an error at the bad byte, not "cannot read".
@Suite struct TemplateEncodingTests {
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
