/// "Did you mean" suggestions for unknown keys (Damerau–Levenshtein distance).
public enum Suggestion {
    /// The candidate closest to `word`, if it is close enough to be a likely typo:
    /// at most 1 edit for words up to 4 characters, else at most a third of the length.
    /// Comparison ignores ASCII case.
    public static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        let lower = Array(word.lowercased())
        let limit = lower.count <= 4 ? 1 : max(2, lower.count / 3)
        // ASCII words (most keys and ids) are compared on lower-cased bytes, each a character
        // of its own; a candidate whose length is more than `limit` away is skipped (each
        // edit changes the length by at most one).
        let asciiWord = asciiLowered(word)
        var best: (String, Int)?
        for candidate in candidates {
            let d: Int
            // An ASCII candidate too long or too short is skipped before it is lower-cased.
            if let asciiWord, abs(candidate.utf8.count - asciiWord.count) > limit, isASCII(candidate) { continue }
            if let asciiWord, let asciiCandidate = asciiLowered(candidate) {
                if abs(asciiCandidate.count - asciiWord.count) > limit { continue }
                d = distance(asciiWord, asciiCandidate)
            } else {
                d = distance(lower, Array(candidate.lowercased()))
            }
            if d <= limit, best == nil || d < best!.1 || (d == best!.1 && candidate < best!.0) {
                best = (candidate, d)
            }
        }
        return best?.0
    }

    /// The lower-cased bytes of an ASCII `word` without a carriage return (whose bytes are its
    /// characters: `\r\n` is one character); nil for any other word.
    private static func asciiLowered(_ word: String) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(word.utf8.count)
        for byte in word.utf8 {
            guard byte < 0x80, byte != 0x0D else { return nil }
            out.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte)
        }
        return out
    }

    /// Whether `word` is ASCII without a carriage return (``asciiLowered(_:)`` is not nil).
    private static func isASCII(_ word: String) -> Bool { word.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D } }

    /// Optimal-string-alignment distance (insertions, deletions, substitutions, transpositions).
    public static func distance<Element: Equatable>(_ a: [Element], _ b: [Element]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = value
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }

    /// ` (did you mean 'x'?)` or the empty string.
    public static func didYouMean(_ word: String, in candidates: some Sequence<String>) -> String {
        guard let hit = closest(to: word, in: candidates) else { return "" }
        return " (did you mean '\(hit)'?)"
    }
}
