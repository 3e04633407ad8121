/// MkDocs admonitions (`!!! note "Title"`, `??? tip`) and content tabs (`=== "Tab"`), and
/// Docusaurus admonitions (`:::note Title` … `:::`), rewritten before cmark reads a body into the
/// GitHub alerts and paragraphs it renders (content-format §5.3). Every line stays where it was;
/// ``PositionMap`` maps the rewritten text back to the body.
import FeedgenStorage

struct ForeignSyntaxBlocks {
    var text: String
    var map: PositionMap

    /// One line of the body: its text as the current level sees it (indentation taken off), what
    /// goes before it in the output, and how many of the body line's bytes were taken off.
    private struct Line {
        var text: Substring
        var prefix = ""
        var removed = 0
    }

    /// How deep admonitions nest before deeper ones are left as written (each level is a block
    /// quote; a hostile body must not recurse without end).
    static let maximumDepth = 16

    /// The body with admonitions and tabs rewritten; nil when no line starts (after spaces)
    /// with `!!!`, `???`, `:::` or `===` (the common case costs one scan).
    static func process(_ body: String) -> ForeignSyntaxBlocks? {
        guard mayHoldBlocks(body) else { return nil }
        var lines = body.split(separator: "\n", omittingEmptySubsequences: false).map { Line(text: $0) }
        let closings = docusaurusClosings(lines.map(\.text))
        var changed = false
        rewrite(&lines, 0..<lines.count, closings: closings, depth: 0, changed: &changed)
        guard changed else { return nil }
        var out = ""
        out.reserveCapacity(body.utf8.count + 64)
        var anchors: [PositionMap.Anchor] = [.init(outLine: 1, outColumn: 1, inLine: 1, inColumn: 1)]
        for (k, line) in lines.enumerated() {
            if k > 0 { out += "\n" }
            out += line.prefix
            out += line.text
            if !line.prefix.isEmpty || line.removed > 0 {
                anchors.append(.init(outLine: k + 1, outColumn: line.prefix.utf8.count + 1, inLine: k + 1, inColumn: line.removed + 1))
                // Text after this line is copied as it is.
                anchors.append(.init(outLine: k + 2, outColumn: 1, inLine: k + 2, inColumn: 1))
            }
        }
        return ForeignSyntaxBlocks(text: out, map: PositionMap(anchors: anchors))
    }

    private static func mayHoldBlocks(_ body: String) -> Bool {
        // memchr finds no run of three in most bodies, much faster than the line scan below.
        guard "!?:=".utf8.contains(where: { body.containsRun(of: $0, count: 3) }) else { return false }
        var lineStart = true
        var run: UInt8 = 0
        var count = 0
        for byte in body.utf8 {
            if byte == 0x0A {
                lineStart = true
                count = 0
                continue
            }
            if lineStart, count == 0, byte == 0x20 || byte == 0x09 { continue }
            if lineStart, byte == 0x21 || byte == 0x3F || byte == 0x3A || byte == 0x3D {
                if count == 0 { run = byte }
                if byte == run {
                    count += 1
                    if count == 3 { return true }
                    continue
                }
            }
            lineStart = false
            count = 0
        }
        return false
    }

    /// For each Docusaurus opening line (`:::name`, after spaces), the index of the line of
    /// colons alone, as many, that closes it (nested ones matched inside out, fenced code
    /// skipped).
    private static func docusaurusClosings(_ lines: [Substring]) -> [Int: Int] {
        var closings: [Int: Int] = [:]
        var open: [(line: Int, colons: Int)] = []
        var fence: Fence?
        for (k, raw) in lines.enumerated() {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            let indent = width(ofIndentation: raw)
            if let f = fence {
                if closes(line, f, indent: indent) { fence = nil }
                continue
            }
            if let f = openingFence(line, indent: indent) {
                fence = f
                continue
            }
            let colons = line.prefix { $0 == ":" }.count
            guard colons >= 3 else { continue }
            let rest = line.dropFirst(colons)
            if rest.allSatisfy(\.isWhitespace) {
                if let last = open.lastIndex(where: { $0.colons == colons }) {
                    closings[open[last].line] = k
                    open.removeSubrange(last...)
                }
            } else if let c = rest.first, c.isLetter {
                open.append((k, colons))
            }
        }
        return closings
    }

    /// An open fenced code block: its fence character and length, and the indentation of its
    /// opening line.
    private typealias Fence = (char: Character, count: Int, indent: Int)

    /// Whether `line` (its `indent` columns of indentation taken off) closes the fenced code
    /// block `fence`: as long a run of its character, nothing after it but spaces, and indented
    /// less than four columns more than the opening fence (CommonMark 4.5: a deeper one is code).
    private static func closes(_ line: Substring, _ fence: Fence, indent: Int) -> Bool {
        indent < fence.indent + 4 && line.prefix(while: { $0 == fence.char }).count >= fence.count
            && line.drop(while: { $0 == fence.char }).allSatisfy(\.isWhitespace)
    }

