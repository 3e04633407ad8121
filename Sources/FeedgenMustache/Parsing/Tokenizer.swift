/// Splits a template into tokens, applying Set Delimiter tags as it meets them
/// (Mustache spec, `delimiters.json`: a change lasts to the end of the compilation unit, so
/// it never leaks into partials, which are compiled separately).
struct Tokenizer {
    private let source: SourceText
    private let bytes: [UInt8]
    private var delimiters: Delimiters

    init(source: SourceText, delimiters: Delimiters) {
        self.source = source
        self.bytes = source.bytes
        self.delimiters = delimiters
    }

    /// Errors: ``MustacheError/Kind/unclosedTag``, ``MustacheError/Kind/emptyTag``,
    /// ``MustacheError/Kind/invalidDelimiters``.
    mutating func tokenize() throws(MustacheError) -> [Token] {
        var tokens: [Token] = []
        tokens.reserveCapacity(bytes.count / 16 + 4)
        let n = bytes.count
        var i = 0
        var textStart = 0
        while i < n {
            let b = bytes[i]
            if b == UInt8(ascii: "\n") {
                let lineBreakStart = (i > textStart && bytes[i - 1] == UInt8(ascii: "\r")) ? i - 1 : i
                if lineBreakStart > textStart {
                    tokens.append(Token(kind: .text, start: textStart, end: lineBreakStart))
                }
                tokens.append(Token(kind: .newline, start: lineBreakStart, end: i + 1))
                i += 1
                textStart = i
            } else if b == delimiters.open[0] && matches(delimiters.open, at: i) {
                if i > textStart { tokens.append(Token(kind: .text, start: textStart, end: i)) }
                let tag = try readTag(at: i)
                tokens.append(tag)
                i = tag.end
                textStart = i
            } else {
                i += 1
            }
        }
        if n > textStart { tokens.append(Token(kind: .text, start: textStart, end: n)) }
        return tokens
    }

    // MARK: Tags

    private mutating func readTag(at start: Int) throws(MustacheError) -> Token {
        let contentStart = start + delimiters.open.count
        let sigil: UInt8? = contentStart < bytes.count ? bytes[contentStart] : nil
        let kind: Token.Kind
        var terminator = delimiters.close
        var nameStart = contentStart + 1
        switch sigil {
        case UInt8(ascii: "{"):
            kind = .unescapedVariable
            terminator = [UInt8(ascii: "}")] + delimiters.close
        case UInt8(ascii: "&"): kind = .unescapedVariable
        case UInt8(ascii: "#"): kind = .section
        case UInt8(ascii: "^"): kind = .invertedSection
        case UInt8(ascii: "/"): kind = .close
        case UInt8(ascii: "!"): kind = .comment
        case UInt8(ascii: ">"): kind = .partial
        case UInt8(ascii: "<"): kind = .parent
        case UInt8(ascii: "$"): kind = .block
        case UInt8(ascii: "="):
            kind = .setDelimiters
            terminator = [UInt8(ascii: "=")] + delimiters.close
        default:
            kind = .variable
            nameStart = contentStart
        }
        nameStart = min(nameStart, bytes.count)
        guard let contentEnd = find(terminator, from: nameStart) else {
            let expected = String(decoding: terminator, as: UTF8.self)
            if kind == .setDelimiters {
                throw source.error(
                    .invalidDelimiters,
                    "unclosed set-delimiter tag: expected '\(expected)'",
                    at: source.position(of: start))
            }
            throw source.error(.unclosedTag, "unclosed tag: expected '\(expected)'", at: source.position(of: start))
        }
        var token = Token(kind: kind, start: start, end: contentEnd + terminator.count)
        token.delimiters = delimiters

        switch kind {
        case .comment:
            break
        case .setDelimiters:
            delimiters = try parseDelimiters(nameStart..<contentEnd, tagStart: start)
        default:
            var name = trimmed(nameStart..<contentEnd)
            if (kind == .partial || kind == .parent || kind == .close), name.first == "*" {
                // Dynamic name (`~dynamic-names.json`); `{{> * name }}` is `{{>*name}}`.
                name = String(name.dropFirst()).trimmingWhitespace()
                token.isDynamic = true
            }
            if name.isEmpty {
                throw source.error(.emptyTag, "empty tag: expected a name", at: source.position(of: start))
            }
            token.name = name
        }
        return token
    }

    /// The content of `{{=<% %>=}}`: exactly two non-empty delimiters separated by whitespace.
    private func parseDelimiters(_ range: Range<Int>, tagStart: Int) throws(MustacheError) -> Delimiters {
        var parts: [[UInt8]] = []
        var current: [UInt8] = []
        for b in bytes[range] {
            if isWhitespace(b) {
                if !current.isEmpty { parts.append(current); current = [] }
            } else {
                current.append(b)
            }
        }
        if !current.isEmpty { parts.append(current) }
        guard parts.count == 2 else {
            let content = source.string(range).trimmingWhitespace()
            throw source.error(
                .invalidDelimiters,
                "invalid delimiters '\(content)': expected two delimiters separated by whitespace, as in {{=<% %>=}}",
                at: source.position(of: tagStart))
        }
        return Delimiters(open: parts[0], close: parts[1])
    }

    // MARK: Byte helpers

    private func matches(_ pattern: [UInt8], at i: Int) -> Bool {
        guard i + pattern.count <= bytes.count else { return false }
        for k in 0..<pattern.count where bytes[i + k] != pattern[k] { return false }
        return true
    }

    private func find(_ pattern: [UInt8], from start: Int) -> Int? {
        guard let first = pattern.first else { return nil }
        var i = start
        let last = bytes.count - pattern.count
        while i <= last {
            if bytes[i] == first && matches(pattern, at: i) { return i }
            i += 1
        }
        return nil
    }

    private func trimmed(_ range: Range<Int>) -> String {
        var lo = range.lowerBound, hi = range.upperBound
        while lo < hi && isWhitespace(bytes[lo]) { lo += 1 }
        while hi > lo && isWhitespace(bytes[hi - 1]) { hi -= 1 }
        return source.string(lo..<hi)
    }
}

extension String {
    /// Without leading and trailing ASCII whitespace.
    func trimmingWhitespace() -> String {
        let u = Array(utf8)
        var lo = 0, hi = u.count
        while lo < hi && isWhitespace(u[lo]) { lo += 1 }
        while hi > lo && isWhitespace(u[hi - 1]) { hi -= 1 }
        return String(decoding: u[lo..<hi], as: UTF8.self)
    }
}
