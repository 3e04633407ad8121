/// GitHub's alerts: a block quote whose first line is `[!NOTE]`, `[!TIP]`, `[!IMPORTANT]`,
/// `[!WARNING]` or `[!CAUTION]` becomes GitHub's markup for them (docs.github.com, "Basic writing
/// and formatting syntax", Alerts), which Hugo renders too (its blockquote render hook's `alert`
/// type, with the Obsidian extensions: any type word, a fold sign and a title after the marker).
import CCmark

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
    /// unchanged. `> [!WARNING]+ Radiation hazard` gives the title "Radiation hazard" (the
    /// fold sign is dropped: folding needs a `<details>`, left for later). A quote whose first
    /// line is not a marker, or whose title has other markup than code spans, stays a block quote.
    static func convert(_ quotes: [OpaquePointer]) {
        for quote in quotes { convert(quote) }
    }

    private static func convert(_ quote: OpaquePointer) {
        guard let paragraph = cmark_node_first_child(quote), cmark_node_get_type(paragraph) == CMARK_NODE_PARAGRAPH
        else { return }
        // The first line's nodes: text (cmark splits `[`, `!NOTE` and `]` into separate nodes),
        // then code spans in a title; anything else on it means this is no marker line.
        var line: [OpaquePointer] = []
        var segments: [(code: Bool, text: String)] = []
        var lineEnd: OpaquePointer?
        var next = cmark_node_first_child(paragraph)
        while let node = next {
            let type = cmark_node_get_type(node)
            if type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK {
                lineEnd = node
                break
            }
            guard type == CMARK_NODE_TEXT || type == CMARK_NODE_CODE else { return }
            segments.append((type == CMARK_NODE_CODE, cmark_node_get_literal(node).map { String(cString: $0) } ?? ""))
            line.append(node)
            next = cmark_node_next(node)
        }
        let leading = segments.prefix { !$0.code }.map(\.text).joined()
        guard let marker = parseMarker(leading) else { return }
        var title = escape(String(leading.dropFirst(marker.length)).trimmingLeadingSpaces())
        for segment in segments.drop(while: { !$0.code }) {
            title += segment.code ? "<code>\(escape(segment.text))</code>" : escape(segment.text)
        }
        if title.allSatisfy({ $0 == " " || $0 == "\t" }) { title = titles[marker.type] ?? capitalized(marker.type) }

        guard let alert = cmark_node_new(CMARK_NODE_CUSTOM_BLOCK) else { return }
        _ = cmark_node_set_on_enter(
            alert, "<div class=\"markdown-alert markdown-alert-\(marker.type)\">\n<p class=\"markdown-alert-title\">\(title)</p>")
        _ = cmark_node_set_on_exit(alert, "</div>")
        for node in line { cmark_node_free(node) }
        if let lineEnd { cmark_node_free(lineEnd) }
        if cmark_node_first_child(paragraph) == nil { cmark_node_free(paragraph) }
        _ = cmark_node_insert_before(quote, alert)
        while let child = cmark_node_first_child(quote) { _ = cmark_node_append_child(alert, child) }
        cmark_node_free(quote)
    }

    /// `[!type]` with an optional `+`/`-` after it, at the start of `line`: the lowercased type
    /// and the marker's length in characters.
    static func parseMarker(_ line: String) -> (type: String, length: Int)? {
        guard line.hasPrefix("[!") else { return nil }
        let word = line.dropFirst(2).prefix { $0.isASCII && $0.isLetter }
        guard !word.isEmpty else { return nil }
        let after = line.dropFirst(2 + word.count)
        guard after.first == "]" else { return nil }
        var length = 3 + word.count
        if let sign = after.dropFirst().first, sign == "+" || sign == "-" { length += 1 }
        return (word.lowercased(), length)
    }

    private static func capitalized(_ word: String) -> String { word.prefix(1).uppercased() + word.dropFirst() }

    private static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}

extension String {
    fileprivate func trimmingLeadingSpaces() -> String { String(drop { $0 == " " || $0 == "\t" }) }
}
