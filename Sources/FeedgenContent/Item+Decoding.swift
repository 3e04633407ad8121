import FeedgenDiagnostics

/// What an item gets from where it was found, before its front matter is read.
struct ItemOrigin {
    var sourcePath: String
    var location: SourceLocation
    var defaultID: String
    var defaultTitle: String
    var fileName: String
    var html: String = ""
    var summary: String?
    var hasBody = false
}

extension Item {
    /// The front matter keys of content-format §5.
    static let knownKeys = [
        "id", "title", "description", "date", "publishDate", "expiryDate", "draft", "weight", "image", "link",
        "type", "tags", "lang", "params",
    ]

    /// Builds an item from its front matter mapping (or inline mapping). Unknown keys become
    /// `params`, with a warning when they look like a typo of a known key.
    static func decode(
        _ fields: YAMLNode, origin: ItemOrigin, suggestions: KeySuggestions, reader: inout FieldReader
    ) -> Item {
        var item = Item(
            id: origin.defaultID, sourcePath: origin.sourcePath, location: origin.location,
            title: origin.defaultTitle, description: origin.summary, html: origin.html, hasBody: origin.hasBody,
            fileName: origin.fileName, frontMatter: fields)

        if let idNode = fields["id"], !idNode.isNull {
            if let id = reader.string(idNode, key: "id") {
                item.id = id
                if let problem = idProblem(id) { reader.error(idNode, problem) }
            }
        } else if let problem = idProblem(item.id) {
            reader.diagnostics.append(.error(origin.location, problem + "; set 'id' in the front matter"))
        }
        if let title = reader.string(fields["title"], key: "title") { item.title = title }
        if let node = fields["description"], let text = reader.string(node, key: "description") {
            item.description = text
        }
        item.date = reader.date(fields["date"], key: "date")
        item.publishDate = reader.date(fields["publishDate"], key: "publishDate")
        item.expiryDate = reader.date(fields["expiryDate"], key: "expiryDate")
        item.draft = reader.bool(fields["draft"], key: "draft") ?? false
        item.weight = reader.int(fields["weight"], key: "weight")
        item.image = decodeImage(fields["image"], reader: &reader)
        if let linkNode = fields["link"], let link = reader.string(linkNode, key: "link") {
            if let problem = URLRule.problem(link, key: "link", allowed: URLRule.linkSchemes) {
                reader.error(linkNode, problem)
            } else if URLRule.scheme(of: link) == nil, !link.hasPrefix("#"),
                MarkdownLink(destination: link, directory: "content") == nil,
                LinkResolver.outputFile(ofLink: link) == nil
            {
                // A site path is read from the output root (content-format §5); `..` above it
                // names no file the site writes.
                reader.error(
                    linkNode, "'link' '\(link)' leads outside the output folder; link to a file of the site or write a full URL (https://…)")
            } else {
                item.link = link
            }
        }
        if let typeNode = fields["type"], let type = reader.string(typeNode, key: "type") {
            if !type.isEmpty,
                type.unicodeScalars.allSatisfy({
                    $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
                })
            {
                item.type = type
            } else {
                reader.error(typeNode, "'type' must be a template name (letters, digits, '-', '_'), found '\(type)'")
            }
        }
        item.tags = reader.stringList(fields["tags"], key: "tags") ?? []
        item.lang = reader.language(fields["lang"], key: "lang")
        item.params = decodeParams(fields, suggestions: suggestions, reader: &reader)
        return item
    }

