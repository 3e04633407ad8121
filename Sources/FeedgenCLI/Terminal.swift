import FeedgenDiagnostics
import FeedgenStorage
import Foundation

/// Where the CLI writes: diagnostics and summaries to stderr, data (JSON, rendered templates)
/// to stdout. Colour only on a terminal and never with `NO_COLOR` set (no-color.org).
public struct Terminal: Sendable {
    /// `1 error`, `2 errors`: a count and an English noun, plural when the count is not 1.
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    public enum ErrorFormat: String, Sendable { case text, github }

    public var errorFormat: ErrorFormat = .text
    public var quiet = false
    /// Put before every relative path in a GitHub annotation, which must name files from the
    /// working folder (the repository checkout): `""` when the site is the working folder,
    /// `docs/` for `feedgen build docs`. Text diagnostics stay relative to the site
    /// (content-format §8). Set with `showPaths(fromSiteRoot:)`.
    public var pathPrefix = ""
    public var color: Bool

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        color = isatty(STDERR_FILENO) == 1 && environment["NO_COLOR"].map(\.isEmpty) ?? true
            && environment["TERM"] != "dumb"
    }

    public func out(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    public func err(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Makes GitHub annotations name files from the working folder for a site at `siteRoot` (as
    /// given on the command line): `docs` → `file=docs/content/a.md`; a site outside the working
    /// folder gets its absolute path.
    public mutating func showPaths(fromSiteRoot siteRoot: String) {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
        let site = URL(fileURLWithPath: siteRoot).standardizedFileURL.path
        if site == cwd {
            pathPrefix = ""
        } else if site.hasPrefix(cwd + "/") {
            pathPrefix = String(site.dropFirst(cwd.count + 1)) + "/"
        } else {
            pathPrefix = site + "/"
        }
    }

    /// At most this many diagnostics are printed per run; a last line counts the rest.
    public static let diagnosticLimit = 200

    /// Prints diagnostics in path, line, column order (at most `diagnosticLimit`; when there
    /// are more, the errors come first, so that none hides behind warnings). Notes are skipped
    /// with `--quiet`.
    public func print(_ diagnostics: Diagnostics, strict: Bool = false) {
        err(text(of: diagnostics, strict: strict))
    }

    /// What `print` writes: one line per diagnostic (two with `--error-format github`).
    public func text(of diagnostics: Diagnostics, strict: Bool = false) -> String {
        var text = ""
        var shown = 0
        // The list is copied only when a filter changes it (a large site's report holds tens of
        // thousands of warnings).
        var all = diagnostics.sorted
        if quiet, all.contains(where: { $0.severity == .note }) { all = all.filter { $0.severity != .note } }
        if all.count > Self.diagnosticLimit, let firstOther = all.firstIndex(where: { $0.severity != .error }),
            all[firstOther...].contains(where: { $0.severity == .error })
        {
            all = all.filter { $0.severity == .error } + all.filter { $0.severity != .error }
        }
        for var d in all {
            if shown == Self.diagnosticLimit {
                text += "feedgen: \(all.count - shown) more problems not shown (\(Self.count(diagnostics.errorCount, "error")) and \(Self.count(diagnostics.warningCount, "warning")) in all)\n"
                text += Self.kindSummary(all, strict: strict)
                break
            }
            shown += 1
            if strict, d.severity == .warning { d.severity = .error }
            text += styled(d) + "\n"
            if errorFormat == .github {
                // Annotations name files from the working folder (the repository), not the site.
                if d.location.path == "." {
                    d.location.path = pathPrefix.isEmpty ? "." : String(pathPrefix.dropLast())
                } else if !d.location.path.hasPrefix("/") {
                    d.location.path = pathPrefix + d.location.path
                }
                text += d.githubAnnotation + "\n"
            }
        }
        return text
    }

    /// One line per kind of problem (``Diagnostic/kind``) with its count, most frequent first
    /// (then by kind): printed after the first `diagnosticLimit` problems, so that no kind hides
    /// behind the ones that sort first by path.
    static func kindSummary(_ diagnostics: [Diagnostic], strict: Bool) -> String {
        // A message repeats (a missing path linked from many pages): the kind of each distinct
        // one is made once, on every core. Messages and kinds are told apart by their bytes (a
        // String key hashes non-ASCII text through Unicode normalization: most of this sum once),
        // and keyed by a digest of them (``Message``).
        // Counted in two halves on two cores for a long list, the second half's then added to
        // the first's: the distinct messages stay in the order they first appear.
        let halves = diagnostics.count < 4096 ? 1 : 2
        let counted = parallelMap(halves) { h in
            let half = (diagnostics.count + 1) / 2
            let part = halves == 1 ? diagnostics[...] : h == 0 ? diagnostics[..<half] : diagnostics[half...]
            var counted = Counted(capacity: part.count / 2)
            for d in part {
                counted.add(Message(severity: strict && d.severity == .warning ? .error : d.severity, text: d.message), 1)
            }
            return counted
        }
        var all = counted[0]
        for half in counted.dropFirst() {
            for (k, message) in half.distinct.enumerated() { all.add(message, half.counts[k]) }
        }
        let (messages, counts) = (all.distinct, all.counts)
        let kindsOfDistinct = parallelMap(messages.count) { k in
            Message(severity: messages[k].severity, text: Diagnostic(messages[k].severity, SourceLocation(path: ""), messages[k].text).kind)
        }
        var kindSlot: [Message: Int] = [:]
        var kindsInOrder: [String] = []
        var kindCounts: [Int] = []
        for (k, kind) in kindsOfDistinct.enumerated() {
            if let slot = kindSlot[kind] {
                kindCounts[slot] += counts[k]
            } else {
                kindSlot[kind] = kindsInOrder.count
                kindsInOrder.append(kind.text)
                kindCounts.append(counts[k])
            }
        }
        // Kinds equal as Strings (canonically equivalent) are one kind, under the first one seen.
        var byKind: [String: Int] = [:]
        for (kind, n) in zip(kindsInOrder, kindCounts) { byKind[kind, default: 0] += n }
        let kinds = byKind.sorted { a, b in a.value != b.value ? a.value > b.value : a.key.utf8.lexicographicallyPrecedes(b.key.utf8) }
        var text = "feedgen: problems by kind (\(count(kinds.count, "kind"))):\n"
        for (kind, n) in kinds { text += "feedgen: \(n) × \(kind)\n" }
        return text
    }

    /// Distinct messages and how many times each was added, in the order they first were.
    private struct Counted: Sendable {
        // Found by digest alone (a UInt64 key hashes cheaply), then compared; a message whose
        // digest another one has is found by itself in `others`.
        private var slotOf: [UInt64: Int] = [:]
        private var others: [Message: Int] = [:]
        private(set) var distinct: [Message] = []
        private(set) var counts: [Int] = []

        init(capacity: Int) { slotOf.reserveCapacity(capacity) }

        mutating func add(_ message: Message, _ count: Int) {
            if let slot = slotOf[message.digest], distinct[slot] == message {
                counts[slot] += count
            } else if let slot = others[message] {
                counts[slot] += count
            } else {
                if slotOf[message.digest] == nil { slotOf[message.digest] = distinct.count } else { others[message] = distinct.count }
                distinct.append(message)
                counts.append(count)
            }
        }
    }

    /// A severity and a text, equal when their bytes are. It hashes as a digest of the bytes,
    /// made once (``StableHasher/digest(_:)``): `Hasher` takes several instructions a byte, and
    /// a dictionary hashes a key at each look-up.
    private struct Message: Hashable {
        let severity: Severity
        let text: String
        let digest: UInt64

        init(severity: Severity, text: String) {
            self.severity = severity
            self.text = text
            digest = StableHasher.digest(text)
        }

        // The severity is left to `==` (it hashes as its raw value, a String).
        func hash(into hasher: inout Hasher) { hasher.combine(digest) }

        static func == (a: Message, b: Message) -> Bool {
            a.digest == b.digest && a.severity == b.severity && a.text.sameBytes(as: b.text)
        }
    }

    func styled(_ d: Diagnostic) -> String {
        guard color else { return d.description }
        let code = switch d.severity {
        case .error: "1;31"
        case .warning: "1;35"
        case .note: "1;36"
        }
        return "\u{1B}[1m\(d.location):\u{1B}[0m \u{1B}[\(code)m\(d.severity.rawValue):\u{1B}[0m \(d.message)"
    }
}
