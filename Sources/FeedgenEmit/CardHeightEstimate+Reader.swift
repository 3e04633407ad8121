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
        /// An open element: what its text and its children inherit, and what its end adds.
        struct Open {
            var tag: Element
            var block: Bool
            var bold: Bool
            var monospace: Bool
            var preformatted: Bool
            var hidden: Bool
            /// Whether its style sets what ``Current`` holds (font size, weight, monospace,
            /// preformatted, hidden): else its text is set as its parent's, and neither its start
            /// nor its end changes ``current``.
            var setsText: Bool
            var fontSize: Double
            var lineHeight: Double
            var inset: Double
            var marginBottom: Double
            var paddingBottom: Double
        }

        /// Whether the preset is `insetGrouped` (its own title and padding).
        let insetGrouped: Bool
        /// Whether the preset caps the card image's height (`list`, `grid`, `insetGrouped`).
        let capsCardImage: Bool
        /// ``Element/plainStyles``, held here so that a tag does not go through the static's
        /// lazy initialization.
        let plainStyles: [Style]
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
            plainStyles = Element.plainStyles
            stack.reserveCapacity(16)
            stack.append(
                Open(
                    tag: .other, block: true, bold: false, monospace: false, preformatted: false, hidden: false, setsText: true, fontSize: 16,
                    lineHeight: CardHeightEstimate.lineHeight, inset: 0, marginBottom: 0, paddingBottom: 0))
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
        @inline(__always) mutating func flushText() {
            // Without text, the run's advance is 0 and its last character a space (both change
            // only with text): only its line count is left to reset.
            if hasText {
                flushRun()
            } else {
                newlines = 0
                endsWithNewline = false
            }
        }

        /// ``flushText()`` of a run with text.
        mutating func flushRun() {
            defer {
                advance = 0; hasText = false; lastSpace = true; newlines = 0; endsWithNewline = false
            }
            guard hasText else { return }
            // The block the text belongs to: the innermost open block (the bottom one is a block).
            var index = stack.count - 1
            while index > 0, !stack[index].block { index -= 1 }
            let block = stack[index]
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
            if tag == .other, classes.isEmpty {
                // No style (`a`, `em`, `span`…): its text is set as its parent's, its end adds nothing.
                var o = top
                (o.tag, o.block, o.setsText, o.marginBottom, o.paddingBottom) = (.other, false, false, 0, 0)
                stack.append(o)
                return
            }
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
            let style =
                classes.isEmpty
                ? plainStyles[Int(tag.rawValue)] : CardHeightEstimate.style(tag, classes: classes, insetGrouped: insetGrouped)
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
            let parent = top
            let size = style.fontSize ?? parent.fontSize
            let setsText = style.fontSize != nil || style.bold != nil || style.monospace || style.preformatted || style.hidden
            stack.append(
                Open(
                    tag: tag, block: style.block, bold: style.bold ?? parent.bold, monospace: style.monospace || parent.monospace,
                    preformatted: style.preformatted || parent.preformatted, hidden: style.hidden || parent.hidden, setsText: setsText,
                    fontSize: size, lineHeight: style.lineHeight ?? parent.lineHeight, inset: parent.inset + style.inset,
                    marginBottom: style.marginBottom, paddingBottom: style.paddingBottom))
            if setsText { updateCurrent() }
        }

        mutating func close(_ tag: Element) {
            // Mostly the innermost element; else the innermost of that name, and all inside it.
            var index = stack.count - 1
            while index > 0, stack[index].tag != tag { index -= 1 }
            guard index > 0 else { return }
            var setText = false
            while stack.count > index {
                let closing = stack[stack.count - 1]
                setText = setText || closing.setsText
                if closing.block { flushText() }  // the text is set in the closing block
                stack.removeLast()
                guard closing.block else { continue }
                if closing.paddingBottom > 0 {
                    space(pendingMargin + closing.paddingBottom)
                    pendingMargin = closing.marginBottom
                } else {
                    pendingMargin = max(pendingMargin, closing.marginBottom)
                }
            }
            if setText { updateCurrent() }
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
    }
}
