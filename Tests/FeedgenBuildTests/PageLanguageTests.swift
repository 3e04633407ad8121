import Foundation
import Testing

@testable import FeedgenBuild
@testable import FeedgenContent
@testable import FeedgenEmit
import FeedgenDiagnostics

/// feedgen's own words on pages are in the page's language (``UIStrings``, content-format §2
/// `strings`): See all, the pager, landmark names, the item count, on a `ja` and a `fr` site;
/// English for a language feedgen has no table for; `strings` in feedgen.yaml overrides them.
@Suite struct PageLanguageTests {
    /// A site in `language` with `posts` (5 items, the first tagged) on the home feed, shown 2 to
    /// a page on its own pages, and a `latest` shelf of 2 with See all.
    static func site(language: String, yaml: String = "", sectionLang: String? = nil) -> String {
        let root = temporaryFolder("feedgen-lang") + "/site"
        var files: [String: String] = [
            "feedgen.yaml": "title: Views\nlanguage: \(language)\n\(yaml)",
            "content/_feed.md": "---\nsections: [latest, posts]\n---\n",
            "content/posts/_section.md": "---\ntitle: Posts\nlayout: list\npaginate: 2\n---\n",
            "content/latest/_section.md":
                "---\ntitle: Latest\nlayout: list\nsections: [posts]\nlimit: 2\nseeAll: true\n"
                + (sectionLang.map { "lang: \($0)\n" } ?? "") + "---\n",
        ]
        for i in 1...5 {
            files["content/posts/p\(i).md"] = "---\ntitle: Post \(i)\nweight: \(i)\n\(i == 1 ? "tags: [soup]\n" : "")---\nBody.\n"
        }
        writeSite(root, files)
        return root
    }

    static func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    /// The built pages of `root`: home, posts' page 2, p1's detail page.
    static func pages(_ root: String) throws -> (home: String, second: String, item: String, report: BuildReport) {
        let out = root + "/../public"
        let report = build(root, output: out)
        return (read(out + "/index.html"), read(out + "/posts/page/2/index.html"), read(out + "/posts/p1.html"), report)
    }

    /// The `<nav class="cl-pager">` of `html`, whole.
    static func pager(_ html: String) -> String {
        guard let start = html.range(of: "  <nav class=\"cl-pager\""), let end = html.range(of: "</nav>\n", range: start.upperBound..<html.endIndex)
        else { return "" }
        return String(html[start.lowerBound..<end.upperBound])
    }

