/// Paths in raw HTML (`markdown.unsafe: true`): the `src`, `href`, `srcset` and `poster` values of
/// the tags in an HTML block or inline (`<img src="/assets/a.jpeg">`, `<a href="b.pdf">`,
/// `<source srcset="a.webp 1x, b.webp 2x">`), found so that they go through the same resolver as
/// Markdown links and images (issue #19 §3, content-format §5.4).

/// A tag attribute whose value is a URL (or, for `srcset`, a list of them).
enum MarkdownRawPaths {
    /// The attributes read: a value's URL names a file or page as a Markdown destination does.
    static let attributes: Set<String> = ["src", "href", "srcset", "poster"]

    /// `literal` (the text of an HTML block or inline node) with each URL of ``attributes`` that
    /// `mark` gives a replacement for replaced by it; nil when nothing changed. `mark` gets the
    /// URL as written, whether it is an `href` (a link, which may name a `.md` file or a folder)
    /// and its byte offset in `literal`. A value without quotes gets double quotes; a URL
    /// followed directly by `srcset`'s `,` gets a space before it (the marker ends at a space).
    /// Comments (`<!-- … -->`) and end tags are left alone.
    static func rewrite(_ literal: String, mark: (_ url: String, _ isLink: Bool, _ offset: Int) -> String?) -> String? {
        let b = Array(literal.utf8)
        var out: [UInt8] = []
        var copied = 0
        var changed = false
        var i = 0
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0C }
        func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z") }
        /// Copies up to `start`, then `replacement` for `start..<end`.
        func replace(_ start: Int, _ end: Int, with replacement: [UInt8]) {
            out.append(contentsOf: b[copied..<start])
            out.append(contentsOf: replacement)
            copied = end
            changed = true
        }
        while i < b.count {
            guard b[i] == UInt8(ascii: "<"), i + 1 < b.count else {
                i += 1
                continue
            }
            if b[i + 1] == UInt8(ascii: "!") {
                // A comment, doctype or CDATA: skipped to its end.
                let end = b.count >= 4 && b[i...].starts(with: "<!--".utf8) ? find("-->", in: b, from: i + 4) : find(">", in: b, from: i)
                i = end ?? b.count
                continue
            }
            guard isLetter(b[i + 1]) else {
                i += 1
                continue
            }
            // A start tag: its name, then attributes up to `>`.
            i += 1
            while i < b.count, !isSpace(b[i]), b[i] != UInt8(ascii: ">"), b[i] != UInt8(ascii: "/") { i += 1 }
            while i < b.count, b[i] != UInt8(ascii: ">") {
                while i < b.count, isSpace(b[i]) || b[i] == UInt8(ascii: "/") { i += 1 }
                let nameStart = i
                while i < b.count, !isSpace(b[i]), b[i] != UInt8(ascii: "="), b[i] != UInt8(ascii: ">"), b[i] != UInt8(ascii: "/") { i += 1 }
                let name = String(decoding: b[nameStart..<i], as: UTF8.self).lowercased()
                var j = i
                while j < b.count, isSpace(b[j]) { j += 1 }
                guard j < b.count, b[j] == UInt8(ascii: "=") else {
                    if i == nameStart, i < b.count, b[i] != UInt8(ascii: ">") { i += 1 }  // a stray byte
                    continue
                }
                j += 1
                while j < b.count, isSpace(b[j]) { j += 1 }
                guard j < b.count else { i = j; break }
                var quote: UInt8?
                var valueStart = j
                var valueEnd: Int
                if b[j] == UInt8(ascii: "\"") || b[j] == UInt8(ascii: "'") {
                    quote = b[j]
                    valueStart = j + 1
                    valueEnd = valueStart
                    while valueEnd < b.count, b[valueEnd] != b[j] { valueEnd += 1 }
                    i = min(valueEnd + 1, b.count)
                } else {
                    valueEnd = j
                    while valueEnd < b.count, !isSpace(b[valueEnd]), b[valueEnd] != UInt8(ascii: ">") { valueEnd += 1 }
                    i = valueEnd
                }
                guard attributes.contains(name), valueEnd > valueStart else { continue }
                let value = Array(b[valueStart..<valueEnd])
                let rewritten =
                    name == "srcset"
                    ? rewriteSrcset(value, base: valueStart, mark: mark)
                    : mark(String(decoding: value, as: UTF8.self), name == "href", valueStart).map { Array($0.utf8) }
                guard let rewritten else { continue }
                if quote == nil {
                    replace(valueStart, valueEnd, with: [UInt8(ascii: "\"")] + rewritten + [UInt8(ascii: "\"")])
                } else {
                    replace(valueStart, valueEnd, with: rewritten)
                }
            }
        }
        guard changed else { return nil }
        out.append(contentsOf: b[copied...])
        return String(decoding: out, as: UTF8.self)
    }

    /// A `srcset` value with each candidate's URL that `mark` replaces replaced (the HTML
    /// standard's parse: a URL runs to white space; trailing commas end the candidate, else its
    /// descriptors run to the next comma); nil when none is.
    private static func rewriteSrcset(_ v: [UInt8], base: Int, mark: (String, Bool, Int) -> String?) -> [UInt8]? {
        var out: [UInt8] = []
        var copied = 0
        var i = 0
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0C }
        while i < v.count {
            while i < v.count, isSpace(v[i]) || v[i] == UInt8(ascii: ",") { i += 1 }
            let start = i
            while i < v.count, !isSpace(v[i]) { i += 1 }
            var end = i
            while end > start, v[end - 1] == UInt8(ascii: ",") { end -= 1 }
            let endsCandidate = end < i
            if end > start, let marker = mark(String(decoding: v[start..<end], as: UTF8.self), false, base + start) {
                out.append(contentsOf: v[copied..<start])
                out.append(contentsOf: marker.utf8)
                if endsCandidate { out.append(UInt8(ascii: " ")) }
                copied = end
            }
            if !endsCandidate {
                while i < v.count, v[i] != UInt8(ascii: ",") { i += 1 }
            }
        }
        guard copied > 0 else { return nil }
        out.append(contentsOf: v[copied...])
        return out
    }

    private static func find(_ needle: String, in b: [UInt8], from: Int) -> Int? {
        let n = Array(needle.utf8)
        var i = from
        while i + n.count <= b.count {
            if b[i..<(i + n.count)].elementsEqual(n) { return i + n.count }
            i += 1
        }
        return nil
    }
}
