/// `feedgen.yaml` (content-format §2). Every key is optional.
public struct SiteConfig: Sendable {
    /// Default: the site folder's name.
    public var title: String
    /// BCP 47 tag for `<html lang>`.
    public var language: String
    /// Absolute URL used only for absolute links (feeds, sitemap, canonical).
    public var baseURL: String?
    /// Output folder, relative to the site folder.
    public var output: String
    /// IANA name: the zone of the site's "today" for publishDate/expiryDate.
    public var timeZone: String
    /// `markdown.unsafe`: pass raw HTML through.
    public var markdownUnsafe: Bool
    /// `markdown.smart`: smart punctuation.
    public var markdownSmart: Bool
    /// `markdown.gfm`: GitHub Flavored Markdown (tables, footnotes, task lists, strikethrough,
    /// autolinks, tag filter); false gives strict CommonMark.
    public var markdownGFM = true
    /// `summaryLength`: the most words of an item's default `description` (its body's first
    /// paragraph); Hugo's name and default.
    public var summaryLength = SummaryLength.defaultWords
    /// `theme` design tokens in source order; values keep their source text.
    public var theme: [(String, String)]
    /// `images.maxMegapixels` × 1,000,000: the most pixels (width × height, from the header) a
    /// PNG, JPEG, GIF or WebP item image may have; more is an error before any decoding.
    public var imageMaxPixels = 100_000_000
    /// `images.maxFileMiB` × 2²⁰: the largest item image file, bytes (docs/limits.md).
    public var imageMaxFileSize = 50 << 20
    /// `paginate`: the items on each of a section's own pages, and the most a section without
    /// `paginate`, `seeAll` or `limit` shows on its feed page before it gets own pages
    /// (content-format §4.1); nil (`paginate: false`): sections are paginated only when they say so.
    public var pageSize: Int? = SiteConfig.defaultPageSize
    /// 100 cards of the corpora's longest (1,040 bytes with the built-in card template) make a
    /// page of about 105 KB; 100 of bench.py's cards, each with its whole body, 500 KB: both under
    /// the ~1 MB a phone loads well (docs/benchmarks.md, "Long sections").
    public static let defaultPageSize = 100
    /// `strings`: the site's own wording of feedgen's interface text, on every page whatever
    /// its language (``UIStrings``), under the wording of the page's own language if the site
    /// has one (``stringsByLanguage``).
    public var strings: [UIStrings.Key: String] = [:]
    /// `strings` of one language (`strings: {ja: {seeAll: "もっと見る"}}`), by lowercased tag:
    /// ``strings(forLanguage:)`` lays them over ``strings`` for pages in that language.
    public var stringsByLanguage: [String: [UIStrings.Key: String]] = [:]

    /// The site's wording for a page in `language`: ``strings``, then the texts of each tag of
    /// ``stringsByLanguage`` that applies to it, the most specific last
    /// (``LanguageTag/lookup(_:scriptKeys:)``: `ja` for `ja-JP`; `zh-TW`, `zh-Hant` and `zh` for
    /// `zh-Hant-TW`; `zh-Hant` for `zh-TW`).
    public func strings(forLanguage language: String) -> [UIStrings.Key: String] {
        guard !stringsByLanguage.isEmpty else { return strings }
        // The languages with a key that names a script (`zh-hant`): only theirs need ICU.
        let scriptKeys = Set(
            stringsByLanguage.keys.compactMap { key -> String? in
                let parts = key.split(separator: "-")
                return parts.count > 1 && parts[1].count == 4 && parts[1].allSatisfy(\.isLetter) ? String(parts[0]) : nil
            })
        var texts = strings
        for candidate in LanguageTag.lookup(language, scriptKeys: scriptKeys) {
            if let own = stringsByLanguage[candidate] { texts.merge(own) { $1 } }
        }
        return texts
    }
    /// The parsed file, nil when there is no `feedgen.yaml`.
    public var source: YAMLNode?

    public init(
        title: String, language: String = "en", baseURL: String? = nil, output: String = "public",
        timeZone: String = "UTC", markdownUnsafe: Bool = false, markdownSmart: Bool = true,
        theme: [(String, String)] = [], source: YAMLNode? = nil
    ) {
        self.title = title
        self.language = language
        self.baseURL = baseURL
        self.output = output
        self.timeZone = timeZone
        self.markdownUnsafe = markdownUnsafe
        self.markdownSmart = markdownSmart
        self.theme = theme
        self.source = source
    }
}
