import Dispatch
import Foundation
import Synchronization
import Testing

@testable import FeedgenBuild
import FeedgenIncremental
@testable import FeedgenCLI

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

    /// What a terminal shows after `stream`: a carriage return goes back to the line's start
    /// and later text overwrites it; each line without its trailing spaces.
    static func screen(_ stream: String) -> [String] {
        var lines: [String] = []
        var line: [Character] = []
        var column = 0
        for character in stream {
            switch character {
            case "\r": column = 0
            case "\n":
                lines.append(String(line))
                line = []
                column = 0
            default:
                if column < line.count { line[column] = character } else { line.append(character) }
                column += 1
            }
        }
        lines.append(String(line))
        return lines.map { String($0.reversed().drop(while: { $0 == " " }).reversed()) }
    }

    /// A message said while a redraw is being written lands after that redraw and clears it, and
    /// the line is cleared at the end. (Found in review: the redraw was written outside the
    /// display's lock, so a message could clear the line before the redraw landed, and
    /// `finish()` then left "feedgen: reading content" before the summary.)
    @Test func aMessageDuringARedrawStillClearsIt() {
        let stream = Mutex<String>("")
        let entered = DispatchSemaphore(value: 0)
        let slowOnce = Mutex(true)
        let progress = BuildProgress(delay: 0.01, interval: 0.01) { text in
            // The first redraw is slow to reach the terminal (a busy terminal, a slow pipe).
            if text.hasPrefix("\rfeedgen: reading"), slowOnce.withLock({ let first = $0; $0 = false; return first }) {
                entered.signal()
                Thread.sleep(forTimeInterval: 0.3)
            }
            stream.withLock { $0 += text }
        }
        progress.begin("reading content")
        #expect(entered.wait(timeout: .now() + 10) == .success)
        progress.say("feedgen: waiting for another build\n")
        progress.finish()
        let lines = Self.screen(stream.withLock { $0 })
        #expect(lines == ["feedgen: waiting for another build", ""], "\(stream.withLock { $0 }.debugDescription)")
    }

    /// On a terminal narrower than the line, the line is cut to one column less than the width:
    /// a line that wraps cannot be redrawn in place (a carriage return goes back to the start of
    /// its last row only). (Found in review: in a 30-column pane every redraw left a row behind,
    /// and the last one stayed above the diagnostics.)
    @Test func theLineIsCutToTheTerminalsWidth() {
        let writes = Mutex<[String]>([])
        let progress = BuildProgress(delay: 0.01, interval: 0.01, columns: { 20 }) { text in writes.withLock { $0.append(text) } }
        progress.begin("rendering pages", total: 9891)
        progress.advance(by: 4120)
        let deadline = Date().addingTimeInterval(10)
        while writes.withLock({ $0.isEmpty }) && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        progress.finish()
        let all = writes.withLock { $0 }
        #expect(all.first == "\rfeedgen: rendering ")
        #expect(all.allSatisfy { $0.count <= 21 }, "\(all)")
        #expect(Self.screen(all.joined()) == [""])
    }

    /// A build that waits for another build into the same output clears its progress line before
    /// saying so, however the build was started. (Found in review: `build --watch` wrote
    /// "feedgen: reading contentfeedgen: waiting for another feedgen build …" on one line, as
    /// only `build` routed the message through the display.)
    @Test func aWaitingBuildClearsTheProgressLineFirst() throws {
        let root = temporaryFolder()
        makeCardSite(root)
        let out = root + "/public"
        let holder = BuildLock()
        holder.acquire(cacheFolder: BuildCache.folder(forOutput: out), output: out, waiting: nil)
        let stream = Mutex<String>("")
        var options = BuildOptions(siteRoot: root, output: out, now: 1_700_000_000)
        let progress = BuildProgress(delay: 0, interval: 0.01) { text in stream.withLock { $0 += text } }
        options.progress = progress
        options.onWaiting = { text in stream.withLock { $0 += text } }
        // The line is on screen before the build starts waiting.
        progress.begin("reading content")
        let deadline = Date().addingTimeInterval(10)
        while !stream.withLock({ $0.contains("reading content") }) && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        let done = DispatchSemaphore(value: 0)
        let building = options
        Thread {
            _ = SiteBuilder.build(building)
            done.signal()
        }.start()
        while !stream.withLock({ $0.contains("waiting for another") }) && Date() < deadline + 50 { Thread.sleep(forTimeInterval: 0.01) }
        holder.release()
        #expect(done.wait(timeout: .now() + 60) == .success)
        let lines = Self.screen(stream.withLock { $0 })
        let standardized = URL(fileURLWithPath: out).standardizedFileURL.path
        #expect(lines.first == "feedgen: waiting for another feedgen build writing to \(standardized) to finish", "\(lines)")
        #expect(lines.count == 2 && lines.last == "", "\(lines)")
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
        makeCardSite(root)
        let result = try runFeedgen(["build", root, "--output", root + "/public"])
        #expect(result.status == 0)
        #expect(!result.stderr.contains("\r"))
        // The note on the missing baseURL, then the summary line, and nothing else.
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines[0].hasPrefix(".: note: no 'baseURL'") && lines[2].isEmpty, "\(lines)")
        #expect(lines.count == 3 && lines[1].hasPrefix("feedgen: built 13 pages (1 feed, 12 cards) in "), "\(lines)")
        #expect(lines.count == 3 && lines[1].hasSuffix(", 0 warnings → \(root)/public"), "\(lines)")
    }
}
