/// The single growing string a render writes into.
///
/// It is a `String`, not a byte array: every piece appended is already valid UTF-8 (template
/// text decoded once at compile time, context strings), so appending copies bytes and the
/// result needs no final UTF-8 validation pass (which cost 6% of a 100,000-item build when the
/// buffer was `[UInt8]` turned into a String at the end).
struct OutputBuffer {
    private(set) var text = ""
    /// A lower bound of `text`'s capacity: what was last reserved.
    private var reserved: Int

    init(capacity: Int) {
        text.reserveCapacity(capacity)
        reserved = capacity
    }

    /// The number of UTF-8 bytes written so far (a mark for ``escapeSuffix(from:)``).
    var count: Int { text.utf8.count }

    @inline(__always) mutating func append(_ string: String) {
        let incoming = string.utf8.count
        if incoming >= Self.largeAppend { reserve(incoming) }
        text.append(string)
    }

    /// Appends of at least this many bytes (a feed page's rendered sections) reserve room for
    /// what follows them too.
    static let largeAppend = 1 << 16

    /// Makes room for `incoming` more bytes and some slack, growing at least geometrically.
    /// Without it, appending a 235 MB section into a small buffer allocates exactly 235 MB, and
    /// the closing tags that follow reallocate 470 MB and copy it all again (a 100,000-card page).
    private mutating func reserve(_ incoming: Int) {
        let needed = text.utf8.count + incoming
        guard needed > reserved else { return }
        reserved = Swift.max(needed + Swift.max(Self.largeAppend, needed / 64), 2 * reserved)
        text.reserveCapacity(reserved)
    }

    /// Appends white space given as bytes (indentation: ASCII, so short strings stay inline).
    mutating func append(_ bytes: [UInt8]) { text.append(String(decoding: bytes, as: UTF8.self)) }

    /// Appends `string` HTML-escaped: `&`, `<`, `>`, `"` (Mustache spec, "HTML Escaping") and
    /// `'`, so that output is safe in single-quoted attributes too.
    mutating func appendEscaped(_ string: String) {
        var string = string
        string.makeContiguousUTF8()
        let utf8 = string.utf8
        utf8.withContiguousStorageIfAvailable { buffer in
            Self.needsEscape.withUnsafeBufferPointer { table in
                // Runs that need no escaping are appended as slices of `string`; the cuts are
                // next to ASCII bytes, so on scalar boundaries.
                var runStart = 0
                var i = 0
                let n = buffer.count
                while i < n {
                    while i < n && !table[Int(buffer[i])] { i += 1 }
                    guard i < n else { break }
                    if i > runStart {
                        text.append(contentsOf: string[utf8.index(utf8.startIndex, offsetBy: runStart)..<utf8.index(utf8.startIndex, offsetBy: i)])
                    }
                    switch buffer[i] {
                    case UInt8(ascii: "&"): text.append("&amp;")
                    case UInt8(ascii: "<"): text.append("&lt;")
                    case UInt8(ascii: ">"): text.append("&gt;")
                    case UInt8(ascii: "\""): text.append("&quot;")
                    default: text.append("&#39;")
                    }
                    i += 1
                    runStart = i
                }
                if runStart == 0 {
                    text.append(string)  // nothing to escape: one copy
                } else if runStart < n {
                    text.append(contentsOf: string[utf8.index(utf8.startIndex, offsetBy: runStart)...])
                }
            }
        }
    }

    /// Whether a byte needs escaping, by value: one load per byte in the scanning loop.
    private static let needsEscape: [Bool] = (0..<256).map { b in
        b == 0x26 || b == 0x3C || b == 0x3E || b == 0x22 || b == 0x27
    }

    /// What was written since `mark` (a UTF-8 offset from ``count``), removed from the buffer.
    mutating func removeSuffix(from mark: Int) -> String {
        guard mark < count else { return "" }
        let index = text.utf8.index(text.utf8.startIndex, offsetBy: mark)
        let written = String(text[index...])
        text.removeSubrange(index...)
        return written
    }

    /// Escapes in place what was written since `mark` (the rendered result of a lambda).
    mutating func escapeSuffix(from mark: Int) {
        let written = removeSuffix(from: mark)
        if !written.isEmpty { appendEscaped(written) }
    }

    var string: String { text }
}
