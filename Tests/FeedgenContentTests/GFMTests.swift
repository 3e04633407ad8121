/// GitHub Flavored Markdown (cmark-gfm) output, heading ids and `#anchor` checks, exact HTML.
import Testing

@testable import FeedgenContent

@Suite struct GFMTests {
    @Test func tableWithAlignmentAndSmartPunctuation() {
        let html = Markdown.render("| a | b |\n|---|:-:|\n| x -- y | `z` |\n", unsafe: false, smart: true)
        #expect(
            html == """
                <div class="table-scroll" tabindex="0">
                <table>
                <thead>
                <tr>
                <th>a</th>
                <th align="center">b</th>
                </tr>
                </thead>
                <tbody>
                <tr>
                <td>x – y</td>
                <td align="center"><code>z</code></td>
                </tr>
                </tbody>
                </table>
                </div>

                """)
    }

    @Test func footnotesAreListedAtTheEnd() {
        let html = Markdown.render("A note[^1] and[^n].\n\n[^1]: First.\n[^n]: *Named*.\n", unsafe: false, smart: false)
        #expect(
            html == """
                <p>A note<sup class="footnote-ref"><a href="#fn-1" id="fnref-1" data-footnote-ref>1</a></sup> and<sup class="footnote-ref"><a href="#fn-n" id="fnref-n" data-footnote-ref>2</a></sup>.</p>
                <section class="footnotes" data-footnotes>
                <ol>
                <li id="fn-1">
                <p>First. <a href="#fnref-1" class="footnote-backref" data-footnote-backref aria-label="Back to content">↩</a></p>
                </li>
                <li id="fn-n">
                <p><em>Named</em>. <a href="#fnref-n" class="footnote-backref" data-footnote-backref aria-label="Back to content">↩</a></p>
                </li>
                </ol>
                </section>

                """)
        let prefixed = MarkdownHeadings.prefixFootnoteIDs(html, itemID: "recipes/miso-soup")
        #expect(prefixed.contains(##"<a href="#fn-recipes-miso-soup-1" id="fnref-recipes-miso-soup-1" data-footnote-ref>1</a>"##))
        #expect(prefixed.contains(#"<li id="fn-recipes-miso-soup-n">"#))
        #expect(prefixed.contains(##"<a href="#fnref-recipes-miso-soup-n" class="footnote-backref""##))
        #expect(!prefixed.contains(##""#fn-1""##) && !prefixed.contains(##""fn-1""##))
    }

    @Test func taskListStrikethroughAndAutolinks() {
        let html = Markdown.render(
            "- [ ] todo\n- [x] ~~done~~\n\nSee www.example.org, https://x.org/a?b and me@example.org.\n", unsafe: false,
            smart: false)
        #expect(
            html == """
                <ul>
                <li><label><input type="checkbox" disabled="" /> todo</label></li>
                <li><label><input type="checkbox" checked="" disabled="" /> <del>done</del></label></li>
                </ul>
                <p>See <a href="http://www.example.org">www.example.org</a>, <a href="https://x.org/a?b">https://x.org/a?b</a> and <a href="mailto:me@example.org">me@example.org</a>.</p>

                """)
    }

    @Test func safeModeAndTagFilter() {
        // Safe mode still drops raw HTML; with unsafe, the tag filter escapes <script>.
        #expect(Markdown.render("<script>x</script>\n\n| a |\n|---|\n| <b>b</b> |\n", unsafe: false, smart: false)
            == "<!-- raw HTML omitted -->\n<div class=\"table-scroll\" tabindex=\"0\">\n<table>\n<thead>\n<tr>\n<th>a</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td><!-- raw HTML omitted -->b<!-- raw HTML omitted --></td>\n</tr>\n</tbody>\n</table>\n</div>\n")
        #expect(Markdown.render("<script>x</script>\n", unsafe: true, smart: false) == "&lt;script>x&lt;/script>\n")
    }

    @Test func looseTaskListsAndFocusableCodeBlocks() {
        let html = Markdown.render("1. [ ] loose\n\n   more\n2. [x] two\n\n```swift\nlet x = 1 < 2\n```\n\n    indented\n", unsafe: false, smart: false)
        #expect(
            html == """
                <ol>
                <li>
                <p><label><input type="checkbox" disabled="" /> loose</label></p>
                <p>more</p>
                </li>
                <li>
                <p><label><input type="checkbox" checked="" disabled="" /> two</label></p>
                </li>
                </ol>
                <pre tabindex="0"><code class="language-swift">let x = 1 &lt; 2
                </code></pre>
                <pre tabindex="0"><code>indented
                </code></pre>

                """)
    }

    /// CommonMark 0.30's smart quotes (what libcmark 0.30 gave), not 0.29's, after `(` and `[`.
    @Test func smartQuotesOpenAfterBrackets() {
        #expect(Markdown.render("includes = ['**'] and (\"x\") and [\"a\", 'b']", unsafe: false, smart: true)
            == "<p>includes = [‘**’] and (“x”) and [“a”, ‘b’]</p>\n")
        #expect(Markdown.render("it's (’90s)", unsafe: false, smart: false) == "<p>it's (’90s)</p>\n")
    }

    @Test func strictCommonMarkWithoutGFM() {
        let text = "| a |\n|---|\n\nA[^1] ~~s~~ www.x.org\n\n[^1]: note\n\n- [ ] t\n"
        #expect(
            Markdown.render(text, unsafe: false, smart: false, gfm: false) == """
                <p>| a |
                |---|</p>
                <p>A<a href="note">^1</a> ~~s~~ www.x.org</p>
                <ul>
                <li>[ ] t</li>
                </ul>

                """)
    }

    @Test func headingIDsFollowGitHub() {
        let text = """
            # Hello, World!
            ## Setup
            ## Setup
            ## Setup-1
            ### `code` and *em* [link](x.html)
            ## 日本語の見出し！
            ## C++ & Rust -- fast
            ## 🎉
            ## Café_au lait

            """
        #expect(
            Markdown.render(text, unsafe: false, smart: true) == """
                <h1 id="hello-world">Hello, World!</h1>
                <h2 id="setup">Setup</h2>
                <h2 id="setup-1">Setup</h2>
                <h2 id="setup-1-1">Setup-1</h2>
                <h3 id="code-and-em-link"><code>code</code> and <em>em</em> <a href="x.html">link</a></h3>
                <h2 id="日本語の見出し">日本語の見出し！</h2>
                <h2 id="c--rust----fast">C++ &amp; Rust – fast</h2>
                <h2>🎉</h2>
                <h2 id="café_au-lait">Café_au lait</h2>

                """)
        #expect(MarkdownHeadings.slug("A  b") == "a--b")
    }

    @Test func descriptionsSkipFootnotesCheckboxesAndTables() {
        #expect(Markdown.firstParagraphText("| a |\n|---|\n| b |\n\nText[^1] ~~old~~.\n\n[^1]: Note.\n") == "Text old.")
        #expect(Markdown.firstParagraphText("- [x] Done\n") == "Done")
        #expect(Markdown.firstParagraphText("[^1]: Only a note.\n") == nil)
        #expect(Markdown.firstParagraphText("A[^1]\n\n[^1]: n\n", gfm: false) == "A^1")
    }

    @Test func deadAnchorsInTheSameTextAreWarnings() {
        let text = "See [s](#setup), [n](#fn-1), [top](#top), [x](#nope) and [j](#%E6%97%A5%E6%9C%AC).\n\n## Setup\n\n## 日本\n\nA[^1]\n\n[^1]: n\n"
        let r = Markdown.renderWithLinks(text, unsafe: false, smart: true, source: ("content/a/b.md", 4))
        #expect(r.problems.map(\.description) == [
            "content/a/b.md:4:43: warning: link '#nope' leads to no heading or anchor with the id 'nope' on this page; fix the link or the heading"
        ])
        let typo = Markdown.renderWithLinks("[s](#setpu)\n\n## Setup\n", unsafe: false, smart: true, source: ("c.md", 1))
        #expect(typo.problems.map(\.message) == [
            "link '#setpu' leads to no heading or anchor with the id 'setpu' on this page (did you mean 'setup'?); fix the link or the heading"
        ])
    }

    @Test func idsOfRenderedHTML() {
        #expect(MarkdownHeadings.ids(inHTML: #"<h2 id="a">x</h2><a name="b&amp;c">y</a><p class="id=&quot;z">"#) == ["a", "b&c"])
    }

    @Test func aTableThatWouldPadMillionsOfCellsIsAnError() {
        let header = "|" + String(repeating: "a|", count: 300) + "\n|" + String(repeating: "-|", count: 300) + "\n"
        let text = "Intro.\n\n" + header + String(repeating: "x\n", count: 400)
        let r = Markdown.renderWithLinks(text, unsafe: false, smart: true, source: ("content/a/b.md", 4))
        #expect(r.problems.map(\.description) == [
            "content/a/b.md:7:1: error: this table's rows have so few cells that the page would get over 100000 empty ones (every row is padded to the header's width); write the cells of each row or split the table"
        ])
        #expect(!r.html.contains("<table>"))
        // 20 columns × 5,000 rows of one cell: 95,000 padded cells, a table.
        let tall = "|" + String(repeating: "a|", count: 20) + "\n|" + String(repeating: "-|", count: 20) + "\n" + String(repeating: "x\n", count: 5000)
        #expect(MarkdownBlocks.overflowingTable(in: tall) == nil)
        #expect(MarkdownBlocks.overflowingTable(in: tall + String(repeating: "x\n", count: 300)) == 2)
        // Escaped pipes are text: `a \| b` is one cell, so this header does not match its
        // delimiter row of two: no table.
        #expect(MarkdownBlocks.overflowingTable(in: "| a \\| b |\n|---|---|\n" + String(repeating: "x\n", count: 200_001)) == nil)
    }

    /// A text that cannot hold an `@` is parsed with the autolink extension minus its email
    /// search (a tree walk); one that may, through an entity too, gets the whole extension.
    @Test func emailSearchOnlyWhereAnAtMayBe() {
        let bytes = { (text: String) -> Bool in Array(text.utf8).withUnsafeBufferPointer { Markdown.mayHoldEmail($0) } }
        #expect(bytes("me@example.org"))
        #expect(bytes("me&#64;example.org") && bytes("me&#x40;example.org") && bytes("me&commat;example.org"))
        #expect(!bytes("") && !bytes("Tom & Jerry, &amp; &comma; www.example.org"))
        #expect(
            Markdown.render("Write to me&#64;example.org or visit www.example.org.\n", unsafe: false, smart: false)
                == "<p>Write to <a href=\"mailto:me@example.org\">me@example.org</a> or visit <a href=\"http://www.example.org\">www.example.org</a>.</p>\n")
        #expect(
            Markdown.render("Visit www.example.org & https://x.org.\n", unsafe: false, smart: false)
                == "<p>Visit <a href=\"http://www.example.org\">www.example.org</a> &amp; <a href=\"https://x.org\">https://x.org</a>.</p>\n")
    }

    /// Past 16 slugs the slugger moves them from its list to a table; the github-slugger rule
    /// (the first free suffix) holds on both sides of the move.
    @Test func sluggerGivesTheSameSlugsInListAndTable() {
        var small = MarkdownHeadings.Slugger()
        #expect(["a", "a", "a-1", "a"].map { small.unique($0) } == ["a", "a-1", "a-1-1", "a-2"])
        var large = MarkdownHeadings.Slugger()
        let distinct = (0..<17).map { "h\($0)" }
        #expect(distinct.map { large.unique($0) } == distinct)
        #expect(["a", "a", "a-1", "a", "h3"].map { large.unique($0) } == ["a", "a-1", "a-1-1", "a-2", "h3-1"])
    }
}
