// The commands' help texts and exit statuses.
import Foundation
import Testing

@testable import FeedgenCLI

@Suite struct DiagnosticsTests {
    /// Every command's help says what its exit statuses mean, and describes every option its
    /// usage lines name.
    @Test func everyHelpHasExitStatusesAndDescribesItsOptions() {
        let helps = [
            ("build", BuildCommand.buildHelp), ("check", BuildCommand.checkHelp), ("layout", LayoutCommand.help),
            ("init", ScaffoldCommand.initHelp), ("new", ScaffoldCommand.newHelp), ("template", TemplateCommand.help),
        ]
        for (command, help) in helps {
            #expect(help.contains("EXIT STATUS: 0 "), "\(command)")
            let usage = help.components(separatedBy: "\n\n").first { $0.hasPrefix("USAGE:") } ?? ""
            let options = usage.split(whereSeparator: { " []|".contains($0) }).filter { $0.hasPrefix("--") }
            for option in options {
                #expect(help.contains("\n  " + option + " ") || help.contains("\n  " + option + "\n"), "\(command) \(option)")
            }
            // Its positional arguments too (SITE, FILE, DIR; not an option's value): layout,
            // template and init had no ARGUMENTS section.
            let words = usage.split(whereSeparator: { " []|\n".contains($0) }).map(String.init)
            for (i, word) in words.enumerated().dropFirst(2)
            where word.first?.isUppercase == true && !words[i - 1].hasPrefix("--") {
                #expect(help.contains("\n  " + word + " "), "\(command) \(word)")
            }
        }
    }

    @Test func cliExitStatuses() {
        #expect(CommandLineTool.run(["--help"]) == 0)
        #expect(CommandLineTool.run(["build", "--help"]) == 0)
        #expect(CommandLineTool.run(["build", "--bogus"]) == 2)
        #expect(CommandLineTool.run(["build", repositoryRoot, "--output", ""]) == 2)
        #expect(CommandLineTool.run(["layout", repositoryRoot]) == 2)
        #expect(CommandLineTool.run(["frobnicate"]) == 2)
        #expect(CommandLineTool.run(["check", repositoryRoot, "--quiet"]) == 0)
    }
}
