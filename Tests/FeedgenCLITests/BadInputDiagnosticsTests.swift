// Command-line mistakes: Hugo's option names, item names that cannot be pages.
import Foundation
import Testing

@testable import FeedgenCLI

@Suite struct BadInputDiagnosticsTests {
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

    @Test func newRefusesNamesThatCannotBePages() {
        let dir = temporaryFolder() + "/site"
        #expect(CommandLineTool.run(["init", dir]) == 0)
        #expect(CommandLineTool.run(["new", "today/my card", "--site", dir]) == 2)
        #expect(!FileManager.default.fileExists(atPath: dir + "/content/today/my card.md"))
    }
}
