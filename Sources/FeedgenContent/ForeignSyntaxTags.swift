/// The constructs ``ForeignSyntaxPass`` recognises at a `{`: Liquid tags and outputs, Hugo
/// shortcodes (and their `/* */` escapes), kramdown attribute lists, `raw` and `highlight`.
extension ForeignSyntaxPass {
    /// In code (a code line or a code span): only `raw` markers and shortcode escapes apply.
    var inCode: Bool { lineIsCode || codeSpan > 0 }

    /// Handles the construct at `i` (a `{`); false when there is none (the `{` is text).
    mutating func brace() -> Bool {
        let next = b[i + 1]
        if next == 0x25 {  // {%
            guard let tag = liquidTag(at: i) else { return false }
            if raw {
                guard tag.name == "endraw" else { return false }
                skip(tag.end - i)
                raw = false
                return true
            }
            if tag.name == "raw" {
                rawAt = (inLine, scalarColumn())
                skip(tag.end - i)
                raw = true
                return true
            }
            if inCode { return false }
            if tag.name == "highlight" {
                openHighlight(tag)
                return true
            }
            if let destination = liquidLinkDestination(tag) {
                let written = String(decoding: b[i..<tag.end].map { $0 == 0x0A || $0 == 0x09 ? 0x20 : $0 }, as: UTF8.self)
                skip(tag.end - i)
                emit(destination)
                linkTags[String(decoding: destination, as: UTF8.self)] = written
                return true
            }
            if !tag.name.hasPrefix("end"), !["else", "elsif", "when"].contains(tag.name) {
                warn("Liquid tag \(shown(i, tag.end)) is left out of the page: feedgen does not run Liquid")
            }
            skip(tag.end - i)
            return true
        }
        if next == 0x3A {  // {:
            if !raw, !inCode, i + 2 < b.count, b[i + 2] == 0x3A, kramdownExtension() { return true }
            guard !raw, !inCode, let end = find([0x7D], from: i + 2, sameLine: true) else { return false }
            if restIsBlank(end), lineIsATXHeading() {
                copy(end - i)  // `## A {: #part}`: the heading's id (``MarkdownHeadingAttributes``)
                return true
            }
            warn("kramdown attribute list \(shown(i, end)) is left out of the page: feedgen does not apply kramdown attributes")
            skip(end - i)
            return true
        }
        guard next == 0x7B, !raw else { return false }
        if i + 2 < b.count, b[i + 2] == 0x3C || b[i + 2] == 0x25 {  // {{< or {{%
            let mark = b[i + 2]
            let closer: [UInt8] = [mark == 0x3C ? 0x3E : 0x25, 0x7D, 0x7D]
            // `{{</* x */>}}`: Hugo's escape, shown by Hugo as `{{< x >}}` (in code too).
            if i + 4 < b.count, b[i + 3] == 0x2F, b[i + 4] == 0x2A,
                let end = find([0x2A, 0x2F] + closer, from: i + 5, sameLine: false)
            {
                let inner = Array(b[(i + 5)..<(end - 5)])
                skip(end - i)
                emit([0x7B, 0x7B, mark] + inner + closer)
                return true
            }
            guard !inCode, let end = find(closer, from: i + 3, sameLine: false) else { return false }
            var j = i + 3
            while j < end, b[j] == 0x20 { j += 1 }
            var k = j
            while k < end - 3, b[k] != 0x20, b[k] != 0x0A, b[k] != 0x09 { k += 1 }
            let name = String(decoding: b[j..<k], as: UTF8.self)
            if shortcodeCodeBlock(name: name, mark: mark, argsStart: k, end: end) { return true }
            if builtInShortcode(name: name, argsStart: k, end: end) { return true }
            if var destination = hugoRefDestination(name: name, argsStart: k, end: end) {
                let written = String(decoding: b[i..<end].map { $0 == 0x0A || $0 == 0x09 ? 0x20 : $0 }, as: UTF8.self)
                var hash = destination.firstIndex(of: 0x23) ?? destination.endIndex
                // Another tag for the same file (`ref "x.md"`, `ref "x"`): one more `./`, so that
                // each link shows its own tag.
                while let other = linkTags[String(decoding: destination[..<hash], as: UTF8.self)], other != written {
                    destination.insert(contentsOf: [0x2E, 0x2F], at: destination[0] == 0x2F ? 1 : 0)
                    hash += 2
                }
                skip(end - i)
                emit(destination)
                linkTags[String(decoding: destination[..<hash], as: UTF8.self)] = written
                return true
            }
            if j >= end || b[j] != 0x2F {  // a closing `{{< /x >}}`: its opening tag was reported
                warn("Hugo shortcode \(shown(i, end)) is left out of the page: feedgen does not run shortcodes")
            }
            skip(end - i)
            return true
        }
        guard !inCode, var end = find([0x7D, 0x7D], from: i + 2, sameLine: false) else { return false }
        // `{{{x}}}` (a Mustache triple, as in Handlebars-style content) is one construct.
        if i + 2 < b.count, b[i + 2] == 0x7B, end < b.count, b[end] == 0x7D { end += 1 }
        if let destination = liquidOutputDestination(end: end) {
            skip(end - i)
            emit(destination)
            return true
        }
        warn("Liquid output \(shown(i, end)) is left out of the page: feedgen does not run Liquid")
        skip(end - i)
        return true
    }

