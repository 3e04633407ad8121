import FeedgenDiagnostics
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
        let printed = diagnostics.printed(limit: Self.diagnosticLimit, droppingNotes: quiet)
        for var d in printed.shown {
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
        if printed.total > printed.shown.count {
            text += "feedgen: \(printed.total - printed.shown.count) more problems not shown (\(Self.count(diagnostics.errorCount, "error")) and \(Self.count(diagnostics.warningCount, "warning")) in all)\n"
            text += Self.kindSummary(printed, strict: strict)
        }
        return text
    }

    /// One line per kind of problem (``Diagnostic/kind``) with its count, most frequent first
    /// (then by kind): printed after the first `diagnosticLimit` problems, so that no kind hides
    /// behind the ones that sort first by path.
    static func kindSummary(_ printed: PrintedDiagnostics, strict: Bool) -> String {
        let kinds = printed.kinds(strict: strict)
        var text = "feedgen: problems by kind (\(count(kinds.count, "kind"))):\n"
        for (kind, n) in kinds { text += "feedgen: \(n) × \(kind)\n" }
        return text
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
