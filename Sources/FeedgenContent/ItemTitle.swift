/// An item's title when its front matter has no `title` (content-format §5): the text of a
/// level-1 heading the body begins with (MkDocs, Docusaurus, READMEs), else its file name
/// titleized as Jekyll does.
import Foundation

enum ItemTitle {
    /// `active-learning` → `Active Learning`, `getting_started` → `Getting Started`: the words
    /// between `-` and `_` joined by spaces, each word's first letter upper-cased and the rest
    /// kept as written (Jekyll's `titleize_slug` also lower-cases the rest; feedgen keeps `iOS`
    /// and `HTTP`). Words not starting with a lower-case letter (digits, CJK) are kept. An
    /// `index` file (Hugo's page bundle, `post/index.md`) is named by its folder, without a
    /// Jekyll date prefix. A name that is only separators stays as written.
    static func fromSlug(_ slug: String, fileName: String) -> String {
        var name = slug
        if name.lowercased() == "index" || name.lowercased() == "_index" {
            let folders = fileName.split(separator: "/").dropLast()
            if let folder = folders.last {
                name = ItemName.datePrefix(String(folder))?.1 ?? String(folder)
            }
        }
        if name.utf8.allSatisfy({ $0 < 0x80 }) { return fromASCIISlug(name) ?? slug }
        let words = name.split(whereSeparator: { $0 == "-" || $0 == "_" })
        guard !words.isEmpty else { return slug }
        return words.map { word in
            guard let first = word.first, first.isLowercase else { return String(word) }
            return first.uppercased() + word.dropFirst()
        }.joined(separator: " ")
    }

    /// ``fromSlug(_:fileName:)``'s words of an ASCII `name` on bytes (its characters are its
    /// bytes; a file name's title is made for every item); nil when it has no word.
    private static func fromASCIISlug(_ name: String) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(name.utf8.count)
        var wordStart = true
        for byte in name.utf8 {
            if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") {
                wordStart = true
                continue
            }
            if wordStart {
                if !out.isEmpty { out.append(UInt8(ascii: " ")) }
                out.append(byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 0x20 : byte)
                wordStart = false
            } else {
                out.append(byte)
            }
        }
        return out.isEmpty ? nil : String(decoding: out, as: UTF8.self)
    }

    /// `html` without the level-1 heading it begins with (leading white space allowed), and that
    /// heading's text (tags removed, the five entities cmark writes decoded); nil when `html`
    /// does not begin with `<h1` or the heading's text is empty.
    static func leadingHeading(_ html: String) -> (title: String, rest: String)? {
        let start = html.drop(while: { $0 == "\n" || $0 == " " })
        guard start.hasPrefix("<h1"), let open = start.firstIndex(of: ">"), let close = start.range(of: "</h1>") else { return nil }
        let inner = start[start.index(after: open)..<close.lowerBound]
        var text = ""
        var inTag = false
        for c in inner {
            if c == "<" {
                inTag = true
            } else if c == ">" {
                inTag = false
            } else if !inTag {
                text.append(c)
            }
        }
        for (entity, c) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: c)
        }
        let title = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard !title.isEmpty else { return nil }
        let rest = start[close.upperBound...].drop(while: { $0 == "\n" })
        return (title, String(rest))
    }
}
