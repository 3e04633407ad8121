/// kramdown's extensions in a body, taken out by ``ForeignSyntaxPass`` (content-format §5.3):
/// `{::comment}…{:/comment}`, `{::nomarkdown}…{:/nomarkdown}`, `{::options … /}` and the table of
/// contents `* TOC` / `{:toc}`, whose text would otherwise reach the page.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ForeignSyntaxPass {
    /// The extension `{::name …}` at `i` (`b[i + 2]` is `:`): handled and true, or false when it
    /// is none of the above (it is then an attribute list, left out as one).
    mutating func kramdownExtension() -> Bool {
        var j = i + 3
        let nameStart = j
        while j < b.count, b[j] >= 0x61, b[j] <= 0x7A { j += 1 }
        let name = String(decoding: b[nameStart..<j], as: UTF8.self)
        guard ["comment", "nomarkdown", "options"].contains(name),
            let tagEnd = find([0x7D], from: j, sameLine: true)
        else { return false }
        let selfClosing = tagEnd >= 2 && b[tagEnd - 2] == 0x2F  // `{::options … /}`
        if name == "options" || selfClosing {
            if name == "options" {
                warn("kramdown options \(shown(i, tagEnd)) are left out of the page: feedgen does not apply kramdown options")
            } else {
                warn("kramdown \(shown(i, tagEnd)) is left out of the page")
            }
            skip(tagEnd - i)
            return true
        }
        guard let closing = kramdownClosing(name, from: tagEnd) else {
            warn("\(shown(i, tagEnd)) has no '{:/\(name)}': the tag is left out of the page")
            skip(tagEnd - i)
            return true
        }
        if name == "nomarkdown", unsafe {
            // Its text is output as written (raw HTML), as kramdown does.
            skip(tagEnd - i)
            copy(closing.start - i)
            skip(closing.end - i)
            return true
        }
        if name == "comment" {
            warn("kramdown comment \(shown(i, tagEnd)) is left out of the page with its text, up to '\(String(decoding: b[closing.start..<closing.end], as: UTF8.self))'")
        } else {
            warn(
                "kramdown \(shown(i, tagEnd)) is left out of the page with its text (raw output, up to '\(String(decoding: b[closing.start..<closing.end], as: UTF8.self))'); set 'markdown.unsafe: true' in feedgen.yaml to keep it as raw HTML"
            )
        }
        // Line breaks are kept, so that later lines keep their numbers.
        while i < closing.end {
            if b[i] == 0x0A { copy(1) } else { skip(1) }
        }
        return true
    }

    /// The first `{:/name}` or `{:/}` from `start` (blank lines allowed in between): its start
    /// and the offset after it. Remembered, so that many unclosed tags cost one scan.
    mutating func kramdownClosing(_ name: String, from start: Int) -> (start: Int, end: Int)? {
        let key = SearchKey(needle: Array(name.utf8), mode: 5)
        var result = remembered(key, from: start)
        if result == nil {
            var search = start
            var found = SearchResult(from: start, stop: b.count, found: nil)
            let long = Array("{:/\(name)}".utf8)
            while let at = scan([0x7B, 0x3A, 0x2F], from: search, sameLine: false, blankLines: true).found {
                search = at
                let open = at - 3
                if at < b.count, b[at] == 0x7D {
                    found = SearchResult(from: start, stop: open, found: open, extra: at + 1)
                    break
                }
                if open + long.count <= b.count, b[open..<(open + long.count)].elementsEqual(long) {
                    found = SearchResult(from: start, stop: open, found: open, extra: open + long.count)
                    break
                }
            }
            searches[key] = found
            result = found
        }
        guard let r = result, let at = r.found else { return nil }
        return (at, r.extra)
    }

    /// kramdown's table of contents at the line starting at `i`: a one-item list (`* TOC`,
    /// `1. Table of contents`) and a line `{:toc}`. Both lines' text is left out (their line
    /// breaks kept) with one warning; false when the line is not such a list.
    mutating func tableOfContents() -> Bool {
        guard mayHaveTOC else { return false }
        var j = i
        while j < b.count, j - i < 4, b[j] == 0x20 { j += 1 }
        guard j < b.count else { return false }
        if b[j] == 0x2A || b[j] == 0x2D || b[j] == 0x2B {
            j += 1
        } else {
            let digits = j
            while j < b.count, b[j] >= 0x30, b[j] <= 0x39 { j += 1 }
            guard j > digits, j < b.count, b[j] == 0x2E || b[j] == 0x29 else { return false }
            j += 1
        }
        guard j < b.count, b[j] == 0x20 || b[j] == 0x09 else { return false }
        var lineEnd = j
        while lineEnd < b.count, b[lineEnd] != 0x0A { lineEnd += 1 }
        guard lineEnd < b.count else { return false }
        var next = lineEnd + 1
        var nextEnd = next
        while nextEnd < b.count, b[nextEnd] != 0x0A { nextEnd += 1 }
        guard Self.isTOCLine(b[next..<nextEnd]) else { return false }
        warn(
            "kramdown table of contents \(shown(i, lineEnd)) with '{:toc}' is left out of the page: feedgen does not generate a table of contents"
        )
        skip(lineEnd - i)
        copy(1)
        next = nextEnd
        skip(next - i)
        return true
    }

    /// Whether `line` is `{:toc}` once its spaces and tabs are left out.
    static func isTOCLine(_ line: ArraySlice<UInt8>) -> Bool {
        var k = 0
        for byte in line where byte != 0x20 && byte != 0x09 {
            guard k < tocLine.count, byte == tocLine[k] else { return false }
            k += 1
        }
        return k == tocLine.count
    }

    private static let tocLine = Array("{:toc}".utf8)

    /// Whether `bytes` may hold a `{:toc}` line (``tableOfContents()``): a `{` whose next byte
    /// other than a space or tab is `:`. Most bodies have none: no line is then looked at.
    static func mayHaveTOC(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { b in
            var k = 0
            while let hit = b.baseAddress.flatMap({ memchr($0 + k, 0x7B, b.count - k) }) {
                k = UnsafeRawPointer(b.baseAddress!).distance(to: UnsafeRawPointer(hit)) + 1
                while k < b.count, b[k] == 0x20 || b[k] == 0x09 { k += 1 }
                if k < b.count, b[k] == 0x3A { return true }
                if k >= b.count { return false }
            }
            return false
        }
    }
}
