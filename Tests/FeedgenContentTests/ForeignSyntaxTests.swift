import Testing

@testable import FeedgenContent

/// Liquid, Hugo shortcodes and kramdown attribute lists in bodies (content-format §5.2): left
/// out with a warning at their place, `highlight` and `raw` translated, code kept as written.
@Suite struct ForeignSyntaxTests {
    private func render(_ body: String) -> (html: String, summary: String?, warnings: [String], links: [String]) {
        let r = MarkdownOptions(unsafe: false, smart: true).render(body, source: ("content/s/a.md", 4))
        return (r.html, r.summary, r.warnings.map(\.description), r.links.map { "\($0.location) \($0.destination)" })
    }

    @Test func tagsOutputsShortcodesAndAttributeListsAreLeftOut() {
        let r = render(
            """
            Hello {{ site.title }} and {% link _posts/x.md %} here.
            {{< youtube id="w7Ft2ymGmfc" >}}
            > A tip.
            {: .prompt-tip }

            {{% note %}}Inner text{{% /note %}}
            """)
        #expect(
            r.html
                == "<p>Hello  and  here.\n<a href=\"https://www.youtube.com/watch?v=w7Ft2ymGmfc\">https://www.youtube.com/watch?v=w7Ft2ymGmfc</a></p>\n<blockquote>\n<p>A tip.</p>\n</blockquote>\n<p>Inner text</p>\n")
        // `youtube` is a link to the video (MarkdownDialectTests).
        #expect(r.summary == "Hello and here. https://www.youtube.com/watch?v=w7Ft2ymGmfc")
        #expect(
            r.warnings == [
                "content/s/a.md:4:7: warning: Liquid output '{{ site.title }}' is left out of the page: feedgen does not run Liquid",
                "content/s/a.md:4:28: warning: Liquid tag '{% link _posts/x.md %}' is left out of the page: feedgen does not run Liquid",
                "content/s/a.md:7:1: warning: kramdown attribute list '{: .prompt-tip }' is left out of the page: feedgen does not apply kramdown attributes",
                "content/s/a.md:9:1: warning: Hugo shortcode '{{% note %}}' is left out of the page: feedgen does not run shortcodes",
            ])
    }

    /// Jekyll's `{% link %}` and `{% post_url %}` in a link destination become links to the
    /// content file they name (a collection folder `_posts` read as `posts`), shown as written
    /// in diagnostics; elsewhere (bare text, code) they are what other Liquid tags are.
    @Test func linkAndPostURLTagsBecomeContentLinks() {
        let r = render(
            """
            See [one]({% link _posts/2017-01-18-x.markdown %}) and [two]( {%- link about me.md -%}#part).
            Also [three][t] and [file]({% link assets/a b.pdf %}); bare {% link y.md %}.

            [t]: {% post_url 2013-05-06-jekyll-1-0-0-released %}
            `{% link z.md %}` and [var]({% link {{ page.x }} %}).
            """)
        #expect(
            r.links == [
                "content/s/a.md:4:5 {% link _posts/2017-01-18-x.markdown %}",
                "content/s/a.md:4:56 {%- link about me.md -%}#part",
                "content/s/a.md:5:6 {% post_url 2013-05-06-jekyll-1-0-0-released %}",
                // A file, root-relative: a body path (content-format §5.4).
                "content/s/a.md:5:21 {% link assets/a b.pdf %}",
            ])
        #expect(r.html.contains("<a href=\"feedgen-md:content/posts/2017-01-18-x.markdown\">one</a>"))
        #expect(r.html.contains("<a href=\"feedgen-md:content/about%20me.md#part\">two</a>"))
        #expect(r.html.contains("<a href=\"feedgen-md:content/posts/2013-05-06-jekyll-1-0-0-released.md\">three</a>"))
        #expect(r.html.contains("<a href=\"feedgen-md:/assets/a%20b.pdf\">file</a>"))
        #expect(r.html.contains("<code>{% link z.md %}</code>"))
        #expect(
            r.warnings == [
                "content/s/a.md:5:61: warning: Liquid tag '{% link y.md %}' is left out of the page: feedgen does not run Liquid",
                "content/s/a.md:8:29: warning: Liquid tag '{% link {{ page.x }} %}' is left out of the page: feedgen does not run Liquid",
            ])
    }

    /// Hugo's `ref` / `relref` in a link destination become links to the content file they name
    /// (from the content folder when the path starts with `/`, else from the file's folder; a
    /// path without extension is a `.md` file); they gave `<a href="">` before.
    @Test func hugoRefShortcodesBecomeContentLinks() {
        let r = render(
            """
            [r]({{< ref "other.md" >}}), [p]({{< relref "/posts/other.md#part" >}}) and [q]({{% ref another %}}).
            Bare {{< ref "x.md" >}} and [many]({{< ref "a.md" "b" >}}).
            """)
        #expect(
            r.links == [
                "content/s/a.md:4:1 {{< ref \"other.md\" >}}",
                "content/s/a.md:4:30 {{< relref \"/posts/other.md#part\" >}}",
                "content/s/a.md:4:77 {{% ref another %}}",
            ])
        #expect(
            r.html
                == "<p><a href=\"feedgen-md:content/s/other.md\">r</a>, <a href=\"feedgen-md:content/posts/other.md#part\">p</a> and <a href=\"feedgen-md:content/s/another.md\">q</a>.\nBare  and <a href=\"\">many</a>.</p>\n")
        #expect(
            r.warnings == [
                "content/s/a.md:5:6: warning: Hugo shortcode '{{< ref \"x.md\" >}}' is left out of the page: feedgen does not run shortcodes",
                "content/s/a.md:5:36: warning: Hugo shortcode '{{< ref \"a.md\" \"b\" >}}' is left out of the page: feedgen does not run shortcodes",
            ])
    }

    /// Jekyll's `{{ site.baseurl }}` and `{{ "P" | relative_url }}` in a link or image
    /// destination give the path written (root-relative, marked for the body-path resolver,
    /// content-format §5.4), not an empty destination.
    @Test func jekyllURLOutputsInDestinationsGiveThePath() {
        let r = render(
            """
            ![logo]({{ site.baseurl }}/assets/a.png) ![l2]({{ "/assets/a.png" | relative_url }})
            [About]({{ site.url }}{{ site.baseurl }}/about/) [rel]({{ 'b c.pdf' | absolute_url }}) {{ site.baseurl }}
            """)
        #expect(
            r.html
                == "<p><img src=\"feedgen-md:/assets/a.png\" alt=\"logo\" /> <img src=\"feedgen-md:/assets/a.png\" alt=\"l2\" />\n<a href=\"feedgen-md:/about/\">About</a> <a href=\"feedgen-md:/b%20c.pdf\">rel</a></p>\n")
        #expect(
            r.warnings == [
                "content/s/a.md:5:88: warning: Liquid output '{{ site.baseurl }}' is left out of the page: feedgen does not run Liquid"
            ])
    }

    /// kramdown's comments, table of contents, options and nomarkdown are left out with their
    /// text (before, "secret" and a bullet "TOC" reached the page); nomarkdown's text is raw HTML
    /// with `markdown.unsafe`. Later lines keep their numbers.
    @Test func kramdownExtensionsLeakNoText() {
        let body = """
            * TOC
            {:toc}

            Intro {::comment}secret{:/comment} end.

            {::comment}
            Hidden
            lines.
            {:/}
            {::options parse_block_html="true" /}
            {::nomarkdown}<b>raw</b>{:/nomarkdown}

            [x](y.md)
            """
        let r = render(body)
        #expect(r.html == "<p>Intro  end.</p>\n<p><a href=\"feedgen-md:content/s/y.md\">x</a></p>\n")
        #expect(r.links == ["content/s/a.md:16:1 y.md"])
        #expect(
            r.warnings == [
                "content/s/a.md:4:1: warning: kramdown table of contents '* TOC' with '{:toc}' is left out of the page: feedgen does not generate a table of contents",
                "content/s/a.md:7:7: warning: kramdown comment '{::comment}' is left out of the page with its text, up to '{:/comment}'",
                "content/s/a.md:9:1: warning: kramdown comment '{::comment}' is left out of the page with its text, up to '{:/}'",
                "content/s/a.md:13:1: warning: kramdown options '{::options parse_block_html=\"true\" /}' are left out of the page: feedgen does not apply kramdown options",
                "content/s/a.md:14:1: warning: kramdown '{::nomarkdown}' is left out of the page with its text (raw output, up to '{:/nomarkdown}'); set 'markdown.unsafe: true' in feedgen.yaml to keep it as raw HTML",
            ])
        let unsafe = MarkdownOptions(unsafe: true, smart: true).render(body, source: ("content/s/a.md", 4))
        #expect(unsafe.html == "<p>Intro  end.</p>\n<p><b>raw</b></p>\n<p><a href=\"feedgen-md:content/s/y.md\">x</a></p>\n")
        #expect(unsafe.warnings.count == 4)
    }

    @Test func highlightBecomesAFencedCodeBlock() {
        let r = render(
            """
            Before:
            {% highlight ruby linenos %}
            puts "{{ not liquid }}"
            ```
            {% endhighlight %}
            After.
            """)
        #expect(
            r.html
                == "<p>Before:</p>\n<pre tabindex=\"0\"><code class=\"language-ruby\">puts &quot;{{ not liquid }}&quot;\n```\n</code></pre>\n<p>After.</p>\n")
        #expect(r.warnings == [])
    }

    @Test func rawIsLiteralTextAndCodeIsKept() {
        let r = render(
            """
            Use `{% raw %}{{ layout }}{% endraw %}` or {% raw %}{{ page }}{% endraw %}; `{{ kept }}`.

            ```liquid
            {% for x in y %}{{ x }}{% endfor %}
            ```

                {{ indented code }}
            """)
        #expect(
            r.html == """
                <p>Use <code>{{ layout }}</code> or {{ page }}; <code>{{ kept }}</code>.</p>
                <pre tabindex=\"0\"><code class="language-liquid">{% for x in y %}{{ x }}{% endfor %}
                </code></pre>
                <pre tabindex=\"0\"><code>{{ indented code }}
                </code></pre>

                """)
        #expect(r.warnings == [])
    }

    @Test func hugoEscapedShortcodesShowAsHugoShowsThem() {
        let r = render("```\n{{</* ref \"a.md\" */>}}\n```\nText {{%/* x */%}}.\n")
        #expect(r.html == "<pre tabindex=\"0\"><code>{{&lt; ref &quot;a.md&quot; &gt;}}\n</code></pre>\n<p>Text {{% x %}}.</p>\n")
        #expect(r.warnings == [])
    }

    @Test func positionsOfLaterDiagnosticsPointAtTheSource() {
        // The link's column is counted after the removed Liquid output, in the body as written.
        let r = render("{{ site.url }} then [b](b.md) and <span>x</span>\n")
        #expect(r.links == ["content/s/a.md:4:21 b.md"])
        let raw = MarkdownOptions(unsafe: false, smart: true).render("{{ a }}{{ b }} <i>x</i>\n", source: ("p.md", 2)).rawHTML
        #expect(raw.map(\.description) == ["p.md:2:16", "p.md:2:20"])
    }

    @Test func unclosedConstructsAreText() {
        let r = render("A {{ never closed\n\nand {% raw %} to the end {{ x }}\n")
        #expect(r.html == "<p>A {{ never closed</p>\n<p>and  to the end {{ x }}</p>\n")
        #expect(r.warnings == ["content/s/a.md:6:5: warning: '{% raw %}' has no '{% endraw %}': the rest of the body is kept as written"])
    }

    @Test func bodiesWithoutForeignSyntaxAreUntouched() {
        #expect(ForeignSyntax.process("Plain {text} with `code` and { % spaced }") == nil)
        let map = PositionMap(anchors: [.init(outLine: 1, outColumn: 1, inLine: 1, inColumn: 1), .init(outLine: 1, outColumn: 5, inLine: 1, inColumn: 12)])
        #expect(map.original(line: 1, column: 3) == (1, 3))
        #expect(map.original(line: 1, column: 7) == (1, 14))
        #expect(map.original(line: 3, column: 2) == (3, 2))
    }

    @Test func hugoCodeShortcodesAreCodeBlocks() {
        let r = render(
            """
            {{< highlight go "linenos=true" >}}
            x := "{{ .Title }}"
            {{< /highlight >}}
            {{< code-toggle file=hugo.toml >}}
            title = '{{ .Date }}'
            {{< /code-toggle >}}
            {{< code lang="html" >}}<p>{{ . }}</p>{{< /code >}}
            """)
        #expect(
            r.html == """
                <pre tabindex=\"0\"><code class="language-go">x := &quot;{{ .Title }}&quot;
                </code></pre>
                <pre tabindex=\"0\"><code class="language-toml">title = '{{ .Date }}'
                </code></pre>
                <pre tabindex=\"0\"><code class="language-html">&lt;p&gt;{{ . }}&lt;/p&gt;
                </code></pre>

                """)
        // Turned into code blocks: nothing to warn about (maku77 had 3,862 such warnings).
        #expect(r.warnings == [])
    }

    /// Hostile bodies end quickly (every search is remembered: no scan per unclosed `{{`), and
    /// random mixes of the syntax never trap and keep the position map ordered.
    @Test func hostileAndRandomBodies() {
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for piece in [
                "{{ ", "{% ", "`", "{{< ", "{% highlight x %}", "{{< code >}}", "{: ", "{% highlight x %}b{% endhighlight %}",
                "{{< code >}}b{{< /code >}}",
            ] {
                let body = String(repeating: piece + "a ", count: 5_000)
                let r = ForeignSyntax.process(body)
                #expect(r == nil || r!.text.utf8.count <= body.utf8.count + 5_000 * 8)
            }
        }
        #expect(elapsed < .seconds(30), "\(elapsed)")
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let alphabet = ["{", "}", "%", "<", ">", "/", "*", "`", "~~~", "\n", "\n\n", " ", "    ", "-", ":", "raw", "endraw",
                        "highlight", "endhighlight", "code", "> ", "- ", "1. ", "a", "\\", "é"]
        for _ in 0..<3000 {
            var body = ""
            for _ in 0..<40 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                body += alphabet[Int(state >> 33) % alphabet.count]
            }
            guard let r = ForeignSyntax.process(body) else { continue }
            let anchors = r.map.anchors
            #expect(zip(anchors, anchors.dropFirst()).allSatisfy { ($0.outLine, $0.outColumn) < ($1.outLine, $1.outColumn) })
            _ = MarkdownOptions(unsafe: false, smart: true).render(body, source: ("a.md", 1))
        }
    }

    /// A self-closing code shortcode opens no code block: the Markdown after it stays Markdown
    /// (Hugo docs' deployment.md: a table 130 lines below `{{< code-toggle … />}}`).
    @Test func aSelfClosingCodeShortcodeOpensNoBlock() {
        let r = MarkdownOptions(unsafe: false, smart: true, gfm: true).render(
            "{{< code-toggle file=hugo config=deployment />}}\n\nA|B\n-|-\n1|2\n\n{{< code-toggle file=hugo >}}\nx = 1\n{{</ code-toggle >}}\n\nC|D\n-|-\n3|4\n",
            source: ("content/a.md", 4))
        // Both tables, the one after a `{{</ code-toggle >}}` closing tag (Hugo's spelling) too.
        #expect(r.html.components(separatedBy: "<table>").count == 3)
        #expect(r.html.contains("x = 1\n</code></pre>"))
        // The self-closing one is left out with a warning; the block is code, without one.
        #expect(r.warnings.count == 1)
    }

    /// A Mustache triple `{{{x}}}` in a body is one construct left out, not `{{{x}}` and a `}`.
    @Test func aTripleMustacheIsLeftOutWhole() {
        let r = MarkdownOptions(unsafe: false, smart: true, gfm: true).render("Text: {{title}} {{{html}}} end.\n", source: ("content/a.md", 4))
        #expect(r.html == "<p>Text:   end.</p>\n")
        #expect(r.warnings.count == 2)
    }

    /// The last `{` of a body, found eight bytes at a time from the end: past it the pass copies
    /// the rest unread. Bytes one bit from `{` (`z` 0x7A, `;` 0x3B, 0xFB) are no match.
    @Test func lastBraceFindsTheLastOpeningBrace() {
        let at = { (text: [UInt8]) -> Int in text.withUnsafeBufferPointer { ForeignSyntaxPass.lastBrace(in: $0) } }
        #expect(at([]) == -1)
        #expect(at(Array("no braces here, only text }".utf8)) == -1)
        #expect(at(Array("{".utf8)) == 0)
        #expect(at(Array("{".utf8) + Array(repeating: 0x78, count: 20)) == 0)
        #expect(at(Array("xx{yy{".utf8) + Array(repeating: 0x78, count: 16)) == 5)
        #expect(at(Array("{{ x }}".utf8) + [0x7A, 0x3B, 0xFB, 0x7A, 0x3B, 0xFB, 0x7A, 0x3B, 0xFB]) == 1)
        #expect(at([0x7A, 0x3B, 0xFB, 0x7A, 0x3B, 0xFB, 0x7A, 0x3B, 0xFB, 0x7A]) == -1)
    }
}
