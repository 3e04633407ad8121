/// Heading ids of rendered Markdown (GitHub's slug rule), the ids a rendered text defines, and
/// the check of `#fragment` links against them; footnote ids made unique per item.
import CCmark
import FeedgenDiagnostics
import FeedgenStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

public enum MarkdownHeadings {
    /// GitHub's heading slug (github-slugger, what github.com and most Markdown tools use): the
    /// text lower-cased; every character that is not a letter, mark, number, `_` (connector
    /// punctuation), `-` or space removed; each space becomes `-` (`"Hello, World!"` →
    /// `hello-world`, `"A  b"` → `a--b`, `"日本語の見出し"` kept, `"C++ & Rust"` → `c--rust`).
    public static func slug(_ text: String) -> String {
        // ASCII (most headings) on bytes: its letters, digits and `_` are the kept categories.
        let asciiSlug = text.withUTF8Bytes { bytes -> String? in
            guard ByteScan.isASCII(bytes) else { return nil }
            // Made in the String's own storage (ASCII: valid UTF-8), no byte array between.
            return String(unsafeUninitializedCapacity: bytes.count) { out in
                var o = 0
                for byte in bytes {
                    switch byte {
                    case UInt8(ascii: "A")...UInt8(ascii: "Z"): out[o] = byte | 0x20
                    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                        out[o] = byte
                    case UInt8(ascii: " "): out[o] = UInt8(ascii: "-")
                    default: continue
                    }
                    o += 1
                }
                return o
            }
        }
        if let asciiSlug { return asciiSlug }
        var out = String.UnicodeScalarView()
        for scalar in text.lowercased().unicodeScalars {
            switch scalar {
            case " ": out.append("-")
            case "-", "_": out.append(scalar)
            default:
                switch scalar.properties.generalCategory {
                case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                    .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber,
                    .connectorPunctuation:
                    out.append(scalar)
                default:
                    break
                }
            }
        }
        return String(out)
    }

    /// Unique slugs within one text, as github-slugger makes them: a repeated slug gets `-1`,
    /// `-2`, … (the first free one: `a`, `a`, `a-1` → `a`, `a-1`, `a-1-1`).
    public struct Slugger {
        /// The slugs given, each with its count of repeats. A text has few headings: they are
        /// looked up in a list (no hashing, no table per text), in a dictionary past ``listLimit``.
        private var list: [(slug: String, repeats: Int)] = []
        private var table: [String: Int]?
        private static let listLimit = 16

        public init() {}

        public mutating func unique(_ base: String) -> String {
            var slug = base
            while repeats(slug) != nil {
                let n = repeats(base)! + 1
                setRepeats(base, n)
                slug = base + "-" + String(n)
            }
            setRepeats(slug, 0)
            return slug
        }

        private func repeats(_ slug: String) -> Int? {
            if let table { return table[slug] }
            for entry in list where entry.slug == slug { return entry.repeats }
            return nil
        }

        private mutating func setRepeats(_ slug: String, _ n: Int) {
            if table != nil {
                table![slug] = n
            } else if let k = list.firstIndex(where: { $0.slug == slug }) {
                list[k].repeats = n
            } else {
                list.append((slug, n))
                if list.count > Self.listLimit {
                    table = Dictionary(uniqueKeysWithValues: list.map { ($0.slug, $0.repeats) })
                    list = []
                }
            }
        }
    }

    /// Gives each heading of the document its id from ``ids(_:smart:)`` in the tree: the heading
    /// is replaced by a custom block holding its own rendering with ` id="…"` added (cmark's HTML
    /// renderer writes no heading attributes). Used where the rendered page may hold headings
    /// that are not the document's (raw HTML, figures); else ``MarkdownAttributes`` writes the
    /// ids into the page.
    static func addIDs(
        _ headings: [OpaquePointer], ids: [String?], options: Int32, extensions: UnsafeMutablePointer<cmark_llist>?
    ) {
        for (k, heading) in headings.enumerated() {
            guard let id = ids[k] else { continue }
            MarkdownBlocks.replace(heading, options: options, extensions: extensions) { html in
                // `<h2>` → `<h2 id="…">`: the id holds no `"`, `&` or `<` (a slug's punctuation is
                // removed, an attribute's id is letters, digits and `_-:.`).
                guard html.hasPrefix("<h"), let close = html.firstIndex(of: ">") else { return nil }
                html.insert(contentsOf: " id=\"\(id)\"", at: close)
                return ()
            }
        }
    }

