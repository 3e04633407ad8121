import CCmark
import CCmarkArena
import FeedgenDiagnostics
import FeedgenStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// GitHub Flavored Markdown rendering with cmark-gfm (GitHub's fork of libcmark, Debian 12's
/// 0.29.0.gfm.6). The cmark calls of the module live in this file and the other Markdown*.swift
/// files; with GFM, GitHub's alerts (`> [!NOTE]`) become its alert markup (``MarkdownAlerts``).
///
/// With `gfm` (the default, `markdown.gfm`) the parser has cmark-gfm's table, strikethrough,
/// autolink, tasklist and tagfilter extensions and `CMARK_OPT_FOOTNOTES` (the GFM spec 0.29);
/// without, it is strict CommonMark 0.29. Safe mode is cmark's default since 0.29
/// (`CMARK_OPT_SAFE` is a no-op): raw HTML becomes `<!-- raw HTML omitted -->` and `javascript:`,
/// `vbscript:`, `file:` and non-image `data:` link destinations become empty. `unsafe: true` sets
/// `CMARK_OPT_UNSAFE` and passes both through (the tagfilter extension still escapes `<script>`,
/// `<iframe>`, … as GitHub does). `smart: true` sets `CMARK_OPT_SMART` (curly quotes, `--` → en
/// dash, `---` → em dash, `...` → ellipsis; a table's delimiter row is parsed before, so it stays
/// a table). Headings get ids (``MarkdownHeadings``); with `gfm`, definition lists are read too
/// (``MarkdownDefinitionLists``).
public enum Markdown {
    /// The HTML for `markdown`.
    public static func render(_ markdown: String, unsafe: Bool, smart: Bool, gfm: Bool = true) -> String {
        renderWithLinks(markdown, unsafe: unsafe, smart: smart, gfm: gfm, source: nil).html
    }

    /// The plain text of the first paragraph of `markdown` (text and code spans; line breaks
    /// become spaces and white-space runs one space; markup dropped), or nil when there is no
    /// paragraph. Used as the default `description` of an item.
    public static func firstParagraphText(_ markdown: String, smart: Bool = false, gfm: Bool = true) -> String? {
        let options = options(unsafe: false, smart: smart, gfm: gfm, markdown: markdown)
        return withDocument(markdown, options: options, gfm: gfm) { document, extensions in
            let walk = prepare(document, source: nil, rewriteLinks: false, findRawHTML: false, smart: smart, gfm: gfm)
            MarkdownAlerts.convert(walk.quotes, options: options, extensions: extensions)
            return firstParagraph(in: document)
        }
    }

    /// Parses once and returns both the HTML and the first paragraph's plain text.
    static func renderWithSummary(_ markdown: String, unsafe: Bool, smart: Bool, gfm: Bool = true) -> (html: String, summary: String?) {
        let r = renderWithLinks(markdown, unsafe: unsafe, smart: smart, gfm: gfm, source: nil)
        return (r.html, r.summary)
    }

    /// The scheme that marks a link to another content file in rendered HTML until the build
    /// knows the page it is rendered into: `feedgen-md:content/today/a.md#part`.
    public static let contentLinkScheme = "feedgen-md:"

    /// What ``renderWithLinks(_:unsafe:smart:gfm:source:rewriteLinks:figures:attributesInTree:)`` gives.
    typealias Rendered = (html: String, summary: String?, links: [MarkdownLink], rawHTML: [SourceLocation], problems: [Diagnostic])

