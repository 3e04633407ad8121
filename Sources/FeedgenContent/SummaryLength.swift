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
        let scalars = text.unicodeScalars
        var count = 0
        var inWord = false
        var i = scalars.startIndex
        while i < scalars.endIndex {
            let scalar = scalars[i]
            if scalar.isASCII {
                // ASCII first: a Unicode property look-up per scalar is measurable over 10,000 items.
                if scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value) {
                    inWord = false
                } else if !inWord {
                    if count == limit { return cut(text, before: i) }
                    count += 1
                    inWord = true
                }
            } else if scalar.properties.isWhitespace {
                inWord = false
            } else if (0x3000...0x303F).contains(scalar.value) {
                inWord = false
            } else if EastAsianWidth.isWide(scalar) {
                if count == limit { return cut(text, before: i) }
                count += 1
                inWord = false
            } else if !inWord {
                if count == limit { return cut(text, before: i) }
                count += 1
                inWord = true
            }
            i = scalars.index(after: i)
        }
        return text
    }

    private static func cut(_ text: String, before index: String.Index) -> String {
        var kept = text[..<index]
        while let last = kept.last, last.isWhitespace || ",;:、，・-–—(「『[".contains(last) { kept.removeLast() }
        if let last = kept.last, ".!?。！？".contains(last) { return String(kept) }
        return kept + "…"
    }
}
