import Testing

@testable import FeedgenContent

/// Heading ids and code blocks' `tabindex` written into the rendered page in one pass
/// (``MarkdownAttributes``) give the same HTML as giving them in the tree, and the tree is used
/// where raw HTML could hold a heading or `<pre>` of its own.
@Suite struct MarkdownAttributesTests {
    static let body = """
        # Top {#start}

        Text with `<h2>` and <pre> spelled out, and &lt;h3&gt;.

        ## Code

        ```swift
        let a = "<pre>"
        ```

        > [!NOTE]
        > ## Inside a note
        >
        >     indented <h4>

        | a | b |
        |---|---|
        | 1 | 2 |

        ## Code

        - [ ] task
        """

    @Test func writtenIntoThePageAsInTheTree() {
        for smart in [false, true] {
            let page = Markdown.renderWithLinks(Self.body, unsafe: false, smart: smart, source: ("content/s/a.md", 1))
            let tree = Markdown.renderWithLinks(
                Self.body, unsafe: false, smart: smart, source: ("content/s/a.md", 1), attributesInTree: true)
            #expect(page.html == tree.html)
        }
        let html = Markdown.renderWithLinks(Self.body, unsafe: false, smart: false, source: ("content/s/a.md", 1)).html
        #expect(html.hasPrefix("<h1 id=\"start\">Top</h1>\n"))
        #expect(html.contains("<h2 id=\"code\">Code</h2>") && html.contains("<h2 id=\"code-1\">Code</h2>"))
        #expect(html.contains("<h2 id=\"inside-a-note\">Inside a note</h2>"))
        #expect(html.contains("<pre tabindex=\"0\"><code class=\"language-swift\">let a = &quot;&lt;pre&gt;&quot;"))
        #expect(html.contains("<pre tabindex=\"0\"><code>indented &lt;h4&gt;"))
    }

    @Test func rawHeadingsKeepTheTreePath() {
        // Kept raw HTML holds its own `<h2>` and `<pre>`: only the document's get attributes.
        let body = "<h2>Raw</h2>\n\n## Real\n\n<pre>raw</pre>\n\n    code\n"
        let html = Markdown.renderWithLinks(body, unsafe: true, smart: false, source: ("content/s/a.md", 1)).html
        #expect(html == "<h2>Raw</h2>\n<h2 id=\"real\">Real</h2>\n<pre>raw</pre>\n<pre tabindex=\"0\"><code>code\n</code></pre>\n")
    }

    @Test func aMismatchGivesNil() {
        #expect(MarkdownAttributes.write(into: "<h2>a</h2>", headingIDs: [], codeBlocks: 0) == "<h2>a</h2>")
        #expect(MarkdownAttributes.write(into: "<h2>a</h2>", headingIDs: ["a", "b"], codeBlocks: 0) == nil)
        #expect(MarkdownAttributes.write(into: "<pre><code>x</code></pre>", headingIDs: [], codeBlocks: 2) == nil)
        #expect(MarkdownAttributes.write(into: "<h2>a</h2><h3>b</h3>", headingIDs: [nil, "b"], codeBlocks: 0) == "<h2>a</h2><h3 id=\"b\">b</h3>")
    }
}
