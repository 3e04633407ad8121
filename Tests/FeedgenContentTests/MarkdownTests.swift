import Testing

@testable import FeedgenContent

@Suite struct MarkdownTests {
    @Test func safeModeDropsRawHTMLAndUnsafeLinks() {
        let html = Markdown.render(
            "<script>alert(1)</script>\n\n[x](javascript:alert(1)) [y](vbscript:x) <b>bold</b>", unsafe: false,
            smart: false)
        #expect(
            html
                == "<!-- raw HTML omitted -->\n<p><a href=\"\">x</a> <a href=\"\">y</a> <!-- raw HTML omitted -->bold<!-- raw HTML omitted --></p>\n"
        )
    }

    @Test func safeModeKeepsImageDataURLs() {
        let html = Markdown.render(
            "![a](data:image/png;base64,AAAA) [b](data:text/html;base64,AAAA)", unsafe: false, smart: false)
        #expect(html == "<p><img src=\"data:image/png;base64,AAAA\" alt=\"a\" /> <a href=\"\">b</a></p>\n")
    }

    @Test func unsafeModePassesRawHTML() {
        let html = Markdown.render("<div class=\"x\">hi</div>\n\n[x](javascript:go())", unsafe: true, smart: false)
        #expect(html == "<div class=\"x\">hi</div>\n<p><a href=\"javascript:go()\">x</a></p>\n")
    }

    @Test func smartPunctuation() {
        #expect(
            Markdown.render("\"Hello\" -- it's 1990--2000... ---", unsafe: false, smart: true)
                == "<p>“Hello” – it’s 1990–2000… —</p>\n")
        #expect(
            Markdown.render("\"Hello\" -- it's", unsafe: false, smart: false) == "<p>&quot;Hello&quot; -- it's</p>\n")
    }

    @Test func firstParagraphText() {
        let text = """
            # Heading

            The **first** paragraph with `code`, a [link](x.html)
            and a soft break.  \\
            And a hard one.

            Second paragraph.
            """
        #expect(
            Markdown.firstParagraphText(text)
                == "The first paragraph with code, a link and a soft break. And a hard one.")
        #expect(Markdown.firstParagraphText("# Only a heading\n\n    code\n") == nil)
        #expect(Markdown.firstParagraphText("> Quoted *text*\n") == "Quoted text")
        #expect(Markdown.firstParagraphText("\"Quoted\"", smart: true) == "“Quoted”")
    }

    @Test func renderWithSummaryParsesOnce() {
        let (html, summary) = Markdown.renderWithSummary("Hello *you*\n", unsafe: false, smart: true)
        #expect(html == "<p>Hello <em>you</em></p>\n")
        #expect(summary == "Hello you")
    }
}