    /// Renders `markdown` from the file `source.path` whose body starts at line `source.firstLine`.
    /// Links to a relative `.md` path become `feedgen-md:<site-relative path>` destinations (when
    /// `rewriteLinks`), and so do links and images whose destination is any other path
    /// (``MarkdownLink/init(pathDestination:directory:)``); all are returned with their positions
    /// so that the build can check them and turn them into URLs of the right output file. `rawHTML` holds where
    /// safe mode dropped raw HTML (empty when `unsafe` or without `source`). Soft line breaks
    /// between East Asian wide characters are removed (``EastAsianWidth``). `problems` holds a
    /// warning for each `#fragment` link that names no id of this text (``MarkdownHeadings``),
    /// and an error for a table whose padding would explode (``MarkdownBlocks``; the text is
    /// then rendered without GFM).
    static func renderWithLinks(
        _ markdown: String, unsafe: Bool, smart: Bool, gfm: Bool = true, source: (path: String, firstLine: Int)?,
        rewriteLinks: Bool = true, figures: [Int: MarkdownFigure] = [:], attributesInTree: Bool = false
    ) -> Rendered {
        let gfmAsked = gfm
        var gfm = gfm
        var problems: [Diagnostic] = []
        if gfm, let line = MarkdownBlocks.overflowingTable(in: markdown) {
            gfm = false
            if let source { problems.append(MarkdownBlocks.error(line: line, source: source)) }
        }
        let options = options(unsafe: unsafe, smart: smart, gfm: gfm, markdown: markdown)
        let rendered = withDocument(markdown, options: options, gfm: gfm) { document, extensions -> Rendered? in
            let walk = prepare(
                document, source: source, rewriteLinks: rewriteLinks, findRawHTML: !unsafe && source != nil, smart: smart,
                gfm: gfm, collectParagraphs: !figures.isEmpty)
            let rawHTML = walk.rawHTML.isEmpty ? [] : source.map { locate(walk.rawHTML, in: markdown, source: $0) } ?? []
            let ids = MarkdownHeadings.ids(walk.headings, smart: smart)
            // Without raw HTML in the page (safe mode drops it) and without figures, every heading
            // and `<pre>` tag of cmark's output is the document's: their attributes are written
            // into the page in one pass (``MarkdownAttributes``), not by re-rendering each one.
            let inPage = !attributesInTree && (!unsafe || !walk.hasHTML) && figures.isEmpty
            if !inPage {
                MarkdownHeadings.addIDs(walk.headings, ids: ids, options: options, extensions: extensions)
            }
            MarkdownBlocks.wrap(tables: walk.tables)
            if !inPage {
                MarkdownBlocks.makeFocusable(codeBlocks: walk.codeBlocks, options: options, extensions: extensions)
            }
            MarkdownBlocks.label(tasks: walk.tasks)
            MarkdownAlerts.convert(walk.quotes, options: options, extensions: extensions)
            if !figures.isEmpty {
                // `figure` shortcodes (ForeignSyntaxShortcodes): the paragraph starting at the
                // figure's line holding one image, or a link around one, and nothing else.
                let found = walk.paragraphs.compactMap { node -> (OpaquePointer, MarkdownFigure)? in
                    guard let figure = figures[Int(cmark_node_get_start_line(node))], let child = cmark_node_first_child(node),
                        cmark_node_next(child) == nil
                    else { return nil }
                    let type = cmark_node_get_type(child)
                    if type == CMARK_NODE_IMAGE { return (node, figure) }
                    guard type == CMARK_NODE_LINK, let image = cmark_node_first_child(child), cmark_node_next(image) == nil,
                        cmark_node_get_type(image) == CMARK_NODE_IMAGE
                    else { return nil }
                    return (node, figure)
                }
                MarkdownFigures.convert(found, options: options, extensions: extensions, smart: smart, gfm: gfm)
            }
            var html = ""
            if let rendered = cmark_render_html_with_mem(document, options, extensions, feedgen_cmark_arena()) {
                // cmark's buffer is read in place: the attributes are written while it is copied.
                let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(rendered).assumingMemoryBound(to: UInt8.self), count: strlen(rendered))
                let written = inPage
                    ? MarkdownAttributes.write(into: bytes, headingIDs: ids, codeBlocks: walk.codeBlocks.count)
                    : String(validUTF8: bytes)  // the arena takes `rendered` back with the document
                guard let written else { return nil }
                html = written
            } else if inPage, !ids.isEmpty || !walk.codeBlocks.isEmpty {
                return nil
            }
            problems += MarkdownHeadings.deadFragments(walk.fragments, html: html)
            return (html, firstParagraph(in: document), walk.links, rawHTML, problems)
        }
        // The tags did not match the document's blocks (never seen): the attributes go in the tree.
        return rendered
            ?? renderWithLinks(
                markdown, unsafe: unsafe, smart: smart, gfm: gfmAsked, source: source, rewriteLinks: rewriteLinks, figures: figures,
                attributesInTree: true)
    }

    /// One walk over the tree: rewrites `.md` links, notes raw HTML and `#fragment` links, mends
    /// smart quotes after `(` and `[` (``MarkdownSmartQuotes``),
    /// collects the headings, tables, code blocks, task items and (with GFM) block quotes that the
