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
///   of the glyph advances (`glyphWidth × fontSize` per glyph: 0.47 em regular, 0.50 em bold,
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
/// title. Glyph widths were measured in Debian's Chromium 156 with the theme's font stack, which
/// the browser tests set in Noto Sans (Tests/browser/fonts.conf), over the descriptions of Hugo's
/// documentation (../shared/corpus/hugodocs), each set on one line at 16 px: width / characters,
/// spaces included: 0.472 em regular, 0.504 em bold, 0.600 em monospace, 0.995 em Japanese
/// (Tests/browser/test_fonts.py keeps the first two within 0.01 em; DejaVu Sans, which Debian's
/// Chromium uses without Noto Sans, measures 0.507 and 0.574). Counting a space as 0.6 glyph, the
/// estimate sums about 6 % less than the text's width; `wrapSlack` was fitted with that.
public struct CardHeightEstimate: Hashable, Sendable {
    /// One vertical piece of the card.
    package enum Piece: Hashable, Sendable {
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
    package let pieces: [Piece]

    /// Regular glyph advance, em (measured; see the type's documentation).
    public static let glyphWidth = 0.47
    /// Bold glyph advance, em.
    public static let boldGlyphWidth = 0.50
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

    /// The style of `element` with the theme classes `classes`; `insetGrouped` for that preset.
    static func style(_ element: Element, classes: Classes, insetGrouped: Bool) -> Style {
        var s = element.plainStyle
        guard !classes.isEmpty else { return s }
        // The card theme (Templates/theme.css).
        if classes.contains(.cardBody) {
            let vertical = insetGrouped ? 11.0 : 16.0
            s.paddingTop = vertical; s.paddingBottom = vertical; s.inset = 32
        }
        if classes.contains(.cardTitle) {
            s.marginTop = 0; s.marginBottom = 0
            s.fontSize = insetGrouped ? 16 : 16.8
            s.lineHeight = 1.3
            s.bold = !insetGrouped
        }
        if classes.contains(.cardDescription) { s.marginTop = 6; s.marginBottom = 0 }
        if classes.contains(.tableScroll) { s.marginTop = 16; s.marginBottom = 16 }
        if classes.contains(.footnotes) { s.marginTop = 32; s.paddingTop = 8.2; s.fontSize = 14.4 }
        if classes.contains(.cardDate) { s.marginTop = 6; s.marginBottom = 0; s.fontSize = 13.6 }
        if classes.contains(.weatherNow) { s.lineHeight = 1; s.fontSize = 48; s.marginTop = 4; s.marginBottom = 0 }
        if classes.contains(.weatherCondition) { s.marginTop = 4; s.marginBottom = 0 }
        return s
    }
}

extension CardHeightEstimate.Element {
    /// The element's style without classes, by raw value.
    static let plainStyles: [CardHeightEstimate.Style] = allCases.map { $0.makeStyle() }

    var plainStyle: CardHeightEstimate.Style { Self.plainStyles[Int(rawValue)] }

    private func makeStyle() -> CardHeightEstimate.Style {
        var s = CardHeightEstimate.Style()
        switch self {
        case .p:
            s.block = true; s.marginTop = 16; s.marginBottom = 16
        case .h1, .h2, .h3, .h4, .h5, .h6:
            let (size, margin): (Double, Double) = switch self {
            case .h1: (2, 0.67)
            case .h2: (1.5, 0.83)
            case .h3: (1.17, 1)
            case .h4: (1, 1.33)
            case .h5: (0.83, 1.67)
            default: (0.67, 2.33)
            }
            s.block = true; s.fontSize = 16 * size; s.bold = true
            s.marginTop = 16 * size * margin; s.marginBottom = s.marginTop
        case .ul, .ol, .menu:
            s.block = true; s.marginTop = 16; s.marginBottom = 16; s.inset = 40
        case .dl:
            s.block = true; s.marginTop = 16; s.marginBottom = 16
        case .dd:
            s.block = true; s.inset = 40
        case .blockquote, .figure:
            s.block = true; s.marginTop = 16; s.marginBottom = 16; s.inset = 80
        case .pre:
            // theme.css: .875em in the --mono-font stack (not the bare `monospace` that Chromium
            // sets at 13 px), line-height 1.45, 12 px padding and a 1 px border; margins 1em.
            s.block = true; s.monospace = true; s.fontSize = 14; s.lineHeight = 1.45; s.preformatted = true
            s.marginTop = 14; s.marginBottom = 14; s.paddingTop = 13; s.paddingBottom = 13
        case .hr:
            s.block = true; s.marginTop = 8; s.marginBottom = 8; s.paddingTop = 2
        case .table:
            s.block = true
        case .tr:
            // theme.css: cells with 6 px padding and collapsed 1 px borders.
            s.block = true; s.paddingTop = 6.5; s.paddingBottom = 6.5
        case .th:
            s.bold = true
        case .li, .div, .section, .article, .header, .footer, .main, .nav, .aside, .dt, .figcaption, .details, .summary,
            .address, .caption, .tbody, .thead, .tfoot, .form, .fieldset:
            s.block = true
        case .strong, .b:
            s.bold = true
        case .code, .kbd, .samp, .tt:
            s.monospace = true; s.fontSize = 14
        case .script, .style, .template, .noscript:
            s.hidden = true
        default:
            break
        }
        return s
    }
}
