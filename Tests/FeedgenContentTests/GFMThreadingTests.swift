/// cmark-gfm parsers on several threads at once: every strikethrough and autolink is parsed
/// (Debian's cmark-gfm shares one table of special characters between parsers; see
/// Sources/CCmarkSpecialChars).
import CCmarkSpecialChars
import Dispatch
import Testing

@testable import FeedgenContent

@Suite struct GFMThreadingTests {
    /// One slot per parse, each written by one iteration only: a buffer, not an Array, whose
    /// element writes from several threads would race on its uniqueness check.
    final class Slots: @unchecked Sendable {
        let html: UnsafeMutableBufferPointer<String>
        init(_ count: Int) {
            html = .allocate(capacity: count)
            html.initialize(repeating: "")
        }
        deinit {
            html.deinitialize()
            html.deallocate()
        }
    }

    /// Failed before the replacement: 1 to 15 of 2,000 spans of a 200-item build came out as
    /// text, a different few on every run.
    @Test func parallelParsersParseEveryStrikethroughAndAutolink() {
        let body = (1...10).map { "See https://example.org/\($0) and ~~old~~ new.\n\n" }.joined()
        let expected = Markdown.render(body, unsafe: false, smart: false)
        #expect(expected.components(separatedBy: "<del>old</del>").count == 11)
        #expect(expected.components(separatedBy: "<a href=\"https://example.org/").count == 11)
        for _ in 0..<10 {
            let slots = Slots(400)
            DispatchQueue.concurrentPerform(iterations: 400) { i in
                slots.html[i] = Markdown.render(body, unsafe: false, smart: i % 2 == 0)
            }
            let wrong = slots.html.indices.filter { slots.html[$0] != expected }
            #expect(wrong.isEmpty, "\(wrong.count) of 400 bodies parsed differently, e.g. \(wrong.first.map { slots.html[$0] } ?? "")")
            if !wrong.isEmpty { break }
        }
        #expect(feedgen_cmark_special_chars_replaced() == 1)
    }

    /// A strict CommonMark parser (no extensions) between GFM ones: `~~` stays text there, and
    /// the GFM parsers still see it.
    @Test func commonMarkParsersBesideGFMParsers() {
        let slots = Slots(200)
        DispatchQueue.concurrentPerform(iterations: 200) { i in
            slots.html[i] = Markdown.render("a ~~b~~ www.example.org\n", unsafe: false, smart: false, gfm: i % 2 == 0)
        }
        for (i, html) in slots.html.enumerated() {
            #expect(
                html
                    == (i % 2 == 0
                        ? "<p>a <del>b</del> <a href=\"http://www.example.org\">www.example.org</a></p>\n"
                        : "<p>a ~~b~~ www.example.org</p>\n"))
        }
    }
}
