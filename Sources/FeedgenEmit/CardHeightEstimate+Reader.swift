/// The HTML reader behind `CardHeightEstimate`: rendered card markup to vertical pieces (text
/// runs with their glyph advances, margins, paddings, images).

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension CardHeightEstimate {
    /// A small HTML reader: tags, attributes and text, enough for rendered cards (well-formed
    /// output of cmark and Mustache templates). Void elements never go on the stack.
    struct Reader {
        struct Open {
            var tag: Element
            var style: Style
            var fontSize: Double
            var lineHeight: Double
            var bold: Bool
            var monospace: Bool
            var inset: Double
            var preformatted: Bool
            var hidden: Bool
        }

        /// Whether the preset is `insetGrouped` (its own title and padding).
        let insetGrouped: Bool
        /// Whether the preset caps the card image's height (`list`, `grid`, `insetGrouped`).
        let capsCardImage: Bool
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
            pieces.reserveCapacity(8)
            insetGrouped = preset == "insetGrouped"
            capsCardImage = ["list", "grid", "insetGrouped"].contains(preset)
            stack = [
                Open(
                    tag: .other, style: Style(block: true), fontSize: 16, lineHeight: CardHeightEstimate.lineHeight, bold: false,
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

        mutating func open(_ tag: Element, attributes: Attributes) {
            let classes = attributes.classes
            if tag == .img {
                guard let w = attributes.width, let h = attributes.height, w > 0, h > 0, !top.hidden else { return }
                flushText()
                space(pendingMargin)
                pendingMargin = 0
                if classes.contains(.cardImage) {
                    // Never drawn wider than its source (card.mustache's max-inline-size).
                    pieces.append(.image(ratio: h / w, intrinsicWidth: w, inset: 0, maxHeight: capsCardImage ? CardHeightEstimate.cardImageMaxHeight : nil))
                } else {
                    pieces.append(.image(ratio: h / w, intrinsicWidth: w, inset: top.inset, maxHeight: nil))
                }
                return
            }
            if tag == .br {
                if !top.preformatted { flushText() } else { newlines += 1 }
                return
            }
            if tag.isVoid { return }
            let style = CardHeightEstimate.style(tag, classes: classes, insetGrouped: insetGrouped)
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

        mutating func close(_ tag: Element) {
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
                    // A tag: up to the next '>' outside quotes (a quoted value, often a long URL,
                    // is skipped with memchr).
                    var j = i + 1
                    while j < n {
                        let d = b[j]
                        if d == UInt8(ascii: ">") { break }
                        if d == UInt8(ascii: "\"") || d == UInt8(ascii: "'") {
                            guard let close = memchr(b.baseAddress! + j + 1, Int32(d), n - j - 1) else {
                                j = n
                                break
                            }
                            j = UnsafePointer<UInt8>(close.assumingMemoryBound(to: UInt8.self)) - b.baseAddress!
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
                    i = text(b, from: i)
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

        /// ``glyph(_:)`` of each byte of the run of ASCII text at `start` (up to the next tag,
        /// entity or non-ASCII byte), with the run's state in locals (cards are mostly such runs).
        /// - Returns: where the run ends.
        mutating func text(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
            let o = current
            let n = b.count
            var i = start
            var advance = self.advance
            var hasText = self.hasText
            if o.hidden {
                while i < n, b[i] < 0x80, b[i] != UInt8(ascii: "<"), b[i] != UInt8(ascii: "&") { i += 1 }
                return i
            }
            if o.preformatted {
                let glyph = CardHeightEstimate.monospaceGlyphWidth * o.fontSize  // no ASCII glyph is wide
                var newlines = self.newlines
                var endsWithNewline = self.endsWithNewline
                while i < n {
                    let c = b[i]
                    if c >= 0x80 || c == UInt8(ascii: "<") || c == UInt8(ascii: "&") { break }
                    if c == 0x0A {
                        newlines += 1
                        endsWithNewline = true
                    } else {
                        advance += glyph
                        hasText = true
                        endsWithNewline = false
                    }
                    i += 1
                }
                (self.advance, self.hasText, self.newlines, self.endsWithNewline) = (advance, hasText, newlines, endsWithNewline)
                return i
            }
            var lastSpace = self.lastSpace
            let space = CardHeightEstimate.glyphWidth * o.fontSize * 0.6  // a space is narrower
            while i < n {
                let c = b[i]
                if c >= 0x80 || c == UInt8(ascii: "<") || c == UInt8(ascii: "&") { break }
                if c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D {
                    if !lastSpace, hasText { advance += space }
                    lastSpace = true
                } else {
                    lastSpace = false
                    hasText = true
                    advance += o.advance
                }
                i += 1
            }
            (self.advance, self.hasText, self.lastSpace) = (advance, hasText, lastSpace)
            return i
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
            let name = Element.named(UnsafeBufferPointer(rebasing: inner[start..<end]))
            if closing {
                close(name)
                return
            }
            var attributes = Attributes()
            // Only images and the theme's own classes (`card-…`, `weather-…`) change heights.
            if end < inner.count, name == .img || Self.holdsThemePrefix(inner) {
                attributes = Self.attributes(bytes: UnsafeBufferPointer(rebasing: inner[end...]))
            }
            open(name, attributes: attributes)
        }

        /// Whether `bytes` holds `card-` or `weather-` (the prefixes of the theme's classes), found
        /// at their `-` in one pass.
        static func holdsThemePrefix(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
            var i = 4
            while i < b.count {
                if b[i] == UInt8(ascii: "-") {
                    if b[i - 4] == UInt8(ascii: "c"), b[i - 3] == UInt8(ascii: "a"), b[i - 2] == UInt8(ascii: "r"), b[i - 1] == UInt8(ascii: "d") {
                        return true
                    }
                    if i >= 7, b[i - 7] == UInt8(ascii: "w"), b[i - 6] == UInt8(ascii: "e"), b[i - 5] == UInt8(ascii: "a"),
                        b[i - 4] == UInt8(ascii: "t"), b[i - 3] == UInt8(ascii: "h"), b[i - 2] == UInt8(ascii: "e"), b[i - 1] == UInt8(ascii: "r")
                    {
                        return true
                    }
                }
                i += 1
            }
            return false
        }
    }
}
