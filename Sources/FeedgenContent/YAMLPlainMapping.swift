/// The common front matter read without libyaml: a few `key: value` lines of plain one-line
/// values (`title: Document 7`, `weight: 3`), giving the node ``YAMLParser`` would.

enum YAMLPlainMapping {
    /// The mapping of `text` when every line is `key: value` at column 1: an ASCII key that
    /// starts with a letter (letters, digits, `_`, `-`), `: `, spaces, and a value of ASCII
    /// letters, digits, spaces and `.,_-/()` that starts with a letter or digit and does not end
    /// in a space; at most 32 lines, no key twice. Nil for anything else (blank or comment lines,
    /// quotes, `:` or `#` in a value, non-ASCII, …): libyaml reads those. Such a text is a block
    /// mapping of plain scalars for libyaml, and has no diagnostics; the positions are its marks
    /// (the mapping at its first key, a value at its first byte: ASCII, so bytes are scalars).
    static func parse(_ b: UnsafeBufferPointer<UInt8>, firstLine: Int) -> YAMLNode? {
        var pairs: [YAMLPair] = []
        var i = 0
        var line = firstLine
        while i < b.count {
            guard pairs.count < 32, isLetter(b[i]) else { return nil }
            let keyStart = i
            i += 1
            while i < b.count, isLetter(b[i]) || isDigit(b[i]) || b[i] == UInt8(ascii: "_") || b[i] == UInt8(ascii: "-") { i += 1 }
            let keyEnd = i
            guard keyEnd - keyStart <= 128, i + 1 < b.count, b[i] == UInt8(ascii: ":"), b[i + 1] == UInt8(ascii: " ") else { return nil }
            i += 2
            while i < b.count, b[i] == UInt8(ascii: " ") { i += 1 }
            let valueStart = i
            guard i < b.count, isLetter(b[i]) || isDigit(b[i]) else { return nil }
            while i < b.count, b[i] != UInt8(ascii: "\n") {
                guard isValueByte(b[i]) else { return nil }
                i += 1
            }
            guard b[i - 1] != UInt8(ascii: " ") else { return nil }
            let key = String(decoding: UnsafeBufferPointer(rebasing: b[keyStart..<keyEnd]), as: UTF8.self)
            guard !pairs.contains(where: { $0.key.string == key }) else { return nil }
            let value = String(decoding: UnsafeBufferPointer(rebasing: b[valueStart..<i]), as: UTF8.self)
            pairs.append(
                YAMLPair(
                    key: YAMLNode(.scalar(key, plain: true), line: line, column: 1),
                    value: YAMLNode(.scalar(value, plain: true), line: line, column: valueStart - keyStart + 1)))
            line += 1
            i += 1  // the newline
        }
        guard !pairs.isEmpty else { return nil }
        return YAMLNode(.mapping(pairs), line: firstLine, column: 1)
    }

    private static func isLetter(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
    }

    private static func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

    private static func isValueByte(_ c: UInt8) -> Bool {
        if isLetter(c) || isDigit(c) { return true }
        switch c {
        case UInt8(ascii: " "), UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "/"),
            UInt8(ascii: "("), UInt8(ascii: ")"):
            return true
        default:
            return false
        }
    }
}
