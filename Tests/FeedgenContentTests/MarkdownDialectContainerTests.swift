/// MkDocs admonitions and content tabs in containers and next to text (content-format §5.3):
/// after a list item's lazy continuation line, directly under or over a line of text, in a list
/// inside a block quote, in a definition (Python-Markdown's def_list). Exact HTML, and warnings
/// at the places of the file as written (lines put in by the rewrite must not shift them).
import Testing

@testable import FeedgenContent

@Suite struct MarkdownDialectContainerTests {
    private func render(_ body: String) -> (html: String, warnings: [String]) {
        let r = MarkdownOptions(unsafe: false, smart: true).render(body, source: ("content/s/a.md", 4))
        return (r.html, r.warnings.map(\.description))
    }

    /// `lazy` continues the item's paragraph (CommonMark 5.2), so the tab indented under the
    /// item is still the item's, as Python-Markdown reads it.
    @Test func aTabAfterALazyContinuationLineStaysInTheItem() {
        let r = render(
            """
            - Item
            lazy

                === "Tab"

                    text {{ x }}
            - Next
            # Heading
                !!! note
                    Code, not an admonition: the heading ended the list.
            """)
        #expect(
            r.html == """
                <ul>
                <li>
                <p>Item
                lazy</p>
                <p><strong>Tab</strong></p>
                <p>text</p>
                </li>
                <li>
                <p>Next</p>
                </li>
                </ul>
                <h1 id="heading">Heading</h1>
                <pre tabindex="0"><code>!!! note
                    Code, not an admonition: the heading ended the list.
                </code></pre>

                """)
        #expect(r.warnings == ["content/s/a.md:9:14: warning: Liquid output '{{ x }}' is left out of the page: feedgen does not run Liquid"])
    }

    /// pymdownx.tabbed, Python-Markdown's admonition and pymdownx.details start a block at the
    /// header's line even without a blank line before it, and end it at the first line
    /// indented less: the text around stays apart, as in MkDocs.
    @Test func aHeaderNextToTextStartsABlockOfItsOwn() {
        let r = render(
            """
            Para
            === "Tab"
                text
            after {{ y }}
            !!! note
                body
            > quoted
            !!! tip
                tip {{ z }}
            """)
        #expect(
            r.html == """
                <p>Para</p>
                <p><strong>Tab</strong><br />
                text</p>
                <p>after</p>
                <div class="markdown-alert markdown-alert-note">
                <p class="markdown-alert-title">Note</p>
                <p>body</p>
                </div>
                <blockquote>
                <p>quoted</p>
                </blockquote>
                <div class="markdown-alert markdown-alert-tip">
                <p class="markdown-alert-title">Tip</p>
                <p>tip</p>
                </div>

                """)
        #expect(
            r.warnings == [
                "content/s/a.md:7:7: warning: Liquid output '{{ y }}' is left out of the page: feedgen does not run Liquid",
                "content/s/a.md:12:9: warning: Liquid output '{{ z }}' is left out of the page: feedgen does not run Liquid",
            ])
        // A link's place after the lines put in is still its place in the file.
        let links = MarkdownOptions(unsafe: false, smart: true).render("A\n=== \"T\"\n    x\nB [l](l.md)\n", source: ("c.md", 1)).links
        #expect(links.map { "\($0.location) \($0.destination)" } == ["c.md:4:3 l.md"])
    }

    /// A block quote is a container like a list item: admonitions and tabs in it (and in a
    /// list in it) are rewritten inside the quote.
    @Test func blocksInABlockQuoteStayInTheQuote() {
        let r = render(
            """
            > - item
            >
            >     !!! note
            >         text {{ z }}

            > Para
            > === "T"
            >     x
            >
            > > !!! warning
            > >     deep
            """)
        #expect(
            r.html == """
                <blockquote>
                <ul>
                <li>
                <p>item</p>
                <div class="markdown-alert markdown-alert-note">
                <p class="markdown-alert-title">Note</p>
                <p>text</p>
                </div>
                </li>
                </ul>
                </blockquote>
                <blockquote>
                <p>Para</p>
                <p><strong>T</strong><br />
                x</p>
                <blockquote>
                <div class="markdown-alert markdown-alert-warning">
                <p class="markdown-alert-title">Warning</p>
                <p>deep</p>
                </div>
                </blockquote>
                </blockquote>

                """)
        #expect(r.warnings == ["content/s/a.md:7:16: warning: Liquid output '{{ z }}' is left out of the page: feedgen does not run Liquid"])
    }

    /// A definition whose content (indented four spaces) holds an admonition or tab has that
    /// content read as blocks after the definition list, not as a code block showing
    /// `!!! note`; a definition's indented paragraph stays in it.
    @Test func blocksInADefinitionAreReadAfterIt() {
        let r = render(
            """
            Term
            :   Definition

                !!! note
                    text

                ``` yaml
                a: 1
                ```

            Other
            :   Plain definition

                Indented code, as before.
            """)
        #expect(
            r.html == """
                <dl>
                <dt>Term</dt>
                <dd>Definition</dd>
                </dl>
                <div class="markdown-alert markdown-alert-note">
                <p class="markdown-alert-title">Note</p>
                <p>text</p>
                </div>
                <pre tabindex="0"><code class="language-yaml">a: 1
                </code></pre>
                <dl>
                <dt>Other</dt>
                <dd>
                <p>Plain definition</p>
                <p>Indented code, as before.</p>
                </dd>
                </dl>

                """)
        #expect(r.warnings == [])
    }
}
