/// GitHub's alerts (`> [!NOTE]`) and Hugo's titled form, exact HTML, and descriptions without the marker.
import Testing

@testable import FeedgenContent

@Suite struct MarkdownAlertTests {
    @Test func noteBecomesGitHubsAlertMarkup() {
        let html = Markdown.render("> [!NOTE]\n> Useful *info*.\n>\n> More.\n", unsafe: false, smart: false)
        #expect(
            html == """
                <div class="markdown-alert markdown-alert-note">
                <p class="markdown-alert-title">Note</p>
                <p>Useful <em>info</em>.</p>
                <p>More.</p>
                </div>

                """)
    }

    @Test func hugoTitleAndFoldSignAfterTheMarker() {
        let html = Markdown.render("> [!WARNING]+ Radiation `hazard` & \"risk\"\n> Stay back.\n", unsafe: false, smart: false)
        #expect(
            html == """
                <div class="markdown-alert markdown-alert-warning">
                <p class="markdown-alert-title">Radiation <code>hazard</code> &amp; &quot;risk&quot;</p>
                <p>Stay back.</p>
                </div>

                """)
    }

    @Test func aTitleKeepsItsMarkupAndSafeMode() {
        #expect(
            Markdown.render("> [!NOTE] A *big* ~~old~~ <b>deal</b>\n> x\n", unsafe: false, smart: false)
                == "<div class=\"markdown-alert markdown-alert-note\">\n<p class=\"markdown-alert-title\">A <em>big</em> <del>old</del> <!-- raw HTML omitted -->deal<!-- raw HTML omitted --></p>\n<p>x</p>\n</div>\n"
        )
        #expect(
            Markdown.render("> [!NOTE]   \n> x\n", unsafe: false, smart: false)
                == "<div class=\"markdown-alert markdown-alert-note\">\n<p class=\"markdown-alert-title\">Note</p>\n<p>x</p>\n</div>\n")
    }

    @Test func typesAreCaseInsensitiveAndAnyWord() {
        #expect(
            Markdown.render("> [!tip]\n", unsafe: false, smart: false)
                == "<div class=\"markdown-alert markdown-alert-tip\">\n<p class=\"markdown-alert-title\">Tip</p>\n</div>\n")
        #expect(
            Markdown.render("> [!Info]\n> x\n", unsafe: false, smart: false)
                == "<div class=\"markdown-alert markdown-alert-info\">\n<p class=\"markdown-alert-title\">Info</p>\n<p>x</p>\n</div>\n"
        )
    }

    @Test func otherQuotesStayQuotes() {
        #expect(Markdown.render("> Not [!NOTE] here.\n", unsafe: false, smart: false) == "<blockquote>\n<p>Not [!NOTE] here.</p>\n</blockquote>\n")
        #expect(Markdown.render("> [!NOTE\n", unsafe: false, smart: false) == "<blockquote>\n<p>[!NOTE</p>\n</blockquote>\n")
        #expect(Markdown.render("> [!]\n", unsafe: false, smart: false) == "<blockquote>\n<p>[!]</p>\n</blockquote>\n")
        // Strict CommonMark has no alerts.
        #expect(
            Markdown.render("> [!NOTE]\n> x\n", unsafe: false, smart: false, gfm: false)
                == "<blockquote>\n<p>[!NOTE]\nx</p>\n</blockquote>\n")
    }

    @Test func theDescriptionHasNoMarker() {
        #expect(Markdown.firstParagraphText("> [!IMPORTANT]\n> Read this first.\n\nThen this.\n") == "Read this first.")
        #expect(Markdown.firstParagraphText("> [!NOTE] A title\n> Body.\n") == "Body.")
    }

    /// The marker is read on bytes when it is ASCII; a combining mark after one of its
    /// characters makes another character, which the marker's rule reads as written.
    @Test func markersNextToCombiningMarksAreReadAsCharacters() {
        #expect(MarkdownAlerts.parseMarker("[!note]")! == ("note", 7))
        #expect(MarkdownAlerts.parseMarker("[!Warning]+ Hot")! == ("warning", 11))
        #expect(MarkdownAlerts.parseMarker("[!tip]-")! == ("tip", 7))
        #expect(MarkdownAlerts.parseMarker("[!NOTE]+\u{301} x")! == ("note", 7))
        #expect(MarkdownAlerts.parseMarker("[!NOTE]\u{301}") == nil)
        #expect(MarkdownAlerts.parseMarker("[!NOT\u{301}E]") == nil)
        #expect(MarkdownAlerts.parseMarker("[!\u{301}NOTE]") == nil)
        #expect(MarkdownAlerts.parseMarker("[!]") == nil)
        #expect(MarkdownAlerts.parseMarker("[NOTE]") == nil)
        #expect(MarkdownAlerts.parseMarker("[!NOTE") == nil)
    }
}
