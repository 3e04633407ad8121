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
        withDocument(markdown, options: options(unsafe: false, smart: smart)) { firstParagraph(in: $0) }
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
    /// destinations, and are returned with their positions so that the build can check them and
    /// turn them into links to the right output page.
    static func renderWithLinks(
        _ markdown: String, unsafe: Bool, smart: Bool, source: (path: String, firstLine: Int)?
    ) -> (html: String, summary: String?, links: [MarkdownLink]) {
        let options = options(unsafe: unsafe, smart: smart)
        return withDocument(markdown, options: options) { document in
            var links: [MarkdownLink] = []
            if let source { links = rewriteContentLinks(in: document, source: source) }
            var html = ""
            if let rendered = cmark_render_html(document, options) {
                html = String(cString: rendered)
                free(rendered)
            }
            return (html, firstParagraph(in: document), links)
        }
    }

    private static func rewriteContentLinks(in document: OpaquePointer, source: (path: String, firstLine: Int)) -> [MarkdownLink] {
        guard let iterator = cmark_iter_new(document) else { return [] }
        defer { cmark_iter_free(iterator) }
        var links: [MarkdownLink] = []
        var directory: String?  // the source's folder, computed at the first `.md` link
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator),
                cmark_node_get_type(node) == CMARK_NODE_LINK, let raw = cmark_node_get_url(node)
            else { continue }
            let url = String(cString: raw)
            guard MarkdownLink.mayEndInMarkdownSuffix(url) || MarkdownLink.endsInSlash(url) else { continue }
            if directory == nil { directory = source.path.split(separator: "/").dropLast().joined(separator: "/") }
            guard let link = MarkdownLink(destination: url, directory: directory!, folders: true) else { continue }
            var located = link
            located.location = SourceLocation(
                path: source.path, line: source.firstLine + Int(cmark_node_get_start_line(node)) - 1,
                column: Int(cmark_node_get_start_column(node)))
            links.append(located)
            _ = cmark_node_set_url(node, contentLinkScheme + located.target + (located.fragment.map { "#" + $0 } ?? ""))
        }
        return links
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
