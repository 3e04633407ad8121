import CCmark
import FeedgenDiagnostics

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
        withDocument(markdown, options: options(unsafe: false, smart: smart)) { document in
            _ = prepare(document, source: nil, rewriteLinks: false, findRawHTML: false)
            return firstParagraph(in: document)
        }
    }

    /// Parses once and returns both the HTML and the first paragraph's plain text.
    static func renderWithSummary(_ markdown: String, unsafe: Bool, smart: Bool) -> (html: String, summary: String?) {
        let r = renderWithLinks(markdown, unsafe: unsafe, smart: smart, source: nil)
        return (r.html, r.summary)
    }

    /// The scheme that marks a link to another content file in rendered HTML until the build
    /// knows the page it is rendered into: `feedgen-md:content/today/a.md#part`.
    public static let contentLinkScheme = "feedgen-md:"

    /// Renders `markdown` from the file `source.path` whose body starts at line `source.firstLine`.
    /// Links (not images) to a relative `.md` path become `feedgen-md:<site-relative path>`
    /// destinations (when `rewriteLinks`), and are returned with their positions so that the build
    /// can check them and turn them into links to the right output page. `rawHTML` holds where
    /// safe mode dropped raw HTML (empty when `unsafe` or without `source`). Soft line breaks
    /// between East Asian wide characters are removed (``EastAsianWidth``).
    static func renderWithLinks(
        _ markdown: String, unsafe: Bool, smart: Bool, source: (path: String, firstLine: Int)?,
        rewriteLinks: Bool = true
    ) -> (html: String, summary: String?, links: [MarkdownLink], rawHTML: [SourceLocation]) {
        let options = options(unsafe: unsafe, smart: smart)
        return withDocument(markdown, options: options) { document in
            let walk = prepare(document, source: source, rewriteLinks: rewriteLinks, findRawHTML: !unsafe && source != nil)
            let rawHTML = source.map { locate(walk.rawHTML, in: markdown, source: $0) } ?? []
            var html = ""
            if let rendered = cmark_render_html(document, options) {
                html = String(cString: rendered)
                free(rendered)
            }
            return (html, firstParagraph(in: document), walk.links, rawHTML)
        }
    }

    /// One walk over the tree: rewrites `.md` links, notes raw HTML, then unlinks the soft breaks
    /// between wide characters (after the walk: the iterator must not see a changed tree).
    private static func prepare(
        _ document: OpaquePointer, source: (path: String, firstLine: Int)?, rewriteLinks: Bool, findRawHTML: Bool
    ) -> (links: [MarkdownLink], rawHTML: [(line: Int, column: Int, literal: String)]) {
        guard let iterator = cmark_iter_new(document) else { return ([], []) }
        var links: [MarkdownLink] = []
        var rawHTML: [(line: Int, column: Int, literal: String)] = []
        var wideBreaks: [OpaquePointer] = []
        var directory: String?  // the source's folder, computed at the first `.md` link
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            func location() -> SourceLocation {
                SourceLocation(
                    path: source!.path, line: source!.firstLine + Int(cmark_node_get_start_line(node)) - 1,
                    column: Int(cmark_node_get_start_column(node)))
            }
            switch type {
            case CMARK_NODE_SOFTBREAK:
                if EastAsianWidth.removesBreak(
                    before: edgeScalar(cmark_node_previous(node), last: true),
                    after: edgeScalar(cmark_node_next(node), last: false)) {
                    wideBreaks.append(node)
                }
            case CMARK_NODE_HTML_BLOCK, CMARK_NODE_HTML_INLINE:
                if findRawHTML {
                    let literal = cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
                    rawHTML.append(
                        (Int(cmark_node_get_start_line(node)), Int(cmark_node_get_start_column(node)), literal))
                }
            case CMARK_NODE_LINK:
                guard rewriteLinks, let source, let raw = cmark_node_get_url(node) else { continue }
                let url = String(cString: raw)
                guard MarkdownLink.mayEndInMarkdownSuffix(url) || MarkdownLink.endsInSlash(url) else { continue }
                if directory == nil { directory = source.path.split(separator: "/").dropLast().joined(separator: "/") }
                guard let link = MarkdownLink(destination: url, directory: directory!, folders: true) else { continue }
                var located = link
                located.location = location()
                links.append(located)
                _ = cmark_node_set_url(node, contentLinkScheme + located.target + (located.fragment.map { "#" + $0 } ?? ""))
            default:
                break
            }
        }
        cmark_iter_free(iterator)
        for node in wideBreaks { cmark_node_free(node) }  // unlinks it first
        return (links, rawHTML)
    }

    /// Where raw HTML was dropped, in the file. cmark counts an inline's column from the line with
    /// its leading white space (or `>`) removed on a paragraph's continuation lines: the column
    /// becomes that of the HTML's first occurrence in its source line at or after cmark's column.
    private static func locate(
        _ found: [(line: Int, column: Int, literal: String)], in markdown: String, source: (path: String, firstLine: Int)
    ) -> [SourceLocation] {
        let lines = markdown.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        return found.map { html in
            var column = html.column
            let literal = Array(html.literal.utf8.prefix { $0 != UInt8(ascii: "\n") })
            if !literal.isEmpty, html.line >= 1, html.line <= lines.count {
                let line = Array(lines[html.line - 1])
                var start = max(0, column - 1)
                while start + literal.count <= line.count {
                    if line[start..<start + literal.count].elementsEqual(literal) {
                        column = start + 1
                        break
                    }
                    start += 1
                }
            }
            return SourceLocation(path: source.path, line: source.firstLine + html.line - 1, column: column)
        }
    }

    /// The last (or first) character of the inline `node`, descending into emphasis and links;
    /// nil when it is not text.
    private static func edgeScalar(_ node: OpaquePointer?, last: Bool) -> Unicode.Scalar? {
        guard let node else { return nil }
        switch cmark_node_get_type(node) {
        case CMARK_NODE_TEXT, CMARK_NODE_CODE:
            // Only the scalar at the edge is decoded: a soft break must not cost a copy of its
            // neighbour's whole text.
            guard let literal = cmark_node_get_literal(node) else { return nil }
            let count = strlen(literal)
            guard count > 0 else { return nil }
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(literal).assumingMemoryBound(to: UInt8.self), count: count)
            var (start, end) = last ? (count - 1, count) : (0, 1)
            if last {
                while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
            } else {
                while end < count, bytes[end] & 0xC0 == 0x80 { end += 1 }
            }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self).unicodeScalars.first
        case CMARK_NODE_EMPH, CMARK_NODE_STRONG, CMARK_NODE_LINK:
            return edgeScalar(last ? cmark_node_last_child(node) : cmark_node_first_child(node), last: last)
        default:
            return nil
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
