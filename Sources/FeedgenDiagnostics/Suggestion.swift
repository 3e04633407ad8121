/// "Did you mean" suggestions for unknown keys (Damerau–Levenshtein distance).
public enum Suggestion {
    /// The candidate closest to `word`, if it is close enough to be a likely typo:
    /// at most 1 edit for words up to 4 characters, else at most a third of the length.
    /// Comparison ignores ASCII case.
    public static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        let lowered = word.lowercased()
        let lower = Array(lowered)
        let limit = lower.count <= 4 ? 1 : max(2, lower.count / 3)
        // ASCII (without CR, which joins LF into one Character) is compared byte by byte, and a
        // candidate whose length differs by more than `limit` is that many edits away at least.
        let asciiWord = isPlainASCII(lowered) ? Array(lowered.utf8) : nil
        var best: (String, Int)?
        for candidate in candidates {
            let d: Int
            if let asciiWord, isPlainASCII(candidate) {
                guard abs(candidate.utf8.count - asciiWord.count) <= limit else { continue }
                d = distance(asciiWord, candidate.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 })
            } else {
                d = distance(lower, Array(candidate.lowercased()))
            }
            if d <= limit, best == nil || d < best!.1 || (d == best!.1 && candidate < best!.0) {
                best = (candidate, d)
            }
        }
        return best?.0
    }

    /// Whether every byte of `text` is ASCII other than CR: then each byte is one Character.
    private static func isPlainASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D }
    }

    /// Optimal-string-alignment distance (insertions, deletions, substitutions, transpositions).
    public static func distance(_ a: [Character], _ b: [Character]) -> Int { alignmentDistance(a, b) }

    /// The same distance between byte strings (ASCII text: a byte is a Character).
    static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int { alignmentDistance(a, b) }

    private static func alignmentDistance<Element: Equatable>(_ a: [Element], _ b: [Element]) -> Int {
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
