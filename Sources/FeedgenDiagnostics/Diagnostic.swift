/// How serious a diagnostic is. `--strict` turns warnings into errors; notes are informational
/// (for example, a draft skipped by the build).
public enum Severity: String, Sendable, Comparable, CaseIterable {
    case note, warning, error

    private var rank: Int {
        switch self {
        case .note: 0
        case .warning: 1
        case .error: 2
        }
    }

    public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
}

/// One problem found in the input, shown as `path:line:column: severity: message`
/// (the format of compilers and of GitHub's problem matchers).
public struct Diagnostic: Error, Hashable, Sendable, CustomStringConvertible {
    public var severity: Severity
    public var location: SourceLocation
    public var message: String

    public init(_ severity: Severity, _ location: SourceLocation, _ message: String) {
        self.severity = severity
        self.location = location
        self.message = message
    }

    public static func error(_ location: SourceLocation, _ message: String) -> Diagnostic {
        Diagnostic(.error, location, message)
    }

    public static func warning(_ location: SourceLocation, _ message: String) -> Diagnostic {
        Diagnostic(.warning, location, message)
    }

    public static func note(_ location: SourceLocation, _ message: String) -> Diagnostic {
        Diagnostic(.note, location, message)
    }

    /// `path:line:column: severity: message`.
    public var description: String { "\(location): \(severity.rawValue): \(message)" }

    /// The GitHub Actions workflow-command form:
    /// `::error file=path,line=L,col=C::message` (see GitHub's "Workflow commands" docs).
    public var githubAnnotation: String {
        let kind = severity == .note ? "notice" : severity.rawValue
        var properties = "file=\(Self.escapeProperty(location.path))"
        if location.line > 0 { properties += ",line=\(location.line)" }
        if location.column > 0 { properties += ",col=\(location.column)" }
        return "::\(kind) \(properties)::\(Self.escapeData(message))"
    }

    private static func escapeData(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    private static func escapeProperty(_ s: String) -> String {
        var out = ""
        for c in escapeData(s).unicodeScalars {
            switch c {
            case ":": out += "%3A"
            case ",": out += "%2C"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
