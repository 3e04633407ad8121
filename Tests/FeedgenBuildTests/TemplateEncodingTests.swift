import Foundation
import Testing

@testable import FeedgenBuild
import FeedgenDiagnostics

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
                return error.message
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
