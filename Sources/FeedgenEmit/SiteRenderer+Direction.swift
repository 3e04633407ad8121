/// Which languages are written right to left: the `dir` of a page, a section and an item.
extension SiteRenderer {
    /// Whether `lang` (BCP 47) is written right to left: its script subtag, else its language
    /// (Arabic, Hebrew, Persian, Urdu, Pashto, Sindhi, Yiddish, Dhivehi, Kurdish (Sorani), Uyghur, Syriac, N'Ko).
    public static func isRightToLeft(_ lang: String?) -> Bool {
        guard let lang, !lang.isEmpty else { return false }
        // A language alone in two ASCII letters (`en`, `ja`, every page of most sites): its two
        // bytes, lowercased, against the right-to-left ones.
        let utf8 = lang.utf8
        if utf8.count == 2, let a = utf8.first.map({ $0 | 0x20 }), let b = utf8.last.map({ $0 | 0x20 }), a >= 0x61, a <= 0x7A, b >= 0x61,
            b <= 0x7A
        {
            return rightToLeftPairs.contains(UInt16(a) << 8 | UInt16(b))
        }
        let parts = lang.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" })
        guard let language = parts.first else { return false }
        if let script = parts.dropFirst().first(where: { $0.count == 4 }) {
            return ["arab", "hebr", "thaa", "syrc", "nkoo", "adlm", "rohg", "mand", "samr"].contains(String(script))
        }
        return ["ar", "he", "iw", "fa", "ur", "ps", "sd", "yi", "dv", "ckb", "ug", "syr", "nqo"].contains(String(language))
    }

    /// The two-letter right-to-left languages of ``isRightToLeft(_:)``, two bytes each.
    private static let rightToLeftPairs: [UInt16] = ["ar", "he", "iw", "fa", "ur", "ps", "sd", "yi", "dv", "ug"].map {
        UInt16(Array($0.utf8)[0]) << 8 | UInt16(Array($0.utf8)[1])
    }
}
