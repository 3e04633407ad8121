import CCmark

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// CommonMark rendering with libcmark. Every libcmark call of the module lives in this file.
///
/// Safe mode is libcmark's default since 0.29 (Debian 12 ships 0.30.2; `CMARK_OPT_SAFE` is a
/// no-op there): raw HTML becomes `<!-- raw HTML omitted -->` and `javascript:`, `vbscript:`,
/// `file:` and non-image `data:` link destinations become empty. `unsafe: true` sets
/// `CMARK_OPT_UNSAFE` and passes both through. `smart: true` sets `CMARK_OPT_SMART`
/// (curly quotes, `--` → en dash, `---` → em dash, `...` → ellipsis).
public enum Markdown {
    /// The HTML for `markdown`.
    public static func render(_ markdown: String, unsafe: Bool, smart: Bool) -> String {
        renderWithSummary(markdown, unsafe: unsafe, smart: smart).html
    }

    /// The plain text of the first paragraph of `markdown` (text and code spans; line breaks
    /// become spaces and white-space runs one space; markup dropped), or nil when there is no
    /// paragraph. Used as the default `description` of an item.
    public static func firstParagraphText(_ markdown: String, smart: Bool = false) -> String? {
        withDocument(markdown, options: options(unsafe: false, smart: smart)) { firstParagraph(in: $0) }
    }

    /// Parses once and returns both the HTML and the first paragraph's plain text.
    static func renderWithSummary(_ markdown: String, unsafe: Bool, smart: Bool) -> (html: String, summary: String?) {
        let options = options(unsafe: unsafe, smart: smart)
        return withDocument(markdown, options: options) { document in
            var html = ""
            if let rendered = cmark_render_html(document, options) {
                html = String(cString: rendered)
                free(rendered)
            }
            return (html, firstParagraph(in: document))
        }
    }

    private static func options(unsafe: Bool, smart: Bool) -> Int32 {
        var options = CMARK_OPT_DEFAULT
        if unsafe { options |= CMARK_OPT_UNSAFE }
        if smart { options |= CMARK_OPT_SMART }
        return options
    }

    private static func withDocument<T>(_ markdown: String, options: Int32, _ body: (OpaquePointer) -> T) -> T {
        var markdown = markdown
        let document = markdown.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                cmark_parse_document(chars.baseAddress, chars.count, options)
            }
        }
        guard let document else { fatalError("cmark_parse_document returned NULL (out of memory)") }
        defer { cmark_node_free(document) }
        return body(document)
    }

    /// Walks the tree with cmark's iterator; collects the first paragraph's text.
    private static func firstParagraph(in document: OpaquePointer) -> String? {
        guard let iterator = cmark_iter_new(document) else { return nil }
        defer { cmark_iter_free(iterator) }
        var depth = 0  // > 0 while inside the first paragraph
        var text = ""
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            if depth == 0 {
                if type == CMARK_NODE_PARAGRAPH, event == CMARK_EVENT_ENTER { depth = 1 }
                continue
            }
            if type == CMARK_NODE_PARAGRAPH, event == CMARK_EVENT_EXIT { break }
            guard event == CMARK_EVENT_ENTER else { continue }
            switch type {
            case CMARK_NODE_TEXT, CMARK_NODE_CODE:
                if let literal = cmark_node_get_literal(node) { text += String(cString: literal) }
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
                text += " "
            default:
                break
            }
        }
        guard depth > 0 else { return nil }
        // Runs of white space (from breaks next to spaces, tabs in text) become one space.
        var collapsed: [UInt8] = []
        collapsed.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for byte in text.utf8 {
            if byte == 0x20 || byte == 0x09 || byte == 0x0A {
                pendingSpace = !collapsed.isEmpty
            } else {
                if pendingSpace { collapsed.append(0x20) }
                pendingSpace = false
                collapsed.append(byte)
            }
        }
        return collapsed.isEmpty ? nil : String(decoding: collapsed, as: UTF8.self)
    }
}
