/// The byte loop of `CardHeightEstimate`'s reader: a card's UTF-8 bytes to tags (`open`/`close`)
/// and glyphs, with the common cases (runs of ASCII text, tags without attributes) on fast paths.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension CardHeightEstimate.Reader {
    /// What a byte is to the byte loop, as bits (``byteClasses``).
    enum ByteClass {
        /// Not a glyph of ordinary text: whitespace or a stop.
        static let notGlyph: UInt8 = 1
        /// Whitespace of ordinary text (space, tab, line feed, carriage return).
        static let whitespace: UInt8 = 2
        /// Ends a tag's name (whitespace, `/`, `>`) or makes the fast tag path give up (quotes).
        static let nameEnd: UInt8 = 4
        /// Not a glyph of preformatted text: a line feed or a stop.
        static let notPreGlyph: UInt8 = 8
        /// Ends a run of ASCII text: `<`, `&` or a non-ASCII byte.
        static let stop: UInt8 = 16
    }

    /// Where the card's last byte of a class is (-1 when it has none).
    struct Sentinels {
        /// The last ``ByteClass/stop``.
        var stop: Int
        /// The last ``ByteClass/nameEnd``.
        var nameEnd: Int
    }

    /// ``ByteClass`` bits of each byte value.
    static let byteClasses: [UInt8] = {
        var t = [UInt8](repeating: 0, count: 256)
        for c in [0x20, 0x0A, 0x09, 0x0D] { t[c] |= ByteClass.notGlyph | ByteClass.whitespace | ByteClass.nameEnd }
        for c in [UInt8(ascii: "/"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'")] { t[Int(c)] |= ByteClass.nameEnd }
        t[0x0A] |= ByteClass.notPreGlyph
        for c in [Int(UInt8(ascii: "<")), Int(UInt8(ascii: "&"))] + Array(0x80...0xFF) {
            t[c] |= ByteClass.notGlyph | ByteClass.notPreGlyph | ByteClass.stop
        }
        return t
    }()

    /// Walks `html`'s UTF-8 bytes: tags go to `open`/`close`, text to `glyph` (each entity
    /// counts as one glyph); comments are skipped.
    mutating func read(_ html: String) {
        var html = html
        html.withUTF8 { read(bytes: $0) }
    }

    mutating func read(bytes b: UnsafeBufferPointer<UInt8>) {
        Self.byteClasses.withUnsafeBufferPointer { read(bytes: b, classes: $0.baseAddress!) }
    }

    mutating func read(bytes b: UnsafeBufferPointer<UInt8>, classes t: UnsafePointer<UInt8>) {
        guard let p = b.baseAddress else { return }
        let n = b.count
        // The last stop and the last byte that ends a name: a run of glyphs or a name that
        // starts before it ends before it too, so those loops need no bounds check there.
        var stops = Sentinels(stop: -1, nameEnd: -1)
        var e = n
        while e > 0, stops.stop < 0 || stops.nameEnd < 0 {
            e -= 1
            let k = t[Int(p[e])]
            if stops.stop < 0, k & ByteClass.stop != 0 { stops.stop = e }
            if stops.nameEnd < 0, k & ByteClass.nameEnd != 0 { stops.nameEnd = e }
        }
        var i = 0
        while i < n {
            let c = p[i]
            if t[Int(c)] & ByteClass.stop == 0 {
                i = text(p, n, from: i, classes: t, sentinels: stops)
            } else if c == UInt8(ascii: "<") {
                i = markup(p, n, at: i, classes: t, sentinels: stops)
            } else if c == UInt8(ascii: "&") {
                // An entity is one glyph: skip to its ';' (within 12 bytes).
                var j = i + 1
                while j < min(n, i + 12), p[j] != UInt8(ascii: ";") { j += 1 }
                glyph(0x78)  // 'x'
                i = j < n && p[j] == UInt8(ascii: ";") ? j + 1 : i + 1
            } else if c < 0xC0 {
                i += 1  // a continuation byte: its scalar was counted at its lead byte
            } else {
                // A lead byte: decode the scalar (only its width class matters).
                var v: UInt32
                var k: Int
                if c >= 0xF0 { v = UInt32(c & 0x07); k = 3 } else if c >= 0xE0 { v = UInt32(c & 0x0F); k = 2 } else { v = UInt32(c & 0x1F); k = 1 }
                var j = i + 1
                while k > 0, j < n {
                    v = v << 6 | UInt32(p[j] & 0x3F)
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
    /// The advances are added one glyph at a time, in order, as ``glyph(_:)`` adds them.
    /// - Returns: where the run ends.
    mutating func text(_ p: UnsafePointer<UInt8>, _ n: Int, from start: Int, classes t: UnsafePointer<UInt8>, sentinels: Sentinels) -> Int {
        let o = current
        var i = start
        var advance = self.advance
        var hasText = self.hasText
        if o.hidden {
            while i < n, t[Int(p[i])] & ByteClass.stop == 0 { i += 1 }
            return i
        }
        if o.preformatted {
            let glyph = CardHeightEstimate.monospaceGlyphWidth * o.fontSize  // no ASCII glyph is wide
            var newlines = self.newlines
            var endsWithNewline = self.endsWithNewline
            while i < n {
                let k = t[Int(p[i])]
                if k & ByteClass.notPreGlyph == 0 {
                    advance += glyph
                    hasText = true
                    endsWithNewline = false
                } else if k & ByteClass.stop == 0 {
                    newlines += 1
                    endsWithNewline = true
                } else {
                    break
                }
                i += 1
            }
            (self.advance, self.hasText, self.newlines, self.endsWithNewline) = (advance, hasText, newlines, endsWithNewline)
            return i
        }
        var lastSpace = self.lastSpace
        let glyph = o.advance
        let space = CardHeightEstimate.glyphWidth * o.fontSize * 0.6  // a space is narrower
        run: while i < n {
            var k = t[Int(p[i])]
            if k & ByteClass.notGlyph == 0 {
                // A word: its glyphs in a loop of their own.
                lastSpace = false
                hasText = true
                if i < sentinels.stop {
                    repeat {
                        advance += glyph
                        i &+= 1
                        k = t[Int(p[i])]
                    } while k & ByteClass.notGlyph == 0
                } else {
                    repeat {
                        advance += glyph
                        i += 1
                        guard i < n else { break run }
                        k = t[Int(p[i])]
                    } while k & ByteClass.notGlyph == 0
                }
            }
            guard k & ByteClass.stop == 0 else { break }
            // (Not after a space means after a glyph: there is text.)
            if !lastSpace { advance += space }
            lastSpace = true
            i += 1
        }
        (self.advance, self.hasText, self.lastSpace) = (advance, hasText, lastSpace)
        return i
    }

    /// The tag or comment at `start` (a `<`).
    /// - Returns: where the byte after it is.
    mutating func markup(_ p: UnsafePointer<UInt8>, _ n: Int, at start: Int, classes t: UnsafePointer<UInt8>, sentinels: Sentinels) -> Int {
        // The fast paths: the name read once, up to `>` (`<p>`, `</li>`) or to its attributes.
        if start &+ 1 < n, p[start &+ 1] != UInt8(ascii: "!"), p[start &+ 1] != UInt8(ascii: "?") {
            let closing = p[start &+ 1] == UInt8(ascii: "/")
            let nameStart = closing ? start &+ 2 : start &+ 1
            var j = nameStart
            if j < sentinels.nameEnd {
                while t[Int(p[j])] & ByteClass.nameEnd == 0 { j &+= 1 }
            } else {
                while j < n, t[Int(p[j])] & ByteClass.nameEnd == 0 { j &+= 1 }
            }
            if j < n {
                let d = p[j]
                if d == UInt8(ascii: ">"), closing || j > nameStart {
                    let name = Self.element(p, n, from: nameStart, to: j)
                    if closing { close(name) } else { open(name, attributes: Attributes()) }
                    return j &+ 1
                }
                if d != UInt8(ascii: ">"), d != UInt8(ascii: "\""), d != UInt8(ascii: "'") {
                    // Whitespace or `/` after the name: the tag goes on to its `>`.
                    let end = Self.tagEnd(p, n, from: j)
                    let name = Self.element(p, n, from: nameStart, to: j)
                    if closing {
                        close(name)
                    } else {
                        var attributes = Attributes()
                        // Only images and the theme's own classes (`card-…`, `weather-…`) change heights.
                        if name == .img || Self.holdsThemePrefix(UnsafeBufferPointer(start: p + start + 1, count: end - start - 1)) {
                            attributes = Self.attributes(bytes: UnsafeBufferPointer(start: p + j, count: end - j))
                        }
                        open(name, attributes: attributes)
                    }
                    return end &+ 1
                }
            }
        }
        let b = UnsafeBufferPointer(start: p, count: n)
        let i = start
        if i + 3 < n, b[i + 1] == UInt8(ascii: "!"), b[i + 2] == UInt8(ascii: "-"), b[i + 3] == UInt8(ascii: "-") {
            // A comment: skip past "-->".
            var j = i + 4
            while j + 2 < n, !(b[j] == UInt8(ascii: "-") && b[j + 1] == UInt8(ascii: "-") && b[j + 2] == UInt8(ascii: ">")) { j += 1 }
            return j + 3
        }
        let j = Self.tagEnd(p, n, from: i + 1)
        tag(UnsafeBufferPointer(rebasing: b[(i + 1)..<j]))
        return j + 1
    }

    /// Where the tag that goes on at `start` ends: its next `>` outside quotes, or `n` (a quoted
    /// value, often a long URL, is skipped with memchr).
    static func tagEnd(_ p: UnsafePointer<UInt8>, _ n: Int, from start: Int) -> Int {
        var j = start
        while j < n {
            let d = p[j]
            if d == UInt8(ascii: ">") { break }
            if d == UInt8(ascii: "\"") || d == UInt8(ascii: "'") {
                guard let close = memchr(p + j + 1, Int32(d), n - j - 1) else { return n }
                j = UnsafePointer<UInt8>(close.assumingMemoryBound(to: UInt8.self)) - p
            }
            j += 1
        }
        return min(j, n)
    }

    /// The element named by the bytes `start..<end` of `p` (`n` bytes), as
    /// ``CardHeightEstimate/Element/named(_:)-(UnsafeBufferPointer<UInt8>)`` reads them: a name of
    /// at most 8 bytes is loaded as one word and lowercased 8 bytes at a time.
    @inline(__always) static func element(_ p: UnsafePointer<UInt8>, _ n: Int, from start: Int, to end: Int) -> CardHeightEstimate.Element {
        let count = end &- start
        guard count <= 8, start &+ 8 <= n else {
            return CardHeightEstimate.Element.named(UnsafeBufferPointer(start: p + start, count: count))
        }
        let word = UInt64(littleEndian: UnsafeRawPointer(p + start).loadUnaligned(as: UInt64.self))
        let name = count == 8 ? word : word & ((1 &<< UInt64(truncatingIfNeeded: count &* 8)) &- 1)
        // 'A'…'Z' bytes get 0x20: a byte's low 7 bits plus 0x3F reach 0x80 from 'A' on, plus 0x25
        // from '[' on (no carry leaves a byte); bytes from 0x80 on are not letters.
        let low = name & 0x7F7F_7F7F_7F7F_7F7F
        let upper = ((low &+ 0x3F3F_3F3F_3F3F_3F3F) ^ (low &+ 0x2525_2525_2525_2525)) & ~name & 0x8080_8080_8080_8080
        return CardHeightEstimate.Element.named(CardHeightEstimate.Element.Key(a: name | upper &>> 2, b: 0))
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
        let name = CardHeightEstimate.Element.named(UnsafeBufferPointer(rebasing: inner[start..<end]))
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
