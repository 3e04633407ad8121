import CFileSystem
import FeedgenBuild
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One line of progress on a terminal while a build works: `feedgen: rendering pages: 4120 of
/// 9891`. Only for builds that take a while (nothing is shown before ``delay``), rewritten in
/// place at most every ``interval`` (a carriage return and the line padded with spaces: no
/// escape sequences, so `NO_COLOR` and dumb terminals are fine), and cleared before the build's
/// diagnostics and summary line are printed (``finish()``). ``wanted(quiet:environment:isTerminal:)``
/// says when to show it: on a terminal, not with `--quiet`, not in CI.
public final class BuildProgress: BuildProgressReporting, @unchecked Sendable {
    /// Time before the first line, in seconds: a quick build shows none.
    public let delay: Double
    /// Time between two redraws, in seconds.
    public let interval: Double

    /// Guards the state below; never held while writing, so `advance` never waits for a terminal.
    private let lock = NSLock()
    /// Held while writing (a redraw, a message, the last clearing), so that what is written and
    /// `shownWidth` agree: a message cannot clear the line while a redraw is on its way.
    private let output = NSLock()
    private var stage = ""
    private var done = 0
    private var total = 0
    private var finished = false
    /// The width of the line on screen (0: none shown), and its text.
    private var shownWidth = 0
    private var shownLine = ""
    private let write: @Sendable (String) -> Void
    /// The terminal's width in columns (nil or 0: unknown), asked at each redraw.
    private let columns: @Sendable () -> Int?
    private let ticker = DispatchGroup()
    private let wake = DispatchSemaphore(value: 0)

    /// - Parameters:
    ///   - columns: the terminal's width: a longer line is cut to one column less, since a line
    ///     that wraps cannot be redrawn in place (nil: no limit).
    ///   - write: where the text goes (stderr); called from a thread of its own.
    public init(
        delay: Double = 0.5, interval: Double = 0.1, columns: @escaping @Sendable () -> Int? = { nil },
        write: @escaping @Sendable (String) -> Void
    ) {
        self.delay = delay
        self.interval = interval
        self.columns = columns
        self.write = write
        let thread = Thread { [self] in
            // Waits on `wake` (signalled by `finish`), so a build never waits for a redraw.
            var timeout = delay
            while wake.wait(timeout: .now() + timeout) == .timedOut {
                let stopped: Bool = output.withLock {
                    let text: String?? = lock.withLock {
                        if finished { return nil }
                        var line = Self.line(stage: stage, done: done, total: total)
                        if let width = columns(), width > 1, line.count >= width { line = String(line.prefix(width - 1)) }
                        if line == shownLine && shownWidth > 0 { return .some(nil) }  // unchanged: not redrawn
                        let padding = String(repeating: " ", count: max(0, shownWidth - line.count))
                        shownWidth = line.count
                        shownLine = line
                        return "\r" + line + padding
                    }
                    guard let text else { return true }
                    if let text { write(text) }
                    return false
                }
                if stopped { break }
                timeout = interval
            }
            ticker.leave()
        }
        ticker.enter()
        thread.start()
    }

    /// Whether a build shows progress: stderr is a terminal, `--quiet` was not given, `CI` is
    /// unset (or empty, `0` or `false`: CI services set it) and `TERM` is not `dumb`.
    public static func wanted(
        quiet: Bool, environment: [String: String] = ProcessInfo.processInfo.environment,
        isTerminal: Bool = isatty(STDERR_FILENO) == 1
    ) -> Bool {
        guard isTerminal, !quiet, environment["TERM"] != "dumb" else { return false }
        let ci = (environment["CI"] ?? "").lowercased()
        return ci.isEmpty || ci == "0" || ci == "false"
    }

    /// A display writing to `terminal`'s stderr when ``wanted(quiet:environment:isTerminal:)``
    /// says so (with `terminal.quiet`), else nil.
    static func forBuild(on terminal: Terminal) -> BuildProgress? {
        guard wanted(quiet: terminal.quiet) else { return nil }
        return BuildProgress(columns: { Int(feedgen_terminal_columns(STDERR_FILENO)) }) { terminal.err($0) }
    }

    /// The text of the line: the stage, and `done of total` when the stage counts.
    static func line(stage: String, done: Int, total: Int) -> String {
        "feedgen: " + stage + (total > 0 ? ": \(min(done, total)) of \(total)" : "")
    }

    /// A new stage, counting from 0 to `total` (0: not counted).
    public func begin(_ stage: String, total: Int = 0) {
        lock.withLock {
            self.stage = stage
            self.total = total
            done = 0
        }
    }

    /// `count` more of the stage's `total` are done.
    public func advance(by count: Int = 1) {
        lock.withLock { done += count }
    }

    /// Writes `text` (whole lines) through `writer` (nil: the display's own writer): the
    /// progress line is cleared first, and drawn again below it at the next redraw.
    public func say(_ text: String, through writer: (@Sendable (String) -> Void)? = nil) {
        output.withLock {
            clearLine()
            (writer ?? write)(text)
        }
    }

    /// Clears the line when one is shown; called holding `output`.
    private func clearLine() {
        let width: Int = lock.withLock {
            defer { shownWidth = 0 }
            return shownWidth
        }
        if width > 0 { write("\r" + String(repeating: " ", count: width) + "\r") }
    }

    /// Stops the display and clears its line. Idempotent.
    public func finish() {
        lock.withLock { finished = true }
        wake.signal()
        ticker.wait()
        output.withLock { clearLine() }
    }
}
