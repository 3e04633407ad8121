/// GitHub's alerts: a block quote whose first line is `[!NOTE]`, `[!TIP]`, `[!IMPORTANT]`,
/// `[!WARNING]` or `[!CAUTION]` becomes GitHub's markup for them (docs.github.com, "Basic writing
/// and formatting syntax", Alerts), which Hugo renders too (its blockquote render hook's `alert`
/// type, with the Obsidian extensions: any type word, a fold sign and a title after the marker).
import CCmark
import CCmarkArena

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

enum MarkdownAlerts {
    /// GitHub's five types and their titles; another word (Obsidian's `info`, `todo`…) is an
    /// alert too, titled with the word capitalized, as Hugo reads it.
    static let titles = ["note": "Note", "tip": "Tip", "important": "Important", "warning": "Warning", "caution": "Caution"]

    /// Replaces each alert among `quotes` by `<div class="markdown-alert markdown-alert-TYPE">`
    /// with `<p class="markdown-alert-title">Title</p>` first; the rest of the quote follows
    /// unchanged. `> [!WARNING]+ Radiation *hazard*` gives the title "Radiation <em>hazard</em>",
    /// rendered by cmark with `options` and `extensions` (the fold sign is dropped: folding needs
    /// a `<details>`, left for later). A quote whose first line is not a marker stays a quote.
    static func convert(_ quotes: [OpaquePointer], options: Int32, extensions: UnsafeMutablePointer<cmark_llist>?) {
        for quote in quotes { convert(quote, options: options, extensions: extensions) }
    }

    private static func convert(_ quote: OpaquePointer, options: Int32, extensions: UnsafeMutablePointer<cmark_llist>?) {
        guard let paragraph = cmark_node_first_child(quote), cmark_node_get_type(paragraph) == CMARK_NODE_PARAGRAPH
        else { return }
        // The marker is in the leading text nodes (cmark splits `[`, `!NOTE` and `]` apart); a
        // quote whose first text byte is no `[` (most) has none.
        if let first = cmark_node_first_child(paragraph), cmark_node_get_type(first) == CMARK_NODE_TEXT,
            let literal = cmark_node_get_literal(first), literal.pointee != 0, literal.pointee != CChar(UInt8(ascii: "["))
        {
            return
        }
        var texts: [(node: OpaquePointer, literal: String)] = []
        var next = cmark_node_first_child(paragraph)
        while let node = next, cmark_node_get_type(node) == CMARK_NODE_TEXT {
            texts.append((node, cmark_node_get_literal(node).map { String(cString: $0) } ?? ""))
            next = cmark_node_next(node)
        }
        guard let marker = parseMarker(texts.map(\.literal).joined()) else { return }
        // The title is rendered as a paragraph of its own document (cmark's renderer reads a
        // paragraph's parent).
        guard let alert = cmark_node_new_with_mem(CMARK_NODE_CUSTOM_BLOCK, feedgen_cmark_arena()),
            let titleDocument = cmark_node_new_with_mem(CMARK_NODE_DOCUMENT, feedgen_cmark_arena()),
            let title = cmark_node_new_with_mem(CMARK_NODE_PARAGRAPH, feedgen_cmark_arena())
        else { return }
        defer { cmark_node_free(titleDocument) }
        _ = cmark_node_append_child(titleDocument, title)
        // Drop the marker; what follows it on the line, up to the first break, is the title.
        var left = marker.length
        for (node, literal) in texts where left > 0 {
            let rest = literal.dropFirst(left)
            left -= literal.count - rest.count
            if rest.isEmpty { cmark_node_free(node) } else { _ = cmark_node_set_literal(node, String(rest)) }
        }
        if let first = cmark_node_first_child(paragraph), cmark_node_get_type(first) == CMARK_NODE_TEXT,
            let literal = cmark_node_get_literal(first)
        {
            _ = cmark_node_set_literal(first, String(String(cString: literal).drop { $0 == " " || $0 == "\t" }))
        }
        while let node = cmark_node_first_child(paragraph) {
            let type = cmark_node_get_type(node)
            if type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK {
                cmark_node_free(node)
                break
            }
            _ = cmark_node_append_child(title, node)
        }
        var html = ""
        if let rendered = cmark_render_html_with_mem(titleDocument, options, extensions, cmark_get_default_mem_allocator()) {
            html = String(cString: rendered)  // `<p>…</p>\n`
            free(rendered)
        }
        var titleHTML = html.hasPrefix("<p>") && html.hasSuffix("</p>\n") ? String(html.dropFirst(3).dropLast(5)) : ""
        if titleHTML.isEmpty { titleHTML = titles[marker.type] ?? marker.type.prefix(1).uppercased() + marker.type.dropFirst() }
        _ = cmark_node_set_on_enter(
            alert, "<div class=\"markdown-alert markdown-alert-\(marker.type)\">\n<p class=\"markdown-alert-title\">\(titleHTML)</p>")
        _ = cmark_node_set_on_exit(alert, "</div>")
        if cmark_node_first_child(paragraph) == nil { cmark_node_free(paragraph) }
        _ = cmark_node_insert_before(quote, alert)
        while let child = cmark_node_first_child(quote) { _ = cmark_node_append_child(alert, child) }
        cmark_node_free(quote)
    }

    /// `[!type]` with an optional `+`/`-` after it, at the start of `line`: the lowercased type
    /// and the marker's length in characters.
    static func parseMarker(_ line: String) -> (type: String, length: Int)? {
        switch parseASCIIMarker(line) {
        case .marker(let type, let length): return (type, length)
        case .noMarker: return nil
        case .undecided: break
        }
        guard line.hasPrefix("[!") else { return nil }
        let word = line.dropFirst(2).prefix { $0.isASCII && $0.isLetter }
        guard !word.isEmpty else { return nil }
        let after = line.dropFirst(2 + word.count)
        guard after.first == "]" else { return nil }
        var length = 3 + word.count
        if let sign = after.dropFirst().first, sign == "+" || sign == "-" { length += 1 }
        return (word.lowercased(), length)
    }

    /// What ``parseASCIIMarker(_:)`` read.
    private enum ASCIIRead { case marker(type: String, length: Int), noMarker, undecided }

    /// ``parseMarker(_:)`` read on bytes when the marker and the byte after it are ASCII (then
    /// each byte read is a character of its own: a character of several scalars holds a
    /// non-ASCII one); undecided when the characters must decide.
    private static func parseASCIIMarker(_ line: String) -> ASCIIRead {
        line.withUTF8Bytes { b in
            func isLone(_ k: Int) -> Bool { k + 1 >= b.count || b[k + 1] < 0x80 }
            // Not `[!` on bytes: not on characters either.
            guard b.count >= 2, b[0] == UInt8(ascii: "["), b[1] == UInt8(ascii: "!") else { return .noMarker }
            var k = 2
            while k < b.count, (b[k] | 0x20) >= UInt8(ascii: "a"), (b[k] | 0x20) <= UInt8(ascii: "z") { k += 1 }
            guard isLone(k - 1) else { return .undecided }
            guard k > 2, k < b.count, b[k] == UInt8(ascii: "]") else { return .noMarker }
            guard isLone(k) else { return .undecided }
            var length = k + 1
            if k + 1 < b.count, b[k + 1] == UInt8(ascii: "+") || b[k + 1] == UInt8(ascii: "-") {
                guard isLone(k + 1) else { return .undecided }
                length += 1
            }
            return .marker(type: String(decoding: b[2..<k].map { $0 | 0x20 }, as: UTF8.self), length: length)
        }
    }
}
