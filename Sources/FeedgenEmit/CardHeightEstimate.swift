/// A text-length estimate of a card's height, read from the card's rendered HTML (so it sees
/// exactly what the card template shows: title, description, body, images), as a function of the
/// card's width. Pure: no I/O, no fonts; the constants describe the default theme
/// (`Templates/theme.css`) and Chromium's default styles.
///
/// The card is reduced once to a list of vertical pieces (``init(html:preset:)``); ``height(width:)``
/// then adds them up at any width:
///
/// - a run of text: `lines × lineHeight`, with
///   `lines = max(1, ⌈textWidth / (width − inset − wrapSlack × fontSize)⌉)`, `textWidth` the sum
///   of the glyph advances (`glyphWidth × fontSize` per glyph: 0.51 em regular, 0.57 em bold,
///   0.60 em monospace, 1 em for CJK and other wide glyphs), `inset` the inline padding and
///   indentation around it (card body 2 × 16 px, lists 40 px, block quotes 80 px), and
///   `wrapSlack` the room lost at the end of a wrapped line (whole words move down);
/// - preformatted text: one line per source line;
/// - vertical margins (collapsed as CSS collapses sibling margins) and paddings: fixed px;
/// - an image with `width`/`height` attributes: its width, `min(width attribute, available
///   width)` (the card image is never drawn wider than its source), × height/width, at most
///   320 px for the card image of a self-sizing list or grid card (`theme.css`).
///
/// Line heights are `1.4 ×` the font size (`html { line-height: 1.4 }`), `1.3 ×` for the card
/// title. Glyph widths were measured in Debian's Chromium 156 with the theme's font stack over
/// the descriptions of Hugo's documentation (../shared/corpus/hugodocs): 0.506 em regular,
/// 0.572 em bold, 0.600 em monospace, 0.995 em Japanese.
public struct CardHeightEstimate: Hashable, Sendable {
    /// One vertical piece of the card.
    enum Piece: Hashable, Sendable {
        /// Fixed space (margins, paddings, borders), CSS px.
        case space(Double)
        /// Wrapping text: total advance (px at its font sizes), line height, the font size it is
        /// set in, and the inline space around it (px).
        case text(width: Double, lineHeight: Double, fontSize: Double, inset: Double)
        /// Preformatted lines.
        case lines(Int, lineHeight: Double)
        /// An image of aspect `ratio` (height / width), `intrinsicWidth` (px, nil for the
        /// full-bleed card image), `inset`, and a maximum height (nil: none).
        case image(ratio: Double, intrinsicWidth: Double?, inset: Double, maxHeight: Double?)
    }

    /// The pieces, top to bottom.
    let pieces: [Piece]

    /// Regular glyph advance, em (measured; see the type's documentation).
    public static let glyphWidth = 0.51
    /// Bold glyph advance, em.
    public static let boldGlyphWidth = 0.57
    /// Monospace glyph advance, em.
    public static let monospaceGlyphWidth = 0.6
    /// CJK (and other East Asian wide) glyph advance, em.
    public static let wideGlyphWidth = 1.0
    /// Room lost at the end of a wrapped line, em of the text's font size.
    public static let wrapSlack = 1.5
    /// `html { line-height: 1.4 }` in theme.css.
    public static let lineHeight = 1.4
    /// The maximum height of the card image in self-sizing list and grid cards (theme.css).
    public static let cardImageMaxHeight = 320.0

    /// Whether the card had anything the estimate could read (text or a sized image); a card
    /// without is better estimated by the layout's own estimate.
    public var isEmpty: Bool { !pieces.contains { if case .space = $0 { false } else { true } } }

