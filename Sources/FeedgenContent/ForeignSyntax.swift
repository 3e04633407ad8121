/// The template syntax of other generators in a Markdown body (Liquid, Hugo shortcodes, kramdown
/// attribute lists), taken out or translated before cmark reads the body (content-format §5.2).
///
/// feedgen runs no template language in bodies, so a Liquid tag `{% … %}` or output `{{ … }}`, a
/// Hugo shortcode `{{< … >}}` / `{{% … %}}` and a kramdown attribute list `{: … }` are left out
/// of the page, each with a warning at its place. Some Liquid tags mean something feedgen can give
/// without running Liquid: `{% highlight lang %}…{% endhighlight %}` becomes a fenced code block
/// of that language, `{% raw %}…{% endraw %}` its text as written, and `{% link P %}` /
/// `{% post_url N %}` in a link destination a path to the content file they name
/// (``ForeignSyntaxPass/liquidLinkDestination(_:)``), as do Hugo's `ref` / `relref` shortcodes
/// there (``ForeignSyntaxPass/hugoRefDestination(name:argsStart:end:)``); Hugo's built-in `figure`
/// becomes an image paragraph that ``MarkdownFigures`` wraps in `<figure>`, `youtube` / `vimeo` a
/// link (``ForeignSyntaxPass/builtInShortcode(name:argsStart:end:)``); Hugo's escaped shortcode
/// `{{</* x */>}}` becomes the text `{{< x >}}`, as Hugo shows it. Code is respected: in fenced and
/// indented code blocks and in code spans everything is kept as written (`{{ .Title }}` in a code
/// example is code), except the `raw` markers and shortcode escapes, which Jekyll and Hugo remove
/// there too.
///
/// The pass keeps every line of the body where it was (it only adds a line break where a
/// `highlight` tag shares its line with other text), and ``PositionMap`` maps a place in its
/// output back to the body, so that later diagnostics (links, raw HTML) point at the source.
import FeedgenStorage

struct ForeignSyntax {
    /// A warning at a place of the body: 1-based line, 1-based column in Unicode scalars.
    struct Warning: Equatable {
        var line: Int
        var column: Int
        var message: String
    }

    var text: String
    var warnings: [Warning]
    var map: PositionMap
    /// The link destinations that stand for a Jekyll `{% link %}` or `{% post_url %}` tag (as
    /// cmark reports them), each with the tag as written: a link to no page is then a warning
    /// showing the tag, not an error (content-format §5.3).
    var linkTags: [String: String] = [:]
    /// Hugo `figure` shortcodes, each now an image paragraph starting at this line of `text`.
    var figures: [Int: MarkdownFigure] = [:]

    /// The body with foreign syntax handled; nil when it holds none (no `{%`, `{{` or `{:`: the
    /// common case costs one scan of the bytes).
    /// With `unsafe` (`markdown.unsafe`), `{::nomarkdown}`'s text is kept as raw HTML.
    static func process(_ body: String, unsafe: Bool = false) -> ForeignSyntax? {
        guard body.containsByte(UInt8(ascii: "{"), followedByOneOf: "%{:") else { return nil }
        var pass = ForeignSyntaxPass(Array(body.utf8), unsafe: unsafe)
        pass.run()
        let text = pass.out.withUnsafeBufferPointer { String(checkedUTF8: $0) } ?? String(decoding: pass.out, as: UTF8.self)
        return ForeignSyntax(
            text: text, warnings: pass.warnings, map: PositionMap(anchors: pass.anchors), linkTags: pass.linkTags, figures: pass.figures)
    }
}

/// Maps a (line, byte column) of the text ``ForeignSyntax`` produced to the same place in the
/// body it read (cmark counts columns in bytes; so does this map).
struct PositionMap: Sendable, Equatable {
    /// Where copying resumed after each edit: the output position and the input position there,
    /// in increasing order.
    struct Anchor: Sendable, Equatable {
        var outLine: Int, outColumn: Int, inLine: Int, inColumn: Int
    }
    var anchors: [Anchor]

    /// The body's line and byte column of output position `line`:`column` (both 1-based).
    func original(line: Int, column: Int) -> (line: Int, column: Int) {
        // The last anchor at or before the position: text after it was copied as it is.
        var low = 0
        var high = anchors.count
        while low < high {
            let mid = (low + high) / 2
            let a = anchors[mid]
            if (a.outLine, a.outColumn) <= (line, column) { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return (line, column) }
        let a = anchors[low - 1]
        if a.outLine == line { return (a.inLine, a.inColumn + column - a.outColumn) }
        return (a.inLine + line - a.outLine, column)
    }
}
