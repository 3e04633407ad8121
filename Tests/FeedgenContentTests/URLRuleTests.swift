import Testing

@testable import FeedgenContent

/// `link` and `image` URLs: only http, https, mailto, tel (images: http, https) and relative
/// paths, however the scheme is disguised; an error at the value's line:column otherwise.
@Suite struct URLRuleTests {
    static let linkMessage = "uses the URL scheme 'javascript:', which is not allowed; use http:, https:, mailto:, tel: or a relative path"

    /// The diagnostics of an item whose front matter line 2 is `line`.
    func diagnostics(_ line: String) throws -> [String] {
        let site = try TestSite(["content/s/a.md": "---\n\(line)\n---\nBody.\n"])
        return site.load().diagnostics
    }

    @Test(arguments: [
        // (front matter line, column of the value)
        ("link: javascript:alert(1)", 7),
        ("link: JaVaScRiPt:alert(1)", 7),
        ("link: \" \\tjavascript:alert(1)\"", 7),
        ("link: \"java\\tscript:alert(1)\"", 7),
        ("link: \"java\\nscript:alert(1)\"", 7),
        ("link: 'jav&#x61;script:alert(1)'", 7),
        ("link: '&#106avascript:alert(1)'", 7),
        ("link: '&#0000106;&#97;vascript:alert(1)'", 7),
        ("link: 'javascript&colon;alert(1)'", 7),
        ("link: 'java&Tab;script:alert(1)'", 7),
        ("link:   javascript:alert(1)", 9),
    ])
    func javascriptInAnyDisguiseIsAnError(line: String, column: Int) throws {
        #expect(try diagnostics(line) == ["content/s/a.md:2:\(column): error: 'link' \(Self.linkMessage)"])
    }

    /// A NUL from an escape is an error of its own (YAMLParser); the scheme behind it is still found.
    @Test func nulBeforeTheSchemeIsTwoErrors() throws {
        #expect(try diagnostics("link: \"\\u0000javascript:alert(1)\"") == [
            "content/s/a.md:2:7: error: YAML: this string has the control character U+0000 (from an escape); remove it",
            "content/s/a.md:2:7: error: 'link' \(Self.linkMessage)",
        ])
    }

    @Test func otherSchemesAreErrors() throws {
        let rest = "which is not allowed; use http:, https:, mailto:, tel: or a relative path"
        #expect(try diagnostics("link: vbscript:msgbox(1)") == ["content/s/a.md:2:7: error: 'link' uses the URL scheme 'vbscript:', \(rest)"])
        #expect(try diagnostics("link: data:text/html,<b>x</b>") == ["content/s/a.md:2:7: error: 'link' uses the URL scheme 'data:', \(rest)"])
        #expect(try diagnostics("link: file:///etc/passwd") == ["content/s/a.md:2:7: error: 'link' uses the URL scheme 'file:', \(rest)"])
        #expect(try diagnostics("link: C:/pictures/a.png") == ["content/s/a.md:2:7: error: 'link' uses the URL scheme 'c:', \(rest)"])
    }

    @Test func protocolRelativeIsAnError() throws {
        let message = "a protocol-relative URL that points at file:// when a page is opened from disk; write the scheme, as in https://"
        #expect(try diagnostics("link: //example.org/x") == ["content/s/a.md:2:7: error: 'link' starts with '//', \(message)"])
        #expect(try diagnostics(#"link: '\\example.org'"#) == [#"content/s/a.md:2:7: error: 'link' starts with '\\', "# + message])
        #expect(try diagnostics("link: '&sol;/example.org'") == ["content/s/a.md:2:7: error: 'link' starts with '//', \(message)"])
    }

    @Test func imagesAllowHTTPAndPathsOnly() throws {
        let rest = "which is not allowed; use http:, https: or a relative path"
        #expect(try diagnostics("image: data:image/png;base64,AAAA") == ["content/s/a.md:2:8: error: 'image' uses the URL scheme 'data:', \(rest)"])
        #expect(try diagnostics("image: mailto:someone@example.org") == ["content/s/a.md:2:8: error: 'image' uses the URL scheme 'mailto:', \(rest)"])
        #expect(try diagnostics("image: {src: ' JavaScript:x', alt: A}") == ["content/s/a.md:2:14: error: 'src' uses the URL scheme 'javascript:', \(rest)"])
    }

    @Test(arguments: [
        "https://example.org/a?b=c#d", "HTTP://EXAMPLE.ORG", "mailto:someone@example.org", "tel:+81-3-1234-5678",
        "/about/", "notes/../recipes/index.html", "recipes/miso-soup.html", "#top", "?q=1", "./notes:2026.html",
        "java script:alert(1)", "&amp;#106;avascript:x",
    ])
    func allowedLinks(link: String) throws {
        let site = try TestSite(["content/s/a.md": "---\nlink: '\(link)'\n---\n"])
        let (loaded, diagnostics) = site.load()
        #expect(diagnostics == [])
        #expect(loaded?.feeds[0].sections[0].items.first?.link == link)
    }

    @Test func inlineItemsAreChecked() throws {
        let site = try TestSite([
            "content/s/_section.md": "---\nitems:\n  - title: A\n    link: javascript:alert(1)\n---\n"
        ])
        #expect(site.load().diagnostics == ["content/s/_section.md:4:11: error: 'link' \(Self.linkMessage)"])
    }

    @Test func characterReferences() {
        #expect(URLRule.decodingCharacterReferences("&#106;&#X61;&#x76;a&colon;&Tab;&unknown;&#;&") == "java:\t&unknown;&#;&")
        #expect(URLRule.decodingCharacterReferences("&#x76a") == "\u{76A}")
        #expect(URLRule.decodingCharacterReferences("&#0;&#xD800;&#99999999;") == "\u{FFFD}\u{FFFD}\u{FFFD}")
        #expect(URLRule.normalized(" \u{1}\tja\nva\rscript: \u{0}") == "javascript:")
        #expect(URLRule.scheme(of: "web+app.x-1:") == "web+app.x-1")
        #expect(URLRule.scheme(of: "1http:") == nil)
    }
}
