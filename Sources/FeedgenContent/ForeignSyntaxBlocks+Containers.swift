/// The containers ``ForeignSyntaxBlocks`` reads admonitions and tabs in — list items, block
/// quotes, definitions — and the line tests it needs for them: where a container's lines end
/// (lazy continuation lines included, CommonMark 5.2), fenced code, indentation.
extension ForeignSyntaxBlocks {
    /// An open fenced code block: its fence character and length, and the indentation of its
    /// opening line.
    typealias Fence = (char: Character, count: Int, indent: Int)

    /// Whether `line` (its `indent` columns of indentation taken off) closes the fenced code
    /// block `fence`: as long a run of its character, nothing after it but spaces, and indented
    /// less than four columns more than the opening fence (CommonMark 4.5: a deeper one is code).
    static func closes(_ line: Substring, _ fence: Fence, indent: Int) -> Bool {
        indent < fence.indent + 4 && line.prefix(while: { $0 == fence.char }).count >= fence.count
            && line.drop(while: { $0 == fence.char }).allSatisfy(\.isWhitespace)
    }

    static func openingFence(_ line: Substring, indent: Int) -> Fence? {
        guard let c = line.first, c == "`" || c == "~" else { return nil }
        let count = line.prefix { $0 == c }.count
        guard count >= 3, c == "~" || !line.dropFirst(count).contains("`") else { return nil }
        return (c, count, indent)
    }

    /// Whether `line` (indented `indent` columns) is fenced code: an opening or closing fence
    /// or a line between them; `fence` is the open fenced block, updated.
    static func isFencedCode(_ line: Substring, indent: Int, fence: inout Fence?) -> Bool {
        if let f = fence {
            if closes(line, f, indent: indent) { fence = nil }
            return true
        }
        fence = openingFence(line, indent: indent)
        return fence != nil
    }

    /// Where a list item's content starts, counted from its marker (`- `, `* `, `+ `, `1. `,
    /// `1) `): the marker's width and the spaces after it (CommonMark 5.2: one to four; more, or
    /// none before the line's end, count as one). Nil for a line that is no list item.
    static func listItemContentColumn(_ line: Substring) -> Int? {
        let utf8 = line.utf8
        var i = utf8.startIndex
        var width = 0
        if let c = utf8.first, c == UInt8(ascii: "-") || c == UInt8(ascii: "*") || c == UInt8(ascii: "+") {
            i = utf8.index(after: i)
            width = 1
        } else {
            while i < utf8.endIndex, utf8[i] >= 0x30, utf8[i] <= 0x39, width < 9 {
                i = utf8.index(after: i)
                width += 1
            }
            guard width > 0, i < utf8.endIndex, utf8[i] == UInt8(ascii: ".") || utf8[i] == UInt8(ascii: ")") else { return nil }
            i = utf8.index(after: i)
            width += 1
        }
        var spaces = 0
        while i < utf8.endIndex, utf8[i] == UInt8(ascii: " ") {
            i = utf8.index(after: i)
            spaces += 1
        }
        guard spaces > 0 else { return nil }
        return width + (spaces > 4 || i == utf8.endIndex ? 1 : spaces)
    }

    /// Whether `line` opens a definition of Python-Markdown's `def_list` (MkDocs): `:` and one
    /// to three spaces before text (`:   Definition`). Its content goes on indented four spaces.
    static func isDefinition(_ line: Substring) -> Bool {
        guard line.first == ":" else { return false }
        let spaces = line.dropFirst().prefix { $0 == " " }.count
        return (1...3).contains(spaces) && line.dropFirst(1 + spaces).contains { $0 != " " && $0 != "\t" }
    }

    /// The bytes of a block quote marker at the start of `text`: up to three spaces, `>` and
    /// the one space after it that belongs to the marker (CommonMark 5.1). Nil for no marker.
    static func quoteMarkerLength(_ text: Substring) -> Int? {
        let spaces = text.utf8.prefix { $0 == UInt8(ascii: " ") }.count
        let rest = text.utf8.dropFirst(spaces)
        guard spaces < 4, rest.first == UInt8(ascii: ">") else { return nil }
        return spaces + 1 + (rest.dropFirst().first == UInt8(ascii: " ") ? 1 : 0)
    }

