import FeedgenDiagnostics

/// What `_section.md` says (defaults when the folder has none).
struct SectionSettings: Sendable {
    var title: String?
    var weight = 0
    var layout: YAMLNode?
    var sort: SortOrder = .weight
    var lang: String?
    var controls = true
    var headerHTML = ""
    var headerLinks: [MarkdownLink] = []
    var inlineItems: [Item] = []
    var frontMatter: YAMLNode?

    static let knownKeys = [
        "title", "weight", "layout", "sort", "items", "lang", "controls",
        // Read by FeedgenResolve (SectionViews): a section as a view over other sections.
        "sections", "where", "limit", "seeAll", "pageLayout", "paginate", "terms",
    ]

    /// `sourcePath` is the site-relative `_section.md`; `sectionID` the folder name.
    static func decode(
        _ frontMatter: FrontMatter, sectionID: String, sourcePath: String, markdown: MarkdownOptions,
        suggestions: KeySuggestions, reader: inout FieldReader
    ) -> SectionSettings {
        let fields = frontMatter.fields
        var settings = SectionSettings(frontMatter: fields)
        reader.rejectUnknownKeys(fields, known: knownKeys, in: "_section.md")
        settings.title = reader.string(fields["title"], key: "title")
        settings.weight = reader.int(fields["weight"], key: "weight") ?? 0
        if let layout = fields["layout"], !layout.isNull { settings.layout = layout }
        if let sortNode = fields["sort"], let text = reader.string(sortNode, key: "sort") {
            if let sort = SortOrder(rawValue: text) {
                settings.sort = sort
            } else {
                let names = SortOrder.allCases.map(\.rawValue)
                let hint = Suggestion.didYouMean(text, in: names)
                reader.error(
                    sortNode, "unknown sort '\(text)'; expected one of \(names.joined(separator: ", "))\(hint)")
            }
        }
        settings.lang = reader.language(fields["lang"], key: "lang")
        settings.controls = reader.bool(fields["controls"], key: "controls") ?? true
        let header = markdown.render(frontMatter.body, at: (sourcePath, frontMatter.bodyLine), reader: &reader)
        (settings.headerHTML, settings.headerLinks) = (header.html, header.links)
        if let itemsNode = fields["items"], !itemsNode.isNull {
            if let elements = itemsNode.elements {
                for (index, element) in elements.enumerated() {
                    guard element.pairs != nil else {
                        reader.error(
                            element,
                            "each entry of 'items' must be a mapping of item keys, found \(FieldReader.found(element))")
                        continue
                    }
                    let id = "\(sectionID)/\(index + 1)"
                    let origin = ItemOrigin(
                        sourcePath: sourcePath, location: reader.location(element), defaultID: id, defaultTitle: id,
                        fileName: "")
                    settings.inlineItems.append(
                        Item.decode(element, origin: origin, suggestions: suggestions, reader: &reader))
                }
            } else {
                reader.error(
                    itemsNode, "'items' must be a list of item mappings, found \(FieldReader.found(itemsNode))")
            }
        }
        return settings
    }
}
