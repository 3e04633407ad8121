extension MustacheValue {
    /// How ``init(json:name:numbers:)`` keeps a JSON number's text (what `{{x}}` renders).
    public enum JSONNumbers: Sendable {
        /// Integers as written (`85`, `12345678901234567890`; `-0` is `0`); a number with a
        /// fraction or exponent in its shortest form, as a JavaScript engine prints it
        /// (`1.210` → `1.21`, `1.0` → `1`, `1e3` → `1000`): what the spec's `data` expects
        /// (`interpolation.json` "Basic Decimal Interpolation").
        case shortest
        /// Every number exactly as written in the source (`1.50`, `1e3`, `-0`, `1e400`), as
        /// feedgen keeps a YAML plain scalar: no digit is lost or added.
        case asWritten
    }

    /// Reads a JSON document (RFC 8259) into a value.
    ///
    /// Objects keep their key order. A key repeated in one object is an error (RFC 8259 §4:
    /// names SHOULD be unique, and readers disagree on which value wins), so no value is
    /// silently dropped; keys compare as Swift strings, so two spellings of one text in different
    /// Unicode normalization forms (NFC, NFD) are the same key, as they are for a template's
    /// names. Numbers are kept as text (``MustacheValue/number(_:)``), as `numbers` says.
    ///
    /// - Parameters:
    ///   - name: Shown in errors, e.g. the file path.
    ///   - numbers: ``JSONNumbers/shortest`` (the spec's reading, the default) or
    ///     ``JSONNumbers/asWritten``.
    /// - Throws: ``MustacheError/Kind/invalidJSON`` with the line and column of the problem
    ///   (of the second one of a repeated key).
    public init(json: String, name: String = "", numbers: JSONNumbers = .shortest) throws(MustacheError) {
        var parser = JSONValueParser(text: json, name: name, numbers: numbers)
        self = try parser.parseDocument()
    }
}

/// A small recursive-descent JSON reader producing ``MustacheValue`` directly.
struct JSONValueParser {
    private let bytes: [UInt8]
    private let name: String
    private let numbers: MustacheValue.JSONNumbers
    private var i = 0
    private var depth = 0
    private static let maximumDepth = 512

    init(text: String, name: String, numbers: MustacheValue.JSONNumbers = .shortest) {
        self.bytes = Array(text.utf8)
        self.name = name
        self.numbers = numbers
    }