    /// The id of each heading, in order (nil: none): the one a trailing attribute block names
    /// (`## A {#part}`, ``MarkdownHeadingAttributes``; taken out of the heading's text), else the
    /// heading's slug; ids named so are given first, in order, so that a slug equal to one gets
    /// the `-1`. A heading whose slug is empty (only punctuation or emoji) gets no id.
    static func ids(_ headings: [OpaquePointer], smart: Bool) -> [String?] {
        var slugger = Slugger()
        var ids = headings.map { MarkdownHeadingAttributes.take($0).map { slugger.unique($0) } }
        for (k, heading) in headings.enumerated() where ids[k] == nil {
            let base = slug(plainText(heading, smart: smart))
            if !base.isEmpty { ids[k] = slugger.unique(base) }
        }
        return ids
    }

    /// The text of a heading that its slug is made from: text and code spans, descending into
    /// emphasis, links and strikethrough (an image's alt text and footnote numbers are left out).
    /// Smart punctuation's dashes go back to hyphens, so that `## a -- b` has GitHub's `a----b`.
    private static func plainText(_ node: OpaquePointer, smart: Bool) -> String {
        var text = ""
        var child = cmark_node_first_child(node)
        while let c = child {
            switch cmark_node_get_type(c) {
            case CMARK_NODE_TEXT, CMARK_NODE_CODE:
                if let literal = cmark_node_get_literal(c) { text += String(validUTF8CString: literal) }
            case CMARK_NODE_IMAGE, CMARK_NODE_FOOTNOTE_REFERENCE:
                break
            default:
                text += plainText(c, smart: smart)
            }
            child = cmark_node_next(c)
        }
        // Both dashes start with the byte E2 (U+2013, U+2014).
        guard smart, text.utf8.contains(0xE2) else { return text }
        return text.replacingBytes("\u{2014}", with: "---").replacingBytes("\u{2013}", with: "--")
    }

