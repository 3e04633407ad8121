import FeedgenDiagnostics

/// What `_feed.md` says, before the feed's sections are known.
struct FeedSettings: Sendable {
    var title: String?
    var description: String?
    var lang: String?
    /// The `sections` list: names with their nodes (for diagnostics); nil when absent.
    var sectionOrder: [(name: String, node: YAMLNode)]?
    var sectionsNode: YAMLNode?
    var interSectionSpacing: Double = 0
    var draft = false
    var introHTML = ""
    var introLinks: [MarkdownLink] = []
    var frontMatter: YAMLNode?

    static let knownKeys = ["title", "description", "lang", "sections", "interSectionSpacing", "draft"]

    static func decode(_ frontMatter: FrontMatter, markdown: MarkdownOptions, reader: inout FieldReader) -> FeedSettings
    {
        let fields = frontMatter.fields
        var settings = FeedSettings(frontMatter: fields)
        reader.rejectUnknownKeys(fields, known: knownKeys, in: "_feed.md")
        settings.title = reader.string(fields["title"], key: "title")
        settings.description = reader.string(fields["description"], key: "description")
        settings.lang = reader.language(fields["lang"], key: "lang")
        if let node = fields["sections"], !node.isNull {
            settings.sectionsNode = node
            if let elements = node.elements {
                settings.sectionOrder = []
                for element in elements {
                    if let name = element.string, !element.isNull {
                        settings.sectionOrder!.append((name, element))
                    } else {
                        reader.error(
                            element,
                            "each entry of 'sections' must be a section folder name, found \(element.kindDescription)")
                    }
                }
            } else {
                reader.error(
                    node, "'sections' must be a list of section folder names, found \(FieldReader.found(node))")
            }
        }
        if let spacingNode = fields["interSectionSpacing"],
            let spacing = reader.number(spacingNode, key: "interSectionSpacing")
        {
            if spacing > 100_000 {
                reader.error(
                    spacingNode, "'interSectionSpacing' must be at most 100000 px, found '\(spacingNode.string ?? "")'")
            } else if spacing >= 0 {
                settings.interSectionSpacing = spacing
            } else {
                reader.error(
                    spacingNode, "'interSectionSpacing' must not be negative, found '\(spacingNode.string ?? "")'")
            }
        }
        settings.draft = reader.bool(fields["draft"], key: "draft") ?? false
        let intro = markdown.render(frontMatter.body, at: (reader.path, frontMatter.bodyLine), reader: &reader)
        (settings.introHTML, settings.introLinks) = (intro.html, intro.links)
        return settings
    }
}

/// The Markdown settings of the site (`markdown.unsafe`, `markdown.smart`, `markdown.gfm`).
struct MarkdownOptions: Sendable {
    var unsafe: Bool
    var smart: Bool
    var gfm = true
    /// ``SiteConfig/summaryLength``.
    var summaryLength = SummaryLength.defaultWords

    /// The HTML of a feed intro or section body at `source`, with its links to content files
    /// (as in item bodies); warns where safe mode dropped raw HTML and at other generators'
    /// template syntax (``ForeignSyntax``).
    func render(_ body: String, at source: (path: String, firstLine: Int), reader: inout FieldReader)
        -> (html: String, links: [MarkdownLink])
    {
        let r = render(body, source: source)
        reader.diagnostics += r.warnings
        Self.warnRawHTML(r.rawHTML, reader: &reader)
        reader.diagnostics += r.problems
        return (r.html, r.links)
    }

