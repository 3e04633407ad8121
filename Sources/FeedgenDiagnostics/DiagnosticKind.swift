/// The kind of a diagnostic: its severity and message with the values that vary between
/// occurrences left out, so that a long list of problems can be summed up by kind.
extension Diagnostic {
    /// `warning: Liquid output '…' is left out of the page: feedgen does not run Liquid` for every
    /// Liquid output: the message with each quoted value (in `'` or `"`) replaced by `'…'`, and
    /// each word holding a `/` (a path or URL) and each number by `…`, after the severity. Stable across runs and
    /// machines (it depends on the message only).
    public var kind: String { severity.rawValue + ": " + Self.kind(of: message) }

    static func kind(of message: String) -> String {
        var message = message
        return message.withUTF8 { kind(ofUTF8: $0) }
    }

    /// ``kind(of:)`` of a message's UTF-8 bytes, in one pass and one allocation: every
    /// character the rule looks for is ASCII, so a multi-byte scalar is copied through byte by
    /// byte; only "is the character before a quote a letter" decodes one (a large site's
    /// 25,000 messages are summed up this way).
    private static func kind(ofUTF8 b: UnsafeBufferPointer<UInt8>) -> String {
        let n = b.count
        // A byte becomes at most three (a digit or a one-byte path becomes `…`).
        return String(unsafeUninitializedCapacity: 3 * n) { out in
            var o = 0
            func put(_ c: UInt8) {
                out[o] = c
                o += 1
            }
            func elide() {
                if !(o >= 3 && out[o - 3] == 0xE2 && out[o - 2] == 0x80 && out[o - 1] == 0xA6) {
                    put(0xE2); put(0x80); put(0xA6)
                }
            }
            func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
            /// Whether the scalar that ends just before byte `i` is a letter or a digit.
            func wordBefore(_ i: Int) -> Bool {
                let c = b[i - 1]
                if c < 0x80 { return isDigit(c) || (c | 0x20 >= 0x61 && c | 0x20 <= 0x7A) }
                var start = i - 1
                while start > 0, b[start] & 0xC0 == 0x80 { start -= 1 }
                let bytes = UnsafeBufferPointer(rebasing: b[start..<i])
                guard let scalar = String(decoding: bytes, as: UTF8.self).unicodeScalars.first else { return false }
                return scalar.properties.isAlphabetic
            }
            func closes(_ c: UInt8) -> Bool {
                switch c {
                case 0x20, 0x29, 0x2C, 0x3B, 0x3A, 0x2E, 0x3F, 0x21, 0x5D: true  // space ) , ; : . ? ! ]
                default: false
                }
            }
            // What earlier scans found, so that no byte is scanned again: a quote of each kind
            // that found no close from an earlier byte finds none from a later one; the rest of a
            // word from `plainUntil` on holds no `/`.
            var unclosed: (single: Bool, double: Bool) = (false, false)
            var plainUntil = 0
            var i = 0
            while i < n {
                let c = b[i]
                // A quote opens a value after a space, bracket or line start (not an apostrophe).
                if c == 0x27 || c == 0x22, !(c == 0x27 ? unclosed.single : unclosed.double), i == 0 || !wordBefore(i) {
                    var j = i + 1
                    // It closes at the same quote before the end, a space or punctuation.
                    while j < n, !(b[j] == c && (j + 1 == n || closes(b[j + 1]))) { j += 1 }
                    if j < n {
                        put(0x27); put(0xE2); put(0x80); put(0xA6); put(0x27)  // either quote: one kind
                        i = j + 1
                        continue
                    }
                    if c == 0x27 { unclosed.single = true } else { unclosed.double = true }
                }
                if c != 0x20, i >= plainUntil {
                    // A word holding a `/` (a path, a URL): left out, its brackets and punctuation kept.
                    var j = i
                    var slash = false
                    while j < n, b[j] != 0x20 {
                        if b[j] == 0x2F { slash = true }
                        j += 1
                    }
                    if slash {
                        var start = i, end = j
                        while start < end, b[start] == 0x28 || b[start] == 0x5B || b[start] == 0x7B { start += 1 }  // ( [ {
                        while end > start, Self.trailing(b[end - 1]) { end -= 1 }
                        for k in i..<start { put(b[k]) }
                        elide()
                        for k in end..<j { put(b[k]) }
                        i = j
                        continue
                    }
                    plainUntil = j
                }
                if isDigit(c) {
                    // One number, date or time: digits joined by `.`, `-`, `:`, `T` (3.5, 2026-11-29T10:00).
                    while i < n, isDigit(b[i]) || Self.joinsDigits(b[i]) && i + 1 < n && isDigit(b[i + 1]) { i += 1 }
                    elide()
                    continue
                }
                put(c)
                i += 1
            }
            return o
        }
    }

    /// `)`, `]`, `}`, `,`, `;`, `:` or `.`: punctuation after a path, kept in the kind.
    private static func trailing(_ c: UInt8) -> Bool {
        switch c {
        case 0x29, 0x5D, 0x7D, 0x2C, 0x3B, 0x3A, 0x2E: true
        default: false
        }
    }

    /// `.`, `-`, `:` or `T` between digits: part of one number, date or time.
    private static func joinsDigits(_ c: UInt8) -> Bool { c == 0x2E || c == 0x2D || c == 0x3A || c == 0x54 }
}