    mutating func parseDocument() throws(MustacheError) -> MustacheValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        let value = try parseValue()
        skipWhitespace()
        if i < bytes.count { throw error("unexpected text after the JSON value") }
        return value
    }

    private mutating func parseValue() throws(MustacheError) -> MustacheValue {
        skipWhitespace()
        guard i < bytes.count else { throw error("unexpected end of JSON, expected a value") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character '\(character(at: i))', expected a value")
        }
    }

    private mutating func parseObject() throws(MustacheError) -> MustacheValue {
        try enterContainer()
        i += 1
        var object = MustacheObject()
        skipWhitespace()
        if i < bytes.count && bytes[i] == UInt8(ascii: "}") {
            i += 1
            depth -= 1
            return .object(object)
        }
        var keyOffsets: [String: Int] = [:]  // where each key starts, for a repeated one
        while true {
            skipWhitespace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let keyStart = i
            let key = try parseString()
            if let earlier = keyOffsets.index(forKey: key) {
                // The dictionary keeps the first spelling (a twin in another normalization form
                // finds it).
                let (firstSpelling, first) = keyOffsets[earlier]
                let (line, column) = position(of: first)
                let spelling = Array(key.utf8) == Array(firstSpelling.utf8) ? "" : " (spelled in another Unicode normalization form)"
                i = keyStart
                throw error("duplicate key '\(key)'\(spelling) in an object (first at line \(line), column \(column)); keep one of them")
            }
            keyOffsets[key] = keyStart
            skipWhitespace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("expected ':' after an object key") }
            i += 1
            object[key] = try parseValue()
            skipWhitespace()
            guard i < bytes.count else { throw error("unexpected end of JSON in an object") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; break }
            throw error("expected ',' or '}' in an object")
        }
        depth -= 1
        return .object(object)
    }

    private mutating func parseArray() throws(MustacheError) -> MustacheValue {
        try enterContainer()
        i += 1
        var items: [MustacheValue] = []
        skipWhitespace()
        if i < bytes.count && bytes[i] == UInt8(ascii: "]") {
            i += 1
            depth -= 1
            return .array(items)
        }
        while true {
            items.append(try parseValue())
            skipWhitespace()
            guard i < bytes.count else { throw error("unexpected end of JSON in an array") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; break }
            throw error("expected ',' or ']' in an array")
        }
        depth -= 1
        return .array(items)
    }

    private mutating func enterContainer() throws(MustacheError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("JSON nested deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func parseString() throws(MustacheError) -> String {
        let start = i
        i += 1
        var out: [UInt8] = []
        var runStart = i
        while true {
            guard i < bytes.count else {
                i = start
                throw error("unterminated string")
            }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                out.append(contentsOf: bytes[runStart..<i])
                i += 1
                return String(decoding: out, as: UTF8.self)
            }
            if b < 0x20 { throw error("control character in a string (escape it)") }
            if b != UInt8(ascii: "\\") {
                i += 1
                continue
            }
            out.append(contentsOf: bytes[runStart..<i])
            i += 1
            guard i < bytes.count else { throw error("unterminated escape sequence") }
            let escape = bytes[i]
            i += 1
            switch escape {
            case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "/"): out.append(UInt8(ascii: "/"))
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try parseHex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    if i + 1 < bytes.count && bytes[i] == UInt8(ascii: "\\") && bytes[i + 1] == UInt8(ascii: "u") {
                        i += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid low surrogate in \\u escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        throw error("unpaired surrogate in \\u escape")
                    }
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw error("unpaired surrogate in \\u escape")
                }
                out.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
            default:
                i -= 2
                throw error("invalid escape sequence")
            }
            runStart = i
        }
    }

    private mutating func parseHex4() throws(MustacheError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw error("expected four hex digits after \\u") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: throw error("expected four hex digits after \\u")
            }
            value = value << 4 | UInt32(digit)
            i += 1
        }
        return value
    }

    private mutating func parseNumber() throws(MustacheError) -> MustacheValue {
        let start = i
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < bytes.count, isDigit(bytes[i]) else { throw error("invalid number") }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            while i < bytes.count && isDigit(bytes[i]) { i += 1 }
        }
        var isInteger = true
        if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            guard i < bytes.count, isDigit(bytes[i]) else { throw error("invalid number: expected digits after '.'") }
            while i < bytes.count && isDigit(bytes[i]) { i += 1 }
        }
        if i < bytes.count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            isInteger = false
            i += 1
            if i < bytes.count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
            guard i < bytes.count, isDigit(bytes[i]) else { throw error("invalid number: expected exponent digits") }
            while i < bytes.count && isDigit(bytes[i]) { i += 1 }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        if numbers == .asWritten { return .number(text) }
        if isInteger { return .number(text == "-0" ? "0" : text) }
        guard let value = Double(text) else { return .number(text) }
        return .number(MustacheValue.formatNumber(value))
    }

    private mutating func expectWord(_ word: String) throws(MustacheError) {
        let w = Array(word.utf8)
        let count = w.count
        let matches = i + count <= bytes.count && (0..<count).allSatisfy { bytes[i + $0] == w[$0] }
        guard matches else { throw error("unexpected character '\(character(at: i))', expected a value") }
        i += count
    }

    private mutating func skipWhitespace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return
            }
        }
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    private func character(at offset: Int) -> String {
        guard offset < bytes.count else { return "" }
        var end = offset + 1
        while end < bytes.count && bytes[end] & 0xC0 == 0x80 { end += 1 }
        return String(decoding: bytes[offset..<end], as: UTF8.self)
    }

    private func error(_ message: String) -> MustacheError {
        let (line, column) = position(of: i)
        return MustacheError(.invalidJSON, message, templateName: name, line: line, column: column)
    }

    /// The 1-based line and column (in Unicode scalars) of byte `offset`.
    private func position(of offset: Int) -> (line: Int, column: Int) {
        var line = 1, column = 1
        var k = 0
        while k < min(offset, bytes.count) {
            if bytes[k] == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if bytes[k] & 0xC0 != 0x80 {
                column += 1
            }
            k += 1
        }
        return (line, column)
    }
}
