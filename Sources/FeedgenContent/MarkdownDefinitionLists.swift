/// Definition lists (PHP Markdown Extra's syntax, which Hugo's Goldmark, kramdown and
/// Python-Markdown's `def_list` read): term lines, then definitions that start with `:` and a
/// space, rendered as `<dl>`, `<dt>` and `<dd>` as Goldmark renders them. cmark-gfm has no such
/// extension, so the `:` of each candidate line is read as the marker of a `+` bullet list item
/// (the same width: the definition's continuation lines, indented under it, stay inside it as
/// they do in Goldmark), and the parsed tree is rebuilt.
import CCmark
import CCmarkArena

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

enum MarkdownDefinitionLists {
    /// A line that may start a definition: `:` at the start of the line or after a container's
    /// markup (the `>` of block quotes, the indentation of a list item's content), then a space
    /// or a tab, not on the first line; whether one does is decided on the parsed tree (``convert``).
    struct Candidate: Equatable {
        /// 1-based.
        var line: Int
        /// The byte offset of the `:`.
        var offset: Int
        /// Whether the line before holds only spaces and tabs (a loose definition), and the `>`
        /// of as many block quotes as this line's.
        var blankBefore: Bool
    }

    /// The candidate lines of `bytes`. `empty`: those with nothing after the colon (a definition
    /// whose only content was a shortcode feedgen leaves out, `: {{< new-in 0.151 />}}` in Hugo's
    /// documentation) right before another candidate: Goldmark makes them an empty `<dd>`, which
    /// shows nothing; here they become blank.
    static func candidates(in bytes: UnsafeBufferPointer<UInt8>) -> (items: [Candidate], empty: [Candidate]) {
        guard let base = bytes.baseAddress, bytes.count > 2 else { return ([], []) }
        var items: [Candidate] = []
        var empty: [Candidate] = []
        var from = 1
        var line = 1
        var counted = 0  // the offset up to which newlines are counted into `line`
        // `:` after a newline; most texts have none, and are read by memchr alone.
        while from < bytes.count, let found = memchr(base + from, Int32(UInt8(ascii: ":")), bytes.count - from) {
            let i = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
            from = i + 1
            guard i + 1 < bytes.count, base[i + 1] == 0x20 || base[i + 1] == 0x09 else { continue }
            // Before the colon on its line: nothing, or only container markup.
            var lineStart = i
            var quotes = 0
            while lineStart > 0, base[lineStart - 1] != 0x0A {
                let b = base[lineStart - 1]
                guard b == 0x20 || b == 0x09 || b == UInt8(ascii: ">") else { break }
                if b == UInt8(ascii: ">") { quotes += 1 }
                lineStart -= 1
            }
            guard lineStart > 0, base[lineStart - 1] == 0x0A else { continue }
            // The newlines since the last candidate, found by memchr (not byte by byte).
            var k = counted
            while k < i, let newline = memchr(base + k, 0x0A, i - k) {
                line += 1
                k = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(newline)) + 1
            }
            counted = i
            var start = lineStart - 1  // the line before: back to its newline
            var blank = true
            var quotesBefore = 0
            while start > 0, base[start - 1] != 0x0A {
                start -= 1
                if base[start] == UInt8(ascii: ">") {
                    quotesBefore += 1
                } else if base[start] != 0x20 && base[start] != 0x09 && base[start] != 0x0D {
                    blank = false
                }
            }
            blank = blank && quotesBefore == quotes
            var end = i + 1
            while end < bytes.count, base[end] == 0x20 || base[end] == 0x09 || base[end] == 0x0D { end += 1 }
            let candidate = Candidate(line: line, offset: i, blankBefore: blank)
            if end == bytes.count || base[end] == 0x0A { empty.append(candidate) } else { items.append(candidate) }
        }
        let starts = Set(items.map(\.line))
        return (items, empty.filter { starts.contains($0.line + 1) })
    }

    /// `markdown` with the `:` of each of `items` made `+`, and each of `empty` made a space (the
    /// same length: positions do not move).
    static func marking(_ markdown: String, items: [Candidate], empty: [Candidate]) -> String {
        var markdown = markdown
        return markdown.withUTF8 { source in
            var bytes = Array(source)
            for candidate in items { bytes[candidate.offset] = UInt8(ascii: "+") }
            for candidate in empty { bytes[candidate.offset] = UInt8(ascii: " ") }
            // ASCII replaced ASCII: the bytes are as valid as the text's.
            return bytes.withUnsafeBufferPointer { String(validUTF8: $0) }
        }
    }

    /// Turns the lists of `document` made of candidate items into definition lists: the
    /// paragraph right before each (or blank lines and it) gives one `<dt>` per line, each item
    /// a `<dd>`; a paragraph and its definitions right after a definition list join it. A
    /// definition of one paragraph with no blank line before its `:` is tight (`<dd>text</dd>`,
    /// as Goldmark writes it); any other keeps its blocks, paragraphs with their `<p>`. Returns
    /// the candidate lines that start no such item (inside a code or HTML block, a list item of
    /// another list, or after no paragraph), leaving the tree unchanged, so that the caller
    /// parses again with those lines as written. Blank lines are those of the text as written
    /// (an emptied definition is no blank line). The paragraphs whose inlines moved are unlinked,
    /// not freed: cmark's text nodes point into their paragraph's buffer, and the document's
    /// arena (``Markdown``) takes every node back after rendering.
    static func convert(_ document: OpaquePointer, items: [Candidate]) -> [Int] {
        let lines = items.map(\.line)
        // Phase 1: which lists are definitions, in the document and in every block quote and
        // list item (Goldmark reads definition lists in any container).
        var accepted: [(list: OpaquePointer, terms: OpaquePointer?)] = []
        var started = Set<Int>()
        acceptDefinitions(in: document, column: 1, candidates: Set(lines), accepted: &accepted, started: &started)
        let rejected = lines.filter { !started.contains($0) }
        guard rejected.isEmpty else { return rejected }

        // Phase 2: the tree. A blank line before line n: the loose definitions.
        let blankBefore = Set(items.filter(\.blankBefore).map(\.line))
        var lastList: OpaquePointer? = nil  // the `<dl>` made last, which the next definitions join when right after it
        for (list, terms) in accepted {
            let first = terms ?? list
            let dl: OpaquePointer
            if let last = lastList, cmark_node_previous(first) == last {
                dl = last
            } else {
                dl = block("<dl>", "</dl>")
                _ = cmark_node_insert_before(first, dl)
            }
            if let terms {
                for line in termLines(terms) { _ = cmark_node_append_child(dl, textBlock("<dt>", "</dt>", line)) }
                cmark_node_unlink(terms)
            }
            var item = cmark_node_first_child(list)
            while let it = item {
                item = cmark_node_next(it)
                let tight = !blankBefore.contains(Int(cmark_node_get_start_line(it)))
                let only = cmark_node_first_child(it)
                if tight, let only, cmark_node_next(only) == nil, cmark_node_get_type(only) == CMARK_NODE_PARAGRAPH {
                    // `<dd>text</dd>` on one line, as Goldmark writes a tight definition.
                    var inlines: [OpaquePointer] = []
                    var next = cmark_node_first_child(only)
                    while let inline = next {
                        next = cmark_node_next(inline)
                        cmark_node_unlink(inline)
                        inlines.append(inline)
                    }
                    cmark_node_unlink(only)
                    _ = cmark_node_append_child(dl, textBlock("<dd>", "</dd>", inlines))
                    continue
                }
                // Loose, or holding more than one block: its blocks as they are (Goldmark drops the
                // `<p>` of a tight one's paragraphs and runs them together; they stay apart here).
                let dd = block("<dd>", "</dd>")
                while let inner = cmark_node_first_child(it) { _ = cmark_node_append_child(dd, inner) }
                _ = cmark_node_append_child(dl, dd)
            }
            cmark_node_unlink(list)
            lastList = dl
        }
        return []
    }

    /// Phase 1 of ``convert`` in one container (the document, a block quote, a list item) and
    /// those inside it: the lists of `container` whose items all start on `candidates` lines, at
    /// `column` (1-based: where the container's content starts, so that a `:` indented inside
    /// it is text, as Goldmark reads it), right after a paragraph (their terms) or after such a
    /// list, go into `accepted`, their items' lines into `started`.
    private static func acceptDefinitions(
        in container: OpaquePointer, column: Int32?, candidates: Set<Int>, accepted: inout [(list: OpaquePointer, terms: OpaquePointer?)],
        started: inout Set<Int>
    ) {
        var previous: OpaquePointer? = nil
        var previousIsDefinitions = false
        var child = cmark_node_first_child(container)
        while let node = child {
            child = cmark_node_next(node)
            defer { previous = node }
            let type = cmark_node_get_type(node)
            if type == CMARK_NODE_BLOCK_QUOTE {
                acceptDefinitions(in: node, column: contentColumn(node), candidates: candidates, accepted: &accepted, started: &started)
            }
            guard type == CMARK_NODE_LIST else {
                // A paragraph right after a definition list keeps it open for its own definitions.
                if !(previousIsDefinitions && type == CMARK_NODE_PARAGRAPH) { previousIsDefinitions = false }
                continue
            }
            var starts: [Int] = []  // the lines its items start on
            var columns = true  // whether every item starts at the content's column
            var item = cmark_node_first_child(node)
            while let it = item {
                starts.append(Int(cmark_node_get_start_line(it)))
                columns = columns && cmark_node_get_start_column(it) == column
                acceptDefinitions(in: it, column: contentColumn(it), candidates: candidates, accepted: &accepted, started: &started)
                item = cmark_node_next(it)
            }
            let ours = starts.filter(candidates.contains)
            guard !ours.isEmpty else {
                previousIsDefinitions = false
                continue
            }
            let before = previous.map { cmark_node_get_type($0) }
            guard ours.count == starts.count, columns, before == CMARK_NODE_PARAGRAPH || (before == CMARK_NODE_LIST && previousIsDefinitions)
            else {
                previousIsDefinitions = false
                continue
            }
            accepted.append((node, before == CMARK_NODE_PARAGRAPH ? previous : nil))
            started.formUnion(starts)
            previousIsDefinitions = true
        }
    }

    /// Where a block quote's or list item's content starts (1-based): at its first block (after
    /// `> `, or the item's marker and the spaces after it).
    private static func contentColumn(_ container: OpaquePointer) -> Int32? {
        cmark_node_first_child(container).map { cmark_node_get_start_column($0) }
    }

    /// A custom block that cmark renders as `enter`, its children, then `exit`.
    private static func block(_ enter: StaticString?, _ exit: StaticString?) -> OpaquePointer {
        guard let node = cmark_node_new_with_mem(CMARK_NODE_CUSTOM_BLOCK, feedgen_cmark_arena()) else { fatalError("cmark_node_new returned NULL (out of memory)") }
        setMarkup(node, enter, exit)
        return node
    }

    /// A custom node's markup (none: nothing), from literals (cmark copies them).
    private static func setMarkup(_ node: OpaquePointer, _ enter: StaticString?, _ exit: StaticString?) {
        func c(_ text: StaticString) -> UnsafePointer<CChar> { UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self) }
        if let enter { _ = cmark_node_set_on_enter(node, c(enter)) }
        if let exit { _ = cmark_node_set_on_exit(node, c(exit)) }
    }

    /// A block holding `inlines` between `enter` and `exit` on one line: cmark's renderer puts
    /// a custom block's markup on lines of its own, a custom inline's in the text.
    private static func textBlock(_ enter: StaticString, _ exit: StaticString, _ inlines: [OpaquePointer]) -> OpaquePointer {
        let line = block(nil, nil)
        guard let wrapper = cmark_node_new_with_mem(CMARK_NODE_CUSTOM_INLINE, feedgen_cmark_arena()) else { fatalError("cmark_node_new returned NULL (out of memory)") }
        setMarkup(wrapper, enter, exit)
        for inline in inlines { _ = cmark_node_append_child(wrapper, inline) }
        _ = cmark_node_append_child(line, wrapper)
        return line
    }

    /// The inline children of `paragraph`, one list per line (split at its line breaks, which
    /// are dropped).
    private static func termLines(_ paragraph: OpaquePointer) -> [[OpaquePointer]] {
        var lines: [[OpaquePointer]] = [[]]
        var next = cmark_node_first_child(paragraph)
        while let inline = next {
            next = cmark_node_next(inline)
            let type = cmark_node_get_type(inline)
            if type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK {
                lines.append([])
            } else {
                cmark_node_unlink(inline)
                lines[lines.count - 1].append(inline)
            }
        }
        return lines.filter { !$0.isEmpty }
    }
}
