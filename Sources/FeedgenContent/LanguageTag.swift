/// Language tags (BCP 47, RFC 5646) as feedgen reads them in `language`, `lang` and the keys of
/// `strings` (content-format §2): `_` read as `-` (`pt_BR` is `pt-BR`, as Hugo reads language
/// keys and Jekyll sites write locales), a warning for a language that is no ISO 639 code (`jp`:
/// did you mean `ja`?), and the tags of `strings` that apply to a page's language (RFC 4647
/// lookup, script subtags included).
import Foundation

enum LanguageTag {
    /// `pt_BR` → `pt-BR`: `-` between subtags, case kept.
    static func hyphenated(_ tag: String) -> String {
        tag.contains("_") ? tag.replacingOccurrences(of: "_", with: "-") : tag
    }

    /// A tag as ``SiteConfig/stringsByLanguage`` keys it: lowercased, `-` between subtags.
    static func normalized(_ tag: String) -> String { hyphenated(tag).lowercased() }

    /// The ISO 639 codes of Foundation's list (`Locale.LanguageCode.isoLanguageCodes`, ICU's:
    /// two letters where ISO 639-1 has them, else three).
    static let languageCodes = Set(Locale.LanguageCode.isoLanguageCodes.map(\.identifier))

    /// What is wrong with `tag`'s primary language subtag, or nil when it is a language: in
    /// ``languageCodes``, or a code ICU knows another way (`tl` for `fil`, `iw` for `he`,
    /// `eng` for `en`). The text goes after "'jp' in 'lang' ": `is no ISO 639 language code
    /// (did you mean 'ja'? 'JP' is the region code of Japan)`.
    static func unknownLanguage(_ tag: String) -> String? {
        let primary = hyphenated(tag).prefix { $0 != "-" }.lowercased()
        guard !languageCodes.contains(primary) else { return nil }
        // ICU's likely subtags add a script to a language it knows (`tl` → `tl-Latn-PH`).
        guard Locale.Language(identifier: primary).maximalIdentifier.lowercased() == primary else { return nil }
        let english = Locale(identifier: "en")
        let region = primary.uppercased()
        var hint = ""
        if primary.utf8.count == 2, Locale.Region.isoRegions.contains(where: { $0.identifier == region }),
            case let language = Locale.Language(identifier: "und-" + region).maximalIdentifier.prefix(while: { $0 != "-" }),
            language != "und"
        {
            // A country's code for its language (`jp`, `cn`, `gr`, `dk`, `se`): its main language.
            let name = english.localizedString(forRegionCode: region).map { " of \($0)" } ?? ""
            hint = " (did you mean '\(language)'? '\(region)' is the region code\(name))"
        } else if let code = languageCodes.sorted().first(where: { english.localizedString(forLanguageCode: $0)?.lowercased() == primary }) {
            // A language's English name (`japanese`, `german`).
            hint = " (did you mean '\(code)'?)"
        }
        return "is no ISO 639 language code\(hint)"
    }

    /// The tags, lowercased and in ``normalized(_:)`` form, whose `strings` apply to a page in
    /// `tag`, least specific first (each laid over the ones before): RFC 4647's lookup (§3.4),
    /// which tries the whole tag, then the tag without its last subtag, and so on (a singleton
    /// before a dropped subtag goes with it), read from short to long; and as the same tag
    /// with and without its script subtag: `zh-Hant-TW` → `zh`, `zh-hant`, `zh-tw`,
    /// `zh-hant-tw`; `zh-TW` → `zh`, `zh-hant` (the script ICU's likely subtags give it, asked
    /// only when `scriptKeys` holds a tag of the language with a script), `zh-hant-tw`, `zh-tw`.
    /// The tag as written is the most specific.
    static func lookup(_ tag: String, scriptKeys: Set<String>) -> [String] {
        let parts = normalized(tag).split(separator: "-").map(String.init)
        guard let primary = parts.first else { return [] }
        let written = parts.dropFirst().first.map { $0.count == 4 && $0.allSatisfy(\.isLetter) } == true ? parts[1] : nil
        var script = written
        if script == nil, scriptKeys.contains(primary) {
            script = Locale.Language(identifier: tag).script?.identifier.lowercased()
        }
        let rest = Array(parts.dropFirst(written == nil ? 1 : 2))
        var chain = [primary]
        if let script { chain.append(primary + "-" + script) }
        for count in rest.indices.map({ $0 + 1 }) where rest[count - 1].count > 1 {
            let subtags = rest.prefix(count).joined(separator: "-")
            let bare = primary + "-" + subtags
            guard let script else {
                chain.append(bare)
                continue
            }
            let withScript = primary + "-" + script + "-" + subtags
            chain += written == nil ? [withScript, bare] : [bare, withScript]
        }
        return chain
    }
}
