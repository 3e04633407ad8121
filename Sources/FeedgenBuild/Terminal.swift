import FeedgenDiagnostics
import Foundation

/// Where the CLI writes: diagnostics and summaries to stderr, data (JSON, rendered templates)
/// to stdout. Colour only on a terminal and never with `NO_COLOR` set (no-color.org).
public struct Terminal: Sendable {
    public enum ErrorFormat: String, Sendable { case text, github }

    public var errorFormat: ErrorFormat = .text
    public var quiet = false
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

    /// At most this many diagnostics are printed per run; a last line counts the rest.
    public static let diagnosticLimit = 200

    /// Prints diagnostics in path, line, column order (at most `diagnosticLimit`). Notes are
    /// skipped with `--quiet`.
    public func print(_ diagnostics: Diagnostics, strict: Bool = false) {
        var text = ""
        var shown = 0
        let all = diagnostics.sorted.filter { !(quiet && $0.severity == .note) }
        for var d in all {
            if shown == Self.diagnosticLimit {
                text += "feedgen: \(all.count - shown) more problems not shown (\(diagnostics.errorCount) errors and \(diagnostics.warningCount) warnings in all)\n"
                break
            }
            shown += 1
            if strict, d.severity == .warning { d.severity = .error }
            text += styled(d) + "\n"
            if errorFormat == .github { text += d.githubAnnotation + "\n" }
        }
        err(text)
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
