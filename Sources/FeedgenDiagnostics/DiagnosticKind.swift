/// The kind of a diagnostic: its severity and message with the values that vary between
/// occurrences left out, so that a long list of problems can be summed up by kind.
extension Diagnostic {
    /// `warning: Liquid output '…' is left out of the page: feedgen does not run Liquid` for every
    /// Liquid output: the message with each quoted value (in `'` or `"`) replaced by `'…'`, and
    /// each word holding a `/` (a path or URL) and each number by `…`, after the severity. Stable across runs and
    /// machines (it depends on the message only).
    public var kind: String { severity.rawValue + ": " + Self.kind(of: message) }

    static func kind(of message: String) -> String {
        let scalars = Array(message.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        func isWordScalar(_ s: Unicode.Scalar) -> Bool { s.properties.isAlphabetic || ("0"..."9").contains(s) }
        func elide() {
            if !(out.last == "…") { out.append("…") }
        }
        while i < scalars.count {
            let c = scalars[i]
            // A quote opens a value after a space, bracket or line start (not an apostrophe).
            if c == "'" || c == "\"", i == 0 || !isWordScalar(scalars[i - 1]) {
                var j = i + 1
                // It closes at the same quote before the end, a space or punctuation.
                while j < scalars.count, !(scalars[j] == c && (j + 1 == scalars.count || " ),;:.?!]".unicodeScalars.contains(scalars[j + 1]))) {
                    j += 1
                }
                if j < scalars.count {
                    out.append(contentsOf: "'…'".unicodeScalars)  // either quote: one kind
                    i = j + 1
                    continue
                }
            }
            if c != " " {
                // A word holding a `/` (a path, a URL): left out, its brackets and punctuation kept.
                var j = i
                while j < scalars.count, scalars[j] != " " { j += 1 }
                var word = scalars[i..<j]
                if word.contains("/") {
                    var head = String.UnicodeScalarView()
                    while let first = word.first, "([{".unicodeScalars.contains(first) {
                        head.append(first)
                        word = word.dropFirst()
                    }
                    var tail = String.UnicodeScalarView()
                    while let last = word.last, ")]},;:.".unicodeScalars.contains(last) {
                        tail.insert(last, at: tail.startIndex)
                        word = word.dropLast()
                    }
                    out.append(contentsOf: head)
                    elide()
                    out.append(contentsOf: tail)
                    i = j
                    continue
                }
            }
            if ("0"..."9").contains(c) {
                // One number, date or time: digits joined by `.`, `-`, `:`, `T` (3.5, 2026-11-29T10:00).
                while i < scalars.count, ("0"..."9").contains(scalars[i]) || ".-:T".unicodeScalars.contains(scalars[i])
                    && i + 1 < scalars.count && ("0"..."9").contains(scalars[i + 1])
                {
                    i += 1
                }
                elide()
                continue
            }
            out.append(c)
            i += 1
        }
        return String(out)
    }
}