    /// Whether the input line holding `i` is an ATX heading (up to 3 spaces, 1 to 6 `#`, a space).
    func lineIsATXHeading() -> Bool {
        var j = i
        while j > 0, b[j - 1] != 0x0A { j -= 1 }
        var spaces = 0
        while j < b.count, b[j] == 0x20, spaces < 4 {
            j += 1
            spaces += 1
        }
        let hashes = run(of: 0x23, at: j)
        return spaces < 4 && hashes >= 1 && hashes <= 6 && j + hashes < b.count && (b[j + hashes] == 0x20 || b[j + hashes] == 0x09)
    }

    /// The Liquid tag `{%-? name … -?%}` at `start`: its name and the offset after its `%}`;
    /// nil when no `%}` closes it before a blank line.
    mutating func liquidTag(at start: Int) -> (name: String, end: Int, argsStart: Int)? {
        var j = start + 2
        if j < b.count, b[j] == 0x2D { j += 1 }
        while j < b.count, b[j] == 0x20 || b[j] == 0x09 || b[j] == 0x0A { j += 1 }
        let nameStart = j
        while j < b.count, b[j] == 0x5F || (b[j] | 0x20 >= 0x61 && b[j] | 0x20 <= 0x7A) || (b[j] >= 0x30 && b[j] <= 0x39) { j += 1 }
        guard let end = find([0x25, 0x7D], from: nameStart, sameLine: false) else { return nil }
        return (String(decoding: b[nameStart..<min(j, end - 2)], as: UTF8.self), end, min(j, end - 2))
    }

    /// The offset after the first `needle` from `start`, nil when a blank line (or, with
    /// `sameLine`, a line break) comes first. Remembered (``remembered(_:from:)``).
    mutating func find(_ needle: [UInt8], from start: Int, sameLine: Bool) -> Int? {
        let key = SearchKey(needle: needle, mode: sameLine ? 1 : 0)
        if let found = remembered(key, from: start) { return found.found }
        let result = scan(needle, from: start, sameLine: sameLine)
        searches[key] = result
        return result.found
    }

    /// ``find(_:from:sameLine:)`` without the memory: where the scan stopped (the match, or the
    /// line break that ends the search) and the offset after the match.
    func scan(_ needle: [UInt8], from start: Int, sameLine: Bool, blankLines: Bool = false) -> SearchResult {
        var j = start
        var lineBlank = false
        while j + needle.count <= b.count {
            if b[j] == 0x0A, !blankLines {
                if sameLine || lineBlank { return SearchResult(from: start, stop: j, found: nil) }
                lineBlank = true
            } else if b[j] != 0x20, b[j] != 0x09 {
                lineBlank = false
            }
            if b[j] == needle[0], b[j..<(j + needle.count)].elementsEqual(needle) {
                return SearchResult(from: start, stop: j, found: j + needle.count)
            }
            j += 1
        }
        return SearchResult(from: start, stop: b.count, found: nil)
    }