    /// The card's height at `width` (the card's own width), CSS px.
    public func height(width: Double) -> Double {
        var h = 0.0
        for piece in pieces {
            switch piece {
            case .space(let v):
                h += v
            case .text(let advance, let lineHeight, let fontSize, let inset):
                let available = max(width - inset - Self.wrapSlack * fontSize, fontSize)
                h += max(1, (advance / available).rounded(.up)) * lineHeight
            case .lines(let n, let lineHeight):
                h += Double(n) * lineHeight
            case .image(let ratio, let intrinsic, let inset, let maxHeight):
                let w = max(0, intrinsic.map { min($0, width - inset) } ?? width - inset)
                h += min(w * ratio, maxHeight ?? .infinity)
            }
        }
        return h
    }

    /// Reads the card's rendered HTML.
    ///
    /// - Parameters:
    ///   - html: the card as its template rendered it.
    ///   - preset: the section's preset: `insetGrouped` rows have 11 px vertical padding and a
    ///     16 px regular-weight title; `list`, `grid` and `insetGrouped` cap the card image at
    ///     320 px.
    public init(html: String, preset: String = "list") {
        var reader = Reader(preset: preset)
        reader.read(html)
        pieces = reader.finish()
    }
}

// MARK: - Reading the HTML

extension CardHeightEstimate {
    /// How an element is set (the subset of theme.css and Chromium's UA stylesheet that moves
    /// heights). Sizes in px; margins in px of the element's own font size already applied.
    struct Style {
        var block = false
        var fontSize: Double? = nil  // nil: inherited
        var lineHeight: Double? = nil  // factor of the font size; nil: inherited
        var bold: Bool? = nil
        var monospace = false
        var marginTop = 0.0
        var marginBottom = 0.0
        var paddingTop = 0.0
        var paddingBottom = 0.0
        var inset = 0.0  // inline padding + margin, both sides together
        var preformatted = false
        var hidden = false  // its content is not shown (script, style, template)
    }

    static func style(tag: String, classes: [Substring], preset: String) -> Style {
        var s = Style()
        let has = { (c: String) in classes.contains { $0 == c } }
        switch tag {
        case "p":
            s.block = true; s.marginTop = 16; s.marginBottom = 16
        case "h1", "h2", "h3", "h4", "h5", "h6":
            let (size, margin): (Double, Double) = switch tag {
            case "h1": (2, 0.67)
            case "h2": (1.5, 0.83)
            case "h3": (1.17, 1)
            case "h4": (1, 1.33)
            case "h5": (0.83, 1.67)
            default: (0.67, 2.33)
            }
            s.block = true; s.fontSize = 16 * size; s.bold = true
            s.marginTop = 16 * size * margin; s.marginBottom = s.marginTop
        case "ul", "ol", "menu":
            s.block = true; s.marginTop = 16; s.marginBottom = 16; s.inset = 40
        case "dl":
            s.block = true; s.marginTop = 16; s.marginBottom = 16
        case "dd":
            s.block = true; s.inset = 40
        case "blockquote", "figure":
            s.block = true; s.marginTop = 16; s.marginBottom = 16; s.inset = 80
        case "pre":
            // theme.css: .875em in the --mono-font stack (not the bare `monospace` that Chromium
            // sets at 13 px), line-height 1.45, 12 px padding and a 1 px border; margins 1em.
            s.block = true; s.monospace = true; s.fontSize = 14; s.lineHeight = 1.45; s.preformatted = true
            s.marginTop = 14; s.marginBottom = 14; s.paddingTop = 13; s.paddingBottom = 13
        case "hr":
            s.block = true; s.marginTop = 8; s.marginBottom = 8; s.paddingTop = 2
        case "table":
            s.block = true
        case "tr":
            // theme.css: cells with 6 px padding and collapsed 1 px borders.
            s.block = true; s.paddingTop = 6.5; s.paddingBottom = 6.5
        case "th":
            s.bold = true
        case "li", "div", "section", "article", "header", "footer", "main", "nav", "aside", "dt", "figcaption",
            "details", "summary", "address", "caption", "tbody", "thead", "tfoot", "form", "fieldset":
            s.block = true
        case "strong", "b":
            s.bold = true
        case "code", "kbd", "samp", "tt":
            s.monospace = true; s.fontSize = 14
        case "script", "style", "template", "noscript":
            s.hidden = true
        default:
            break
        }
        // The card theme (Templates/theme.css).
        if has("card-body") {
            let vertical = preset == "insetGrouped" ? 11.0 : 16.0
            s.paddingTop = vertical; s.paddingBottom = vertical; s.inset = 32
        }
        if has("card-title") {
            s.marginTop = 0; s.marginBottom = 0
            s.fontSize = preset == "insetGrouped" ? 16 : 16.8
            s.lineHeight = 1.3
            s.bold = preset != "insetGrouped"
        }
        if has("card-description") { s.marginTop = 6; s.marginBottom = 0 }
        if has("table-scroll") { s.marginTop = 16; s.marginBottom = 16 }
        if has("footnotes") { s.marginTop = 32; s.paddingTop = 8.2; s.fontSize = 14.4 }
        if has("card-date") { s.marginTop = 6; s.marginBottom = 0; s.fontSize = 13.6 }
        if has("weather-now") { s.lineHeight = 1; s.fontSize = 48; s.marginTop = 4; s.marginBottom = 0 }
        if has("weather-condition") { s.marginTop = 4; s.marginBottom = 0 }
        return s
    }

