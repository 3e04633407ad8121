/// feedgen's own words on pages (See all, the pager's labels, landmarks' names, slide labels,
/// item counts): one table per language, chosen by the page's language with English as the
/// fallback, overridden key by key by `strings` in feedgen.yaml (content-format §2).
import FeedgenStorage

/// The interface text of one page, in its language.
///
/// Wording: the pager's Previous/Next and "Tags" follow Hugo PaperMod's `i18n/<lang>.yaml`
/// (`prev_page`, `next_page`; github.com/adityatelange/hugo-PaperMod), except Korean and
/// Portuguese, whose PaperMod text says "page" already and is kept whole; "See all" follows the
/// App Store's own localisations (すべて表示, 查看全部, 모두 보기, Ver todo, Tout voir, Alle anzeigen,
/// Ver tudo); landmark names ("Breadcrumb", "Pages") follow the WAI-ARIA APG breadcrumb and
/// Bootstrap's pagination examples, translated.
public struct UIStrings: Sendable, Hashable {
    /// A piece of interface text, by its `strings` key in feedgen.yaml and in templates.
    public enum Key: String, Sendable, CaseIterable, Comparable {
        /// A section header's link to its own page ("See all").
        case seeAll
        /// The `aria-label` of the breadcrumb `nav` ("Breadcrumb").
        case breadcrumb
        /// The `aria-label` of the links to a feed's subfeeds ("More feeds").
        case moreFeeds
        /// The `aria-label` of a section's pager `nav` ("Pages").
        case pages
        /// The pager's links ("Previous", "Next").
        case previousPage, nextPage
        /// A paginated page's place, in its `<title>` and the pager's `label` ("Page {number} of {count}").
        case pageOf
        /// A shelf's scroll buttons, before the section's title ("Previous: Latest").
        case previous, next
        /// A slideshow's scroll buttons ("Previous slide: Picks").
        case previousSlide, nextSlide
        /// The `aria-label` of an item page's tag list ("Tags").
        case tags
        /// A section footer's and own page's item count ("{count} items", "{count} item").
        case items, item
        /// A slide's accessible name ("{index} of {count}", WAI-ARIA APG carousel).
        case slideLabel
        /// The `aria-roledescription` of a slideshow and of its slides ("carousel", "slide").
        case carousel, slide
        /// A weather card's labels of the day's high and low temperatures ("H", "L"; Apple
        /// Weather's abbreviations, and its wording in the other languages: 最高, 最低…).
        case high, low

        /// The placeholders the text may hold (`{count}`), each replaced by a number.
        public var placeholders: [String] {
            switch self {
            case .pageOf: ["number", "count"]
            case .items, .item: ["count"]
            case .slideLabel: ["index", "count"]
            default: []
            }
        }

        public static func < (a: Key, b: Key) -> Bool { a.rawValue < b.rawValue }
    }

    /// The text of every key.
    public private(set) var values: [Key: String]
    /// The table's language (`en`, `ja`, `zh-Hans`…): the one the page's tag chose.
    public let language: String

    /// The strings for a page in `language` (a BCP 47 tag: `ja`, `fr-CA`, `zh-TW`), with the
    /// site's `overrides` on top. An unknown language gets English; `zh` is Simplified Chinese
    /// unless the tag names `Hant`, `TW`, `HK` or `MO`.
    public init(language: String, overrides: [Key: String] = [:]) {
        let table = Self.table(for: language)
        self.language = table
        var values = Self.tables["en"]!
        for (key, text) in Self.tables[table] ?? [:] { values[key] = text }
        for (key, text) in overrides { values[key] = text }
        self.values = values
    }

    public subscript(_ key: Key) -> String { values[key] ?? "" }

    /// The text of `key` with its placeholders filled in (`{count}` → `3`).
    public func format(_ key: Key, _ numbers: [String: Int]) -> String {
        var text = self[key]
        for (name, value) in numbers.sorted(by: { $0.key < $1.key }) {
            let placeholder = "{\(name)}"
            text = Self.replacingASCII(text, placeholder, with: String(value)) ?? text.replacing(placeholder, with: String(value))
        }
        return text
    }

    /// `text.replacing(placeholder, with: value)` when both are ASCII (each character a byte, but
    /// CRLF, which a placeholder without CR or LF never matches part of): found by bytes
    /// (``Swift/String/replacingBytes(_:with:)``), which `replacing`'s generic search takes a
    /// hundred times longer to do. nil otherwise.
    static func replacingASCII(_ text: String, _ placeholder: String, with value: String) -> String? {
        guard !placeholder.isEmpty, !placeholder.utf8.contains(where: { $0 >= 0x80 || $0 == 0x0A || $0 == 0x0D }),
            !text.utf8.contains(where: { $0 >= 0x80 })
        else { return nil }
        return text.replacingBytes(placeholder, with: value)
    }

    /// "3 items" in the page's language: `item` for one (French and Portuguese: also for 0,
    /// CLDR plural rules), `items` otherwise.
    public func itemCount(_ count: Int) -> String {
        let one = count == 1 || (count == 0 && ["fr", "pt"].contains(language))
        return format(one ? .item : .items, ["count": count])
    }

    /// The table a language tag chooses (a key of ``tables``).
    static func table(for tag: String) -> String {
        let parts = tag.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard let primary = parts.first else { return "en" }
        if primary == "zh" {
            return parts.dropFirst().contains { ["hant", "tw", "hk", "mo"].contains($0) } ? "zh-Hant" : "zh-Hans"
        }
        return tables[primary] == nil ? "en" : primary
    }