    private static func openingFence(_ line: Substring, indent: Int) -> Fence? {
        guard let c = line.first, c == "`" || c == "~" else { return nil }
        let count = line.prefix { $0 == c }.count
        guard count >= 3, c == "~" || !line.dropFirst(count).contains("`") else { return nil }
        return (c, count, indent)
    }

    /// Rewrites the blocks among `lines[range]` (whose text is at this level's indentation).
    private static func rewrite(_ lines: inout [Line], _ range: Range<Int>, closings: [Int: Int], depth: Int, changed: inout Bool) {
        var k = range.lowerBound
        var fence: Fence?
        while k < range.upperBound {
            let text = lines[k].text
            let indent = text.prefix { $0 == " " }.count
            let line = text.dropFirst(indent)
            if let f = fence {
                if closes(line, f, indent: indent) { fence = nil }
                k += 1
                continue
            }
            guard indent < 4, depth < maximumDepth else {
                k += 1
                continue
            }
            if let f = openingFence(line, indent: indent) {
                fence = f
                k += 1
                continue
            }
            if let header = mkDocsHeader(line) {
                let end = indentedBodyEnd(lines, after: k, indent: indent + 4, limit: range.upperBound)
                // `!!! Breaking news` with nothing under it is a sentence, not an admonition.
                guard header.titleStart != nil || end > k + 1 else {
                    k += 1
                    continue
                }
                let lead = String(repeating: " ", count: indent)
                let titleStart = header.titleStart.map { text.utf8.distance(from: text.startIndex, to: $0) }
                if header.isTab {
                    // A tab: its label as a bold paragraph, then its content at the outer level.
                    lines[k].prefix += lead + "**"
                    lines[k].removed += titleStart ?? text.utf8.count
                    lines[k].text = Substring(header.title + "**  ")
                    dedent(&lines, k + 1..<end, by: indent + 4, prefix: "")
                } else {
                    lines[k].prefix += lead + "> [!\(header.type.uppercased())] "
                    lines[k].removed += titleStart ?? text.utf8.count
                    lines[k].text = Substring(header.title)
                    dedent(&lines, k + 1..<end, by: indent + 4, prefix: lead + ">")
                }
                changed = true
                rewrite(&lines, k + 1..<end, closings: closings, depth: depth + 1, changed: &changed)
                k = end
                continue
            }
            if let content = listItemContentColumn(line) {
                // A list item: its lines (indented to its content) are a level of their own when
                // a block opens among them (`=== "macOS"` under `1. Install:`, as MkDocs writes
                // tabs and admonitions in lists); the item's indentation is put back before each.
                let column = indent + content
                let end = indentedBodyEnd(lines, after: k, indent: column, limit: range.upperBound)
                if opensBlock(lines, k + 1..<end, column: column, closings: closings) {
                    dedent(&lines, k + 1..<end, by: column, prefix: String(repeating: " ", count: column), separated: false)
                    rewrite(&lines, k + 1..<end, closings: closings, depth: depth + 1, changed: &changed)
                    k = end
                    continue
                }
            }
            if let close = closings[k], close < range.upperBound, let header = docusaurusHeader(line) {
                let lead = String(repeating: " ", count: indent)
                lines[k].prefix += lead + "> [!\(header.type.uppercased())] "
                lines[k].removed += text.utf8.count - header.title.utf8.count
                lines[k].text = header.title
                dedent(&lines, k + 1..<close, by: 0, prefix: lead + ">")
                lines[close].removed += lines[close].text.utf8.count
                lines[close].text = ""
                changed = true
                rewrite(&lines, k + 1..<close, closings: closings, depth: depth + 1, changed: &changed)
                k = close + 1
                continue
            }
            k += 1
        }
    }

