/// The single growing byte buffer a render writes into.
struct OutputBuffer {
    var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    @inline(__always) mutating func append(_ other: [UInt8]) { bytes.append(contentsOf: other) }

    mutating func append(_ string: String) {
        var string = string
        string.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends `string` HTML-escaped: `&`, `<`, `>`, `"` (Mustache spec, "HTML Escaping") and
    /// `'`, so that output is safe in single-quoted attributes too.
    mutating func appendEscaped(_ string: String) {
        var string = string
        string.withUTF8 { appendEscaped($0) }
    }

    /// Whether a byte needs escaping, by value: one load per byte in the scanning loop.
    private static let needsEscape: [Bool] = (0..<256).map { b in
        b == 0x26 || b == 0x3C || b == 0x3E || b == 0x22 || b == 0x27
    }

    mutating func appendEscaped(_ buffer: UnsafeBufferPointer<UInt8>) {
        Self.needsEscape.withUnsafeBufferPointer { table in
            var runStart = 0
            var i = 0
            let n = buffer.count
            while i < n {
                // Skip the run of bytes that need no escaping, then copy it at once.
                while i < n && !table[Int(buffer[i])] { i += 1 }
                if i > runStart { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[runStart..<i])) }
                guard i < n else { break }
                let replacement: StaticString
                switch buffer[i] {
                case UInt8(ascii: "&"): replacement = "&amp;"
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case UInt8(ascii: "\""): replacement = "&quot;"
                default: replacement = "&#39;"
                }
                replacement.withUTF8Buffer { bytes.append(contentsOf: $0) }
                i += 1
                runStart = i
            }
        }
    }

    /// Escapes in place what was written since `mark` (the rendered result of a lambda).
    mutating func escapeSuffix(from mark: Int) {
        guard mark < bytes.count else { return }
        let written = Array(bytes[mark...])
        bytes.removeSubrange(mark...)
        written.withUnsafeBufferPointer { appendEscaped($0) }
    }

    var string: String { String(decoding: bytes, as: UTF8.self) }
}
