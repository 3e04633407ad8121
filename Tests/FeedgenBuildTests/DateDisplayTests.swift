import Foundation
import Testing

@testable import FeedgenBuild
@testable import FeedgenEmit
import FeedgenContent

/// Dates are shown in the page's language and the site's time zone, by Foundation (ICU), with
/// the machine-readable `datetime` kept as written (content-format §5, docs/templates.md).
@Suite struct DateDisplayTests {
    @Test(arguments: [
        ("ja", "2026年3月17日"), ("en-GB", "17 March 2026"), ("en-US", "March 17, 2026"), ("en", "March 17, 2026"),
        ("de", "17. März 2026"), ("fr", "17 mars 2026"),
    ])
    func calendarDatesInTheLanguage(language: String, shown: String) throws {
        let date = try #require(ContentDate(year: 2026, month: 3, day: 17))
        #expect(DateDisplay.text(date, language: language, timeZone: "Pacific/Honolulu") == shown)
    }

    /// An instant is shown on its day in the site's zone; a calendar date never moves.
    @Test func instantsInTheSiteTimeZone() throws {
        let late = try #require(ContentDate.parse("2026-03-17T23:30:00-08:00"))  // 18 March, 16:30 in Tokyo
        #expect(DateDisplay.text(late, language: "ja", timeZone: "Asia/Tokyo") == "2026年3月18日")
        #expect(DateDisplay.text(late, language: "en-GB", timeZone: "Pacific/Pitcairn") == "17 March 2026")  // -08:00 all year
        #expect(DateDisplay.text(late, language: "en-GB", timeZone: "UTC") == "18 March 2026")
    }

    @Test func pagesShowDatesInTheirLanguage() throws {
        let root = temporaryFolder("feedgen-dates")
        writeSite(root, [
            "feedgen.yaml": "language: ja\ntimeZone: Asia/Tokyo\n",
            "content/news/a.md": "---\ntitle: A\ndate: 2026-03-17 23:30 -0800\n---\n本文。\n",
            "content/news/b.md": "---\ntitle: B\ndate: 2026-03-17\nlang: en-GB\n---\nBody.\n",
        ])
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0)
        let index = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(index.contains("<time datetime=\"2026-03-17T23:30:00-08:00\">2026年3月18日</time>"))
        #expect(index.contains("<time datetime=\"2026-03-17\">17 March 2026</time>"))
        let page = try String(contentsOfFile: out + "/news/a.html", encoding: .utf8)
        #expect(page.contains("<time datetime=\"2026-03-17T23:30:00-08:00\">2026年3月18日</time>"))
    }
}
