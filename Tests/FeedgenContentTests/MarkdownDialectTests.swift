/// What Hugo's goldmark, kramdown, MkDocs and Docusaurus write in Markdown (content-format §5.1,
/// §5.3): heading attributes, admonitions and content tabs, exact HTML and positioned warnings.
import Testing

@testable import FeedgenContent

@Suite struct MarkdownDialectTests {
    private func render(_ body: String, unsafe: Bool = false) -> (html: String, warnings: [String], problems: [String]) {
        let r = MarkdownOptions(unsafe: unsafe, smart: true).render(body, source: ("content/s/a.md", 4))
        return (r.html, r.warnings.map(\.description), r.problems.map(\.description))
    }

    @Test func headingAttributesGiveTheID() {
        let r = render(
            """
            See [tag](#struct-tag), [s](#speakers), [m](#mk), [k](#kd) and [bad](#nope).

            ## JSON のプロパティ名を指定する {#struct-tag}
            ## Speakers {#speakers .wide data-x=1}
            ## MkDocs { #mk data-toc-label="With pip" }
            ## kramdown {: #kd}
            ## Only a class {.c}
            ## Not attributes {x} and {#a b}
            Setext {#setext}
            ---
            ## struct-tag
            ## Again {#struct-tag}
            ## `{#code}`

            """)
        #expect(
            r.html == """
                <p>See <a href="#struct-tag">tag</a>, <a href="#speakers">s</a>, <a href="#mk">m</a>, <a href="#kd">k</a> and <a href="#nope">bad</a>.</p>
                <h2 id="struct-tag">JSON のプロパティ名を指定する</h2>
                <h2 id="speakers">Speakers</h2>
                <h2 id="mk">MkDocs</h2>
                <h2 id="kd">kramdown</h2>
                <h2 id="only-a-class">Only a class</h2>
                <h2 id="not-attributes-x-and-a-b">Not attributes {x} and {#a b}</h2>
                <h2 id="setext">Setext</h2>
                <h2 id="struct-tag-2">struct-tag</h2>
                <h2 id="struct-tag-1">Again</h2>
                <h2 id="code"><code>{#code}</code></h2>

                """)
        #expect(r.warnings == [])
        #expect(
            r.problems == [
                "content/s/a.md:4:64: warning: link '#nope' leads to no heading or anchor with the id 'nope' on this page; fix the link or the heading"
            ])
    }

    @Test func mkDocsAdmonitionsBecomeAlerts() {
        let r = render(
            """
            !!! note "Read *this*"

                Body with [a link](x.md).

                ??? danger
                    Nested.

            ???+ abstract
                Summary.

            !!! Breaking news
            ```
            !!! note
                code
            ```
            !!! info inline end ""
                Side.
            """)
        #expect(
            r.html == """
                <div class="markdown-alert markdown-alert-note">
                <p class="markdown-alert-title">Read <em>this</em></p>
                <p>Body with <a href="feedgen-md:content/s/x.md">a link</a>.</p>
                <div class="markdown-alert markdown-alert-caution">
                <p class="markdown-alert-title">Danger</p>
                <p>Nested.</p>
                </div>
                </div>
                <div class="markdown-alert markdown-alert-note">
                <p class="markdown-alert-title">Abstract</p>
                <p>Summary.</p>
                </div>
                <p>!!! Breaking news</p>
                <pre tabindex="0"><code>!!! note
                    code
                </code></pre>
                <div class="markdown-alert markdown-alert-note">
                <p class="markdown-alert-title">Note</p>
                <p>Side.</p>
                </div>

                """)
        #expect(r.warnings == [])
    }

    /// Python-Markdown and pymdownx.details read `!!!note` and `???+tip` without the space;
    /// pymdownx.tabbed needs it (`==="Tab"` is text), and `!!!` glued to a word with more after
    /// it is a sentence.
    @Test func mkDocsAdmonitionsWithoutASpace() {
        let r = render(
            """
            !!!note "Heads up"
                Body.

            ???+tip
                Hidden.

            !!!Important!!! read this
                indented code

            ==="Tab"
                Not a tab.
            """)
        #expect(
            r.html == """
                <div class="markdown-alert markdown-alert-note">
                <p class="markdown-alert-title">Heads up</p>
                <p>Body.</p>
                </div>
                <div class="markdown-alert markdown-alert-tip">
                <p class="markdown-alert-title">Tip</p>
                <p>Hidden.</p>
                </div>
                <p>!!!Important!!! read this
                indented code</p>
                <p>===“Tab”
                Not a tab.</p>

                """)
    }

    @Test func docusaurusAdmonitionsBecomeAlerts() {
        let r = render(
            """
            :::tip Use `feedgen`
            Text with <b>raw</b>.

            ::::info[Nested]
            Inner.
            ::::
            :::

            :::danger
            Careful.
            :::

            :::note unclosed
            """)
        #expect(
            r.html == """
                <div class="markdown-alert markdown-alert-tip">
                <p class="markdown-alert-title">Use <code>feedgen</code></p>
                <p>Text with <!-- raw HTML omitted -->raw<!-- raw HTML omitted -->.</p>
                <div class="markdown-alert markdown-alert-note">
                <p class="markdown-alert-title">Nested</p>
                <p>Inner.</p>
                </div>
                </div>
                <div class="markdown-alert markdown-alert-caution">
                <p class="markdown-alert-title">Danger</p>
                <p>Careful.</p>
                </div>
                <p>:::note unclosed</p>

                """)
        // Places are those of the body as written.
        let rawHTML = MarkdownOptions(unsafe: false, smart: true).render("x\n\n:::tip T\nA <b>b</b>\n:::\n", source: ("c.md", 4)).rawHTML
        #expect(rawHTML.map(\.description) == ["c.md:7:3", "c.md:7:7"])
    }

    /// A tab is its label, bold, over its content; the tab markers never show.
    @Test func mkDocsContentTabsBecomeLabelledContent() {
        let r = render(
            """
            === "C"

                ``` c
                int x;
                ```

            === "Python"
                Say {{ hi }}.
            """)
        #expect(
            r.html == """
                <p><strong>C</strong></p>
                <pre tabindex="0"><code class="language-c">int x;
                </code></pre>
                <p><strong>Python</strong><br />
                Say .</p>

                """)
        #expect(r.warnings == ["content/s/a.md:11:9: warning: Liquid output '{{ hi }}' is left out of the page: feedgen does not run Liquid"])
    }

    /// MkDocs writes tabs and admonitions in list items indented to the item: they become the
    /// item's own paragraphs and block quotes, and places still point at the body as written.
    @Test func tabsAndAdmonitionsInListItemsStayInTheirItem() {
        let r = render(
            """
            1. Install:

                === "macOS"

                    ```
                    brew install {{ x }}
                    ```

                === "Linux"
                    Run apt {{ y }}.

            2. Then:
                - Nested
                    !!! warning "Mind"
                        Careful.

                ```
                === "not a tab, code"
                ```
            """)
        #expect(
            r.html == """
                <ol>
                <li>
                <p>Install:</p>
                <p><strong>macOS</strong></p>
                <pre tabindex="0"><code>brew install {{ x }}
                </code></pre>
                <p><strong>Linux</strong><br />
                Run apt .</p>
                </li>
                <li>
                <p>Then:</p>
                <ul>
                <li>Nested
                <div class="markdown-alert markdown-alert-warning">
                <p class="markdown-alert-title">Mind</p>
                <p>Careful.</p>
                </div>
                </li>
                </ul>
                <pre tabindex="0"><code>=== &quot;not a tab, code&quot;
                </code></pre>
                </li>
                </ol>

                """)
        #expect(r.warnings == ["content/s/a.md:13:17: warning: Liquid output '{{ y }}' is left out of the page: feedgen does not run Liquid"])
    }

    /// A fence line indented four columns more than the opening fence is code, not the block's
    /// end (CommonMark 4.5): what follows the block is still read (mkdocs-material's
    /// content-tabs page shows a fenced example holding an indented fence).
    @Test func anIndentedFenceInsideAFencedBlockDoesNotCloseIt() {
        let r = render(
            """
            ```
            code
                ```
            ```

            !!! note

                body {{ x }}
            """)
        #expect(
            r.html == """
                <pre tabindex="0"><code>code
                    ```
                </code></pre>
                <div class="markdown-alert markdown-alert-note">
                <p class="markdown-alert-title">Note</p>
                <p>body</p>
                </div>

                """)
        #expect(r.warnings == ["content/s/a.md:11:10: warning: Liquid output '{{ x }}' is left out of the page: feedgen does not run Liquid"])
    }

    /// Hugo's built-in `figure`: its image is a Markdown image (resolved like `![](x.png)`).
    @Test func figureShortcodesBecomeFigures() {
        let r = render(
            """
            Intro {{< figure src="img/a b.png" alt="An [a]" caption="A *cap*" link="https://x.org/" title="T & U" >}} after.

            {{< figure src = "c.png" width="300" >}}
            {{< figure caption="no src" >}}
            {{< youtube w7Ft2ymGmfc >}} and {{< vimeo id="146022717" >}}
            """)
        #expect(
            r.html == """
                <p>Intro</p>
                <figure><a href="https://x.org/"><img src="feedgen-md:content/s/img/a%20b.png" alt="An [a]" /></a><figcaption><h4>T &amp; U</h4><p>A <em>cap</em></p></figcaption></figure>
                <p>after.</p>
                <figure><img src="feedgen-md:content/s/c.png" alt="" width="300" /></figure>
                <p><a href="https://www.youtube.com/watch?v=w7Ft2ymGmfc">https://www.youtube.com/watch?v=w7Ft2ymGmfc</a> and <a href="https://vimeo.com/146022717">https://vimeo.com/146022717</a></p>

                """)
        #expect(r.warnings == ["content/s/a.md:7:1: warning: Hugo shortcode '{{< figure caption=\"no src\" >}}' is left out of the page: feedgen does not run shortcodes"])
        let links = MarkdownOptions(unsafe: false, smart: true).render("x\n\n{{< figure src=\"c.png\" >}}\n", source: ("c.md", 4)).links
        #expect(links.map { "\($0.location) \($0.destination)" } == ["c.md:6:1 c.png"])
    }

    /// A Docusaurus `.mdx` file is an item: its module and JSX lines are left out with one warning.
    @Test func mdxFilesAreReadAsMarkdown() {
        let body = """
            import Tabs from '@theme/Tabs';
            import {
              A,
            } from 'x';

            Text.

            ```js
            import x from 'y';
            ```
            <button onClick={() => alert('clicked')}>Click</button>

            """
        let r = MarkdownOptions(unsafe: false, smart: true).render(body, source: ("content/s/a.mdx", 5))
        #expect(
            r.html == """
                <p>Text.</p>
                <pre tabindex="0"><code class="language-js">import x from 'y';
                </code></pre>

                """)
        #expect(
            r.warnings.map(\.description) == [
                "content/s/a.mdx:5:1: warning: MDX: its 3 'import'/'export'/JSX lines (the first here) are left out of the page: feedgen reads .mdx as Markdown and runs no JSX (its tags are raw HTML)"
            ])
        #expect(r.rawHTML == [])
        #expect(ItemName.isItemFile("overview.mdx") && ItemName.isItemFile("A.MDX"))
    }
}