/// caller changes (``MarkdownAlerts``), then
    /// unlinks the soft breaks between wide characters (the tree changes only after the walk:
    /// the iterator must not see a changed tree).
    private static func prepare(
        _ document: OpaquePointer, source: (path: String, firstLine: Int)?, rewriteLinks: Bool, findRawHTML: Bool,
        smart: Bool, gfm: Bool, collectParagraphs: Bool = false
    ) -> (
        links: [MarkdownLink], rawHTML: [(line: Int, column: Int, literal: String)], headings: [OpaquePointer],
        tables: [OpaquePointer], codeBlocks: [OpaquePointer], tasks: [OpaquePointer], quotes: [OpaquePointer],
        fragments: [(fragment: String, destination: String, location: SourceLocation)], paragraphs: [OpaquePointer],
        hasHTML: Bool
    ) {
        guard let iterator = cmark_iter_new(document) else { return ([], [], [], [], [], [], [], [], [], false) }
        var links: [MarkdownLink] = []
        var rawHTML: [(line: Int, column: Int, literal: String)] = []
        var wideBreaks: [OpaquePointer] = []
        var headings: [OpaquePointer] = []
        var tables: [OpaquePointer] = []
        var codeBlocks: [OpaquePointer] = []
        var tasks: [OpaquePointer] = []
        var quotes: [OpaquePointer] = []
        var fragments: [(fragment: String, destination: String, location: SourceLocation)] = []
        var paragraphs: [OpaquePointer] = []
        var hasHTML = false
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
            /// Notes `link` (found at `node`) and writes its marker as the node's destination.
            func mark(_ node: OpaquePointer, _ link: MarkdownLink, suffix: Substring) {
                var located = link
                located.location = location()
                links.append(located)
                // The marker's bytes go to cmark as they are (no String made, validated and copied).
                located.markerBytes(suffix: suffix).withUnsafeBufferPointer { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { _ = cmark_node_set_url(node, $0.baseAddress) }
                }
            }
            if type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE, let url = cmark_node_get_url(node),
                MarkdownLink.isProtocolRelative(url)
            {
                // `//host/x` takes the page's scheme, `file:` for a page opened from disk
                // (RFC 3986 §4.2): written `https://host/x`, what a browser fetches on a site.
                _ = cmark_node_set_url(node, "https:" + String(cString: url))
                continue
            }
            switch type {
            case CMARK_NODE_TEXT:
                if smart { MarkdownSmartQuotes.fix(node) }
            case CMARK_NODE_SOFTBREAK:
                if EastAsianWidth.removesBreak(
                    before: edgeScalar(cmark_node_previous(node), last: true),
                    after: edgeScalar(cmark_node_next(node), last: false)) {
                    wideBreaks.append(node)
                }
            case CMARK_NODE_HTML_BLOCK, CMARK_NODE_HTML_INLINE:
                hasHTML = true
                if findRawHTML {
                    let literal = cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
                    rawHTML.append(
                        (Int(cmark_node_get_start_line(node)), Int(cmark_node_get_start_column(node)), literal))
                } else if rewriteLinks, let source, let raw = cmark_node_get_literal(node) {
                    // Raw HTML kept (`markdown.unsafe`): its `src`/`href`/`srcset`/`poster` paths
                    // are marked as a Markdown destination is (``MarkdownRawPaths``).
                    let literal = String(cString: raw)
                    if directory == nil { directory = folder(of: source.path) }
                    let start = location()
                    let rewritten = MarkdownRawPaths.rewrite(literal) { url, isLink, offset in
                        guard let (link, suffix) = pathLink(url, isLink: isLink, directory: directory!) else { return nil }
                        var located = link
                        located.location = Self.location(of: offset, in: literal, start: start)
                        links.append(located)
                        return located.marker(suffix: suffix)
                    }
                    if let rewritten { _ = cmark_node_set_literal(node, rewritten) }
                }
            case CMARK_NODE_HEADING:
                headings.append(node)
            case CMARK_NODE_TABLE:
                tables.append(node)
            case CMARK_NODE_PARAGRAPH:
                if collectParagraphs { paragraphs.append(node) }
            case CMARK_NODE_CODE_BLOCK:
                codeBlocks.append(node)
            case CMARK_NODE_BLOCK_QUOTE:
                if gfm { quotes.append(node) }
            case CMARK_NODE_ITEM:
                if let e = cmark_node_get_syntax_extension(node), e == gfmExtensions[3] { tasks.append(node) }
            case CMARK_NODE_LINK:
                guard rewriteLinks, let source, let raw = cmark_node_get_url(node) else { continue }
                if raw.pointee == CChar(UInt8(ascii: "#")) {
                    // A link within this text: checked against its ids once it is rendered.
                    let url = String(validUTF8CString: raw)
                    fragments.append((MarkdownLink.percentDecode(String(url.dropFirst())), url, location()))
                    continue
                }
                let url = String(validUTF8CString: raw)
                if directory == nil { directory = folder(of: source.path) }
                if let (link, suffix) = pathLink(url, isLink: true, directory: directory!) { mark(node, link, suffix: suffix) }
            case CMARK_NODE_IMAGE:
                guard rewriteLinks, let source, let raw = cmark_node_get_url(node) else { continue }
                let url = String(validUTF8CString: raw)
                if directory == nil { directory = folder(of: source.path) }
                if let (link, suffix) = pathLink(url, isLink: false, directory: directory!) { mark(node, link, suffix: suffix) }
            default:
                break
            }
        }
        cmark_iter_free(iterator)
        for node in wideBreaks { cmark_node_free(node) }  // unlinks it first
        return (links, rawHTML, headings, tables, codeBlocks, tasks, quotes, fragments, paragraphs, hasHTML)
    }

    /// The link a destination `url` written in `directory` makes, and the suffix its marker
    /// keeps: for a link (`isLink`), a `.md` file or a folder (`../posts/`); for a link or an
    /// image, any other path (a file, a root-relative page: content-format §5.4). Nil for a URL
    /// with a scheme, `#fragment` and the like.
    private static func pathLink(_ url: String, isLink: Bool, directory: String) -> (MarkdownLink, Substring)? {
        if isLink, MarkdownLink.mayEndInMarkdownSuffix(url) || MarkdownLink.endsInSlash(url),
            let link = MarkdownLink(destination: url, directory: directory, folders: true)
        {
            return (link, Substring(link.fragment.map { "#" + $0 } ?? ""))
        }
        return MarkdownLink(pathDestination: url, directory: directory).map { ($0, LinkResolver.split(url).suffix) }
    }

    /// The folder of the site-relative file `path` (`content/a/b.md` → `content/a`): its
    /// non-empty `/`-separated parts but the last, joined by `/`.
    static func folder(of path: String) -> String {
        // An ASCII path without empty parts (every path the scanner gives) is cut at its last `/`.
        let cut = path.withUTF8Bytes { b -> Int? in
            guard b.first != UInt8(ascii: "/"), b.last != UInt8(ascii: "/"), ByteScan.isASCII(b),
                !b.indices.dropFirst().contains(where: { b[$0] == UInt8(ascii: "/") && b[$0 - 1] == UInt8(ascii: "/") })
            else { return nil }
            return b.lastIndex(of: UInt8(ascii: "/")) ?? 0
        }
        if let cut { return String(path[..<path.utf8.index(path.utf8.startIndex, offsetBy: cut)]) }
        return path.split(separator: "/").dropLast().joined(separator: "/")
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
            // An ASCII byte at the edge is the scalar (no String made).
            let edge = bytes[last ? count - 1 : 0]
            if edge < 0x80 { return Unicode.Scalar(edge) }
            var (start, end) = last ? (count - 1, count) : (0, 1)
            if last {
                while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
            } else {
                while end < count, bytes[end] & 0xC0 == 0x80 { end += 1 }
            }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self).unicodeScalars.first
        case CMARK_NODE_EMPH, CMARK_NODE_STRONG, CMARK_NODE_LINK, CMARK_NODE_STRIKETHROUGH:
            return edgeScalar(last ? cmark_node_last_child(node) : cmark_node_first_child(node), last: last)
        default:
            return nil
        }
    }

    /// cmark's options for `markdown`. Footnotes only where the text has a `[^` (every footnote
    /// reference and definition starts so): with the option, cmark-gfm walks the whole tree
    /// twice more after parsing, footnotes or not.
    private static func options(unsafe: Bool, smart: Bool, gfm: Bool, markdown: String) -> Int32 {
        var options = CMARK_OPT_DEFAULT
        if unsafe { options |= CMARK_OPT_UNSAFE }
        if smart { options |= CMARK_OPT_SMART }
        if gfm, markdown.containsBytes("[^") { options |= CMARK_OPT_FOOTNOTES }
        return options
    }

    /// cmark-gfm's GFM extensions, registered once (registration is not thread-safe; the lazy
    /// static is), then only read by the parsers of every thread.
    nonisolated(unsafe) private static let gfmExtensions: [OpaquePointer] = {
        cmark_gfm_core_extensions_ensure_registered()
        // The order matters: `autolink` is [2] (``withDocument``), `tasklist` [3] (``prepare``).
        return ["table", "strikethrough", "autolink", "tasklist", "tagfilter"].map { name in
            guard let e = cmark_find_syntax_extension(name) else { fatalError("cmark-gfm has no '\(name)' extension") }
            return e
        }
    }()

    /// Parses `markdown` and calls `body` with the document and the parser's extension list (for
    /// `cmark_render_html`); both are freed when it returns. With `gfm`, definition lists are read
    /// first (``MarkdownDefinitionLists``): a text with candidate lines the parse does not confirm is
    /// parsed again without them (twice at most, then without any).
    private static func withDocument<T>(
        _ markdown: String, options: Int32, gfm: Bool, _ body: (OpaquePointer, UnsafeMutablePointer<cmark_llist>?) -> T
    ) -> T {
        var markdown = markdown
        var (definitions, emptied) = gfm ? markdown.withUTF8 { MarkdownDefinitionLists.candidates(in: $0) } : ([], [])
        var round = 0
        while true {
            round += 1
            // The parser, the document and every node made for it (`cmark_node_new_with_mem`
            // with the arena: cmark-gfm links only nodes of one allocator) come from the
            // thread's arena, given back at once here: the tree is not freed node by node.
            feedgen_cmark_arena_enter()
            defer { feedgen_cmark_arena_leave() }
            guard let parser = cmark_parser_new_with_mem(options, feedgen_cmark_arena()) else {
                fatalError("cmark_parser_new returned NULL (out of memory)")
            }
            var source = definitions.isEmpty ? markdown : MarkdownDefinitionLists.marking(markdown, items: definitions, empty: emptied)
            if gfm {
                // The order of `gfmExtensions` is kept: `autolink` is [2].
                let email = source.withUTF8 { Self.mayHoldEmail($0) }
                for (k, e) in gfmExtensions.enumerated() {
                    _ = cmark_parser_attach_syntax_extension(parser, k == 2 && !email ? autolinkWithoutEmail : e)
                }
            }
            source.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    cmark_parser_feed(parser, chars.baseAddress, chars.count)
                }
            }
            guard let document = cmark_parser_finish(parser) else { fatalError("cmark_parser_finish returned NULL (out of memory)") }
            if !definitions.isEmpty {
                let rejected = MarkdownDefinitionLists.convert(document, items: definitions)
                if !rejected.isEmpty {
                    let rejected = Set(rejected)
                    definitions = round >= 2 ? [] : definitions.filter { !rejected.contains($0.line) }
                    let starts = Set(definitions.map(\.line))
                    emptied = emptied.filter { starts.contains($0.line + 1) }
                    continue
                }
            }
            return body(document, cmark_parser_get_syntax_extensions(parser))
        }
    }
}
