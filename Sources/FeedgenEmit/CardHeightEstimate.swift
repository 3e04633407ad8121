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
/// - an image with `width`/`height` attributes: its width (the card's width for the card image,
///   else `min(width attribute, available width)`) × height/width, at most 320 px for the card
///   image of a self-sizing list or grid card (`theme.css`).
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
            s.block = true; s.monospace = true; s.fontSize = 13; s.preformatted = true
            s.marginTop = 13; s.marginBottom = 13
        case "hr":
            s.block = true; s.marginTop = 8; s.marginBottom = 8; s.paddingTop = 2
        case "table":
            s.block = true
        case "tr":
            s.block = true; s.paddingTop = 2; s.paddingBottom = 2
        case "th":
            s.bold = true
        case "li", "div", "section", "article", "header", "footer", "main", "nav", "aside", "dt", "figcaption",
            "details", "summary", "address", "caption", "tbody", "thead", "tfoot", "form", "fieldset":
            s.block = true
        case "strong", "b":
            s.bold = true
        case "code", "kbd", "samp", "tt":
            s.monospace = true; s.fontSize = 13
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
        }

        var top: Open { stack[stack.count - 1] }

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
                    pieces.append(.image(ratio: h / w, intrinsicWidth: nil, inset: 0, maxHeight: capped ? CardHeightEstimate.cardImageMaxHeight : nil))
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
                    space(pendingMargin + style.marginTop + style.paddingTop)
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
        }

        mutating func text(_ scalars: Substring.UnicodeScalarView) {
            let o = top
            if o.hidden { return }
            let em = o.fontSize
            for c in scalars {
                if o.preformatted {
                    if c == "\n" { newlines += 1; endsWithNewline = true; continue }
                    advance += CardHeightEstimate.monospaceGlyphWidth * em
                    hasText = true
                    endsWithNewline = false
                    continue
                }
                if c == " " || c == "\n" || c == "\t" || c == "\r" {
                    if !lastSpace, hasText { advance += CardHeightEstimate.glyphWidth * em * 0.6 }  // a space is narrower
                    lastSpace = true
                    continue
                }
                lastSpace = false
                hasText = true
                advance += Self.advance(c, em: em, bold: o.bold, monospace: o.monospace)
            }
        }

        static func advance(_ c: Unicode.Scalar, em: Double, bold: Bool, monospace: Bool) -> Double {
            if isWide(c) { return CardHeightEstimate.wideGlyphWidth * em }
            if monospace { return CardHeightEstimate.monospaceGlyphWidth * em }
            return (bold ? CardHeightEstimate.boldGlyphWidth : CardHeightEstimate.glyphWidth) * em
        }

        /// East Asian wide and fullwidth ranges (Hangul Jamo, CJK, Hiragana/Katakana, Hangul
        /// syllables, compatibility ideographs, fullwidth forms, supplementary ideographs).
        static func isWide(_ c: Unicode.Scalar) -> Bool {
            switch c.value {
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

        /// Walks `html`: tags go to `open`/`close`, text (with each entity counted as one
        /// glyph) to `text`; comments are skipped.
        mutating func read(_ html: String) {
            let s = Substring(html).unicodeScalars
            var i = s.startIndex
            var textStart = i
            func flush(_ end: Substring.UnicodeScalarView.Index, _ me: inout Reader) {
                if textStart < end { me.text(Self.decodeEntities(s[textStart..<end])) }
            }
            while i < s.endIndex {
                guard s[i] == "<" else { i = s.index(after: i); continue }
                flush(i, &self)
                let rest = s[i...]
                if rest.starts(with: "<!--".unicodeScalars) {
                    // Skip to the end of the comment.
                    var j = s.index(i, offsetBy: 4)
                    while j < s.endIndex, !s[j...].starts(with: "-->".unicodeScalars) { j = s.index(after: j) }
                    i = j < s.endIndex ? s.index(j, offsetBy: 3) : j
                    textStart = i
                    continue
                }
                // A tag: up to the next '>' outside quotes.
                var j = s.index(after: i)
                var quote: Unicode.Scalar? = nil
                while j < s.endIndex {
                    let c = s[j]
                    if let q = quote { if c == q { quote = nil } } else if c == "\"" || c == "'" { quote = c } else if c == ">" { break }
                    j = s.index(after: j)
                }
                let inner = s[s.index(after: i)..<j]
                i = j < s.endIndex ? s.index(after: j) : j
                textStart = i
                tag(String(String.UnicodeScalarView(inner)))
            }
            flush(s.endIndex, &self)
        }

        mutating func tag(_ inner: String) {
            if inner.hasPrefix("/") {
                let name = inner.dropFirst().prefix { !$0.isWhitespace && $0 != ">" }.lowercased()
                close(name)
                return
            }
            if inner.hasPrefix("!") || inner.hasPrefix("?") { return }
            let name = inner.prefix { !$0.isWhitespace && $0 != "/" }.lowercased()
            var attributes: [(String, String)] = []
            if name == "img" || inner.contains("class") {
                attributes = Self.attributes(inner.dropFirst(name.count))
            }
            open(name, attributes: attributes)
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

        /// Text with each `&…;` reference replaced by one placeholder glyph.
        static func decodeEntities(_ text: Substring.UnicodeScalarView) -> Substring.UnicodeScalarView {
            guard text.contains("&") else { return text }
            var out = String.UnicodeScalarView()
            var i = text.startIndex
            while i < text.endIndex {
                if text[i] == "&", let semi = text[i...].prefix(12).firstIndex(of: ";") {
                    out.append("x")
                    i = text.index(after: semi)
                } else {
                    out.append(text[i])
                    i = text.index(after: i)
                }
            }
            return Substring(String(out)).unicodeScalars
        }
    }
}