    /// A small HTML reader: tags, attributes and text, enough for rendered cards (well-formed
    /// output of cmark and Mustache templates). Void elements never go on the stack.
    struct Reader {
        struct Open {
            var tag: String
            var style: Style
            var fontSize: Double
            var lineHeight: Double
            var bold: Bool
            var monospace: Bool
            var inset: Double
            var preformatted: Bool
            var hidden: Bool
        }

        let preset: String
        var stack: [Open] = []
        var pieces: [Piece] = []
        /// The collapsed margin waiting above the next piece.
        var pendingMargin = 0.0
        /// The current text run: its advance in px, whether it has a glyph, the last character
        /// was a space, and its preformatted line count.
        var advance = 0.0
        var hasText = false
        var lastSpace = true
        var newlines = 0
        var endsWithNewline = false

        init(preset: String) {
            self.preset = preset
            stack = [
                Open(
                    tag: "", style: Style(block: true), fontSize: 16, lineHeight: CardHeightEstimate.lineHeight, bold: false,
                    monospace: false, inset: 0, preformatted: false, hidden: false)
            ]
            updateCurrent()
        }

        var top: Open { stack[stack.count - 1] }

        /// What `glyph` needs of the innermost open element, kept outside the stack so that a
        /// byte of text copies nothing.
        struct Current {
            var hidden = false
            var preformatted = false
            var bold = false
            var monospace = false
            var fontSize = 16.0
            /// The advance of a narrow (not wide) glyph.
            var advance = 0.0
        }
        var current = Current()

        mutating func updateCurrent() {
            let o = top
            current = Current(
                hidden: o.hidden, preformatted: o.preformatted, bold: o.bold, monospace: o.monospace, fontSize: o.fontSize,
                advance: Self.advance(0x61, em: o.fontSize, bold: o.bold, monospace: o.monospace))
        }

        mutating func space(_ v: Double) {
            if v > 0 { pieces.append(.space(v)) }
        }

        /// Ends the current text run as a piece, below the pending margin.
        mutating func flushText() {
            defer {
                advance = 0; hasText = false; lastSpace = true; newlines = 0; endsWithNewline = false
            }
            guard hasText else { return }
            // The block the text belongs to: the innermost open block.
            let block = stack.last { $0.style.block } ?? top
            space(pendingMargin)
            pendingMargin = 0
            let lh = block.lineHeight * block.fontSize
            if block.preformatted {
                // A newline just before the end of a `pre` opens no line.
                pieces.append(.lines(newlines + (endsWithNewline ? 0 : 1), lineHeight: lh))
            } else {
                pieces.append(.text(width: advance, lineHeight: lh, fontSize: block.fontSize, inset: block.inset))
            }
        }