    /// The remembered search for `key` whose answer holds for a search from `start`: one that
    /// began at or before `start` and stopped at or after it (found nothing up to its stop, or its
    /// match is the first one from `start` too). Searches from later starts thus reuse earlier
    /// scans, so that many unclosed `{{` in one paragraph cost one scan, not one each.
    func remembered(_ key: SearchKey, from start: Int) -> SearchResult? {
        guard let r = searches[key], r.from <= start, start <= r.stop else { return nil }
        return r
    }

    /// Whether the output's current line holds anything but white space.
    var outLineHasText: Bool {
        for k in stride(from: outCount - 1, through: 0, by: -1) {
            let c = outByte(k)
            if c == 0x0A { return false }
            if c != 0x20, c != 0x09 { return true }
        }
        return false
    }

    /// `{% highlight lang … %}`: a fence of `lang` (longer than any backtick run of the code),
    /// on a line of its own; its text up to `{% endhighlight %}` is code, kept as written.
    mutating func openHighlight(_ tag: (name: String, end: Int, argsStart: Int)) {
        let key = SearchKey(needle: Array("endhighlight".utf8), mode: 2)
        var result = remembered(key, from: tag.end)
        if result == nil {
            var search = tag.end
            var found = SearchResult(from: tag.end, stop: b.count, found: nil)
            while let brace = scan([0x7B, 0x25], from: search, sameLine: false, blankLines: true).found {
                search = brace
                var j = brace
                if j < b.count, b[j] == 0x2D { j += 1 }
                while j < b.count, b[j] == 0x20 || b[j] == 0x09 || b[j] == 0x0A { j += 1 }
                let name = Array("endhighlight".utf8)
                guard j + name.count <= b.count, b[j..<(j + name.count)].elementsEqual(name),
                    let end = scan([0x25, 0x7D], from: j + name.count, sameLine: false).found
                else { continue }
                found = SearchResult(from: tag.end, stop: brace - 2, found: brace - 2, extra: end)
                break
            }
            searches[key] = found
            result = found
        }
        guard let start = result?.found, let end = result?.extra else {
            warn("\(shown(i, tag.end)) has no '{% endhighlight %}': the tag is left out of the page")
            skip(tag.end - i)
            return
        }
        // `{% highlight ruby linenos %}`: the language is the first word (options are dropped).
        var language = String(decoding: b[tag.argsStart..<(tag.end - 2)], as: UTF8.self)
            .split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first.map(String.init) ?? ""
        while language.hasSuffix("-") { language.removeLast() }  // `-%}` trims white space in Liquid
        openCodeBlock(tagEnd: tag.end, closing: (start, end), language: language)
    }

    /// Replaces the tag at `i` (up to `tagEnd`) with an opening fence of `language` (longer than
    /// any backtick run of the code), on a line of its own; the text up to `closing` is code.
    mutating func openCodeBlock(tagEnd: Int, closing: (start: Int, end: Int), language: String) {
        var longest = 0
        var j = tagEnd
        while j < closing.start {
            if b[j] == 0x60 {
                let n = run(of: 0x60, at: j)
                longest = max(longest, n)
                j += n
            } else {
                j += 1
            }
        }
        let fence = [UInt8](repeating: 0x60, count: max(3, longest + 1))
        if outLineHasText { emit([0x0A]) }
        skip(tagEnd - i)
        emit(fence + Array(language.utf8))
        if i < b.count, b[i] != 0x0A {
            if restIsBlank(i) {
                skip(run(of: 0x20, at: i))
            } else {
                emit([0x0A])
            }
        }
        highlight = (closing.start, closing.end - closing.start, fence)
    }

