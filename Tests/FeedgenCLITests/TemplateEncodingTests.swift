// `feedgen template render` with a template or data file that is not UTF-8, or not readable.
import Foundation
import Testing

@testable import FeedgenCLI

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
}
