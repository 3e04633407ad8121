/// The byte-level scan behind ``ForeignSyntax``: block context (fences, indented code, code
/// spans) tracked line by line as CommonMark reads it, and the edits with their position anchors.
import CFileSystem

struct ForeignSyntaxPass {
    let b: [UInt8]
    var i = 0
    /// The output up to ``pending``: the input bytes copied since (`b[pending..<i]`) are
    /// appended in one piece when an edit comes (``flush()``) or the run ends, not byte by byte.
    var out: [UInt8] = []
    /// The start of the input bytes copied but not yet in ``out``.
    var pending = 0
    var warnings: [ForeignSyntax.Warning] = []
    var anchors: [PositionMap.Anchor] = [.init(outLine: 1, outColumn: 1, inLine: 1, inColumn: 1)]
    var inLine = 1, inColumn = 1, outLine = 1, outColumn = 1
    /// The input column of `i` in Unicode scalars (for warnings), counted when asked, not kept
    /// for every byte read: from the last place counted on the same line, else back to the
    /// line's start (so a line of thousands of warnings is counted once).
    mutating func scalarColumn() -> Int {
        var (k, column) = (i, 1)
        if scalarCounted.line == inLine, scalarCounted.offset <= i {
            (k, column) = (scalarCounted.offset, scalarCounted.column)
            for c in b[k..<i] where c & 0xC0 != 0x80 { column += 1 }
        } else {
            while k > 0, b[k - 1] != 0x0A {
                k -= 1
                if b[k] & 0xC0 != 0x80 { column += 1 }
            }
        }
        scalarCounted = (i, inLine, column)
        return column
    }

    /// The last ``scalarColumn()``: its input offset, line and column.
    var scalarCounted = (offset: 0, line: 0, column: 1)

    // Block context.
    /// The open fenced code block: its character, length and opening line's indentation.
    var fence: (char: UInt8, count: Int, indent: Int)?
    var indentedCode = false
    var previousBlank = true
    var inList = false
    /// The current line is code (a fence line, inside a fence, or indented code).
    var lineIsCode = false
    /// The backtick count of the open code span, 0 for none.
    var codeSpan = 0
    /// Inside `{% raw %}`: everything is text until `{% endraw %}`.
    var raw = false
    /// Where the open `{% raw %}` is (line, column in scalars), for an unclosed one's warning.
    var rawAt = (line: 0, column: 0)
    /// Searches already made, by what they looked for (``remembered(_:from:)``).
    var searches: [SearchKey: SearchResult] = [:]
    /// The searches for a closing backtick run, by its length (``closingRun(_:from:)``; apart
    /// from ``searches``: a code span is opened at every run of most bodies). Runs shorter than
    /// ``shortRuns`` (nearly all) are kept in an array, the others in a dictionary.
    var closingRuns: [Int: SearchResult] = [:]
    var shortClosingRuns = [SearchResult?](repeating: nil, count: shortRuns)
    static let shortRuns = 8
    /// Inside `{% highlight %}`: the input offset and length of its `{% endhighlight %}`, and the fence.
    var highlight: (end: Int, length: Int, fence: [UInt8])?
    /// The destinations written for Jekyll's `{% link %}` / `{% post_url %}` tags
    /// (``liquidLinkDestination(_:)``), each with the tag as written.
    var linkTags: [String: String] = [:]
    /// `markdown.unsafe`: `{::nomarkdown}`'s text is kept as raw HTML.
    var unsafe = false
    /// The `figure` shortcodes written as images, by output line (``builtInShortcode(name:argsStart:end:)``).
    var figures: [Int: MarkdownFigure] = [:]
    /// Whether the body may hold a `{:toc}` line (``tableOfContents()``).
    let mayHaveTOC: Bool
    /// The offset of the body's last `{`, or -1: every edit starts at or before one, so past it
    /// (outside `raw` and `highlight`) the rest is copied as it is, without reading its lines.
    let lastBrace: Int

    init(_ bytes: [UInt8], unsafe: Bool = false) {
        b = bytes
        mayHaveTOC = Self.mayHaveTOC(bytes)
        lastBrace = bytes.withUnsafeBufferPointer { Self.lastBrace(in: $0) }
        self.unsafe = unsafe
        out.reserveCapacity(bytes.count)
    }

