/// The kind of a diagnostic: its severity and message with the values that vary between
/// occurrences left out, so that a long list of problems can be summed up by kind.
extension Diagnostic {
    /// `warning: Liquid output '…' is left out of the page: feedgen does not run Liquid` for every
    /// Liquid output: the message with each quoted value (in `'` or `"`) replaced by `'…'`, and
    /// each word holding a `/` (a path or URL) and each number by `…`, after the severity. Stable across runs and
    /// machines (it depends on the message only).
    public var kind: String { severity.rawValue + ": " + Self.kind(of: message) }

    static func kind(of message: String) -> String {
        // Read as UTF-8 bytes: every character the rule looks for is ASCII, so a multi-byte
        // scalar is copied through byte by byte; only "is the character before a quote a
        // letter" decodes one (25,000 messages of a large site are summed up this way).
        let b = Array(message.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        let ellipsis: [UInt8] = [0xE2, 0x80, 0xA6]
        func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
        func elide() {
            if !(out.count >= 3 && out[(out.count - 3)...].elementsEqual(ellipsis)) {
                out.append(contentsOf: ellipsis)
            }
        }
        /// Whether the scalar that ends just before byte `i` is a letter or a digit.
        func wordBefore(_ i: Int) -> Bool {
            let c = b[i - 1]
            if c < 0x80 { return isDigit(c) || (c | 0x20 >= 0x61 && c | 0x20 <= 0x7A) }
            var start = i - 1
            while start > 0, b[start] & 0xC0 == 0x80 { start -= 1 }
            guard let scalar = String(decoding: b[start..<i], as: UTF8.self).unicodeScalars.first else { return false }
            return scalar.properties.isAlphabetic
        }
        func closers(_ c: UInt8) -> Bool {
            switch c {
            case 0x20, 0x29, 0x2C, 0x3B, 0x3A, 0x2E, 0x3F, 0x21, 0x5D: true  // space ) , ; : . ? ! ]
            default: false
            }
        }
        var i = 0
        while i < b.count {
            let c = b[i]
            // A quote opens a value after a space, bracket or line start (not an apostrophe).
            if c == 0x27 || c == 0x22, i == 0 || !wordBefore(i) {
                var j = i + 1
                // It closes at the same quote before the end, a space or punctuation.
                while j < b.count, !(b[j] == c && (j + 1 == b.count || closers(b[j + 1]))) {
                    j += 1
                }
                if j < b.count {
                    out.append(contentsOf: "'…'".utf8)  // either quote: one kind
                    i = j + 1
                    continue
                }
            }
            if c != 0x20 {
                // A word holding a `/` (a path, a URL): left out, its brackets and punctuation kept.
                var j = i
                while j < b.count, b[j] != 0x20 { j += 1 }
                if b[i..<j].contains(0x2F) {
                    var start = i, end = j
                    while start < end, "([{".utf8.contains(b[start]) { start += 1 }
                    while end > start, ")]},;:.".utf8.contains(b[end - 1]) { end -= 1 }
                    out.append(contentsOf: b[i..<start])
                    elide()
                    out.append(contentsOf: b[end..<j])
                    i = j
                    continue
                }
            }
            if isDigit(c) {
                // One number, date or time: digits joined by `.`, `-`, `:`, `T` (3.5, 2026-11-29T10:00).
                while i < b.count, isDigit(b[i]) || ".-:T".utf8.contains(b[i]) && i + 1 < b.count && isDigit(b[i + 1]) {
                    i += 1
                }
                elide()
                continue
            }
            out.append(c)
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
