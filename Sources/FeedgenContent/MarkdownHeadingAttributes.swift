/// Heading attributes written at the end of a heading, as Hugo (goldmark's attribute syntax, on
/// for headings by default), kramdown and MkDocs (attr_list) read them: `## Title {#id}`,
/// `{#id .class}`, `{: #id}`, `{ #id }` (content-format §5.1).
import CCmark

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

enum MarkdownHeadingAttributes {
    /// Takes a trailing attribute block off `heading`'s text (its braces are not shown) and
    /// returns the id it names; nil when the heading ends in none or it names no id. Classes
    /// and `key=value` pairs are dropped (the theme has no styles for them).
    static func take(_ heading: OpaquePointer) -> String? {
        cmark_consolidate_text_nodes(heading)
        guard let last = cmark_node_last_child(heading), cmark_node_get_type(last) == CMARK_NODE_TEXT,
            let literal = cmark_node_get_literal(last), endsInBrace(literal)
        else { return nil }
        let text = String(cString: literal)
        guard let found = parse(text) else { return nil }
        var kept = text[..<found.start]
        while let c = kept.last, c == " " || c == "\t" { kept.removeLast() }
        if kept.isEmpty {
            cmark_node_free(last)
        } else {
            _ = cmark_node_set_literal(last, String(kept))
        }
        return found.id
    }

    /// Whether the C string `literal` ends in `}` before trailing spaces and tabs: else it ends
    /// in no attribute block (checked on bytes before a String is made of the heading's text).
    private static func endsInBrace(_ literal: UnsafePointer<CChar>) -> Bool {
        var end = strlen(literal)
        while end > 0, literal[end - 1] == CChar(UInt8(ascii: " ")) || literal[end - 1] == CChar(UInt8(ascii: "\t")) { end -= 1 }
        return end > 0 && literal[end - 1] == CChar(UInt8(ascii: "}"))
    }

    /// The attribute block `{…}` that ends `text` (white space after it allowed): where its `{`
    /// is and the id of its last `#id`. Inside the braces, after an optional `:`, come
    /// space-separated `#id`, `.class` and `key=value` tokens, at least one; anything else is
    /// no attribute block (`{x}` stays text). Ids and classes hold letters, marks, digits, `_`,
    /// `-`, `:` and `.` (goldmark's rule), so they need no escaping in HTML.
    static func parse(_ text: String) -> (start: String.Index, id: String?)? {
        var end = text.endIndex
        while end > text.startIndex, text[text.index(before: end)] == " " || text[text.index(before: end)] == "\t" {
            end = text.index(before: end)
        }
        guard end > text.startIndex, text[text.index(before: end)] == "}",
            let open = text[..<end].lastIndex(of: "{")
        else { return nil }
        var inner = text[text.index(after: open)..<text.index(before: end)]
        if inner.first == ":" { inner = inner.dropFirst() }
        let tokens = tokenize(inner)
        guard !tokens.isEmpty else { return nil }
        var id: String?
        for token in tokens {
            if token.first == "#" || token.first == ".", token.count > 1, token.dropFirst().allSatisfy(isNameCharacter) {
                if token.first == "#" { id = String(token.dropFirst()) }
            } else if let equals = token.firstIndex(of: "="), equals > token.startIndex,
                token[..<equals].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }),
                token.index(after: equals) < token.endIndex
            {
                continue
            } else {
                return nil
            }
        }
        return (open, id)
    }

    /// `inner` split at white space outside quotes (`data-toc-label="With pip"` is one token;
    /// smart punctuation may have made its quotes curly).
    private static func tokenize(_ inner: Substring) -> [Substring] {
        var tokens: [Substring] = []
        var start: Substring.Index?
        var quote: Character?
        let closing: [Character: Character] = ["\"": "\"", "'": "'", "\u{201C}": "\u{201D}", "\u{2018}": "\u{2019}"]
        for k in inner.indices {
            let c = inner[k]
            if let q = quote {
                if c == q { quote = nil }
            } else if c == " " || c == "\t" {
                if let s = start { tokens.append(inner[s..<k]) }
                start = nil
            } else {
                if start == nil { start = k }
                if let q = closing[c] { quote = q }
            }
        }
        if let s = start { tokens.append(inner[s...]) }
        return tokens
    }

    private static func isNameCharacter(_ c: Character) -> Bool {
        c.isLetter || c.isNumber || c == "_" || c == "-" || c == ":" || c == "." || c.unicodeScalars.allSatisfy {
            $0.properties.generalCategory == .nonspacingMark || $0.properties.generalCategory == .spacingMark
        }
    }
}
