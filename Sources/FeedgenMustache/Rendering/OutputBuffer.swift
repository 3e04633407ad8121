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

    mutating func appendEscaped(_ buffer: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for i in 0..<buffer.count {
            let replacement: StaticString
            switch buffer[i] {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "\""): replacement = "&quot;"
            case UInt8(ascii: "'"): replacement = "&#39;"
            default: continue
            }
            if i > runStart { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[runStart..<i])) }
            replacement.withUTF8Buffer { bytes.append(contentsOf: $0) }
            runStart = i + 1
        }
        if buffer.count > runStart {
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[runStart..<buffer.count]))
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
