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

    @Test func protocolRelativeURLsGetHTTPS() {
        // From file:// a `//host` URL would name a file share; `///x` is a path, left to the resolver.
        #expect(
            Markdown.render("[a](//cdn.example.org/x.js) ![i](//img.example.org/a.png) [r](///x) [s](/x)", unsafe: false, smart: false)
                == "<p><a href=\"https://cdn.example.org/x.js\">a</a> <img src=\"https://img.example.org/a.png\" alt=\"i\" /> <a href=\"///x\">r</a> <a href=\"/x\">s</a></p>\n")
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

/// Soft line breaks between wide characters (CSS Text 3 §4.1.2) and safe mode's raw HTML.
@Suite struct MarkdownSegmentBreakTests {
    @Test func softBreakBetweenJapaneseSentencesIsRemoved() {
        let text = "最初の文です。\n次の文です。\n*強調*\nです。\nEnglish\nwords\n漢字\nLatin"
        #expect(
            Markdown.render(text, unsafe: false, smart: false)
                == "<p>最初の文です。次の文です。<em>強調</em>です。\nEnglish\nwords\n漢字\nLatin</p>\n")
        #expect(
            Markdown.firstParagraphText(text) == "最初の文です。次の文です。強調です。 English words 漢字 Latin")
        let r = Markdown.renderWithLinks("一。\n二。", unsafe: false, smart: true, source: ("content/s/a.md", 4))
        #expect(r.html == "<p>一。二。</p>\n")
        #expect(r.summary == "一。二。")
    }

    @Test func hangulAndFullwidthRules() {
        // Hangul keeps its space (Korean separates words); full-width forms (F) and half-width katakana (H) join.
        #expect(Markdown.render("한국어\n문장", unsafe: false, smart: false) == "<p>한국어\n문장</p>\n")
        #expect(Markdown.render("ＡＢ\nｶﾀｶﾅ", unsafe: false, smart: false) == "<p>ＡＢｶﾀｶﾅ</p>\n")
        // A hard break stays a <br />.
        #expect(Markdown.render("一。\\\n二。", unsafe: false, smart: false) == "<p>一。<br />\n二。</p>\n")
    }

    @Test func rawHTMLPositionsInSafeMode() {
        let body = "Text <b>bold</b>\n\n<div>\nblock\n</div>\n"
        let r = Markdown.renderWithLinks(body, unsafe: false, smart: false, source: ("content/s/a.md", 4))
        #expect(r.rawHTML.map(\.description) == ["content/s/a.md:4:6", "content/s/a.md:4:13", "content/s/a.md:6:1"])
        let unsafe = Markdown.renderWithLinks(body, unsafe: true, smart: false, source: ("content/s/a.md", 4))
        #expect(unsafe.rawHTML.isEmpty)
    }
}

@Suite struct RawHTMLWarningTests {
    @Test func warnedAtItsPositionInItemsIntrosAndSectionBodies() throws {
        let hint = "warning: raw HTML omitted (Markdown safe mode); set 'markdown.unsafe: true' in feedgen.yaml to keep it"
        let site = try TestSite([
            "content/_feed.md": "---\ntitle: Home\n---\nIntro <i>x</i>\n",
            "content/s/_section.md": "---\ntitle: S\n---\n\n<div>x</div>\n",
            "content/s/a.md": "---\ntitle: A\n---\nOne\n  two <br> three\n",
        ])
        #expect(
            site.load().diagnostics == [
                // One warning per text, at the first place, with the count.
                "content/_feed.md:4:7: warning: raw HTML omitted (Markdown safe mode) at 2 places in this text, the first here; set 'markdown.unsafe: true' in feedgen.yaml to keep it",
                "content/s/_section.md:5:1: \(hint)", "content/s/a.md:5:7: \(hint)",
            ])
        try site.write("feedgen.yaml", "markdown:\n  unsafe: true\n")
        #expect(site.load().diagnostics == [])
    }
}
