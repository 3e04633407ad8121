/// Accessible, scrollable blocks of rendered Markdown (tables, code blocks, task lists), and a
/// bound on the cells cmark-gfm adds to short table rows (its table extension pads every row to
/// the header's width, so a 41 KB text, a 300-column header over 20,000 one-cell rows, renders
/// 60 MB of empty cells in 8 s and 1.4 GB; Debian 12's 0.29.0.gfm.6 has no limit, cmark-gfm
/// 0.29.0.gfm.10 added one).
import CCmark
import CCmarkArena
import FeedgenDiagnostics

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

enum MarkdownBlocks {
    /// Puts each table in `<div class="table-scroll" tabindex="0">…</div>` (a custom block
    /// around it), the box the theme scrolls sideways when the table is wider than the page;
    /// the table keeps its layout and semantics. The box and each `<pre>` can take focus, so that
    /// a keyboard can scroll them (WCAG 2.1.1; axe's scrollable-region-focusable; GitHub does the
    /// same).
    static func wrap(tables: [OpaquePointer]) {
        for table in tables {
            guard let block = cmark_node_new_with_mem(CMARK_NODE_CUSTOM_BLOCK, feedgen_cmark_arena()) else { continue }
            _ = cmark_node_set_on_enter(block, "<div class=\"table-scroll\" tabindex=\"0\">")
            _ = cmark_node_set_on_exit(block, "</div>")
            _ = cmark_node_insert_before(table, block)
            _ = cmark_node_append_child(block, table)  // unlinks it first
        }
    }

    /// `<pre>` → `<pre tabindex="0">` for each code block (see ``wrap(tables:)``).
    static func makeFocusable(codeBlocks: [OpaquePointer], options: Int32, extensions: UnsafeMutablePointer<cmark_llist>?) {
        for node in codeBlocks {
            replace(node, options: options, extensions: extensions) { html in
                guard html.hasPrefix("<pre") else { return nil }
                html.insert(contentsOf: " tabindex=\"0\"", at: html.index(html.startIndex, offsetBy: 4))
                return ()
            }
        }
    }

