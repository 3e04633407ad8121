import Testing

@testable import FeedgenContent

/// The default description's length: `summaryLength` words (Hugo's rule and default, 70).
@Suite struct SummaryLengthTests {
    @Test func shortTextIsKept() {
        #expect(SummaryLength.truncate("One two three.", words: 3) == "One two three.")
        #expect(SummaryLength.truncate("  One   two ", words: 2) == "  One   two ")
        #expect(SummaryLength.truncate("", words: 1) == "")
    }

    @Test func longTextIsCutAtAWordWithAnEllipsis() {
        #expect(SummaryLength.truncate("One two three four", words: 2) == "One two…")
        // Punctuation that leads on is dropped; a sentence's end keeps no ellipsis.
        #expect(SummaryLength.truncate("One two, three four", words: 2) == "One two…")
        #expect(SummaryLength.truncate("One two. Three four", words: 2) == "One two.")
        #expect(SummaryLength.truncate("a-b c—d e", words: 2) == "a-b c—d…")
    }

    @Test func eachCJKCharacterIsAWord() {
        #expect(SummaryLength.truncate("日本語の文章です", words: 4) == "日本語の…")
        #expect(SummaryLength.truncate("今日は晴れ。明日は雨", words: 5) == "今日は晴れ。")
        #expect(SummaryLength.truncate("Swiftで書く", words: 2) == "Swiftで…")
        // Hangul is written with spaces: a word is a run, as in Latin text.
        #expect(SummaryLength.truncate("안녕하세요 세계 여러분", words: 2) == "안녕하세요 세계…")
    }

    @Test func siteDefaultIs70WordsAndConfigurable() throws {
        let words = (1...100).map { "w\($0)" }.joined(separator: " ")
        let site = try TestSite(["content/s/a.md": "---\ntitle: A\n---\n\(words)\n\nSecond paragraph.\n"])
        let item = try #require(site.load().site?.feeds[0].sections[0].items.first)
        #expect(item.description == (1...70).map { "w\($0)" }.joined(separator: " ") + "…")
        // The body itself is whole.
        #expect(item.html.contains("w100"))

        try site.write("feedgen.yaml", "summaryLength: 5\n")
        let short = try #require(site.load().site?.feeds[0].sections[0].items.first)
        #expect(short.description == "w1 w2 w3 w4 w5…")

        // A description written in the front matter is never cut.
        try site.write("content/s/a.md", "---\ndescription: \(words)\n---\nBody.\n")
        #expect(site.load().site?.feeds[0].sections[0].items.first?.description == words)
    }

    @Test func badSummaryLengthIsAPositionedError() throws {
        let site = try TestSite(["feedgen.yaml": "title: T\nsummaryLength: 0\n", "content/s/a.md": "Body.\n"])
        #expect(site.load().diagnostics == ["feedgen.yaml:2:16: error: 'summaryLength' must be a whole number of words ≥ 1, found 0"])
        try site.write("feedgen.yaml", "summaryLength: many\n")
        #expect(site.load().diagnostics == ["feedgen.yaml:1:16: error: 'summaryLength' must be an integer, found 'many'"])
    }
}