        mutating func open(_ tag: String, attributes: [(String, String)]) {
            let classes = attributes.first { $0.0 == "class" }?.1.split(separator: " ") ?? []
            if tag == "img" {
                let w = attributes.first { $0.0 == "width" }.flatMap { Double($0.1) }
                let h = attributes.first { $0.0 == "height" }.flatMap { Double($0.1) }
                guard let w, let h, w > 0, h > 0, !top.hidden else { return }
                flushText()
                space(pendingMargin)
                pendingMargin = 0
                if classes.contains("card-image") {
                    let capped = ["list", "grid", "insetGrouped"].contains(preset)
                    // Never drawn wider than its source (card.mustache's max-inline-size).
                    pieces.append(.image(ratio: h / w, intrinsicWidth: w, inset: 0, maxHeight: capped ? CardHeightEstimate.cardImageMaxHeight : nil))
                } else {
                    pieces.append(.image(ratio: h / w, intrinsicWidth: w, inset: top.inset, maxHeight: nil))
                }
                return
            }
            if tag == "br" {
                if !top.preformatted { flushText() } else { newlines += 1 }
                return
            }
            if Self.void.contains(tag) { return }
            let style = CardHeightEstimate.style(tag: tag, classes: classes, preset: preset)
            let parent = top
            if style.block {
                flushText()
                if style.paddingTop > 0 {
                    // The block's margin still collapses with the one above; its padding does not.
                    space(max(pendingMargin, style.marginTop) + style.paddingTop)
                    pendingMargin = 0
                } else {
                    pendingMargin = max(pendingMargin, style.marginTop)
                }
            }
            let size = style.fontSize ?? parent.fontSize
            stack.append(
                Open(
                    tag: tag, style: style, fontSize: size, lineHeight: style.lineHeight ?? parent.lineHeight,
                    bold: style.bold ?? parent.bold, monospace: style.monospace || parent.monospace,
                    inset: parent.inset + style.inset, preformatted: style.preformatted || parent.preformatted,
                    hidden: style.hidden || parent.hidden))
            updateCurrent()
        }

        mutating func close(_ tag: String) {
            guard let index = stack.lastIndex(where: { $0.tag == tag }), index > 0 else { return }
            while stack.count > index {
                let closing = stack[stack.count - 1]
                if closing.style.block { flushText() }  // the text is set in the closing block
                stack.removeLast()
                guard closing.style.block else { continue }
                if closing.style.paddingBottom > 0 {
                    space(pendingMargin + closing.style.paddingBottom)
                    pendingMargin = closing.style.marginBottom
                } else {
                    pendingMargin = max(pendingMargin, closing.style.marginBottom)
                }
            }
            updateCurrent()
        }

        /// One glyph of text (a scalar's UTF-8 lead byte, or an entity) or whitespace, set in
        /// the innermost open element.
        mutating func glyph(_ c: UInt32) {
            let o = current
            if o.hidden { return }
            let em = o.fontSize
            if o.preformatted {
                if c == 0x0A { newlines += 1; endsWithNewline = true; return }
                advance += (Self.isWide(c) ? CardHeightEstimate.wideGlyphWidth : CardHeightEstimate.monospaceGlyphWidth) * em
                hasText = true
                endsWithNewline = false
                return
            }
            if c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D {
                if !lastSpace, hasText { advance += CardHeightEstimate.glyphWidth * em * 0.6 }  // a space is narrower
                lastSpace = true
                return
            }
            lastSpace = false
            hasText = true
            advance += c < 0x1100 ? o.advance : Self.advance(c, em: em, bold: o.bold, monospace: o.monospace)
        }