    mutating func run() {
        var lineStart = true
        while i < b.count {
            if i > lastBrace, highlight == nil, !raw {
                // Nothing left to edit; the line and column counters are not read after the run.
                i = b.count
                break
            }
            if lineStart, highlight == nil {
                classifyLine()
                if !lineIsCode, !raw, b[i] != 0x0A, tableOfContents() {
                    lineStart = false
                    continue
                }
            }
            lineStart = false
            if highlight == nil {
                // A run of bytes that start nothing (most of a body) is copied at once.
                let j = b.withUnsafeBufferPointer { Self.nextSpecial(in: $0, from: i) }
                if j > i {
                    copyRun(j - i)
                    continue
                }
            }
            let c = b[i]
            if let h = highlight, i == h.end {
                closeHighlight(h)
                continue
            }
            if c == 0x0A {
                copy(1)
                lineStart = true
                continue
            }
            if highlight != nil {
                copy(1)
                continue
            }
            if c == 0x7B, i + 1 < b.count {
                if brace() { continue }
            } else if c == 0x60, !lineIsCode {
                backticks()
                continue
            } else if c == 0x5C, !lineIsCode, codeSpan == 0, i + 1 < b.count, b[i + 1] == 0x60 {
                copy(2)  // an escaped backtick opens no code span
                continue
            }
            copy(1)
        }
        flush()
        if raw {
            warnings.append(
                .init(
                    line: rawAt.line, column: rawAt.column,
                    message: "'{% raw %}' has no '{% endraw %}': the rest of the body is kept as written"))
        }
    }

    /// The first offset from `start` holding a newline, `{`, a backtick or `\` (what the scan
    /// stops at), or the end: sixteen bytes at a time (`feedgen_first_of4`, SSE2).
    static func nextSpecial(in b: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = b.baseAddress, start < b.count else { return start }
        return start + feedgen_first_of4(base + start, b.count - start, 0x0A, 0x7B, 0x60, 0x5C)
    }

    /// The offset of the last `{` in `b`, or -1; eight bytes at a time from the end (whether a
    /// word holds a `{` is exact: a false match needs a real one below it in the word).
    static func lastBrace(in b: UnsafeBufferPointer<UInt8>) -> Int {
        var k = b.count
        if let base = b.baseAddress {
            let raw = UnsafeRawPointer(base)
            while k >= 8 {
                let w = raw.loadUnaligned(fromByteOffset: k - 8, as: UInt64.self) ^ 0x7B7B_7B7B_7B7B_7B7B
                if (w &- 0x0101_0101_0101_0101) & ~w & 0x8080_8080_8080_8080 != 0 { break }
                k -= 8
            }
        }
        while k > 0 {
            k -= 1
            if b[k] == 0x7B { return k }
        }
        return -1
    }

    // MARK: Output and positions

    /// Appends the input bytes copied and not yet written (``pending``) to ``out``.
    mutating func flush() {
        guard pending < i else { return }
        b.withUnsafeBufferPointer { b in out.append(contentsOf: UnsafeBufferPointer(rebasing: b[pending..<i])) }
        pending = i
    }

    /// The output's length so far, the bytes still ``pending`` included.
    var outCount: Int { out.count + i - pending }

    /// The output's byte at `k` (< ``outCount``).
    func outByte(_ k: Int) -> UInt8 { k < out.count ? out[k] : b[pending + k - out.count] }

    mutating func copy(_ count: Int) {
        for _ in 0..<count where i < b.count {
            let c = b[i]
            i += 1
            if c == 0x0A {
                inLine += 1
                outLine += 1
                inColumn = 1
                outColumn = 1
            } else {
                inColumn += 1
                outColumn += 1
            }
        }
    }

    /// ``copy(_:)`` of `count` bytes that hold no newline.
    mutating func copyRun(_ count: Int) {
        i += count
        inColumn += count
        outColumn += count
    }

    mutating func skip(_ count: Int) {
        flush()
        defer { pending = i }
        for _ in 0..<count where i < b.count {
            if b[i] == 0x0A {
                inLine += 1
                inColumn = 1
            } else {
                inColumn += 1
            }
            i += 1
        }
        anchor()
    }

    mutating func emit(_ bytes: [UInt8]) {
        flush()
        for c in bytes {
            out.append(c)
            if c == 0x0A {
                outLine += 1
                outColumn = 1
            } else {
                outColumn += 1
            }
        }
        anchor()
    }