    /// The HTML and first-paragraph text of an item body, turning links to `.md` files into
    /// `feedgen-md:` links; `("", nil)` for a blank body (cmark is not called). `warnings` are
    /// ``ForeignSyntax``'s (Liquid, shortcodes, kramdown attributes), at their places in the file;
    /// `problems`: a warning per `#fragment` link that names no id of the body, a table too large
    /// to pad. The links', raw HTML's and problems' places are those of the body as written.
    func render(_ body: String, source: (path: String, firstLine: Int)?)
        -> (
            html: String, summary: String?, hasBody: Bool, links: [MarkdownLink], rawHTML: [SourceLocation], warnings: [Diagnostic],
            problems: [Diagnostic]
        )
    {
        var body = body
        var mdx: Diagnostic?
        if let source, source.path.lowercased().hasSuffix(".mdx"), let stripped = MDXModuleLines.strip(body) {
            body = stripped.text
            let lines = stripped.count == 1 ? "its 'import'/'export'/JSX line is" : "its \(stripped.count) 'import'/'export'/JSX lines (the first here) are"
            mdx = .warning(
                SourceLocation(path: source.path, line: source.firstLine + stripped.firstLine - 1, column: 1),
                "MDX: \(lines) left out of the page: feedgen reads .mdx as Markdown and runs no JSX (its tags are raw HTML)")
        }
        // Admonitions and tabs first (their `>` lines are what ForeignSyntax reads), then
        // template syntax; places go back through both maps.
        let blocks = ForeignSyntaxBlocks.process(body)
        let foreign = ForeignSyntax.process(blocks?.text ?? body, unsafe: unsafe)
        var warnings: [Diagnostic] = []
        if let foreign, let source {
            warnings = foreign.warnings.map {
                let (line, column) = blocks?.map.original(line: $0.line, column: $0.column) ?? ($0.line, $0.column)
                return .warning(SourceLocation(path: source.path, line: source.firstLine + line - 1, column: column), $0.message)
            }
        }
        if let mdx { warnings.insert(mdx, at: 0) }
        let text = foreign?.text ?? blocks?.text ?? body
        guard text.utf8.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x09 }) else {
            return ("", nil, false, [], [], warnings, [])
        }
        var r = Markdown.renderWithLinks(text, unsafe: unsafe, smart: smart, gfm: gfm, source: source, figures: foreign?.figures ?? [:])
        if foreign != nil || blocks != nil, let source {
            // cmark saw the processed text: its places go back to the body as written.
            func original(_ location: SourceLocation) -> SourceLocation {
                var (line, column) = (location.line - source.firstLine + 1, location.column)
                if let map = foreign?.map { (line, column) = map.original(line: line, column: column) }
                if let map = blocks?.map { (line, column) = map.original(line: line, column: column) }
                return SourceLocation(path: location.path, line: line + source.firstLine - 1, column: column)
            }
            let linkTags = foreign?.linkTags ?? [:]
            for k in r.links.indices {
                r.links[k].location = original(r.links[k].location)
                // A link from a Jekyll tag or Hugo `ref` shows the tag (its check is then a
                // warning); a `ref`'s fragment is inside its tag.
                guard !linkTags.isEmpty else { continue }
                let destination = r.links[k].destination
                let hash = destination.firstIndex(of: "#") ?? destination.endIndex
                if let tag = linkTags[String(destination[..<hash])] {
                    r.links[k].destination = tag.hasPrefix("{{") ? tag : tag + destination[hash...]
                }
            }
            r.rawHTML = r.rawHTML.map(original)
            r.problems = r.problems.map { Diagnostic($0.severity, original($0.location), $0.message) }
        }
        let summary = r.summary.map { SummaryLength.truncate($0, words: summaryLength) }
        return (r.html, summary, true, r.links, r.rawHTML, warnings, r.problems)
    }

    /// One warning per text where safe mode replaced raw HTML with `<!-- raw HTML omitted -->`,
    /// at the first place, with the count: a page of HTML fragments is one finding, not hundreds.
    static func warnRawHTML(_ locations: [SourceLocation], reader: inout FieldReader) {
        guard let first = locations.first else { return }
        let count = locations.count == 1 ? "" : " at \(locations.count) places in this text, the first here"
        reader.diagnostics.append(.warning(
            first, "raw HTML omitted (Markdown safe mode)\(count); set 'markdown.unsafe: true' in feedgen.yaml to keep it"))
    }
}