    /// Whether an admonition, a tab or a Docusaurus block may open among `lines[range]`, at any
    /// depth (a nested list's item or a block quote holds it) outside fenced code: the level
    /// then reads them.
    static func opensBlock(_ lines: [Line], _ range: Range<Int>, column: Int, closings: [Int: Int]) -> Bool {
        var fence: Fence?
        for k in range {
            let text = lines[k].text
            guard width(ofIndentation: text) >= column else { continue }
            var line = text.drop { $0 == " " || $0 == "\t" }
            if isFencedCode(line, indent: width(ofIndentation: text), fence: &fence) { continue }
            if closings[k] != nil, docusaurusHeader(line) != nil { return true }
            while line.first == ">" { line = line.dropFirst().drop { $0 == " " || $0 == "\t" } }
            if mkDocsHeader(line) != nil { return true }
        }
        return false
    }

    /// The line after the last one of an indented body starting after `header`: lines indented
    /// by `indent` or blank, without the blank lines at its end. With `paragraph` (whether a
    /// list item's or definition's first line is text), a line indented less that continues a
    /// paragraph of the body is in it too: CommonMark's lazy continuation line (`- Item` then
    /// `lazy`), which starts no block (``interruptsParagraph(_:)``).
    static func indentedBodyEnd(_ lines: [Line], after header: Int, indent: Int, limit: Int, paragraph: Bool? = nil) -> Int {
        var end = header + 1
        var k = header + 1
        let lazy = paragraph != nil
        var paragraph = paragraph ?? false
        var fence: Fence?
        while k < limit {
            let text = lines[k].text
            if isBlank(text) {
                if fence == nil { paragraph = false }
                k += 1
                continue
            }
            let width = width(ofIndentation: text)
            let line = text.drop { $0 == " " || $0 == "\t" }
            if width < indent {
                guard lazy, paragraph, fence == nil, width >= 4 || !interruptsParagraph(line) else { break }
            } else if let f = fence {
                if closes(line, f, indent: width - indent) { fence = nil }
            } else if width - indent >= 4 {
                // Indented code, or a paragraph's continuation.
            } else if let f = openingFence(line, indent: width - indent) {
                (fence, paragraph) = (f, false)
            } else {
                paragraph = !startsLeafBlock(line)
            }
            k += 1
            end = k
        }
        return end
    }

    /// Whether `line` (its indentation taken off, less than four columns) starts a block that
    /// ends a paragraph before it (CommonMark 4–5): a block quote, list item, ATX heading,
    /// fence or thematic break, or an admonition or tab (Python-Markdown and pymdownx start
    /// a new block at their line, ``ForeignSyntaxBlocks``).
    static func interruptsParagraph(_ line: Substring) -> Bool {
        guard let c = line.first else { return false }
        if c == ">" || listItemContentColumn(line) != nil || startsLeafBlock(line) { return true }
        return openingFence(line, indent: 0) != nil
    }

    /// An ATX heading, a thematic break or an admonition or tab header: a line after which a
    /// following line is no paragraph continuation.
    static func startsLeafBlock(_ line: Substring) -> Bool {
        guard let c = line.first else { return false }
        if c == "#" {
            let hashes = line.prefix { $0 == "#" }.count
            let after = line.dropFirst(hashes).first
            return hashes <= 6 && (after == nil || after == " " || after == "\t")
        }
        if c == "-" || c == "*" || c == "_" {
            let marks = line.filter { $0 != " " && $0 != "\t" }
            return marks.count >= 3 && marks.allSatisfy { $0 == c }
        }
        return mkDocsHeader(line) != nil
    }

    static func isBlank(_ text: Substring) -> Bool { text.allSatisfy { $0 == " " || $0 == "\t" } }

    static func width(ofIndentation text: Substring) -> Int {
        var width = 0
        for c in text {
            if c == " " { width += 1 } else if c == "\t" { width += 4 - width % 4 } else { break }
        }
        return width
    }

    /// Takes `width` columns of indentation off each line (a tab counts to the next multiple of
    /// 4) and puts `prefix` before it: `>` then a space for a line with text (`separated`), or
    /// a list item's indentation as it is.
    static func dedent(_ lines: inout [Line], _ range: Range<Int>, by width: Int, prefix: String, separated: Bool = true) {
        for k in range {
            var taken = 0
            var bytes = 0
            var text = lines[k].text
            while taken < width, let c = text.first, c == " " || c == "\t" {
                taken += c == " " ? 1 : 4 - taken % 4
                text = text.dropFirst()
                bytes += 1
            }
            let blank = text.allSatisfy { $0 == " " || $0 == "\t" }
            lines[k].text = blank ? "" : text
            lines[k].removed += bytes
            lines[k].prefix += blank || prefix.isEmpty || !separated ? prefix : prefix + " "
        }
    }
}