        static func advance(_ c: UInt32, em: Double, bold: Bool, monospace: Bool) -> Double {
            if isWide(c) { return CardHeightEstimate.wideGlyphWidth * em }
            if monospace { return CardHeightEstimate.monospaceGlyphWidth * em }
            return (bold ? CardHeightEstimate.boldGlyphWidth : CardHeightEstimate.glyphWidth) * em
        }

        /// East Asian wide and fullwidth ranges (Hangul Jamo, CJK, Hiragana/Katakana, Hangul
        /// syllables, compatibility ideographs, fullwidth forms, supplementary ideographs).
        static func isWide(_ c: UInt32) -> Bool {
            switch c {
            case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
                0xFFE0...0xFFE6, 0x20000...0x3FFFD:
                true
            default:
                false
            }
        }

        static let void: Set<String> = ["area", "base", "col", "embed", "input", "link", "meta", "source", "track", "wbr"]

        mutating func finish() -> [Piece] {
            flushText()
            while stack.count > 1 { close(stack[stack.count - 1].tag) }
            space(pendingMargin)
            pendingMargin = 0
            return pieces
        }

        /// Walks `html`'s UTF-8 bytes: tags go to `open`/`close`, text to `glyph` (each entity
        /// counts as one glyph); comments are skipped.
        mutating func read(_ html: String) {
            var html = html
            html.withUTF8 { read(bytes: $0) }
        }

        mutating func read(bytes b: UnsafeBufferPointer<UInt8>) {
            let n = b.count
            var i = 0
            while i < n {
                let c = b[i]
                if c == UInt8(ascii: "<") {
                    if i + 3 < n, b[i + 1] == UInt8(ascii: "!"), b[i + 2] == UInt8(ascii: "-"), b[i + 3] == UInt8(ascii: "-") {
                        // A comment: skip past "-->".
                        var j = i + 4
                        while j + 2 < n, !(b[j] == UInt8(ascii: "-") && b[j + 1] == UInt8(ascii: "-") && b[j + 2] == UInt8(ascii: ">")) { j += 1 }
                        i = j + 3
                        continue
                    }
                    // A tag: up to the next '>' outside quotes.
                    var j = i + 1
                    var quote: UInt8 = 0
                    while j < n {
                        let d = b[j]
                        if quote != 0 {
                            if d == quote { quote = 0 }
                        } else if d == UInt8(ascii: "\"") || d == UInt8(ascii: "'") {
                            quote = d
                        } else if d == UInt8(ascii: ">") {
                            break
                        }
                        j += 1
                    }
                    tag(UnsafeBufferPointer(rebasing: b[(i + 1)..<min(j, n)]))
                    i = j + 1
                } else if c == UInt8(ascii: "&") {
                    // An entity is one glyph: skip to its ';' (within 12 bytes).
                    var j = i + 1
                    while j < min(n, i + 12), b[j] != UInt8(ascii: ";") { j += 1 }
                    glyph(0x78)  // 'x'
                    i = j < n && b[j] == UInt8(ascii: ";") ? j + 1 : i + 1
                } else if c < 0x80 {
                    glyph(UInt32(c))
                    i += 1
                } else if c < 0xC0 {
                    i += 1  // a continuation byte: its scalar was counted at its lead byte
                } else {
                    // A lead byte: decode the scalar (only its width class matters).
                    var v: UInt32
                    var k: Int
                    if c >= 0xF0 { v = UInt32(c & 0x07); k = 3 } else if c >= 0xE0 { v = UInt32(c & 0x0F); k = 2 } else { v = UInt32(c & 0x1F); k = 1 }
                    var j = i + 1
                    while k > 0, j < n {
                        v = v << 6 | UInt32(b[j] & 0x3F)
                        j += 1
                        k -= 1
                    }
                    glyph(v)
                    i = j
                }
            }
        }

