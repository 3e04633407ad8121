/// Hugo's translation file names, `name.<lang>.md` (content-format §5.4): the language a file
/// name gives its item, and which files are translations of another item, left out of the
/// one-language site feedgen builds.
import FeedgenDiagnostics
import FeedgenStorage
import Foundation

enum ItemLanguage {
    /// The two-letter ISO 639-1 codes of Foundation's list (`Locale.LanguageCode.isoLanguageCodes`):
    /// three-letter codes are left out, as they are also common file-name words (`new`, `min`).
    static let codes: Set<String> = Set(Locale.LanguageCode.isoLanguageCodes.map(\.identifier).filter { $0.utf8.count == 2 })

    /// `index.es` → (`index`, `es`); `post.pt-BR` → (`post`, `pt-BR`): a stem (the file name
    /// without its Markdown extension) ending in `.` and a language code of ``codes``, in any
    /// case, optionally followed by `-` and a two-letter or three-digit region. nil otherwise,
    /// and for a stem that is only the code (`.es`).
    static func split(_ stem: String) -> (base: String, code: String)? {
        // A byte search: names without a dot (most) are done at once.
        guard let dot = stem.lastASCIIIndex(of: UInt8(ascii: ".")), dot != stem.startIndex else { return nil }
        let code = stem[stem.index(after: dot)...]
        let parts = code.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count <= 2, codes.contains(parts[0].lowercased()) else { return nil }
        if parts.count == 2 {
            let region = parts[1]
            let letters = region.utf8.count == 2 && region.utf8.allSatisfy { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }
            let digits = region.utf8.count == 3 && region.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
            guard letters || digits else { return nil }
        }
        return (String(stem[..<dot]), String(code))
    }

    /// Whether the file-name code `code` is the site's `language` (`en` for `en` and `en-US`;
    /// `en-GB` only for `en-GB`), ASCII case ignored.
    static func isSiteLanguage(_ code: String, site: String) -> Bool {
        let code = code.lowercased(), site = site.lowercased()
        return code == site || (!code.contains("-") && site.hasPrefix(code + "-"))
    }

    /// `plan` with every translation's file taken out of its section's `itemFiles`, and one
    /// warning each naming it. Files named alike but for the code (`index.md`, `index.en.md`,
    /// `index.es.md`, `index.pt.md` in one folder; any Markdown extension) are one item in several
    /// languages: the one in the site's `language` (a file with no code is in it) is the item, the
    /// others are translations. When none is in the site's language, the first by its code
    /// (byte order) is the item.
    static func leaveOutTranslations(_ plan: inout ContentPlan, siteLanguage: String) {
        for f in plan.feeds.indices {
            for s in plan.feeds[f].sections.indices {
                let section = plan.feeds[f].sections[s]
                // By the path below the section without extension and code: the files' indices.
                var groups: [String: [(index: Int, code: String?)]] = [:]
                var hasCode = false
                // A file name with a code has a `.` before its extension (most sections: none).
                // (From the name's contiguous bytes: the UTF-8 view's iterator was most of this test.)
                let mayHaveCode = section.itemFiles.contains { file in
                    let extensionLength = ItemName.extensionLength(file)
                    var file = file
                    return file.withUTF8 { $0.dropLast(extensionLength).contains(UInt8(ascii: ".")) }
                }
                guard mayHaveCode else { continue }
                for (i, file) in section.itemFiles.enumerated() {
                    let stem = String(file.utf8.dropLast(ItemName.extensionLength(file)))!
                    let slash = stem.lastIndex(of: "/").map { stem.index(after: $0) } ?? stem.startIndex
                    if let (base, code) = split(String(stem[slash...])) {
                        groups[String(stem[..<slash]) + base, default: []].append((i, code))
                        hasCode = true
                    } else {
                        groups[stem, default: []].append((i, nil))
                    }
                }
                guard hasCode else { continue }
                var dropped = Set<Int>()
                for files in groups.values where files.count > 1 {
                    let ranked = files.sorted { a, b in
                        let sa = a.code.map { isSiteLanguage($0, site: siteLanguage) } ?? true
                        let sb = b.code.map { isSiteLanguage($0, site: siteLanguage) } ?? true
                        if sa != sb { return sa }
                        return ItemOrdering.byteOrder(section.itemFiles[a.index], section.itemFiles[b.index]) < 0
                    }
                    let kept = ranked[0]
                    let keptIsSite = kept.code.map { isSiteLanguage($0, site: siteLanguage) } ?? true
                    for other in ranked.dropFirst() {
                        let otherIsSite = other.code.map { isSiteLanguage($0, site: siteLanguage) } ?? true
                        // Two files in the site's language (`a.md`, `a.en.md`) are one id twice: the
                        // duplicate-id error reports them.
                        guard !(keptIsSite && otherIsSite) else { continue }
                        dropped.insert(other.index)
                        let path = section.folder + "/" + section.itemFiles[other.index]
                        plan.diagnostics.append(
                            .warning(
                                SourceLocation(path: path, line: 1, column: 1),
                                "'\(section.itemFiles[other.index])' is a translation (\(other.code ?? siteLanguage)) of '\(section.itemFiles[kept.index])' and is left out: feedgen builds a site in one language (language: \(siteLanguage)); build each language as its own site"
                            ))
                    }
                }
                guard !dropped.isEmpty else { continue }
                let kept = section.itemFiles.indices.filter { !dropped.contains($0) }
                plan.feeds[f].sections[s].itemFiles = kept.map { section.itemFiles[$0] }
                if !section.itemStamps.isEmpty {
                    plan.feeds[f].sections[s].itemStamps = kept.map { $0 < section.itemStamps.count ? section.itemStamps[$0] : nil }
                }
            }
        }
    }
}
