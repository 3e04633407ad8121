/// Definition lists as Goldmark renders them (its extension/_test/definition_list.txt cases),
/// and `:` lines that are not definitions left as written.
import Testing

@testable import FeedgenContent

@Suite struct MarkdownDefinitionListTests {
    func html(_ text: String) -> String { Markdown.render(text, unsafe: false, smart: false) }

    @Test func tightDefinitionsWithALazyLine() {
        #expect(
            html("Apple\n:   Pomaceous fruit of plants of the genus Malus in \nthe family Rosaceae.\n\nOrange\n:   The fruit of an evergreen tree of the genus Citrus.\n")
                == "<dl>\n<dt>Apple</dt>\n<dd>Pomaceous fruit of plants of the genus Malus in\nthe family Rosaceae.</dd>\n<dt>Orange</dt>\n<dd>The fruit of an evergreen tree of the genus Citrus.</dd>\n</dl>\n")
    }

    @Test func twoDefinitionsOfATerm() {
        #expect(
            html("Apple\n:   Pomaceous fruit of plants of the genus Malus in \n    the family Rosaceae.\n:   An American computer company.\n\nOrange\n:   The fruit of an evergreen tree of the genus Citrus.\n")
                == "<dl>\n<dt>Apple</dt>\n<dd>Pomaceous fruit of plants of the genus Malus in\nthe family Rosaceae.</dd>\n<dd>An American computer company.</dd>\n<dt>Orange</dt>\n<dd>The fruit of an evergreen tree of the genus Citrus.</dd>\n</dl>\n")
    }

    @Test func twoTermsOfADefinition() {
        #expect(
            html("Term 1\nTerm 2\n:   Definition a\n\nTerm 3\n:   Definition b\n")
                == "<dl>\n<dt>Term 1</dt>\n<dt>Term 2</dt>\n<dd>Definition a</dd>\n<dt>Term 3</dt>\n<dd>Definition b</dd>\n</dl>\n")
    }

    @Test func looseDefinitions() {
        #expect(
            html("Apple\n\n:   Pomaceous fruit of plants of the genus Malus in \n    the family Rosaceae.\n\nOrange\n\n:    The fruit of an evergreen tree of the genus Citrus.\n")
                == "<dl>\n<dt>Apple</dt>\n<dd>\n<p>Pomaceous fruit of plants of the genus Malus in\nthe family Rosaceae.</p>\n</dd>\n<dt>Orange</dt>\n<dd>\n<p>The fruit of an evergreen tree of the genus Citrus.</p>\n</dd>\n</dl>\n")
    }

    @Test func blocksInsideADefinition() {
        let text = """
            Term 1

            :   This is a definition with two paragraphs. Lorem ipsum
                dolor sit amet.

                Vestibulum enim wisi.

            :   Second definition for term 1.

            Term 2

            :   This definition has a code block, a blockquote and a list.

                    code block.

                > block quote
                > on two lines.

                1.  first list item
                2.  second list item

            """
        #expect(
            html(text) == """
                <dl>
                <dt>Term 1</dt>
                <dd>
                <p>This is a definition with two paragraphs. Lorem ipsum
                dolor sit amet.</p>
                <p>Vestibulum enim wisi.</p>
                </dd>
                <dd>
                <p>Second definition for term 1.</p>
                </dd>
                <dt>Term 2</dt>
                <dd>
                <p>This definition has a code block, a blockquote and a list.</p>
                <pre tabindex="0"><code>code block.
                </code></pre>
                <blockquote>
                <p>block quote
                on two lines.</p>
                </blockquote>
                <ol>
                <li>first list item</li>
                <li>second list item</li>
                </ol>
                </dd>
                </dl>

                """)
    }

    /// Hugo's documentation: a term in backticks or a link, a definition with a fence indented
    /// under it (a definition of more than one block keeps its paragraphs' `<p>`, where
    /// Goldmark drops them).
    @Test func hugoDocsStyle() {
        let text = "`enable`\n: (`bool`) Whether to enable it.\n\n  ```toml\n  a = 1\n  ```\n\n[Themes][]\n: Reduce time.\n\n[Themes]: https://example.org/themes\n"
        #expect(
            html(text) == """
                <dl>
                <dt><code>enable</code></dt>
                <dd>
                <p>(<code>bool</code>) Whether to enable it.</p>
                <pre tabindex="0"><code class="language-toml">a = 1
                </code></pre>
                </dd>
                <dt><a href="https://example.org/themes">Themes</a></dt>
                <dd>Reduce time.</dd>
                </dl>

                """)
    }

    /// A definition whose only content was left out (Hugo's `: {{< new-in 0.151.0 />}}`, a
    /// shortcode feedgen does not run) shows nothing, and the next one stays tight; an empty `:`
    /// line that no definition follows stays as written.
    @Test func anEmptyDefinitionShowsNothing() {
        #expect(html("`enable`\n: \n: (`bool`) Whether.\n") == "<dl>\n<dt><code>enable</code></dt>\n<dd>(<code>bool</code>) Whether.</dd>\n</dl>\n")
        #expect(html("Term\n: \nText\n") == "<p>Term\n:\nText</p>\n")
        #expect(html("# Heading\n: \n: text\n") == "<h1 id=\"heading\">Heading</h1>\n<p>:\n: text</p>\n")
    }

    /// In a block quote or a list item, a `:` line at the start of the container's content
    /// defines the paragraph before it, as Goldmark reads it (its definition list parser opens in
    /// any container); tight and loose as at the top level.
    @Test func definitionsInsideContainers() {
        #expect(html("> Apple\n> : A fruit.\n") == "<blockquote>\n<dl>\n<dt>Apple</dt>\n<dd>A fruit.</dd>\n</dl>\n</blockquote>\n")
        #expect(
            html("> Apple\n>\n> : A fruit.\n")
                == "<blockquote>\n<dl>\n<dt>Apple</dt>\n<dd>\n<p>A fruit.</p>\n</dd>\n</dl>\n</blockquote>\n")
        #expect(html("- Apple\n  : A fruit.\n") == "<ul>\n<li>\n<dl>\n<dt>Apple</dt>\n<dd>A fruit.</dd>\n</dl>\n</li>\n</ul>\n")
        #expect(
            html("1. Install:\n\n   `--force`\n   : Overwrite.\n2. Run.\n")
                == "<ol>\n<li>\n<p>Install:</p>\n<dl>\n<dt><code>--force</code></dt>\n<dd>Overwrite.</dd>\n</dl>\n</li>\n<li>\n<p>Run.</p>\n</li>\n</ol>\n")
        #expect(
            html("> - Apple\n>   : A fruit.\n")
                == "<blockquote>\n<ul>\n<li>\n<dl>\n<dt>Apple</dt>\n<dd>A fruit.</dd>\n</dl>\n</li>\n</ul>\n</blockquote>\n")
    }

    /// A `:` indented inside its container (or at the top level) is text, as Goldmark reads it.
    @Test func indentedColonLinesAreText() {
        #expect(html("Term\n  : indented\n") == "<p>Term\n: indented</p>\n")
        #expect(html("> Term\n>   : indented\n") == "<blockquote>\n<p>Term\n: indented</p>\n</blockquote>\n")
        #expect(html("- Term\n    : indented\n") == "<ul>\n<li>Term\n: indented</li>\n</ul>\n")
        #expect(html("> Term\n: lazy\n") == "<blockquote>\n<p>Term\n: lazy</p>\n</blockquote>\n")
    }

    /// `:` lines that define nothing stay as written: after a heading, a list or a code block,
    /// on the first line, inside a fence or an HTML block, without a space after the colon.
    @Test func colonLinesThatAreNotDefinitions() {
        let texts = [
            ": first line\n", "# Heading\n: text\n", "- item\n: lazy text\n", "+ item\n: lazy text\n",
            "```\na\n: in code\n```\n", "<div>\n: in html\n</div>\n", "Term\n:no space\n", "Term\n:\n",
            "| a | b |\n|---|---|\n: row\n",
        ]
        for text in texts {
            let rendered = html(text)
            #expect(!rendered.contains("<dl>"), "\(text)")
            #expect(!rendered.contains("+"), "\(text): \(rendered)")
        }
        #expect(html("- item\n: lazy text\n") == "<ul>\n<li>item\n: lazy text</li>\n</ul>\n")
        #expect(html("```\na\n: in code\n```\n") == "<pre tabindex=\"0\"><code>a\n: in code\n</code></pre>\n")
    }
}
