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

/// A list of diagnostics that a stage fills and the build reads. Not thread-safe: each worker
/// keeps its own and the build merges them in a deterministic order.
public struct Diagnostics: Sendable {
    public private(set) var items: [Diagnostic] = []

    public init() {}

    public mutating func append(_ d: Diagnostic) { items.append(d) }
    public mutating func append(contentsOf other: Diagnostics) { items.append(contentsOf: other.items) }
    public mutating func append(contentsOf list: [Diagnostic]) { items.append(contentsOf: list) }

    public mutating func error(_ location: SourceLocation, _ message: String) {
        items.append(.error(location, message))
    }

    public mutating func warning(_ location: SourceLocation, _ message: String) {
        items.append(.warning(location, message))
    }

    public var hasErrors: Bool { items.contains { $0.severity == .error } }
    public var errorCount: Int { items.count { $0.severity == .error } }
    public var warningCount: Int { items.count { $0.severity == .warning } }

    /// How many leading ``items`` are known to be in ``sorted`` order (``sort()`` sorted them;
    /// later ones were appended since).
    private var sortedPrefix = 0

    /// Sorted by path, line, column, then the order they were found in: the order in which they
    /// are printed.
    public var sorted: [Diagnostic] {
        // A build's report is kept in this order (``sort()``), and a few are appended to it: the
        // items after the part in order are sorted alone and merged in (equal locations keep
        // the earlier item first, as a stable sort of all would).
        var inOrder = sortedPrefix
        while inOrder < items.count, inOrder == 0 || !(items[inOrder].location < items[inOrder - 1].location) { inOrder += 1 }
        if inOrder == items.count { return items }
        // Each comparison compares the paths once (`<` on locations compares them for equality
        // first, and again after a test for equal locations).
        let tail = items[inOrder...].enumerated().sorted { a, b in
            let (x, y) = (a.element.location, b.element.location)
            if x.path != y.path { return x.path < y.path }
            if x.line != y.line { return x.line < y.line }
            if x.column != y.column { return x.column < y.column }
            return a.offset < b.offset
        }.map(\.element)
        var merged: [Diagnostic] = []
        merged.reserveCapacity(items.count)
        var (i, j) = (0, 0)
        while i < inOrder, j < tail.count {
            if tail[j].location < items[i].location {
                merged.append(tail[j])
                j += 1
            } else {
                merged.append(items[i])
                i += 1
            }
        }
        merged += items[i..<inOrder]
        merged += tail[j...]
        return merged
    }

    /// Puts the list in ``sorted`` order. A build's report is kept so, whichever way it was
    /// built (a patch build merges the diagnostics of the items it read into the last build's).
    public mutating func sort() {
        items = sorted
        sortedPrefix = items.count
    }

    /// ``sort()``, given the first `prefix.count` items already in ``sorted`` order (sorted on
    /// another thread while more were appended): those after them are sorted and merged in.
    public mutating func sort(sortedPrefix prefix: [Diagnostic]) {
        precondition(prefix.count <= items.count, "a sorted prefix longer than the list")
        if prefix.count == items.count { items = prefix } else { items.replaceSubrange(0..<prefix.count, with: prefix) }
        sortedPrefix = prefix.count
        sort()
    }
}