    /// Nil when `id` can name an output file: `/`-separated segments of letters, digits, `-`,
    /// `_`, `.`, no empty segment, no segment starting with `.`; else the problem.
    static func idProblem(_ id: String) -> String? {
        var valid = true
        var segmentStart = true
        for scalar in id.unicodeScalars {
            if scalar == "/" {
                if segmentStart { valid = false }  // an empty segment or a leading '/'
                segmentStart = true
                continue
            }
            if segmentStart && scalar == "." { valid = false }
            segmentStart = false
            let allowed: Bool
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": allowed = true
            default:
                allowed =
                    !scalar.isASCII
                    && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                        || scalar.properties.generalCategory == .nonspacingMark
                        || scalar.properties.generalCategory == .spacingMark)
            }
            if !allowed { valid = false }
        }
        if segmentStart { valid = false }  // empty id or a trailing '/'
        if valid { return nil }
        return "item id '\(id)' cannot name an output file: use letters, digits, '-', '_' and '.' "
            + "in segments separated by '/', with no empty or '.'-prefixed segment"
    }

    /// WCAG 1.1.1: every image needs a text alternative; an empty one marks it decorative.
    static func missingAltWarning(_ src: String) -> String {
        "image '\(src)' has no 'alt' text, so screen readers skip it; describe it with 'image: {src: \(src), alt: \"…\"}', or write 'alt: \"\"' if it is decorative"
    }

    private static func decodeImage(_ node: YAMLNode?, reader: inout FieldReader) -> ItemImage? {
        guard let node, !node.isNull else { return nil }
        let location = reader.location(node)
        switch node.kind {
        case .scalar(let src, _):
            guard !src.isEmpty else {
                reader.error(node, "'image' must not be empty")
                return nil
            }
            if let problem = URLRule.problem(src, key: "image", allowed: URLRule.imageSchemes) {
                reader.error(node, problem)
                return nil
            }
            reader.warning(node, missingAltWarning(src))
            return ItemImage(src: src, location: location)
        case .mapping:
            reader.rejectUnknownKeys(node, known: ["src", "alt", "width", "height"], in: "'image'")
            let alt = reader.string(node["alt"], key: "alt")
            let width = positive(reader.int(node["width"], key: "width"), node["width"], "width", &reader)
            let height = positive(reader.int(node["height"], key: "height"), node["height"], "height", &reader)
            guard let src = reader.string(node["src"], key: "src") else {
                if node["src"].map(\.isNull) ?? true { reader.error(node, "'image' needs a 'src'") }
                return nil
            }
            guard !src.isEmpty else {
                reader.error(node["src"]!, "'src' must not be empty")
                return nil
            }
            if let problem = URLRule.problem(src, key: "src", allowed: URLRule.imageSchemes) {
                reader.error(node["src"]!, problem)
                return nil
            }
            if node["alt"] == nil { reader.warning(node, missingAltWarning(src)) }
            return ItemImage(src: src, alt: alt, width: width, height: height, location: location)
        case .sequence:
            reader.error(node, "'image' must be a path or a mapping with 'src', 'alt', 'width', 'height', found a list")
            return nil
        }
    }

    private static func positive(_ value: Int?, _ node: YAMLNode?, _ key: String, _ reader: inout FieldReader) -> Int? {
        guard let value, let node else { return nil }
        guard value > 0 else {
            reader.error(node, "'\(key)' must be a positive integer, found '\(value)'")
            return nil
        }
        return value
    }

    /// The `params` mapping merged with the unknown keys, in source order; the first of two
    /// same-named params wins (with a warning).
    private static func decodeParams(
        _ fields: YAMLNode, suggestions: KeySuggestions, reader: inout FieldReader
    ) -> [YAMLPair] {
        var params: [YAMLPair] = []
        var lines: [String: Int] = [:]
        func add(_ pair: YAMLPair, reader: inout FieldReader) {
            let name = pair.key.string ?? ""
            if let first = lines[name] {
                reader.warning(pair.key, "param '\(name)' is already defined at line \(first); this one is ignored")
                return
            }
            lines[name] = pair.key.line
            params.append(pair)
        }
        for pair in fields.pairs ?? [] {
            guard let key = pair.key.string else {
                reader.error(pair.key, "keys must be strings, found \(pair.key.kindDescription)")
                continue
            }
            if key == "params" {
                if pair.value.isNull { continue }
                guard let inner = pair.value.pairs else {
                    reader.error(pair.value, "'params' must be a mapping, found \(FieldReader.found(pair.value))")
                    continue
                }
                for p in inner { add(p, reader: &reader) }
            } else if !knownKeys.contains(key) {
                if let hit = suggestions.closest(to: key) {
                    reader.warning(pair.key, "unknown key '\(key)' is kept as a param (did you mean '\(hit)'?)")
                }
                add(pair, reader: &reader)
            }
        }
        return params
    }
}