        mutating func tag(_ inner: UnsafeBufferPointer<UInt8>) {
            guard let first = inner.first else { return }
            if first == UInt8(ascii: "!") || first == UInt8(ascii: "?") { return }
            let closing = first == UInt8(ascii: "/")
            var end = closing ? 1 : 0
            let start = end
            while end < inner.count {
                let d = inner[end]
                if d == 0x20 || d == 0x0A || d == 0x09 || d == 0x0D || d == UInt8(ascii: "/") || d == UInt8(ascii: ">") { break }
                end += 1
            }
            // Known names map to their (small, unallocated) strings; other elements change no
            // height and are all named "".
            let name = Self.knownName(UnsafeBufferPointer(rebasing: inner[start..<end]))
            if closing {
                close(name)
                return
            }
            var attributes: [(String, String)] = []
            // Only images and the theme's own classes (`card-…`, `weather-…`) change heights.
            if end < inner.count, name == "img" || Self.contains(inner, "card-") || Self.contains(inner, "weather-") {
                attributes = Self.attributes(Substring(String(decoding: UnsafeBufferPointer(rebasing: inner[end...]), as: UTF8.self)))
            }
            open(name, attributes: attributes)
        }

        struct NameKey: Hashable {
            var a: UInt64 = 0
            var b: UInt64 = 0
        }

        /// Up to 16 ASCII bytes, lowercased, packed; nil for longer names.
        static func key<C: Collection<UInt8>>(_ bytes: C) -> NameKey? {
            guard bytes.count <= 16 else { return nil }
            var k = NameKey()
            for (i, c) in bytes.enumerated() {
                let lower = UInt64(c >= 0x41 && c <= 0x5A ? c | 0x20 : c)
                if i < 8 { k.a |= lower << (8 * UInt64(i)) } else { k.b |= lower << (8 * UInt64(i - 8)) }
            }
            return k
        }

        /// Every element name the reader treats specially (``CardHeightEstimate/style(tag:classes:preset:)``,
        /// images, line breaks and void elements).
        static let knownNames: [NameKey: String] = {
            let names = [
                "p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "menu", "dl", "dd", "blockquote", "figure", "pre", "hr",
                "table", "tr", "th", "li", "div", "section", "article", "header", "footer", "main", "nav", "aside", "dt",
                "figcaption", "details", "summary", "address", "caption", "tbody", "thead", "tfoot", "form", "fieldset",
                "strong", "b", "code", "kbd", "samp", "tt", "script", "style", "template", "noscript", "img", "br",
            ] + Array(void)
            return Dictionary(names.map { (key($0.utf8)!, $0) }, uniquingKeysWith: { a, _ in a })
        }()

        static func knownName(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
            guard let k = key(bytes) else { return "" }
            return knownNames[k] ?? ""
        }

        static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
            let w = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            guard bytes.count >= w.count else { return false }
            for i in 0...(bytes.count - w.count) where bytes[i] == w[0] {
                var k = 1
                while k < w.count, bytes[i + k] == w[k] { k += 1 }
                if k == w.count { return true }
            }
            return false
        }

        /// `name="value"` pairs (double or single quotes, or bare values).
        static func attributes(_ text: Substring) -> [(String, String)] {
            var out: [(String, String)] = []
            var rest = text[...]
            while true {
                rest = rest.drop { $0.isWhitespace || $0 == "/" }
                guard !rest.isEmpty else { break }
                let name = rest.prefix { !$0.isWhitespace && $0 != "=" && $0 != "/" }
                guard !name.isEmpty else { break }
                rest = rest.dropFirst(name.count).drop { $0.isWhitespace }
                var value = ""
                if rest.first == "=" {
                    rest = rest.dropFirst().drop { $0.isWhitespace }
                    if let q = rest.first, q == "\"" || q == "'" {
                        let body = rest.dropFirst().prefix { $0 != q }
                        value = String(body)
                        rest = rest.dropFirst(body.count + 2)
                    } else {
                        let body = rest.prefix { !$0.isWhitespace }
                        value = String(body)
                        rest = rest.dropFirst(body.count)
                    }
                }
                out.append((name.lowercased(), value))
            }
            return out
        }
    }
}
