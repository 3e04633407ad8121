import FeedgenDiagnostics
import Testing

@testable import FeedgenContent

private func split(_ bytes: [UInt8]) -> (FrontMatter?, [String]) {
    let (frontMatter, diagnostics) = FrontMatter.parse(bytes, path: "content/a.md")
    return (frontMatter, diagnostics.map(\.description))
}

private func split(_ text: String) -> (FrontMatter?, [String]) { split(Array(text.utf8)) }

@Suite struct FrontMatterTests {
    @Test func basicSplit() throws {
        let (fm, errors) = split("---\ntitle: Hi\nweight: 2\n---\nBody line\n\nMore\n")
        #expect(errors == [])
        let frontMatter = try #require(fm)
        #expect(frontMatter.hasFrontMatter)
        #expect(frontMatter.fields["title"]?.string == "Hi")
        #expect(frontMatter.fields["weight"]?.line == 3)
        #expect(frontMatter.body == "Body line\n\nMore\n")
        #expect(frontMatter.bodyLine == 5)
    }

    @Test func byteOrderMarkIsSkippedAndNotCounted() throws {
        let (fm, errors) = split([0xEF, 0xBB, 0xBF] + Array("---\ntitle: x: y\n---\n".utf8))
        #expect(fm == nil)
        #expect(errors == ["content/a.md:2:9: error: YAML: mapping values are not allowed in this context"])
        let ok = try #require(split([0xEF, 0xBB, 0xBF] + Array("---\ntitle: A\n---\nB".utf8)).0)
        #expect(ok.fields["title"]?.column == 8)
        #expect(ok.body == "B")
    }

