/// The length rule of an item's default `description` (its body's first paragraph): at most
/// `summaryLength` words, Hugo's rule and default.
enum SummaryLength {
    /// Hugo's `summaryLength` default: 70 words.
    static let defaultWords = 70

    /// `text` cut before its `(limit + 1)`th word, with `…` after the last word kept (none when
    /// it ends a sentence: `.`, `!`, `?`, `。`, `！`, `？`); `text` itself when it has no more words.
    /// A word is a run of characters between white space; each Chinese or Japanese character
    /// (East Asian Width F/W/H, ``EastAsianWidth``) is a word of its own, as Hugo counts them
    /// with `hasCJKLanguage`; CJK punctuation (U+3000–U+303F) is no word.
    static func truncate(_ text: String, words limit: Int) -> String {
        // On the UTF-8 bytes, ASCII read directly: a Unicode property look-up per scalar is
        // measurable over 10,000 items.
        var text = text
        guard let offset = text.withUTF8({ cutOffset($0, words: limit) }) else { return text }
        return cut(text, before: text.utf8.index(text.utf8.startIndex, offsetBy: offset))
    }

    /// ``truncate(_:words:)``'s scan of valid UTF-8: the byte offset of the first word past
    /// `limit`, nil when there is none.
    private static func cutOffset(_ b: UnsafeBufferPointer<UInt8>, words limit: Int) -> Int? {
        var count = 0
        var inWord = false
        var k = 0
        while k < b.count {
            let byte = b[k]
            if byte < 0x80 {
                if byte == 0x20 || (0x09...0x0D).contains(byte) {
                    inWord = false
                } else if !inWord {
                    if count == limit { return k }
                    count += 1
                    inWord = true
                }
                k += 1
                continue
            }
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
            var value = UInt32(byte) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
            for m in 1..<length where k + m < b.count { value = value << 6 | UInt32(b[k + m] & 0x3F) }
            let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
            if scalar.properties.isWhitespace {
                inWord = false
            } else if (0x3000...0x303F).contains(scalar.value) {
                inWord = false
            } else if EastAsianWidth.isWide(scalar) {
                if count == limit { return k }
                count += 1
                inWord = false
            } else if !inWord {
                if count == limit { return k }
                count += 1
                inWord = true
            }
            k += length
        }
        return nil
    }

    private static func cut(_ text: String, before index: String.Index) -> String {
        var kept = text[..<index]
        while let last = kept.last, last.isWhitespace || ",;:、，・-–—(「『[".contains(last) { kept.removeLast() }
        if let last = kept.last, ".!?。！？".contains(last) { return String(kept) }
        return kept + "…"
    }
}