    @Test func aJapanesePageHasJapaneseInterfaceText() throws {
        let (home, second, item, report) = try Self.pages(Self.site(language: "ja"))
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        #expect(home.contains(#"<p class="cl-see-all"><a href="latest/index.html">すべて表示<span class="cl-visually-hidden">: Latest</span></a></p>"#))
        #expect(home.contains(#"<p class="cl-see-all"><a href="posts/index.html">すべて表示<span class="cl-visually-hidden">: Posts</span></a></p>"#))
        #expect(Self.pager(second) == """
              <nav class="cl-pager" aria-label="ページ">
                <ul>
                  <li><a href="../../index.html" rel="prev">前へ</a></li>
                  <li><a href="../../index.html">1</a></li>
                  <li><a href="index.html" aria-current="page">2</a></li>
                  <li><a href="../3/index.html">3</a></li>
                  <li><a href="../3/index.html" rel="next">次へ</a></li>
                </ul>
              </nav>

            """)
        #expect(second.contains("<title>Posts – 3ページ中2ページ目 – Views</title>"))
        #expect(second.contains(#"<nav class="breadcrumb" aria-label="パンくずリスト"><a href="../../../index.html">Views</a></nav>"#))
        #expect(second.contains(#"<h2 id="sec-posts">5件</h2>"#))
        #expect(item.contains(#"<nav class="breadcrumb" aria-label="パンくずリスト">"#))
        #expect(item.contains(#"<ul class="tags" aria-label="タグ">"#))
        #expect(!(home + second + item).contains("See all") && !second.contains("Previous"))
    }

    @Test func aFrenchPageHasFrenchInterfaceText() throws {
        let (home, second, item, report) = try Self.pages(Self.site(language: "fr-CA"))
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        #expect(home.contains(#"<p class="cl-see-all"><a href="latest/index.html">Tout voir<span class="cl-visually-hidden">: Latest</span></a></p>"#))
        #expect(Self.pager(second) == """
              <nav class="cl-pager" aria-label="Pages">
                <ul>
                  <li><a href="../../index.html" rel="prev">Précédent</a></li>
                  <li><a href="../../index.html">1</a></li>
                  <li><a href="index.html" aria-current="page">2</a></li>
                  <li><a href="../3/index.html">3</a></li>
                  <li><a href="../3/index.html" rel="next">Suivant</a></li>
                </ul>
              </nav>

            """)
        #expect(second.contains("<title>Posts – Page 2 sur 3 – Views</title>"))
        #expect(second.contains(#"<nav class="breadcrumb" aria-label="Fil d’Ariane">"#))
        #expect(second.contains(#"<h2 id="sec-posts">5 éléments</h2>"#))
        #expect(item.contains(#"<ul class="tags" aria-label="Étiquettes">"#))
    }

    /// A language without a table (Swahili) gets the English text; so does `<html lang>` keep its tag.
    @Test func anUnknownLanguageFallsBackToEnglish() throws {
        let (home, second, _, report) = try Self.pages(Self.site(language: "sw"))
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        #expect(home.hasPrefix("<!doctype html>\n<html lang=\"sw\">"))
        #expect(home.contains(#"<a href="latest/index.html">See all<span class="cl-visually-hidden">: Latest</span></a>"#))
        #expect(second.contains(#"<li><a href="../../index.html" rel="prev">Previous</a></li>"#))
        #expect(second.contains(#"<nav class="cl-pager" aria-label="Pages">"#))
        #expect(second.contains("<title>Posts – Page 2 of 3 – Views</title>"))
        #expect(second.contains(#"<h2 id="sec-posts">5 items</h2>"#))
    }

    /// A weather card's H and L are in the card's language: its page's, or its item's `lang`;
    /// `strings` in feedgen.yaml rewords them.
    @Test func aWeatherCardsHighAndLowAreInItsLanguage() throws {
        let root = temporaryFolder("feedgen-lang") + "/site"
        let weather = "type: weather\nparams: {temperature: 18, condition: 晴れ, high: 21, low: 12}\n"
        writeSite(root, [
            "feedgen.yaml": "title: 天気\nlanguage: ja\nstrings: {fr: {high: Maxi}}\n",
            "content/today/tokyo.md": "---\ntitle: 東京\nweight: 1\n\(weather)---\n",
            "content/today/paris.md": "---\ntitle: Paris\nweight: 2\nlang: fr\n\(weather)---\n",
        ])
        let report = build(root, output: root + "/../public")
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        let home = Self.read(root + "/../public/index.html")
        #expect(home.contains(#"<p class="weather-condition">晴れ · 最高 21° 最低 12°</p>"#))
        #expect(home.contains(#"<p class="weather-condition">晴れ · Maxi 21° Min. 12°</p>"#))
    }

    /// A section's `lang` chooses its own text (its See all link), the page keeps the site's.
    @Test func aSectionsLangChoosesItsText() throws {
        let (home, _, _, _) = try Self.pages(Self.site(language: "en", sectionLang: "de"))
        #expect(home.contains(#"<a href="latest/index.html">Alle anzeigen<span class="cl-visually-hidden">: Latest</span></a>"#))
        #expect(home.contains(#"<a href="posts/index.html">See all<span class="cl-visually-hidden">: Posts</span></a>"#))
    }

    @Test func tablesAreChosenByTag() {
        #expect(UIStrings(language: "zh-TW")[.seeAll] == "查看全部" && UIStrings(language: "zh-TW").language == "zh-Hant")
        #expect(UIStrings(language: "zh-Hant-HK").language == "zh-Hant")
        #expect(UIStrings(language: "zh").language == "zh-Hans" && UIStrings(language: "zh-CN")[.pages] == "分页")
        #expect(UIStrings(language: "pt-BR")[.nextPage] == "Próxima página")
        #expect(UIStrings(language: "ko")[.seeAll] == "모두 보기" && UIStrings(language: "es")[.seeAll] == "Ver todo")
        #expect(UIStrings(language: "x-klingon").language == "en")
        #expect(UIStrings(language: "fr").itemCount(0) == "0 élément" && UIStrings(language: "en").itemCount(0) == "0 items")
        #expect(UIStrings(language: "ja").itemCount(1) == "1件" && UIStrings(language: "de").itemCount(1) == "1 Eintrag")
        // Every table has every key (none falls back to English by omission).
        for (name, table) in UIStrings.tables { #expect(Set(table.keys) == Set(UIStrings.Key.allCases), "\(name)") }
    }

    @Test func feedgenYAMLOverridesAString() throws {
        let yaml = "strings:\n  seeAll: \"Voir plus\"\n  previousPage: \"‹ Avant\"\n  items: \"{count} billets\"\n"
        let (home, second, _, report) = try Self.pages(Self.site(language: "fr", yaml: yaml))
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        #expect(home.contains(#"<a href="latest/index.html">Voir plus<span class="cl-visually-hidden">: Latest</span></a>"#))
        #expect(second.contains(#"<li><a href="../../index.html" rel="prev">‹ Avant</a></li>"#))
        #expect(second.contains(#"<li><a href="../3/index.html" rel="next">Suivant</a></li>"#))
        #expect(second.contains(#"<h2 id="sec-posts">5 billets</h2>"#))
        // A section's own `seeAll` text wins over both.
        let root = Self.site(language: "fr", yaml: yaml)
        writeSite(root, ["content/latest/_section.md": "---\ntitle: Latest\nsections: [posts]\nlimit: 2\nseeAll: Tous les billets\n---\n"])
        #expect(try Self.pages(root).home.contains(#"<a href="latest/index.html">Tous les billets<span class="cl-visually-hidden">: Latest</span></a>"#))
    }

    /// `strings` may hold a language's own wording: it applies to pages and sections in that
    /// language (its primary language, its table or its whole tag), over the site-wide one.
    @Test func stringsOfOneLanguageApplyToItsPages() throws {
        let yaml = "strings:\n  seeAll: More\n  ja:\n    seeAll: もっと見る\n  de_AT: {seeAll: Mehr davon}\n"
        let (home, _, _, report) = try Self.pages(Self.site(language: "ja-JP", yaml: yaml))
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        #expect(home.contains(#"<a href="latest/index.html">もっと見る<span class="cl-visually-hidden">: Latest</span></a>"#))
        #expect(home.contains(#"<a href="posts/index.html">もっと見る<span class="cl-visually-hidden">: Posts</span></a>"#))
        // A `de-AT` section: its own tag's text; a `de` one has none of its own: the site-wide text.
        let (austrian, _, _, _) = try Self.pages(Self.site(language: "ja", yaml: yaml, sectionLang: "de-AT"))
        #expect(austrian.contains(#"<a href="latest/index.html">Mehr davon<span class="cl-visually-hidden">: Latest</span></a>"#))
        #expect(austrian.contains(#"<a href="posts/index.html">もっと見る<span class="cl-visually-hidden">: Posts</span></a>"#))
        let (german, _, _, _) = try Self.pages(Self.site(language: "ja", yaml: yaml, sectionLang: "de"))
        #expect(german.contains(#"<a href="latest/index.html">More<span class="cl-visually-hidden">: Latest</span></a>"#))
        #expect(SiteConfig.isLanguageTag("zh-Hant-TW") && SiteConfig.isLanguageTag("pt_BR") && !SiteConfig.isLanguageTag("seeAl"))
        #expect(!SiteConfig.isLanguageTag("j") && !SiteConfig.isLanguageTag("ja-") && !SiteConfig.isLanguageTag("日本"))
    }

    /// A `strings` tag applies to a page by RFC 4647 lookup with and without the script subtag
    /// (`zh-TW` to `zh-Hant-TW`); `_` is `-` in `lang` as in `strings`; a language that is no
    /// ISO 639 code is a warning at it with the language the writer likely meant.
    @Test func languageTagsAreLookedUpAndChecked() throws {
        let yaml = "strings:\n  zh-TW: {seeAll: 看更多}\n  zh-Hant: {pages: 頁}\n  jp: {seeAll: もっと}\n  pt_BR: {seeAll: Ver mais}\n"
        let (home, second, _, report) = try Self.pages(Self.site(language: "zh-Hant-TW", yaml: yaml, sectionLang: "pt_BR"))
        #expect(
            report.diagnostics.items.filter { $0.severity != .note }.map(\.description) == [
                "feedgen.yaml:6:3: warning: 'jp' in 'strings' is no ISO 639 language code (did you mean 'ja'? 'JP' is the region code of Japan): its texts apply only to pages whose 'lang' is 'jp'"
            ])
        #expect(home.contains(#"<a href="posts/index.html">看更多<span class="cl-visually-hidden">: Posts</span></a>"#))
        #expect(second.contains(#"<nav class="cl-pager" aria-label="頁">"#))
        // `lang: pt_BR` is `pt-BR`, and `strings.pt_BR` applies to it.
        #expect(home.contains(#"<a href="latest/index.html">Ver mais<span class="cl-visually-hidden">: Latest</span></a>"#))
        #expect(home.contains(#"lang="pt-BR""#) && !home.contains("pt_BR"))
        let warned = build(Self.site(language: "jp", yaml: "strings: {japanese: {seeAll: x}}\n"), output: temporaryFolder() + "/public")
        #expect(
            warned.diagnostics.items.map(\.description) == [
                "feedgen.yaml:2:11: warning: 'jp' in 'language' is no ISO 639 language code (did you mean 'ja'? 'JP' is the region code of Japan): browsers and screen readers take the page's language from it",
                "feedgen.yaml:3:11: error: unknown key 'japanese' in 'strings' (known keys: seeAll, breadcrumb, moreFeeds, pages, previousPage, nextPage, pageOf, previous, next, previousSlide, nextSlide, tags, items, item, slideLabel, carousel, slide, high, low)",
            ])
        let scripts: Set = ["zh"]
        #expect(LanguageTag.lookup("zh-Hant-TW", scriptKeys: []) == ["zh", "zh-hant", "zh-tw", "zh-hant-tw"])
        #expect(LanguageTag.lookup("zh_TW", scriptKeys: scripts) == ["zh", "zh-hant", "zh-hant-tw", "zh-tw"])
        #expect(LanguageTag.lookup("zh", scriptKeys: scripts) == ["zh", "zh-hans"] && LanguageTag.lookup("zh-HK", scriptKeys: []) == ["zh", "zh-hk"])
        #expect(LanguageTag.lookup("ja-JP-u-ca-japanese", scriptKeys: []) == ["ja", "ja-jp", "ja-jp-u-ca", "ja-jp-u-ca-japanese"])
        #expect(LanguageTag.unknownLanguage("tl") == nil && LanguageTag.unknownLanguage("iw") == nil && LanguageTag.unknownLanguage("fil-PH") == nil)
        #expect(LanguageTag.unknownLanguage("german") == "is no ISO 639 language code (did you mean 'de'?)")
        #expect(LanguageTag.unknownLanguage("zz") == "is no ISO 639 language code")
    }

    @Test func badStringsAreErrorsAtTheirPositions() throws {
        let yaml = "strings:\n  seeAl: x\n  items: \"{n} posts\"\n  pages: \"\"\n  tags: [a]\n"
        let report = build(Self.site(language: "en", yaml: yaml), output: temporaryFolder() + "/public")
        #expect(report.exitStatus == 2)
        #expect(report.diagnostics.items.map(\.description).sorted() == [
            "feedgen.yaml:4:3: error: unknown key 'seeAl' in 'strings' (did you mean 'seeAll'?)",
            "feedgen.yaml:5:10: error: 'items' in 'strings' has the placeholder '{n}', which feedgen does not fill in: 'items' takes {count}",
            "feedgen.yaml:6:10: error: 'pages' in 'strings' must not be empty: it is the only text of a link or label; remove it to use the built-in text",
            "feedgen.yaml:7:9: error: 'tags' must be a string, found a list",
        ])
        let languages = build(
            Self.site(language: "en", yaml: "strings:\n  ja: すべて\n  fr:\n    seeAl: Voir\n    items: \"{n} billets\"\n  tag: Tagz\n  FR: {seeAll: x}\n"),
            output: temporaryFolder() + "/public")
        #expect(languages.diagnostics.items.map(\.description).sorted() == [
            "feedgen.yaml:4:7: error: 'ja' in 'strings' is a language: its value must be a mapping of that language's texts such as '{seeAll: \"…\"}', found 'すべて'",
            "feedgen.yaml:6:5: error: unknown key 'seeAl' in 'strings.fr' (did you mean 'seeAll'?)",
            "feedgen.yaml:7:12: error: 'items' in 'strings.fr' has the placeholder '{n}', which feedgen does not fill in: 'items' takes {count}",
            "feedgen.yaml:8:3: error: unknown key 'tag' in 'strings' (did you mean 'tags'?)",
            "feedgen.yaml:9:3: error: 'FR' in 'strings' is the language of line 5 again (tags are read without case, '_' as '-'); merge the two",
        ])
        let notAMapping = build(Self.site(language: "en", yaml: "strings: See all\n"), output: temporaryFolder() + "/public")
        #expect(notAMapping.diagnostics.items.map(\.description) == [
            "feedgen.yaml:3:10: error: 'strings' must be a mapping of interface texts such as '{seeAll: \"More\"}', found 'See all'"
        ])
    }
}

/// A paginated section's pager elides page numbers far from the current page: the first, the
/// last, the current one and two on each side, an ellipsis (not a link, hidden from assistive
/// technology) for each gap of two or more.
@Suite struct PagerElisionTests {
    @Test func numbers() {
        let n = { (current: Int, count: Int) in SiteRenderer.pagerNumbers(current: current, count: count).map { $0.map(String.init) ?? "…" }.joined(separator: " ") }
        #expect(n(1, 1) == "1")
        #expect(n(1, 2) == "1 2" && n(2, 2) == "1 2")
        #expect(n(1, 7) == "1 2 3 … 7")
        #expect(n(4, 7) == "1 2 3 4 5 6 7")
        #expect(n(5, 7) == "1 2 3 4 5 6 7")  // a gap of one page shows the page
        #expect(n(7, 7) == "1 … 5 6 7")
        #expect(n(1, 43) == "1 2 3 … 43")
        #expect(n(22, 43) == "1 … 20 21 22 23 24 … 43")
        #expect(n(43, 43) == "1 … 41 42 43")
    }

    /// A site whose section `all` holds `count` items, one to a page.
    static func pages(_ count: Int) -> String {
        let root = temporaryFolder("feedgen-pager") + "/site"
        var files = ["content/all/_section.md": "---\ntitle: All\nlayout: list\npaginate: 1\n---\n"]
        for i in 1...count { files["content/all/i\(i).md"] = "---\ntitle: Item \(i)\nweight: \(i)\n---\n" }
        writeSite(root, files)
        let report = build(root, output: root + "/../public")
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        return root + "/../public/all/"
    }

    static func pager(_ path: String) -> String { PageLanguageTests.pager(PageLanguageTests.read(path)) }

    @Test func fortyThreePages() {
        let out = Self.pages(43)
        #expect(Self.pager(out + "index.html") == """
              <nav class="cl-pager" aria-label="Pages">
                <ul>
                  <li><a href="index.html" aria-current="page">1</a></li>
                  <li><a href="page/2/index.html">2</a></li>
                  <li><a href="page/3/index.html">3</a></li>
                  <li class="cl-pager-gap" aria-hidden="true">…</li>
                  <li><a href="page/43/index.html">43</a></li>
                  <li><a href="page/2/index.html" rel="next">Next</a></li>
                </ul>
              </nav>

            """)
        #expect(Self.pager(out + "page/22/index.html") == """
              <nav class="cl-pager" aria-label="Pages">
                <ul>
                  <li><a href="../21/index.html" rel="prev">Previous</a></li>
                  <li><a href="../../index.html">1</a></li>
                  <li class="cl-pager-gap" aria-hidden="true">…</li>
                  <li><a href="../20/index.html">20</a></li>
                  <li><a href="../21/index.html">21</a></li>
                  <li><a href="index.html" aria-current="page">22</a></li>
                  <li><a href="../23/index.html">23</a></li>
                  <li><a href="../24/index.html">24</a></li>
                  <li class="cl-pager-gap" aria-hidden="true">…</li>
                  <li><a href="../43/index.html">43</a></li>
                  <li><a href="../23/index.html" rel="next">Next</a></li>
                </ul>
              </nav>

            """)
        #expect(Self.pager(out + "page/43/index.html") == """
              <nav class="cl-pager" aria-label="Pages">
                <ul>
                  <li><a href="../42/index.html" rel="prev">Previous</a></li>
                  <li><a href="../../index.html">1</a></li>
                  <li class="cl-pager-gap" aria-hidden="true">…</li>
                  <li><a href="../41/index.html">41</a></li>
                  <li><a href="../42/index.html">42</a></li>
                  <li><a href="index.html" aria-current="page">43</a></li>
                </ul>
              </nav>

            """)
    }

    @Test func oneTwoAndSevenPages() {
        // One page: the section fits on its feed page, and has no own page nor pager.
        let one = Self.pages(1)
        #expect(!FileManager.default.fileExists(atPath: one + "index.html"))
        #expect(!PageLanguageTests.read(one + "../index.html").contains("cl-pager"))
        let two = Self.pages(2)
        #expect(Self.pager(two + "page/2/index.html") == """
              <nav class="cl-pager" aria-label="Pages">
                <ul>
                  <li><a href="../../index.html" rel="prev">Previous</a></li>
                  <li><a href="../../index.html">1</a></li>
                  <li><a href="index.html" aria-current="page">2</a></li>
                </ul>
              </nav>

            """)
        let seven = Self.pages(7)
        #expect(Self.pager(seven + "index.html") == """
              <nav class="cl-pager" aria-label="Pages">
                <ul>
                  <li><a href="index.html" aria-current="page">1</a></li>
                  <li><a href="page/2/index.html">2</a></li>
                  <li><a href="page/3/index.html">3</a></li>
                  <li class="cl-pager-gap" aria-hidden="true">…</li>
                  <li><a href="page/7/index.html">7</a></li>
                  <li><a href="page/2/index.html" rel="next">Next</a></li>
                </ul>
              </nav>

            """)
        #expect(Self.pager(seven + "page/4/index.html").components(separatedBy: "<li>").count - 1 == 9)  // all 7 and both links
        #expect(!Self.pager(seven + "page/4/index.html").contains("cl-pager-gap"))
    }
}