    /// Where a list item's content starts, counted from its marker (`- `, `* `, `+ `, `1. `,
    /// `1) `): the marker's width and the spaces after it (CommonMark 5.2: one to four; more, or
    /// none before the line's end, count as one). Nil for a line that is no list item.
    private static func listItemContentColumn(_ line: Substring) -> Int? {
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

    /// Whether an admonition, a tab or a Docusaurus block may open among `lines[range]`, at any
    /// depth (a nested list's item holds it) outside fenced code: the level then reads them.
    private static func opensBlock(_ lines: [Line], _ range: Range<Int>, column: Int, closings: [Int: Int]) -> Bool {
        var fence: Fence?
        for k in range {
            let text = lines[k].text
            guard width(ofIndentation: text) >= column else { continue }
            let line = text.drop { $0 == " " || $0 == "\t" }
            let indent = width(ofIndentation: text)
            if let f = fence {
                if closes(line, f, indent: indent) { fence = nil }
                continue
            }
            if let f = openingFence(line, indent: indent) {
                fence = f
            } else if mkDocsHeader(line) != nil || (closings[k] != nil && docusaurusHeader(line) != nil) {
                return true
            }
        }
        return false
    }

    /// The line after the last one of an indented body starting after `header`: lines indented
    /// by `indent` or blank, without the blank lines at its end.
    private static func indentedBodyEnd(_ lines: [Line], after header: Int, indent: Int, limit: Int) -> Int {
        var end = header + 1
        var k = header + 1
        while k < limit {
            let text = lines[k].text
            if text.allSatisfy({ $0 == " " || $0 == "\t" }) {
                k += 1
                continue
            }
            guard width(ofIndentation: text) >= indent else { break }
            k += 1
            end = k
        }
        return end
    }

    private static func width(ofIndentation text: Substring) -> Int {
        var width = 0
        for c in text {
            if c == " " { width += 1 } else if c == "\t" { width += 4 - width % 4 } else { break }
        }
        return width
    }

    /// Takes `width` columns of indentation off each line (a tab counts to the next multiple of
    /// 4) and puts `prefix` before it: `>` then a space for a line with text (`separated`), or
    /// a list item's indentation as it is.
    private static func dedent(_ lines: inout [Line], _ range: Range<Int>, by width: Int, prefix: String, separated: Bool = true) {
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

extension ForeignSyntaxBlocks {
    /// `!!! type "Title"`, `??? type`, `???+ type inline end`, `=== "Tab"`: the alert type (the
    /// written one mapped, ``alertType(_:)``), the title to show and where it starts in `line`.
    fileprivate static func mkDocsHeader(_ line: Substring) -> (type: String, title: String, titleStart: Substring.Index?, isTab: Bool)? {
        let marks = line.prefix(3)
        guard marks == "!!!" || marks == "???" || marks == "===" else { return nil }
        var rest = line.dropFirst(3)
        if rest.first == "+" || (marks == "===" && rest.first == "!") { rest = rest.dropFirst() }
        guard let space = rest.first, space == " " || space == "\t" else { return nil }
        rest = rest.drop { $0 == " " || $0 == "\t" }
        var written = ""
        if marks != "===" {
            // The type, then optional extra classes (`inline end`).
            let word = rest.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
            guard !word.isEmpty else { return nil }
            written = word.lowercased()
            rest = rest.dropFirst(word.count)
            while let c = rest.first, c != "\"" {
                guard c == " " || c == "\t" || c.isLetter || c.isNumber || c == "-" || c == "_" else { return nil }
                rest = rest.dropFirst()
            }
        }
        var trimmed = rest
        while let c = trimmed.last, c == " " || c == "\t" { trimmed.removeLast() }
        if trimmed.isEmpty {
            guard marks != "===" else { return nil }
            let type = alertType(written)
            return (type, type == written ? "" : written.prefix(1).uppercased() + written.dropFirst(), nil, false)
        }
        guard trimmed.count >= 2, trimmed.first == "\"", trimmed.last == "\"" else { return nil }
        let title = trimmed.dropFirst().dropLast()
        return (alertType(written), String(title), title.startIndex, marks == "===")
    }

    /// `:::type Title`, `:::type[Title]`, `:::type{…}` (Docusaurus): the alert type and title.
    fileprivate static func docusaurusHeader(_ line: Substring) -> (type: String, title: Substring)? {
        let rest = line.drop { $0 == ":" }
        let word = rest.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        guard !word.isEmpty else { return nil }
        var title = rest.dropFirst(word.count)
        if title.first == "[", let close = title.lastIndex(of: "]") {
            title = title[title.index(after: title.startIndex)..<close]
        } else if title.first == "{" {
            title = title[title.endIndex...]
        }
        title = title.drop { $0 == " " || $0 == "\t" }
        while let c = title.last, c == " " || c == "\t" { title.removeLast() }
        let written = word.lowercased()
        let type = alertType(written, docusaurus: true)
        if title.isEmpty, type != written {
            return (type, Substring(written.prefix(1).uppercased() + written.dropFirst()))
        }
        return (type, title)
    }

    /// The GitHub alert type nearest to an MkDocs (Material) or Docusaurus type: `note`, `tip`,
    /// `important`, `warning`, `caution` as written; blue, informational types (`info`, `abstract`,
    /// `summary`, `tldr`, `todo`, `seealso`, `question`, `help`, `faq`, `example`, `quote`, `cite`)
    /// → `note`; green ones (`hint`, `success`, `check`, `done`) → `tip`; orange (`attention`, and
    /// MkDocs' and Docusaurus' `caution`, which they show orange) → `warning`; red (`danger`,
    /// `error`, `failure`, `fail`, `missing`, `bug`) → `caution`; any other word → `note`.
    static func alertType(_ written: String, docusaurus: Bool = false) -> String {
        switch written {
        case "note", "tip", "important", "warning": written
        case "caution": "warning"
        case "hint", "success", "check", "done": "tip"
        case "attention": "warning"
        case "danger", "error", "failure", "fail", "missing", "bug": "caution"
        default: "note"
        }
    }
}