    @Test func crlfLineEndingsKeepLineNumbers() throws {
        let fm = try #require(split("---\r\ntitle: A\r\nlink: b\r\n---\r\nOne\r\nTwo\r\n").0)
        #expect(fm.fields["link"]?.line == 3)
        #expect(fm.fields["title"]?.string == "A")
        #expect(fm.body == "One\nTwo\n")
        #expect(fm.bodyLine == 5)
        #expect(
            split("---\r\na: 1\r\nb: c: d\r\n---\r\n").1 == [
                "content/a.md:3:5: error: YAML: mapping values are not allowed in this context"
            ])
    }

    @Test func loneCarriageReturnsAreLineEndings() throws {
        let fm = try #require(split("---\rtitle: A\rlink: b\r---\rOne\rTwo").0)
        #expect(fm.fields["link"]?.line == 3)
        #expect(fm.body == "One\nTwo")
        #expect(fm.bodyLine == 5)
    }

    @Test func trailingSpacesOnFences() throws {
        let fm = try #require(split("---  \ntitle: A\n--- \t\nBody").0)
        #expect(fm.fields["title"]?.string == "A")
        #expect(fm.body == "Body")
    }

    @Test func dotsCloseTheBlock() throws {
        let fm = try #require(split("---\ntitle: A\n...\nBody").0)
        #expect(fm.fields["title"]?.string == "A")
        #expect(fm.bodyLine == 4)
    }

    @Test func unclosedBlock() {
        let expected = ["content/a.md:1:1: error: front matter starting here is not closed by a '---' line"]
        #expect(split("---\ntitle: A\nBody\n").1 == expected)
        #expect(split("---").1 == expected)
        #expect(split("---\n").1 == expected)
    }

    @Test func emptyBlock() throws {
        let fm = try #require(split("---\n---\nBody\n").0)
        #expect(fm.hasFrontMatter)
        #expect(fm.fields.pairs == [])
        #expect(fm.body == "Body\n")
        #expect(fm.bodyLine == 3)
        let commentOnly = try #require(split("---\n# nothing\n---\n").0)
        #expect(commentOnly.fields.pairs == [])
        #expect(commentOnly.body == "")
    }

    @Test func bodyRulesStayIntact() throws {
        let fm = try #require(split("---\ntitle: A\n---\nabove\n\n---\n\nbelow\n---\n").0)
        #expect(fm.body == "above\n\n---\n\nbelow\n---\n")
    }

    /// Hugo's page lexer skips white space before front matter (roweb3's
    /// 2025-07-03-champions-2025/index.en.md starts with a blank line): so does feedgen.
    @Test func blankLinesAndSpacesBeforeTheFenceAreSkipped() throws {
        let (parsed, diagnostics) = split([0xEF, 0xBB, 0xBF] + Array("\n \n---\ntitle: A\n---\nBody\n".utf8))
        let fm = try #require(parsed)
        #expect(fm.hasFrontMatter)
        #expect(fm.fields["title"]?.string == "A")
        #expect(fm.body == "Body\n")
        #expect(fm.bodyLine == 6)
        #expect(diagnostics == [])
        // Positions in the YAML count from the file's first line.
        #expect(fm.fields["title"]?.line == 4)
        let indented = try #require(split("  ---\ntitle: A\n---\n").0)
        #expect(indented.fields["title"]?.string == "A")
        let notAFence = try #require(split("----\nx\n").0)
        #expect(!notAFence.hasFrontMatter)
        // A thematic break that closes nothing is Markdown without a word.
        #expect(split("\n---\n\nText.\n").1 == [])
    }

    @Test func noFrontMatterIsAllBody() throws {
        let fm = try #require(split("# Hello\n").0)
        #expect(!fm.hasFrontMatter)
        #expect(fm.body == "# Hello\n")
        #expect(fm.bodyLine == 1)
        #expect(fm.fields.pairs == [])
    }

    @Test func tomlFrontMatterIsReadWithPositions() throws {
        let fm = try #require(split("\n+++\ntitle = 'A'\nweight = 2\n+++\nBody\n").0)
        #expect(fm.hasFrontMatter)
        #expect(fm.fields["title"]?.kind == .scalar("A", plain: false))
        #expect(fm.fields["weight"]?.int == 2)
        #expect(fm.fields["weight"]?.line == 4)
        #expect(fm.fields["weight"]?.column == 10)
        #expect(fm.fields.pairs?.map { $0.key.string } == ["title", "weight"])
        #expect(fm.fields.pairs?.last?.key.line == 4)
        #expect(fm.body == "Body\n")
        #expect(fm.bodyLine == 6)
        // `---` and `...` do not close TOML.
        #expect(split("+++\ntitle = 'A'\n---\n").1 == ["content/a.md:1:1: error: TOML front matter starting here is not closed by a '+++' line"])
        #expect(split("\n\n +++\ntitle = 'A'\n").1 == ["content/a.md:3:2: error: TOML front matter starting here is not closed by a '+++' line"])
        let empty = try #require(split("+++\n+++\nB").0)
        #expect(empty.hasFrontMatter && empty.fields.pairs == [] && empty.body == "B")
    }

    @Test func jsonFrontMatterIsReadAsYAMLFlowSyntax() throws {
        // Hugo's documented example (gohugo.io, content-management/front-matter), with a body.
        let text = """
            {
                "title": "spf13-vim 3.0 release and new website",
                "description": "spf13-vim is a cross platform distribution of vim plugins and resources for Vim.",
                "tags": [ ".vimrc", "plugins", "spf13-vim", "vim" ],
                "date": "2012-04-06",
            \t"categories": [
                    "Development",
                    "VIM"
                ],
                "slug": "spf13-vim-3-0-release-and-new-website",
                "draft":false,"weight":3, "note": "a \\"}\\" in a string"
            }

            Content of the file goes Here

            """
        let (fm, errors) = split(text)
        #expect(errors == [])
        let frontMatter = try #require(fm)
        #expect(frontMatter.fields["title"]?.string == "spf13-vim 3.0 release and new website")
        #expect(frontMatter.fields["tags"]?.elements?.compactMap(\.string) == [".vimrc", "plugins", "spf13-vim", "vim"])
        #expect(frontMatter.fields["date"]?.line == 5)
        #expect(frontMatter.fields["date"]?.column == 13)
        #expect(frontMatter.fields["draft"]?.bool == false)
        #expect(frontMatter.fields["weight"]?.int == 3)
        #expect(frontMatter.fields["note"]?.string == "a \"}\" in a string")
        #expect(frontMatter.body == "\nContent of the file goes Here\n")
        #expect(frontMatter.bodyLine == 13)
        #expect(split("{\"title\": \"A\"}\nB").0?.fields["title"]?.string == "A")
        #expect(split("{\n  \"title\": \"A\"\n").1 == ["content/a.md:1:1: error: JSON front matter starting here is not closed by a matching '}'"])
        #expect(
            split("{\n  \"title\": \"é\"\n}  # B\n").1 == [
                "content/a.md:3:4: error: text follows the JSON front matter's closing '}' on its line; start the body on the next line"
            ])
        #expect(split("{\n  \"title\": \"A\",,\n}\n").1 == ["content/a.md:2:16: error: JSON front matter: did not find expected node content"])
        // A Hugo shortcode on the first line is body, not JSON.
        #expect(split("{{< note >}}\n").0?.body == "{{< note >}}\n")
        // Blank lines and spaces before the `{` are skipped, as Hugo's page lexer skips them;
        // places stay those of the file.
        let indented = try #require(split("\n \n  {\n    \"title\": \"After blanks\",\n    \"weight\": 2\n  }\nBody\n").0)
        #expect(indented.fields["title"]?.string == "After blanks")
        #expect(indented.fields["weight"]?.line == 5)
        #expect(indented.fields["weight"]?.column == 15)
        #expect(indented.body == "Body\n")
        #expect(indented.bodyLine == 7)
        #expect(split("\n\n  {\n  \"title\": \"A\"\n").1 == ["content/a.md:3:3: error: JSON front matter starting here is not closed by a matching '}'"])
        #expect(split("\n{\"title\": \"A\",,}\n").1 == ["content/a.md:2:15: error: JSON front matter: did not find expected node content"])
        #expect(split("\n\n{{< note >}}\n").0?.hasFrontMatter == false)
        let tabbed = try #require(split("\n\t{\"title\": \"Tab lead\", \"weight\": x}\nBody.\n").0)
        #expect(tabbed.fields["title"]?.string == "Tab lead" && tabbed.fields["weight"]?.column == 34 && tabbed.bodyLine == 3)
    }

    /// A Liquid tag or output, a shortcode or an attribute list first (Jekyll's include-first
    /// files) is body: a JSON object's `{` is followed by white space, `"` or `}`.
    @Test func liquidFirstIsBodyNotJSON() throws {
        for text in ["{% include intro.html %}\n\nBody\n", "{{ page.title }}\n", "\n  {%- comment -%} x {%- endcomment -%}\n", "{:toc}\n", "{title: A}\n"] {
            let (fm, errors) = split(text)
            #expect(errors == [])
            let body = try #require(fm)
            #expect(!body.hasFrontMatter && body.body == text && body.bodyLine == 1)
        }
        #expect(split("{}\nB").0?.hasFrontMatter == true)
        #expect(split("{\"title\": \"A\" \"draft\": true}\n").1 == ["content/a.md:1:15: error: JSON front matter: did not find expected ',' or '}'"])
    }

    @Test func invalidUTF8ReportsTheFirstBadByte() {
        let bytes = Array("---\ntitle: é".utf8) + [0xFF] + Array("\n---\n".utf8)
        #expect(split(bytes).1 == ["content/a.md:2:9: error: file is not valid UTF-8 (invalid byte at offset 13)"])
        // A truncated sequence, after CRLF lines and a BOM (the offset counts the BOM, the column does not).
        let truncated = [0xEF, 0xBB, 0xBF] + Array("a\r\nb\r\nxy".utf8) + [0xE2, 0x82]
        #expect(split(truncated).1 == ["content/a.md:3:3: error: file is not valid UTF-8 (invalid byte at offset 11)"])
        // An overlong encoding and a surrogate.
        #expect(
            split([0x61, 0xC0, 0xAF]).1 == [
                "content/a.md:1:2: error: file is not valid UTF-8 (invalid byte at offset 1)"
            ])
        #expect(
            split([0xED, 0xA0, 0x80]).1 == [
                "content/a.md:1:1: error: file is not valid UTF-8 (invalid byte at offset 0)"
            ])
    }

    @Test func frontMatterMustBeAMapping() {
        #expect(
            split("---\n- a\n- b\n---\n").1 == [
                "content/a.md:2:1: error: front matter must be a mapping of 'key: value' lines, found a list"
            ])
        #expect(
            split("---\njust text\n---\n").1 == [
                "content/a.md:2:1: error: front matter must be a mapping of 'key: value' lines, found a string"
            ])
    }

    @Test func nullDocumentIsAnEmptyMapping() throws {
        let fm = try #require(split("---\n~\n---\nx").0)
        #expect(fm.fields.pairs == [])
    }
}
