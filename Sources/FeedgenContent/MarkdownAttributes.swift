/// Heading ids and code blocks' `tabindex` written into cmark's rendered HTML in one pass, in
/// place of re-rendering each heading and code block as a custom block.
enum MarkdownAttributes {
    /// `html` with ` id="…"` in the start tag of the k-th heading (`<h1>`…`<h6>`) for each
    /// non-nil `headingIDs[k]`, and ` tabindex="0"` in every `<pre` start tag; nil when `html`
    /// does not hold exactly `headingIDs.count` heading and `codeBlocks` `<pre` start tags (the
    /// caller then gives the attributes in the tree). Only valid for HTML in which every such
    /// tag is a heading or code block of the document, in document order: cmark's rendering
    /// without raw HTML and without figures (whose titles are `<h4>`).
    static func write(into html: String, headingIDs: [String?], codeBlocks: Int) -> String? {
        if headingIDs.isEmpty, codeBlocks == 0 { return html }
        let b = Array(html.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(b.count + headingIDs.count * 24 + codeBlocks * 13)
        var headings = 0, pres = 0
        var copied = 0
        var i = 0
        while i + 4 <= b.count {
            guard b[i] == UInt8(ascii: "<") else {
                i += 1
                continue
            }
            if b[i + 1] == UInt8(ascii: "h"), b[i + 2] >= UInt8(ascii: "1"), b[i + 2] <= UInt8(ascii: "6"), b[i + 3] == UInt8(ascii: ">") {
                guard headings < headingIDs.count else { return nil }
                if let id = headingIDs[headings] {
                    out.append(contentsOf: b[copied..<(i + 3)])
                    out.append(contentsOf: " id=\"".utf8)
                    out.append(contentsOf: id.utf8)
                    out.append(UInt8(ascii: "\""))
                    copied = i + 3
                }
                headings += 1
                i += 4
            } else if i + 5 <= b.count, b[i + 1] == UInt8(ascii: "p"), b[i + 2] == UInt8(ascii: "r"), b[i + 3] == UInt8(ascii: "e"),
                b[i + 4] == UInt8(ascii: ">") || b[i + 4] == UInt8(ascii: " ")
            {
                out.append(contentsOf: b[copied..<(i + 4)])
                out.append(contentsOf: " tabindex=\"0\"".utf8)
                copied = i + 4
                pres += 1
                i += 5
            } else {
                i += 1
            }
        }
        guard headings == headingIDs.count, pres == codeBlocks else { return nil }
        out.append(contentsOf: b[copied...])
        return String(decoding: out, as: UTF8.self)
    }
}
