/// One lexical piece of a template: a run of text without line breaks, a line break, or a tag.
struct Token {
    enum Kind: Equatable {
        case text
        case newline
        case variable           // {{name}}
        case unescapedVariable  // {{{name}}} or {{&name}}
        case section            // {{#name}}
        case invertedSection    // {{^name}}
        case close              // {{/name}}
        case comment            // {{! … }}
        case setDelimiters      // {{=<% %>=}}
        case partial            // {{>name}}
        case parent             // {{<name}}
        case block              // {{$name}}
    }

    var kind: Kind
    /// Byte range in the source (for a tag, from its opening to the end of its closing delimiter).
    var start: Int
    var end: Int
    /// The tag's trimmed content; for a dynamic partial or parent, the dotted name after `*`.
    var name: String = ""
    var isDynamic = false
    /// The delimiters in effect when the tag was read.
    var delimiters: Delimiters = .standard

    // Set by the standalone pass.
    /// The tag stands alone on its line (only whitespace and other non-output tags around it).
    var standalone = false
    /// This whitespace text or line break belongs to a standalone line and is not output.
    var removed = false
    /// The leading whitespace of the tag's standalone line.
    var lineIndent: [UInt8] = []

    var isTag: Bool { kind != .text && kind != .newline }
    var isInterpolation: Bool { kind == .variable || kind == .unescapedVariable }
    var opensSection: Bool {
        kind == .section || kind == .invertedSection || kind == .parent || kind == .block
    }

    /// What a closing tag must repeat: the name, with the `*` of a dynamic name.
    var matchKey: String { isDynamic ? "*" + name : name }
}

@inline(__always) func isIndentWhitespace(_ b: UInt8) -> Bool {
    b == UInt8(ascii: " ") || b == UInt8(ascii: "\t")
}

@inline(__always) func isWhitespace(_ b: UInt8) -> Bool {
    b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0B || b == 0x0C
}