    /// Every `id="…"` (and, in raw HTML, `name="…"` of an `<a>`) value in `html`: the anchors a
    /// page showing it has. HTML escapes are undone for `&amp;`, `&quot;`, `&lt;`, `&gt;`.
    public static func ids(inHTML html: String) -> Set<String> {
        var found: Set<String> = []
        var html = html
        html.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            var i = 0
            while i < bytes.count {
                // `id="` and `name="`, after a space: found by their `="` (memchr jumps to each `"`).
                guard let hit = memchr(base + i, 0x22, bytes.count - i) else { break }
                i = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
                guard i >= 4, bytes[i - 1] == UInt8(ascii: "=") else {
                    i += 1
                    continue
                }
                let isID = i >= 4 && bytes[i - 4] == UInt8(ascii: " ") && bytes[i - 3] == UInt8(ascii: "i") && bytes[i - 2] == UInt8(ascii: "d")
                let isName =
                    i >= 6 && bytes[i - 6] == UInt8(ascii: " ") && bytes[i - 5] == UInt8(ascii: "n") && bytes[i - 4] == UInt8(ascii: "a")
                    && bytes[i - 3] == UInt8(ascii: "m") && bytes[i - 2] == UInt8(ascii: "e")
                var end = i + 1
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += 1 }
                if isID || isName {
                    found.insert(unescape(String(decoding: UnsafeBufferPointer(rebasing: bytes[(i + 1)..<end]), as: UTF8.self)))
                }
                i = end + 1
            }
        }
        return found
    }

    private static func unescape(_ s: String) -> String {
        guard s.utf8.contains(UInt8(ascii: "&")) else { return s }
        return s.replacingBytes("&quot;", with: "\"").replacingBytes("&lt;", with: "<")
            .replacingBytes("&gt;", with: ">").replacingBytes("&amp;", with: "&")
    }

    /// Whether `fragment` (percent-decoded) needs no id: the empty fragment and `top` scroll to
    /// the top of any page (HTML's "scroll to the fragment").
    public static func alwaysFound(_ fragment: String) -> Bool {
        // Only ASCII letters lower-case to `t`, `o` and `p`: a fragment of another length is
        // not `top` in any case (no lower-casing of every fragment).
        fragment.isEmpty || (fragment.utf8.count == 3 && fragment.lowercased() == "top")
    }

    /// The message for a link whose `#fragment` names no id of its page (`page` is "this page"
    /// or the linked file), with the closest id as a suggestion.
    public static func deadAnchorMessage(destination: String, fragment: String, page: String, ids: Set<String>) -> String {
        deadAnchorMessage(destination: destination, fragment: fragment, page: page, sortedIDs: ids.sorted())
    }

    /// ``deadAnchorMessage(destination:fragment:page:ids:)`` with the ids sorted (once for all
    /// the dead links of a page).
    static func deadAnchorMessage(destination: String, fragment: String, page: String, sortedIDs: [String]) -> String {
        "link '\(destination)' leads to no heading or anchor with the id '\(fragment)' on \(page)\(Suggestion.didYouMean(fragment, in: sortedIDs)); fix the link or the heading"
    }

    /// A warning for each `#fragment` link of a text whose fragment is no id of its rendering.
    static func deadFragments(
        _ fragments: [(fragment: String, destination: String, location: SourceLocation)], html: String
    ) -> [Diagnostic] {
        // The links are read where they are (no filtered copies): most texts have none to check.
        guard fragments.contains(where: { !alwaysFound($0.fragment) }) else { return [] }
        let ids = ids(inHTML: html)
        var sorted: [String]?
        var warnings: [Diagnostic] = []
        for k in fragments.indices where !alwaysFound(fragments[k].fragment) && !ids.contains(fragments[k].fragment) {
            if sorted == nil { sorted = ids.sorted() }
            let link = fragments[k]
            warnings.append(
                .warning(
                    link.location,
                    deadAnchorMessage(destination: link.destination, fragment: link.fragment, page: "this page", sortedIDs: sorted!)))
        }
        return warnings
    }

    /// The footnote ids of an item's rendered body prefixed with its id (`/` → `-`), so that
    /// bodies shown together (a card template with `{{{html}}}`, a feed) keep distinct ids:
    /// `fn-1` → `fn-recipes-miso-soup-1`, and every `#fn-…`/`#fnref-…` link with it (also the
    /// author's own `[see](#fn-1)`). `html` is returned unchanged when it has no footnotes.
    public static func prefixFootnoteIDs(_ html: String, itemID: String) -> String {
        guard html.containsBytes("data-footnote") else { return html }
        let prefix = Array(footnotePrefix(itemID: itemID).utf8)
        // One pass: the prefix goes after each `href="#fn-`, `id="fn-`, `href="#fnref-` and
        // `id="fnref-` (each holds one `"`, found by memchr; an id holds no `"`, so this is
        // what replacing the four in turn gives).
        var html = html
        return html.withUTF8 { b in
            guard let base = b.baseAddress else { return "" }
            func holds(_ s: StaticString, at k: Int) -> Bool {
                k >= 0 && k + s.utf8CodeUnitCount <= b.count && memcmp(base + k, s.utf8Start, s.utf8CodeUnitCount) == 0
            }
            var out: [UInt8] = []
            out.reserveCapacity(b.count + 16 * prefix.count)
            var copied = 0
            var i = 0
            while i < b.count, let hit = memchr(base + i, 0x22, b.count - i) {
                let q = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
                var end: Int?
                if holds("href=", at: q - 5) {
                    end = holds("#fn-", at: q + 1) ? q + 5 : holds("#fnref-", at: q + 1) ? q + 8 : nil
                } else if holds("id=", at: q - 3) {
                    end = holds("fn-", at: q + 1) ? q + 4 : holds("fnref-", at: q + 1) ? q + 7 : nil
                }
                guard let end else {
                    i = q + 1
                    continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: b[copied..<end]))
                out.append(contentsOf: prefix)
                copied = end
                i = end
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: b[copied...]))
            return out.withUnsafeBufferPointer { String(checkedUTF8: $0) } ?? String(decoding: out, as: UTF8.self)
        }
    }

    /// `recipes/miso-soup` → `recipes-miso-soup-`.
    public static func footnotePrefix(itemID: String) -> String {
        itemID.replacingBytes("/", with: "-") + "-"
    }
}