    mutating func anchor() {
        let a = PositionMap.Anchor(outLine: outLine, outColumn: outColumn, inLine: inLine, inColumn: inColumn)
        if let last = anchors.last, (last.outLine, last.outColumn) == (a.outLine, a.outColumn) {
            anchors[anchors.count - 1] = a
        } else {
            anchors.append(a)
        }
    }

    mutating func warn(_ message: String) {
        let column = scalarColumn()
        warnings.append(.init(line: inLine, column: column, message: message))
    }

    /// The source of `start..<end` on one line, white space runs as one space, cut to 60 scalars,
    /// in quotes: `'…'`, or `"…"` when it holds a `'` (so that the value's end stays clear).
    func shown(_ start: Int, _ end: Int) -> String {
        var text = ""
        var space = false
        for scalar in String(decoding: b[start..<end], as: UTF8.self).unicodeScalars {
            if scalar == " " || scalar == "\n" || scalar == "\t" {
                space = true
                continue
            }
            if space { text += " " }
            space = false
            text.unicodeScalars.append(scalar)
        }
        if text.unicodeScalars.count > 60 { text = String(String.UnicodeScalarView(text.unicodeScalars.prefix(59))) + "…" }
        return text.contains("'") ? "\"" + text + "\"" : "'" + text + "'"
    }

    // MARK: Block context

    /// Reads the line starting at `i` as CommonMark would for code: fences (also inside block
    /// quotes and list items), indented code after a blank line outside lists, blank lines.
    mutating func classifyLine() {
        var j = i
        var indent = 0
        while true {
            indent = 0
            while j < b.count, b[j] == 0x20 || b[j] == 0x09 {
                indent += b[j] == 0x09 ? 4 : 1
                j += 1
            }
            guard indent < 4, j < b.count, b[j] == 0x3E else { break }  // `>`
            j += 1
            if j < b.count, b[j] == 0x20 { j += 1 }
        }
        let blank = j >= b.count || b[j] == 0x0A
        if let f = fence {
            lineIsCode = true
            previousBlank = false
            // A closing fence is indented less than four columns more than the opening one (CommonMark 4.5).
            if indent < f.indent + 4, run(of: f.char, at: j) >= f.count, restIsBlank(j + run(of: f.char, at: j)) { fence = nil }
            return
        }
        if blank {
            lineIsCode = indentedCode
            previousBlank = true
            codeSpan = 0
            return
        }
        if indent >= 4, previousBlank || indentedCode, !inList {
            lineIsCode = true
            indentedCode = true
            previousBlank = false
            codeSpan = 0
            return
        }
        indentedCode = false
        var k = j
        var listItem = false
        if k + 1 < b.count, b[k] == 0x2D || b[k] == 0x2A || b[k] == 0x2B, b[k + 1] == 0x20 || b[k + 1] == 0x09 {
            k += 2
            listItem = true
        } else {
            var digits = 0
            while k < b.count, b[k] >= 0x30, b[k] <= 0x39, digits < 9 {
                k += 1
                digits += 1
            }
            if digits > 0, k + 1 < b.count, b[k] == 0x2E || b[k] == 0x29, b[k + 1] == 0x20 {
                k += 2
                listItem = true
            } else {
                k = j
            }
        }
        if listItem {
            inList = true
            while k < b.count, b[k] == 0x20 { k += 1 }
        } else if indent == 0, previousBlank {
            inList = false
        }
        previousBlank = false
        lineIsCode = false
        guard indent < 4 || inList, k < b.count, b[k] == 0x60 || b[k] == 0x7E else { return }
        let count = run(of: b[k], at: k)
        guard count >= 3 else { return }
        if b[k] == 0x60 {
            var m = k + count
            while m < b.count, b[m] != 0x0A {
                if b[m] == 0x60 { return }  // a backtick in the info string: not a fence
                m += 1
            }
        }
        fence = (b[k], count, indent)
        lineIsCode = true
        codeSpan = 0
    }

    func run(of char: UInt8, at start: Int) -> Int {
        var j = start
        while j < b.count, b[j] == char { j += 1 }
        return j - start
    }

    func restIsBlank(_ start: Int) -> Bool {
        var j = start
        while j < b.count, b[j] != 0x0A {
            if b[j] != 0x20, b[j] != 0x09 { return false }
            j += 1
        }
        return true
    }
}
