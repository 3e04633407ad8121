/// The single growing buffer a render writes into: UTF-8 bytes, made a String once at the end.
///
/// Every piece appended is valid UTF-8 (template text decoded at compile time, context
/// strings) and cuts are made only between pieces or next to ASCII bytes, so the bytes are
/// valid UTF-8 as a whole and the String is made without a second validation
/// (`UTF8Span(unchecked:)`, asserted in debug builds). Appending to a byte array costs a
/// fraction of appending to a String, whose append re-checks its own storage each time.
struct OutputBuffer {
    private var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// The number of UTF-8 bytes written so far (a mark for ``escapeSuffix(from:)``).
    var count: Int { bytes.count }

    @inline(__always) mutating func append(_ string: String) {
        var string = string
        string.withUTF8 { append(bytes: $0) }
    }

    @inline(__always) private mutating func append(bytes piece: UnsafeBufferPointer<UInt8>) {
        if bytes.count + piece.count > bytes.capacity { reserve(piece.count) }
        bytes.append(contentsOf: piece)
    }

    /// Makes room for `incoming` more bytes and some slack, growing at least geometrically
    /// (a 235 MB section appended to a small buffer must not be copied again by the closing
    /// tags that follow it: a 100,000-card page).
    private mutating func reserve(_ incoming: Int) {
        let needed = bytes.count + incoming
        bytes.reserveCapacity(Swift.max(needed + Swift.max(1 << 16, needed / 64), 2 * bytes.capacity))
    }

    /// Appends white space given as bytes (indentation).
    mutating func append(_ indent: [UInt8]) { indent.withUnsafeBufferPointer { append(bytes: $0) } }

    /// Appends `string` HTML-escaped: `&`, `<`, `>`, `"` (Mustache spec, "HTML Escaping") and
    /// `'`, so that output is safe in single-quoted attributes too.
    mutating func appendEscaped(_ string: String) {
        var string = string
        string.withUTF8 { buffer in
            Self.needsEscape.withUnsafeBufferPointer { table in
                // Runs that need no escaping are copied whole; the cuts are next to ASCII bytes.
                var runStart = 0
                var i = 0
                let n = buffer.count
                while i < n {
                    while i < n && !table[Int(buffer[i])] { i += 1 }
                    guard i < n else { break }
                    if i > runStart { append(bytes: UnsafeBufferPointer(rebasing: buffer[runStart..<i])) }
                    switch buffer[i] {
                    case UInt8(ascii: "&"): append("&amp;")
                    case UInt8(ascii: "<"): append("&lt;")
                    case UInt8(ascii: ">"): append("&gt;")
                    case UInt8(ascii: "\""): append("&quot;")
                    default: append("&#39;")
                    }
                    i += 1
                    runStart = i
                }
                if runStart < n { append(bytes: UnsafeBufferPointer(rebasing: buffer[runStart...])) }
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
        let written = bytes[mark...].withUnsafeBufferPointer { Self.string($0) }
        bytes.removeSubrange(mark...)
        return written
    }

    /// Escapes in place what was written since `mark` (the rendered result of a lambda).
    mutating func escapeSuffix(from mark: Int) {
        let written = removeSuffix(from: mark)
        if !written.isEmpty { appendEscaped(written) }
    }

    var string: String { bytes.withUnsafeBufferPointer { Self.string($0) } }

    /// A String of bytes known to be valid UTF-8 (see the type's comment).
    private static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        assert(String(validating: bytes, as: UTF8.self) != nil, "a render wrote invalid UTF-8")
        return String(copying: UTF8Span(unchecked: bytes.span))
    }
}
