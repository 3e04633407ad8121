import FeedgenDiagnostics

/// What an item gets from where it was found, before its front matter is read.
struct ItemOrigin {
    var sourcePath: String
    var location: SourceLocation
    var defaultID: String
    var defaultTitle: String
    var fileName: String
    /// The date of a `YYYY-MM-DD-slug` file name (``ItemName``), used when the front matter has none.
    var defaultDate: ContentDate?
    /// The language of a `name.<lang>.md` file name (``ItemLanguage``) when it is not the site's.
    var defaultLang: String?
    var html: String = ""
    var summary: String?
    var hasBody = false
}

extension Item {
    /// The front matter keys of content-format §5.
    package static let knownKeys = [
        "id", "title", "description", "date", "publishDate", "expiryDate", "draft", "weight", "image", "link",
        "type", "tags", "lang", "params", "published",
    ]

    /// Builds an item from its front matter mapping (or inline mapping). Unknown keys become
    /// `params`, with a warning when they look like a typo of a known key.
    static func decode(
        _ written: YAMLNode, origin: ItemOrigin, suggestions: KeySuggestions, reader: inout FieldReader
    ) -> Item {
        let fields = canonicalKeys(written, reader: &reader)
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
        if let title = reader.string(fields["title"], key: "title") {
            item.title = title
        } else if fields["title"] == nil, let (title, rest) = ItemTitle.leadingHeading(origin.html) {
            // The page template shows the title as its heading: the body's own is not repeated.
            item.title = title
            item.html = rest
            item.hasBody = rest.contains { !$0.isWhitespace }
        }
        if let node = fields["description"], let text = reader.string(node, key: "description") {
            item.description = text
        }
        // MkDocs' blog writes `date: {created: …, updated: …}`: `created` is the date; feedgen
        // has no date of last change, so `updated` is not read.
        let dateNode = fields["date"].flatMap { $0.pairs != nil ? $0["created"] ?? $0 : $0 }
        item.date = reader.date(dateNode, key: "date") ?? (fields["date"] == nil ? origin.defaultDate : nil)
        item.publishDate = reader.date(fields["publishDate"], key: "publishDate")
        item.expiryDate = reader.date(fields["expiryDate"], key: "expiryDate")
        item.draft = reader.bool(fields["draft"], key: "draft") ?? false
        if let node = fields["published"], !node.isNull {
            // Jekyll's flag (`published: false` hides a post), or Hugo's alias of publishDate.
            if let published = node.bool {
                if !published { item.draft = true }
            } else if let text = node.string, fields["publishDate"] == nil,
                let date = ContentDate.parse(text, timeZone: reader.timeZone)
            {
                item.publishDate = date
            } else if fields["publishDate"] == nil {
                reader.error(node, "'published' must be true or false (Jekyll) or a date (Hugo's alias of 'publishDate'), found \(FieldReader.found(node))")
            }
        }
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
        item.tags = reader.words(fields["tags"], key: "tags") ?? []
        item.lang = reader.language(fields["lang"], key: "lang") ?? (fields["lang"] == nil ? origin.defaultLang : nil)
        item.params = decodeParams(fields, suggestions: suggestions, reader: &reader)
        applyBuildOptions(&item, reader: &reader)
        return item
    }

    /// `fields` with each key that is a known key in another case (`Draft`, `publishdate`: Hugo
    /// lowercases front matter keys) spelt as feedgen spells it, so that it takes effect instead
    /// of becoming a param. Two spellings of one key are an error at the one dropped: the exact
    /// spelling is kept, else the first. Unchanged (no copy) when every key is spelt exactly.
    static func canonicalKeys(_ fields: YAMLNode, reader: inout FieldReader) -> YAMLNode {
        guard let pairs = fields.pairs,
            pairs.contains(where: { pair in
                pair.key.string.map { !knownKeys.contains($0) && knownKeysByLowercase[$0.lowercased()] != nil } ?? false
            })
        else { return fields }
        // The index of the pair kept for each known key, by its canonical spelling.
        var kept: [String: Int] = [:]
        var result: [YAMLPair?] = pairs
        for (index, pair) in pairs.enumerated() {
            guard let key = pair.key.string, let canonical = knownKeysByLowercase[key.lowercased()] else { continue }
            var renamed = pair
            renamed.key.kind = .scalar(canonical, plain: true)
            result[index] = renamed
            guard let other = kept[canonical] else {
                kept[canonical] = index
                continue
            }
            // Keep the exact spelling, else the first one written.
            let (keep, drop) = key == canonical ? (index, other) : (other, index)
            let dropped = pairs[drop].key
            let keptKey = pairs[keep].key
            reader.error(
                dropped,
                "duplicate key '\(dropped.string ?? canonical)': '\(keptKey.string ?? canonical)' at line \(keptKey.line), column \(keptKey.column) is the same key (front matter keys match in any case, as in Hugo); remove one")
            result[drop] = nil
            kept[canonical] = keep
        }
        var node = fields
        node.kind = .mapping(result.compactMap { $0 })
        return node
    }