    /// Hugo's `{{< highlight go >}}` (built in) and the `{{< code … >}}` / `{{< code-toggle … >}}`
    /// shortcodes of Hugo's documentation theme, with their closing tag: their text is code, shown
    /// as a fenced code block (of the first argument, the `lang` argument, or the `file` argument's
    /// extension). Nil when `name` is none of them or has no closing tag.
    mutating func shortcodeCodeBlock(name: String, mark: UInt8, argsStart: Int, end: Int) -> Bool {
        guard name == "highlight" || name == "code" || name.hasPrefix("code-") else { return false }
        // A self-closing tag (`{{< code-toggle file=hugo config=deployment />}}`) opens no block.
        var last = end - 4
        while last > argsStart, b[last] == 0x20 || b[last] == 0x09 { last -= 1 }
        if last >= argsStart, b[last] == 0x2F { return false }
        let closer: [UInt8] = [mark == 0x3C ? 0x3E : 0x25, 0x7D, 0x7D]
        // `{{< /x >}}`, `{{</x >}}` and `{{</ x >}}`: Hugo reads all three.
        let closingTags = [[0x7B, 0x7B, mark, 0x20, 0x2F], [0x7B, 0x7B, mark, 0x2F], [0x7B, 0x7B, mark, 0x2F, 0x20]].map {
            $0 + Array(name.utf8)
        }
        // The first closing tag of either spelling, each search remembered on its own.
        var result: SearchResult?
        for tag in closingTags {
            let key = SearchKey(needle: tag, mode: 3)
            var found = remembered(key, from: end)
            if found == nil {
                var search = end
                var first = SearchResult(from: end, stop: b.count, found: nil)
                // `{{< /code >}}`, not `{{< /code-toggle >}}`: the name ends at a space or the closer.
                while let at = scan(tag, from: search, sameLine: false, blankLines: true).found {
                    search = at
                    guard at < b.count, b[at] == 0x20 || b[at] == closer[0],
                        let close = scan(closer, from: at, sameLine: true).found
                    else { continue }
                    first = SearchResult(from: end, stop: at - tag.count, found: at - tag.count, extra: close)
                    break
                }
                searches[key] = first
                found = first
            }
            if let start = found?.found, result?.found.map({ start < $0 }) ?? true { result = found }
        }
        guard let start = result?.found, let close = result?.extra else { return false }
        let closing = (start: start, end: close)
        let args = String(decoding: b[argsStart..<(end - 3)], as: UTF8.self)
            .split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
        func argument(_ key: String) -> String? {
            args.first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)).trimmingQuotes }
        }
        var language = name == "highlight" ? (args.first?.trimmingQuotes ?? "") : (argument("lang") ?? "")
        if language.isEmpty, let file = argument("file"), let dot = file.lastIndex(of: "."), !file[dot...].contains("/") {
            language = String(file[file.index(after: dot)...])
        }
        openCodeBlock(tagEnd: end, closing: closing, language: language)
        return true
    }

    /// The fence closing a `highlight`, on a line of its own.
    mutating func closeHighlight(_ h: (end: Int, length: Int, fence: [UInt8])) {
        if outLineHasText { emit([0x0A]) }
        skip(h.length)
        emit(h.fence)
        if i < b.count, b[i] != 0x0A {
            if restIsBlank(i) { skip(run(of: 0x20, at: i)) } else { emit([0x0A]) }
        }
        highlight = nil
    }

}

/// What a remembered search looked for: the bytes and how (see ``ForeignSyntaxPass/searches``).
struct SearchKey: Hashable {
    var needle: [UInt8]
    /// 0: up to a blank line; 1: on the same line; 2: a `highlight`'s end; 3: a shortcode's end;
    /// 5: a kramdown extension's end (closing backtick runs: ``ForeignSyntaxPass/closingRuns``).
    var mode: Int
}

/// A forward search: where it began and stopped (at its match, or where it gave up), the offset
/// it found (nil: none) and one more offset (the end of a closing tag).
struct SearchResult {
    var from: Int
    var stop: Int
    var found: Int?
    var extra = 0
}

extension String {
    /// Without one pair of surrounding `"` or `'` (a shortcode argument's quotes).
    fileprivate var trimmingQuotes: String {
        guard count >= 2, let first, first == last, first == "\"" || first == "'" else { return self }
        return String(dropFirst().dropLast())
    }
}
