import Foundation
import Synchronization
import Testing

@testable import FeedgenBuild

/// The progress line of long builds: shown on a terminal only, rewritten in place, cleared
/// before the summary, never shown by a quick build.
@Suite struct BuildProgressTests {
    @Test func shownOnATerminalOutsideCIAndWithoutQuiet() {
        #expect(BuildProgress.wanted(quiet: false, environment: [:], isTerminal: true))
        #expect(BuildProgress.wanted(quiet: false, environment: ["CI": ""], isTerminal: true))
        #expect(BuildProgress.wanted(quiet: false, environment: ["CI": "false"], isTerminal: true))
        #expect(!BuildProgress.wanted(quiet: false, environment: ["CI": "true"], isTerminal: true))
        #expect(!BuildProgress.wanted(quiet: false, environment: ["CI": "1"], isTerminal: true))
        #expect(!BuildProgress.wanted(quiet: true, environment: [:], isTerminal: true))
        #expect(!BuildProgress.wanted(quiet: false, environment: [:], isTerminal: false))
        #expect(!BuildProgress.wanted(quiet: false, environment: ["TERM": "dumb"], isTerminal: true))
    }

    @Test func theLineIsRewrittenInPlaceAndClearedAtTheEnd() {
        let writes = Mutex<[String]>([])
        let progress = BuildProgress(delay: 0.02, interval: 0.01) { text in writes.withLock { $0.append(text) } }
        // Waits (up to 10 s: a loaded machine) until the display has written `text`.
        func waitFor(_ text: String) {
            let deadline = Date().addingTimeInterval(10)
            while !writes.withLock({ $0.contains(text) }) && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        }
        progress.begin("rendering pages", total: 10)
        progress.advance(by: 3)
        waitFor("\rfeedgen: rendering pages: 3 of 10")
        progress.begin("writing the output")
        waitFor("\rfeedgen: writing the output" + String(repeating: " ", count: 33 - 27))
        progress.finish()
        progress.finish()
        let all = writes.withLock { $0 }
        #expect(all.contains("\rfeedgen: rendering pages: 3 of 10"))
        // A shorter line is padded over the longer one.
        let shorter = "\rfeedgen: writing the output" + String(repeating: " ", count: 33 - 27)
        #expect(all.contains(shorter), "\(all)")
        #expect(all.last == "\r" + String(repeating: " ", count: 27) + "\r")
        #expect(all.filter { $0.hasSuffix(" \r") }.count == 1)
    }

    /// A message in the middle (waiting for another build) clears the line first.
    @Test func aMessageClearsTheLineFirst() {
        let writes = Mutex<[String]>([])
        let progress = BuildProgress(delay: 0.01, interval: 0.01) { text in writes.withLock { $0.append(text) } }
        progress.begin("reading content")
        let deadline = Date().addingTimeInterval(10)
        while !writes.withLock({ $0.contains("\rfeedgen: reading content") }) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        progress.say("feedgen: waiting for another build\n")
        progress.finish()
        let all = writes.withLock { $0 }
        let said = all.firstIndex(of: "feedgen: waiting for another build\n")
        #expect(said != nil)
        if let said { #expect(all[said - 1] == "\r" + String(repeating: " ", count: 24) + "\r") }
    }

    @Test func aQuickBuildShowsNothingAndDoesNotWait() {
        let writes = Mutex<[String]>([])
        let start = Date()
        let progress = BuildProgress(delay: 5) { text in writes.withLock { $0.append(text) } }
        progress.begin("reading content")
        progress.finish()
        #expect(Date().timeIntervalSince(start) < 1)
        #expect(writes.withLock { $0 } == [])
    }

    /// Piped (as in CI), a build writes no progress: no carriage return on stderr.
    @Test func aPipedBuildWritesNoProgress() throws {
        let root = temporaryFolder()
        try CacheRobustnessTests.makeSite(root)
        let result = try CacheRobustnessTests.run(["build", root, "--output", root + "/public"])
        #expect(result.status == 0)
        #expect(!result.stderr.contains("\r"))
        #expect(result.stderr.hasSuffix(" → \(root)/public\n") || result.stderr.contains("feedgen: built "))
    }
}