    /// The built-in tables; a table without a key falls back to English's.
    static let tables: [String: [Key: String]] = [
        "en": [
            .seeAll: "See all", .breadcrumb: "Breadcrumb", .moreFeeds: "More feeds", .pages: "Pages",
            .previousPage: "Previous", .nextPage: "Next", .pageOf: "Page {number} of {count}",
            .previous: "Previous", .next: "Next", .previousSlide: "Previous slide", .nextSlide: "Next slide",
            .tags: "Tags", .items: "{count} items", .item: "{count} item", .slideLabel: "{index} of {count}",
            .carousel: "carousel", .slide: "slide",
            .high: "H", .low: "L",
        ],
        "ja": [
            .seeAll: "すべて表示", .breadcrumb: "パンくずリスト", .moreFeeds: "その他のフィード", .pages: "ページ",
            .previousPage: "前へ", .nextPage: "次へ", .pageOf: "{count}ページ中{number}ページ目",
            .previous: "前へ", .next: "次へ", .previousSlide: "前のスライド", .nextSlide: "次のスライド",
            .tags: "タグ", .items: "{count}件", .item: "{count}件", .slideLabel: "{count}枚中{index}枚目",
            .carousel: "カルーセル", .slide: "スライド",
            .high: "最高", .low: "最低",
        ],
        "zh-Hans": [
            .seeAll: "查看全部", .breadcrumb: "面包屑导航", .moreFeeds: "更多内容", .pages: "分页",
            .previousPage: "上一页", .nextPage: "下一页", .pageOf: "第 {number} 页，共 {count} 页",
            .previous: "上一个", .next: "下一个", .previousSlide: "上一张", .nextSlide: "下一张",
            .tags: "标签", .items: "{count} 项", .item: "{count} 项", .slideLabel: "第 {index} 张，共 {count} 张",
            .carousel: "轮播", .slide: "幻灯片",
            .high: "最高", .low: "最低",
        ],
        "zh-Hant": [
            .seeAll: "查看全部", .breadcrumb: "導覽路徑", .moreFeeds: "更多內容", .pages: "分頁",
            .previousPage: "上一頁", .nextPage: "下一頁", .pageOf: "第 {number} 頁，共 {count} 頁",
            .previous: "上一個", .next: "下一個", .previousSlide: "上一張", .nextSlide: "下一張",
            .tags: "標籤", .items: "{count} 項", .item: "{count} 項", .slideLabel: "第 {index} 張，共 {count} 張",
            .carousel: "輪播", .slide: "投影片",
            .high: "最高", .low: "最低",
        ],
        "ko": [
            .seeAll: "모두 보기", .breadcrumb: "탐색 경로", .moreFeeds: "더 많은 피드", .pages: "페이지",
            .previousPage: "이전 페이지", .nextPage: "다음 페이지", .pageOf: "{count}페이지 중 {number}페이지",
            .previous: "이전", .next: "다음", .previousSlide: "이전 슬라이드", .nextSlide: "다음 슬라이드",
            .tags: "태그", .items: "항목 {count}개", .item: "항목 {count}개", .slideLabel: "{count}개 중 {index}번째",
            .carousel: "캐러셀", .slide: "슬라이드",
            .high: "최고", .low: "최저",
        ],
        "es": [
            .seeAll: "Ver todo", .breadcrumb: "Ruta de navegación", .moreFeeds: "Más secciones", .pages: "Páginas",
            .previousPage: "Anterior", .nextPage: "Siguiente", .pageOf: "Página {number} de {count}",
            .previous: "Anterior", .next: "Siguiente", .previousSlide: "Diapositiva anterior", .nextSlide: "Diapositiva siguiente",
            .tags: "Etiquetas", .items: "{count} elementos", .item: "{count} elemento", .slideLabel: "{index} de {count}",
            .carousel: "carrusel", .slide: "diapositiva",
            .high: "Máx.", .low: "Mín.",
        ],
        "fr": [
            .seeAll: "Tout voir", .breadcrumb: "Fil d’Ariane", .moreFeeds: "Autres rubriques", .pages: "Pages",
            .previousPage: "Précédent", .nextPage: "Suivant", .pageOf: "Page {number} sur {count}",
            .previous: "Précédent", .next: "Suivant", .previousSlide: "Diapositive précédente", .nextSlide: "Diapositive suivante",
            .tags: "Étiquettes", .items: "{count} éléments", .item: "{count} élément", .slideLabel: "{index} sur {count}",
            .carousel: "carrousel", .slide: "diapositive",
            .high: "Max.", .low: "Min.",
        ],
        "de": [
            .seeAll: "Alle anzeigen", .breadcrumb: "Brotkrumennavigation", .moreFeeds: "Weitere Rubriken", .pages: "Seiten",
            .previousPage: "Vorherige", .nextPage: "Nächste", .pageOf: "Seite {number} von {count}",
            .previous: "Zurück", .next: "Weiter", .previousSlide: "Vorherige Folie", .nextSlide: "Nächste Folie",
            .tags: "Schlagwörter", .items: "{count} Einträge", .item: "{count} Eintrag", .slideLabel: "{index} von {count}",
            .carousel: "Karussell", .slide: "Folie",
            .high: "H", .low: "T",
        ],
        "pt": [
            .seeAll: "Ver tudo", .breadcrumb: "Trilha de navegação", .moreFeeds: "Mais seções", .pages: "Páginas",
            .previousPage: "Página anterior", .nextPage: "Próxima página", .pageOf: "Página {number} de {count}",
            .previous: "Anterior", .next: "Próximo", .previousSlide: "Slide anterior", .nextSlide: "Próximo slide",
            .tags: "Tags", .items: "{count} itens", .item: "{count} item", .slideLabel: "{index} de {count}",
            .carousel: "carrossel", .slide: "slide",
            .high: "Máx.", .low: "Mín.",
        ],
    ]
}