    /// Task list items get their checkbox inside a `<label>` with the item's first paragraph, so
    /// that the checkbox has a name (WCAG 4.1.2; axe's label rule): `<li><label><input
    /// type="checkbox" disabled="" /> todo</label></li>`. The tasklist extension's own rendering
    /// (a bare `<input>`) is turned off for the item.
    static func label(tasks: [OpaquePointer]) {
        for item in tasks {
            guard let paragraph = cmark_node_first_child(item), cmark_node_get_type(paragraph) == CMARK_NODE_PARAGRAPH,
                let open = cmark_node_new_with_mem(CMARK_NODE_CUSTOM_INLINE, feedgen_cmark_arena()),
                let close = cmark_node_new_with_mem(CMARK_NODE_CUSTOM_INLINE, feedgen_cmark_arena())
            else { continue }
            let checked = cmark_gfm_extensions_get_tasklist_item_checked(item)
            _ = cmark_node_set_on_enter(open, "<label><input type=\"checkbox\"\(checked ? " checked=\"\"" : "") disabled=\"\" /> ")
            _ = cmark_node_set_on_exit(open, "")
            _ = cmark_node_set_on_enter(close, "</label>")
            _ = cmark_node_set_on_exit(close, "")
            _ = cmark_node_prepend_child(paragraph, open)
            _ = cmark_node_append_child(paragraph, close)
            _ = cmark_node_set_syntax_extension(item, nil)
        }
    }

    /// Replaces the block `node` by a custom block holding cmark's own rendering of it, edited by
    /// `edit` (nil: left as it was). cmark's HTML renderer writes no attributes on most blocks.
    static func replace(
        _ node: OpaquePointer, options: Int32, extensions: UnsafeMutablePointer<cmark_llist>?, _ edit: (inout String) -> Void?
    ) {
        guard let rendered = cmark_render_html_with_mem(node, options, extensions, cmark_get_default_mem_allocator()) else { return }
        var html = String(cString: rendered)
        free(rendered)
        guard edit(&html) != nil, let block = cmark_node_new_with_mem(CMARK_NODE_CUSTOM_BLOCK, feedgen_cmark_arena()) else { return }
        // The custom block's own line breaks stand for the trailing one.
        _ = cmark_node_set_on_enter(block, html.utf8.last == 0x0A ? String(decoding: html.utf8.dropLast(), as: UTF8.self) : html)
        _ = cmark_node_set_on_exit(block, "")
        _ = cmark_node_insert_before(node, block)
        cmark_node_free(node)
    }

    /// Most empty cells that padding may add in one text: far above any table written by hand
    /// (a 20-column table of 5,000 rows written with one cell each pads 95,000).
    static let maxPaddedCells = 100_000

    /// The 1-based line (within `markdown`) of the delimiter row of the table whose padding passes
    /// ``maxPaddedCells``, or nil. Lines are read as cmark-gfm reads a table: a header row, a
    /// delimiter row (`|---|:-:|`) with as many cells, then rows until a blank line; `>` and
    /// indentation before a row are skipped. A lookalike inside a code block counts too (the
    /// bound is far from anything real).
    static func overflowingTable(in markdown: String) -> Int? {
        var markdown = markdown
        return markdown.withUTF8 { overflowingTable(in: $0) }
    }

    private static func overflowingTable(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        // memchr: most texts hold no `|` and are read no further.
        guard let base = bytes.baseAddress, memchr(base, 0x7C, bytes.count) != nil else { return nil }
        var padded = 0
        // The line before, whose cells are counted only when a delimiter row follows it.
        var previous: Slice<UnsafeBufferPointer<UInt8>>?
        var columns = 0  // > 0 while inside a table
        var tableLine = 0
        var lineNumber = 0
        var start = 0
        while start <= bytes.count {
            let end = memchr(base + start, 0x0A, bytes.count - start).map { UnsafeRawPointer(base).distance(to: UnsafeRawPointer($0)) } ?? bytes.count
            defer { start = end + 1 }
            lineNumber += 1
            var first = start
            while first < end, bytes[first] == UInt8(ascii: " ") || bytes[first] == UInt8(ascii: "\t") || bytes[first] == UInt8(ascii: ">") {
                first += 1
            }
            let line = bytes[first..<end]
            if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }) {
                columns = 0
                previous = nil
                continue
            }
            if columns > 0 {
                padded += max(0, columns - cellCount(line))
                if padded > maxPaddedCells { return tableLine }
            } else if isDelimiterRow(line), let previous, case let cells = cellCount(line), cells == cellCount(previous) {
                columns = cells
                tableLine = lineNumber
            }
            previous = line
        }
        return nil
    }

    /// The error at the delimiter row `line` of the body starting at `source`.
    static func error(line: Int, source: (path: String, firstLine: Int)) -> Diagnostic {
        .error(
            SourceLocation(path: source.path, line: source.firstLine + line - 1, column: 1),
            "this table's rows have so few cells that the page would get over \(maxPaddedCells) empty ones (every row is padded to the header's width); write the cells of each row or split the table")
    }

    /// Cells of a row: `|`-separated parts, not counting one leading and one trailing `|`;
    /// `\|` is text.
    private static func cellCount(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> Int {
        var end = line.endIndex
        while end > line.startIndex {
            let b = line[line.index(before: end)]
            guard b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") || b == UInt8(ascii: "\r") else { break }
            end = line.index(before: end)
        }
        let row = line[line.startIndex..<end]
        var pipes = 0
        var escaped = false
        var lastPipeEscaped = false
        for b in row {
            if escaped {
                escaped = false
                lastPipeEscaped = b == UInt8(ascii: "|")
                continue
            }
            lastPipeEscaped = false
            if b == UInt8(ascii: "\\") {
                escaped = true
            } else if b == UInt8(ascii: "|") {
                pipes += 1
            }
        }
        if row.first == UInt8(ascii: "|") { pipes -= 1 }
        if row.count > 1, row.last == UInt8(ascii: "|"), !lastPipeEscaped { pipes -= 1 }
        return pipes + 1
    }

    /// Only `|`, `-`, `:` and spaces, with at least one `-` (a GFM delimiter row).
    private static func isDelimiterRow(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var dash = false
        for b in line {
            switch b {
            case UInt8(ascii: "-"): dash = true
            case UInt8(ascii: "|"), UInt8(ascii: ":"), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): break
            default: return false
            }
        }
        return dash
    }
}