    /// ``knownKeys`` by their lowercase spelling.
    static let knownKeysByLowercase = Dictionary(uniqueKeysWithValues: knownKeys.map { ($0.lowercased(), $0) })

    /// Nil when `id` can name an output file: `/`-separated segments of letters, digits, `-`,
    /// `_`, `.`, no empty segment, no segment starting with `.`; else the problem.
    static func idProblem(_ id: String) -> String? {
        // An ASCII id (nearly every one) is read on its bytes, a character per byte.
        let ascii = id.withUTF8Bytes { b -> Bool? in
            ByteScan.isASCII(b) ? segmentsAreValid(b, slash: UInt8(ascii: "/"), dot: UInt8(ascii: "."), allowed: ItemName.isASCIIIDByte) : nil
        }
        let valid = ascii ?? segmentsAreValid(id.unicodeScalars, slash: "/", dot: ".", allowed: ItemName.isIDScalar)
        if valid { return nil }
        return "item id '\(id)' cannot name an output file: use letters, digits, '-', '_' and '.' "
            + "in segments separated by '/', with no empty or '.'-prefixed segment"
    }

    /// ``idProblem(_:)``'s rule on `units` (an id's bytes or scalars): `slash`-separated
    /// segments of `allowed` units, none empty, none starting with `dot`.
    private static func segmentsAreValid<Units: Sequence>(
        _ units: Units, slash: Units.Element, dot: Units.Element, allowed: (Units.Element) -> Bool
    ) -> Bool where Units.Element: Equatable {
        var valid = true
        var segmentStart = true
        for unit in units {
            if unit == slash {
                if segmentStart { valid = false }  // an empty segment or a leading '/'
                segmentStart = true
                continue
            }
            if segmentStart && unit == dot { valid = false }
            segmentStart = false
            if !allowed(unit) { valid = false }
        }
        if segmentStart { valid = false }  // empty id or a trailing '/'
        return valid
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
            ignoreUnknownImageKeys(node, reader: &reader)
            let alt = reader.string(node["alt"], key: "alt")
            let width = positive(reader.int(node["width"], key: "width"), node["width"], "width", &reader)
            let height = positive(reader.int(node["height"], key: "height"), node["height"], "height", &reader)
            // `path` is Chirpy's (Jekyll theme) name for `src`.
            let srcKey = node["src"] == nil && node["path"] != nil ? "path" : "src"
            if srcKey == "src", let path = node["path"] {
                reader.warning(path, "'path' is ignored: this image also has 'src'")
            }
            guard let src = reader.string(node[srcKey], key: srcKey) else {
                if node[srcKey].map(\.isNull) ?? true { reader.error(node, "'image' needs a 'src' (or 'path')") }
                return nil
            }
            guard !src.isEmpty else {
                reader.error(node[srcKey]!, "'\(srcKey)' must not be empty")
                return nil
            }
            if let problem = URLRule.problem(src, key: srcKey, allowed: URLRule.imageSchemes) {
                reader.error(node[srcKey]!, problem)
                return nil
            }
            if node["alt"] == nil { reader.warning(node, missingAltWarning(src)) }
            return ItemImage(src: src, alt: alt, width: width, height: height, location: location)
        case .sequence:
            reader.error(node, "'image' must be a path or a mapping with 'src' (or 'path'), 'alt', 'width', 'height', found a list")
            return nil
        }
    }

    /// The keys an `image` mapping may have: feedgen's, and Chirpy's `path`.
    static let imageKeys = ["src", "path", "alt", "width", "height"]

    /// An unknown key in an `image` mapping is a warning, not an error: themes add their own
    /// (Chirpy's `lqip`, a blurred placeholder), and the image is still shown.
    private static func ignoreUnknownImageKeys(_ node: YAMLNode, reader: inout FieldReader) {
        for pair in node.pairs ?? [] {
            guard let key = pair.key.string else {
                reader.error(pair.key, "keys in 'image' must be strings, found \(pair.key.kindDescription)")
                continue
            }
            if imageKeys.contains(key) { continue }
            let hint = Suggestion.didYouMean(key, in: imageKeys)
            reader.warning(
                pair.key, "unknown key '\(key)' in 'image' is ignored" + (hint.isEmpty ? " (known keys: \(imageKeys.joined(separator: ", ")))" : hint))
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

    /// `categories: release security` (Jekyll's space-separated form) as the list
    /// `[release, security]`, so that templates see a list either way; any other value as written.
    static func wordList(_ pair: YAMLPair) -> YAMLPair {
        guard case .scalar(let text, _) = pair.value.kind, !pair.value.isNull, pair.value.tag == nil else { return pair }
        let words = text.split(whereSeparator: \.isWhitespace).map {
            YAMLNode(.scalar(String($0), plain: true), line: pair.value.line, column: pair.value.column)
        }
        return YAMLPair(key: pair.key, value: YAMLNode(.sequence(words), line: pair.value.line, column: pair.value.column))
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
                add(key == "categories" ? wordList(pair) : pair, reader: &reader)
            }
        }
        return params
    }
}
