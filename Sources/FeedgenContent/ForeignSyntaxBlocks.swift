/// MkDocs admonitions (`!!! note "Title"`, `??? tip`) and content tabs (`=== "Tab"`), and
/// Docusaurus admonitions (`:::note Title` … `:::`), rewritten before cmark reads a body into the
/// GitHub alerts and paragraphs it renders (content-format §5.3), also in list items, block
/// quotes and definitions (``ForeignSyntaxBlocks+Containers``). Every line stays in order, a
/// blank line put in where a block must not continue the one above; ``PositionMap`` maps the
/// rewritten text back to the body.
import FeedgenStorage

struct ForeignSyntaxBlocks {
    var text: String
    var map: PositionMap

    /// One line of the body: its text as the current level sees it (indentation taken off), what
    /// goes before it in the output, and how many of the body line's bytes were taken off.
    struct Line {
        var text: Substring
        var prefix = ""
        var removed = 0
        /// A line to put before this one, blank but for its containers' markers (`>`): the
        /// block this line starts must not continue the paragraph or quote above it.
        var blankBefore: Substring?
    }

    /// How deep admonitions nest before deeper ones are left as written (each level is a block
    /// quote; a hostile body must not recurse without end).
    static let maximumDepth = 16

    /// The body with admonitions and tabs rewritten; nil when no line starts (after spaces and
    /// `>`) with `!!!`, `???`, `:::` or `===` (the common case costs one scan).
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
        // Output lines put in before this one (``Line/blankBefore``).
        var added = 0
        for (k, line) in lines.enumerated() {
            if k > 0 { out += "\n" }
            if let blank = line.blankBefore {
                out += blank
                out += "\n"
                added += 1
                anchors.append(.init(outLine: k + 1 + added, outColumn: 1, inLine: k + 1, inColumn: 1))
            }
            out += line.prefix
            out += line.text
            if !line.prefix.isEmpty || line.removed > 0 {
                anchors.append(.init(outLine: k + 1 + added, outColumn: line.prefix.utf8.count + 1, inLine: k + 1, inColumn: line.removed + 1))
                // Text after this line is copied as it is.
                anchors.append(.init(outLine: k + 2 + added, outColumn: 1, inLine: k + 2, inColumn: 1))
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
            // Spaces, and `>` (a block quote holds admonitions too).
            if lineStart, count == 0, byte == 0x20 || byte == 0x09 || byte == 0x3E { continue }
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
            if isFencedCode(line, indent: width(ofIndentation: raw), fence: &fence) { continue }
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

    /// Rewrites the blocks among `lines[range]` (whose text is at this level's indentation).
    private static func rewrite(_ lines: inout [Line], _ range: Range<Int>, closings: [Int: Int], depth: Int, changed: inout Bool) {
        var k = range.lowerBound
        var fence: Fence?
        /// The line after the last block quote read at this level.
        var quoteEnd: Int?
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
                // Python-Markdown's admonition, pymdownx.details and pymdownx.tabbed start a
                // block at a header's line and end it at the first line indented less: what
                // is above and below is not continued (a tab's label after a line of text, an
                // alert after a quoted line, text right after a body).
                if k > 0, header.isTab ? !isBlank(lines[k - 1].text) : quoteEnd == k {
                    lines[k].blankBefore = containerMarkers(lines[k].prefix)
                }
                if end < range.upperBound, !isBlank(lines[end - 1].text), !isBlank(lines[end].text) {
                    lines[end].blankBefore = containerMarkers(lines[end].prefix)
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
                // A list item: its lines (indented to its content, and lazy continuation lines)
                // are a level of their own when a block opens among them (`=== "macOS"` under
                // `1. Install:`, as MkDocs writes tabs and admonitions in lists); the item's
                // indentation is put back before each.
                let column = indent + content
                let first = line.dropFirst(content).drop { $0 == " " }
                let end = indentedBodyEnd(
                    lines, after: k, indent: column, limit: range.upperBound,
                    paragraph: !first.isEmpty && !startsLeafBlock(first) && openingFence(first, indent: 0) == nil)
                if opensBlock(lines, k + 1..<end, column: column, closings: closings) {
                    dedent(&lines, k + 1..<end, by: column, prefix: String(repeating: " ", count: column), separated: false)
                    rewrite(&lines, k + 1..<end, closings: closings, depth: depth + 1, changed: &changed)
                    k = end
                    continue
                }
            }
            if isDefinition(line) {
                // A definition (`:   Text`, Python-Markdown's def_list), which cmark shows as
                // text: when a block opens in its content (indented four spaces), the content is
                // read at this level, after the definition's paragraph, instead of as code.
                let end = indentedBodyEnd(lines, after: k, indent: indent + 4, limit: range.upperBound, paragraph: true)
                if opensBlock(lines, k + 1..<end, column: indent + 4, closings: closings) {
                    dedent(&lines, k + 1..<end, by: indent + 4, prefix: "", separated: false)
                    changed = true
                    rewrite(&lines, k + 1..<end, closings: closings, depth: depth + 1, changed: &changed)
                    k = end
                    continue
                }
            }
            if quoteMarkerLength(text) != nil {
                // A block quote: its lines without their `>` markers are a level of their own
                // (the markers go back before each; the text is the same until a block opens).
                var end = k
                while end < range.upperBound, let marker = quoteMarkerLength(lines[end].text) {
                    lines[end].prefix += lines[end].text.prefix(marker)
                    lines[end].removed += marker
                    lines[end].text = lines[end].text.dropFirst(marker)
                    end += 1
                }
                rewrite(&lines, k..<end, closings: closings, depth: depth + 1, changed: &changed)
                (k, quoteEnd) = (end, end)
                continue
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

    /// The container markers of a line's `prefix` (`> >` of `> > `), for a blank line in the
    /// same containers: a list item's indentation is not needed on a blank line.
    private static func containerMarkers(_ prefix: String) -> Substring {
        var markers = Substring(prefix)
        while let c = markers.last, c == " " || c == "\t" { markers.removeLast() }
        return markers
    }
}

extension ForeignSyntaxBlocks {
    /// `!!! type "Title"`, `??? type`, `???+ type inline end`, `=== "Tab"`: the alert type (the
    /// written one mapped, ``alertType(_:)``), the title to show and where it starts in `line`.
    static func mkDocsHeader(_ line: Substring) -> (type: String, title: String, titleStart: Substring.Index?, isTab: Bool)? {
        let marks = line.prefix(3)
        guard marks == "!!!" || marks == "???" || marks == "===" else { return nil }
        var rest = line.dropFirst(3)
        if rest.first == "+" || (marks == "===" && rest.first == "!") { rest = rest.dropFirst() }
        // Python-Markdown (`!!! ?`) and pymdownx.details (`\?{3}\+? ?`) take `!!!note` too;
        // pymdownx.tabbed needs the space (`={3}… +"`).
        let spaced = rest.first == " " || rest.first == "\t"
        guard spaced || marks != "===" else { return nil }
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
    static func docusaurusHeader(_ line: Substring) -> (type: String, title: Substring)? {
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
