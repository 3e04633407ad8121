/// Hugo's built-in `figure`, `youtube` and `vimeo` shortcodes, which ``ForeignSyntaxPass`` turns
/// into Markdown (an image, a link) instead of leaving them out (content-format §5.3).

/// What a `figure` shortcode adds around its image: rendered by ``MarkdownFigures``.
struct MarkdownFigure: Sendable, Equatable {
    var title: String?
    var caption: String?
    var attr: String?
    var attrLink: String?
    var className: String?
    var width: String?
    var height: String?
}

extension ForeignSyntaxPass {
    /// `{{< figure src="x.png" alt="…" caption="…" link="…" title="…" >}}` at `i` (up to `end`):
    /// a paragraph of its own holding `![alt](<x.png>)` (inside `[…](<link>)` with `link`), so that
    /// the path is resolved, copied and checked as a Markdown image's is; the figure's other
    /// arguments are noted at that line (``figures``). `youtube` / `vimeo` become an autolink to
    /// the video. False when `name` is none of them or the arguments are unusable.
    mutating func builtInShortcode(name: String, argsStart: Int, end: Int) -> Bool {
        guard name == "figure" || name == "youtube" || name == "vimeo" else { return false }
        var last = end - 3
        if last > argsStart, b[last - 1] == 0x2F { last -= 1 }  // `/>}}`
        let args = Self.shortcodeArguments(String(decoding: b[argsStart..<max(argsStart, last)], as: UTF8.self))
        func named(_ key: String) -> String? { args.first { $0.key == key }?.value }
        func usable(_ s: String) -> Bool { !s.isEmpty && !s.contains { $0 == "<" || $0 == ">" || $0 == "\n" } }
        var markdown: String
        if name == "figure" {
            guard let src = named("src"), usable(src) else { return false }
            let alt = (named("alt") ?? named("caption") ?? "").replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "[", with: "\\[").replacingOccurrences(of: "]", with: "\\]")
                .replacingOccurrences(of: "\n", with: " ")
            markdown = "![\(alt)](<\(src)>)"
            if let link = named("link"), usable(link) { markdown = "[\(markdown)](<\(link)>)" }
        } else {
            guard let id = named("id") ?? args.first(where: { $0.key == nil })?.value,
                !id.isEmpty, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
            else { return false }
            markdown = name == "youtube" ? "<https://www.youtube.com/watch?v=\(id)>" : "<https://vimeo.com/\(id)>"
        }
        if name == "figure" {
            // A paragraph of its own: a blank line before and after it.
            if outLineHasText { emit([0x0A, 0x0A]) }
            figures[outLine] = MarkdownFigure(
                title: named("title"), caption: named("caption"), attr: named("attr"), attrLink: named("attrlink"),
                className: named("class"), width: named("width"), height: named("height"))
            // Emitted before the shortcode is skipped: the image's place is the shortcode's.
            emit(Array(markdown.utf8))
            skip(end - i)
            if i < b.count, b[i] != 0x0A, !restIsBlank(i) {
                emit([0x0A, 0x0A])
            } else {
                var next = i
                while next < b.count, b[next] != 0x0A { next += 1 }
                if next + 1 < b.count, !restIsBlank(next + 1) { emit([0x0A]) }
            }
        } else {
            skip(end - i)
            emit(Array(markdown.utf8))
        }
        return true
    }

    /// A shortcode's arguments as Hugo reads them: `key=value`, `key="value with spaces"`,
    /// `` key=`raw` `` or positional values, separated by white space.
    static func shortcodeArguments(_ text: String) -> [(key: String?, value: String)] {
        var result: [(key: String?, value: String)] = []
        var s = Substring(text)
        while true {
            s = s.drop { $0 == " " || $0 == "\t" || $0 == "\n" }
            guard let first = s.first else { break }
            var key: String?
            if first != "\"", first != "`" {
                // `key=value`, and `key = "value"` (roweb3's figures), which Hugo reads too.
                let word = s.prefix { $0 != " " && $0 != "\t" && $0 != "\n" && $0 != "=" }
                let after = s.dropFirst(word.count).drop { $0 == " " || $0 == "\t" }
                if !word.isEmpty, after.first == "=" {
                    key = String(word)
                    s = after.dropFirst().drop { $0 == " " || $0 == "\t" }
                }
            }
            if let quote = s.first, quote == "\"" || quote == "`" {
                let body = s.dropFirst()
                var value = ""
                var k = body.startIndex
                while k < body.endIndex, body[k] != quote {
                    if quote == "\"", body[k] == "\\", body.index(after: k) < body.endIndex {
                        k = body.index(after: k)
                    }
                    value.append(body[k])
                    k = body.index(after: k)
                }
                result.append((key, value))
                s = k < body.endIndex ? body[body.index(after: k)...] : body[body.endIndex...]
            } else {
                let word = s.prefix { $0 != " " && $0 != "\t" && $0 != "\n" }
                result.append((key, String(word)))
                s = s.dropFirst(word.count)
            }
        }
        return result
    }
}
