/// Hugo's `figure` markup for the image paragraphs that ``ForeignSyntaxPass`` made of `figure`
/// shortcodes: `<figure><img …><figcaption><h4>title</h4><p>caption</p></figcaption></figure>`,
/// as Hugo's built-in template writes it (hugo/tpl/tplimpl/embedded/templates/shortcodes/figure.html).
import CCmark

enum MarkdownFigures {
    /// Replaces each of `paragraphs` (paired with its figure) by the figure: cmark's rendering of
    /// the image (its path already rewritten like any image's) inside `<figure>`, the caption
    /// and `attr` rendered as inline Markdown with `options` (safe mode holds), `title` escaped.
    static func convert(
        _ paragraphs: [(node: OpaquePointer, figure: MarkdownFigure)], options: Int32, extensions: UnsafeMutablePointer<cmark_llist>?,
        smart: Bool, gfm: Bool
    ) {
        for (node, figure) in paragraphs {
            MarkdownBlocks.replace(node, options: options, extensions: extensions) { html in
                guard html.hasPrefix("<p>"), html.hasSuffix("</p>\n") else { return nil }
                var inner = String(html.dropFirst(3).dropLast(5))
                for (name, value) in [("width", figure.width), ("height", figure.height)] {
                    guard let value, !value.isEmpty, value.allSatisfy(\.isASCII), value.allSatisfy(\.isNumber),
                        let end = inner.range(of: " />")
                    else { continue }
                    inner.insert(contentsOf: " \(name)=\"\(value)\"", at: end.lowerBound)
                }
                let unsafe = options & CMARK_OPT_UNSAFE != 0
                func inline(_ text: String) -> String {
                    let rendered = Markdown.render(text, unsafe: unsafe, smart: smart, gfm: gfm)
                    return rendered.hasPrefix("<p>") && rendered.hasSuffix("</p>\n") ? String(rendered.dropFirst(3).dropLast(5)) : escape(text)
                }
                let className = figure.className.map { " class=\"\(escape($0))\"" } ?? ""
                html = "<figure\(className)>" + inner
                let caption = figure.caption.flatMap { $0.isEmpty ? nil : $0 }
                let attr = figure.attr.flatMap { $0.isEmpty ? nil : $0 }
                let title = figure.title.flatMap { $0.isEmpty ? nil : $0 }
                if title != nil || caption != nil || attr != nil {
                    html += "<figcaption>"
                    if let title { html += "<h4>\(escape(title))</h4>" }
                    if caption != nil || attr != nil {
                        html += "<p>" + (caption.map(inline) ?? "")
                        if let attr {
                            let link = figure.attrLink.flatMap { $0.isEmpty ? nil : $0 }
                            html += link.map { "<a href=\"\(escape($0))\">" } ?? ""
                            html += inline(attr) + (link == nil ? "" : "</a>")
                        }
                        html += "</p>"
                    }
                    html += "</figcaption>"
                }
                html += "</figure>\n"
                return ()
            }
        }
    }

    private static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
