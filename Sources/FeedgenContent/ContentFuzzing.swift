/// Entry points for the libFuzzer targets in Fuzz/ (and for tests): the same code paths the
/// loader runs on one file, without the file system.
public enum ContentFuzzing {
    /// Splits `bytes` as an item file, parses its front matter and decodes the item.
    /// Returns the number of diagnostics.
    public static func loadItem(_ bytes: [UInt8]) -> Int {
        let (frontMatter, diagnostics) = FrontMatter.parse(bytes, path: "content/fuzz/item.md")
        guard let frontMatter else { return diagnostics.count }
        var reader = FieldReader(path: "content/fuzz/item.md")
        let markdown = MarkdownOptions(unsafe: false, smart: true)
        let body = markdown.render(frontMatter.body, source: ("content/fuzz/item.md", frontMatter.bodyLine))
        let origin = ItemOrigin(
            sourcePath: "content/fuzz/item.md", location: .init(path: "content/fuzz/item.md", line: 1, column: 1),
            defaultID: "fuzz/item", defaultTitle: "item", fileName: "item.md", html: body.html, summary: body.summary,
            hasBody: body.hasBody)
        _ = Item.decode(frontMatter.fields, origin: origin, suggestions: KeySuggestions(candidates: Item.knownKeys), reader: &reader)
        return diagnostics.count + reader.diagnostics.count
    }

    /// Renders `text` as an item body (safe mode, smart punctuation, `.md` links rewritten, other
    /// generators' template syntax taken out first).
    public static func renderMarkdown(_ text: String) -> Int {
        let r = MarkdownOptions(unsafe: false, smart: true).render(text, source: ("content/fuzz/item.md", 5))
        return r.html.utf8.count + r.links.count + r.warnings.count
    }

    /// Reads `link` the ways the build does (scheme check, `.md` content link, site path) and
    /// traps when a rule that pages and feeds rely on is broken: the path and suffix rebuild the
    /// link, and a site path never climbs above the output root or starts with `/`.
    public static func resolveLink(_ link: String) -> Int {
        let problem = URLRule.problem(link, key: "link", allowed: URLRule.linkSchemes)
        let content = MarkdownLink(destination: link, directory: "content/fuzz")
        if let folder = MarkdownLink(destination: link, directory: "content/fuzz", folders: true), content == nil {
            precondition(folder.target.hasPrefix("content/") && folder.target.hasSuffix("/"), "folder link '\(folder.target)'")
        }
        let (path, suffix) = LinkResolver.split(link)
        precondition(String(path) + suffix == link, "split lost text")
        precondition(suffix.isEmpty || suffix.first == "?" || suffix.first == "#", "suffix starts elsewhere")
        guard let file = LinkResolver.outputFile(ofLink: link) else { return 1 }
        precondition(!file.hasPrefix("/") && !file.isEmpty, "site path '\(file)' is absolute or empty")
        var depth = 0
        for part in file.split(separator: "/") {
            depth += part == ".." ? -1 : part == "." ? 0 : 1
            precondition(depth >= 0, "site path '\(file)' climbs above the root")
        }
        return (problem?.utf8.count ?? 0) + (content?.target.utf8.count ?? 0) + file.utf8.count
    }
}
