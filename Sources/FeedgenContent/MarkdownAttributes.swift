/// Heading ids and code blocks' `tabindex` written into cmark's rendered HTML in one pass, in
/// place of re-rendering each heading and code block as a custom block.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

enum MarkdownAttributes {
    /// `html` with ` id="…"` in the start tag of the k-th heading (`<h1>`…`<h6>`) for each
    /// non-nil `headingIDs[k]`, and ` tabindex="0"` in every `<pre` start tag; nil when `html`
    /// does not hold exactly `headingIDs.count` heading and `codeBlocks` `<pre` start tags (the
    /// caller then gives the attributes in the tree). Only valid for HTML in which every such
    /// tag is a heading or code block of the document, in document order: cmark's rendering
    /// without raw HTML and without figures (whose titles are `<h4>`).
    static func write(into html: String, headingIDs: [String?], codeBlocks: Int) -> String? {
        if headingIDs.isEmpty, codeBlocks == 0 { return html }
        var html = html
        return html.withUTF8 { write(into: $0, headingIDs: headingIDs, codeBlocks: codeBlocks) }
    }

    /// ``write(into:headingIDs:codeBlocks:)`` of cmark's output buffer (read in place; valid
    /// UTF-8, ``Swift/String/init(validUTF8:)``): the page is copied into a buffer with the
    /// attributes, then into the string returned.
    static func write(into b: UnsafeBufferPointer<UInt8>, headingIDs: [String?], codeBlocks: Int) -> String? {
        if headingIDs.isEmpty, codeBlocks == 0 { return String(validUTF8: b) }
        guard let base = b.baseAddress else { return nil }
        let n = b.count
        let capacity = n + headingIDs.reduce(0) { $0 + ($1.map { $0.utf8.count + 6 } ?? 0) } + codeBlocks * 13
        let out = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: capacity)
        defer { out.deallocate() }
        var o = 0
        func copy(_ from: Int, _ to: Int) {
            guard to > from else { return }
            UnsafeMutableRawPointer(out.baseAddress! + o).copyMemory(from: base + from, byteCount: to - from)
            o += to - from
        }
        func appendLiteral(_ s: StaticString) {
            (out.baseAddress! + o).update(from: s.utf8Start, count: s.utf8CodeUnitCount)
            o += s.utf8CodeUnitCount
        }
        func append(_ s: String) {
            let copied: Void? = s.utf8.withContiguousStorageIfAvailable { bytes in
                if let from = bytes.baseAddress { (out.baseAddress! + o).update(from: from, count: bytes.count) }
                o += bytes.count
            }
            guard copied == nil else { return }
            for c in s.utf8 {
                out[o] = c
                o += 1
            }
        }
        var headings = 0, pres = 0
        var copied = 0
        var i = 0
        while i + 4 <= n {
            // memchr jumps to the next tag: most of a page is text.
            guard let hit = memchr(base + i, 0x3C, n - i) else { break }
            i = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
            guard i + 4 <= n else { break }
            if b[i + 1] == UInt8(ascii: "h"), b[i + 2] >= UInt8(ascii: "1"), b[i + 2] <= UInt8(ascii: "6"), b[i + 3] == UInt8(ascii: ">") {
                guard headings < headingIDs.count else { return nil }
                if let id = headingIDs[headings] {
                    copy(copied, i + 3)
                    appendLiteral(" id=\"")
                    append(id)
                    appendLiteral("\"")
                    copied = i + 3
                }
                headings += 1
                i += 4
            } else if i + 5 <= n, b[i + 1] == UInt8(ascii: "p"), b[i + 2] == UInt8(ascii: "r"), b[i + 3] == UInt8(ascii: "e"),
                b[i + 4] == UInt8(ascii: ">") || b[i + 4] == UInt8(ascii: " ")
            {
                guard pres < codeBlocks else { return nil }
                copy(copied, i + 4)
                appendLiteral(" tabindex=\"0\"")
                copied = i + 4
                pres += 1
                i += 5
            } else {
                i += 1
            }
        }
        guard headings == headingIDs.count, pres == codeBlocks else { return nil }
        copy(copied, n)
        return String(validUTF8: UnsafeBufferPointer(rebasing: out[..<o]))
    }
}
