/// `UIStrings.format`'s byte search for ASCII text gives what `String.replacing` gives.
import Testing

@testable import FeedgenContent

@Suite struct UIStringsFormatTests {
    @Test func asciiReplacementMatchesReplacing() {
        let texts = [
            "Page {number} of {count}", "{count}", "{count}{count}", "{{count}}", "{count", "count}", "", "no placeholder",
            "a\r\n{count}\r\nb", "{count}\r\n", "{co{count}unt}", "{number}{count}{number}", "{countx} {count}",
        ]
        for text in texts {
            for name in ["count", "number", "index"] {
                let placeholder = "{\(name)}"
                #expect(UIStrings.replacingASCII(text, placeholder, with: "12") == text.replacing(placeholder, with: "12"))
            }
        }
    }

    @Test func nonASCIIIsLeftToReplacing() {
        #expect(UIStrings.replacingASCII("{count}ページ中{number}ページ目", "{count}", with: "3") == nil)
        #expect(UIStrings.replacingASCII("{count}", "{cöunt}", with: "3") == nil)
        #expect(UIStrings(language: "ja").format(.pageOf, ["number": 2, "count": 5]) == "5ページ中2ページ目")
    }

    @Test func formatFillsEveryPlaceholder() {
        let strings = UIStrings(language: "en", overrides: [.pageOf: "{number}/{count} ({number})"])
        #expect(strings.format(.pageOf, ["number": 2, "count": 10]) == "2/10 (2)")
        #expect(UIStrings(language: "en").format(.items, ["count": 3]) == "3 items")
    }
}
