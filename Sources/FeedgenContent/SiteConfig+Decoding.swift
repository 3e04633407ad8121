import Foundation
import FeedgenDiagnostics

extension SiteConfig {
    static let knownKeys = [
        "title", "language", "baseURL", "output", "timeZone", "markdown", "summaryLength", "theme", "images", "paginate",
        "strings",
    ]

    /// Reads `feedgen.yaml`'s mapping (nil: no file). Wrong values are reported and replaced
    /// by their defaults.
    static func decode(_ node: YAMLNode?, defaultTitle: String, reader: inout FieldReader) -> SiteConfig {
        var config = SiteConfig(title: defaultTitle, source: node)
        guard let node else { return config }
        reader.rejectUnknownKeys(node, known: knownKeys, in: "feedgen.yaml")
        if let title = reader.string(node["title"], key: "title") { config.title = title }
        if let language = reader.language(node["language"], key: "language") { config.language = language }
        if let urlNode = node["baseURL"], let url = reader.string(urlNode, key: "baseURL") {
            if isAbsoluteURL(url), url.contains(where: { $0 == "?" || $0 == "#" }) {
                reader.error(
                    urlNode,
                    "'baseURL' must not have a query ('?') or fragment ('#'): page paths are appended to it; found '\(url)'")
            } else if isAbsoluteURL(url) {
                config.baseURL = url
            } else {
                reader.error(
                    urlNode, "'baseURL' must be an absolute URL such as 'https://example.org/', found '\(url)'")
            }
        }
        if let outputNode = node["output"], let output = reader.string(outputNode, key: "output") {
            if output.isEmpty {
                reader.error(outputNode, "'output' must not be empty")
            } else {
                config.output = output
            }
        }
        if let zoneNode = node["timeZone"], let zone = reader.string(zoneNode, key: "timeZone") {
            if PublishWindow.isKnownTimeZone(zone) {
                config.timeZone = zone
            } else {
                reader.error(zoneNode, "unknown time zone '\(zone)'; use an IANA name such as 'Europe/Paris' or 'UTC'")
            }
        }
        if let markdown = node["markdown"], !markdown.isNull {
            if markdown.pairs == nil {
                reader.error(
                    markdown,
                    "'markdown' must be a mapping with 'unsafe', 'smart' and 'gfm', found \(FieldReader.found(markdown))")
            } else {
                reader.rejectUnknownKeys(markdown, known: ["unsafe", "smart", "gfm"], in: "'markdown'")
                if let unsafe = reader.bool(markdown["unsafe"], key: "unsafe") { config.markdownUnsafe = unsafe }
                if let smart = reader.bool(markdown["smart"], key: "smart") { config.markdownSmart = smart }
                if let gfm = reader.bool(markdown["gfm"], key: "gfm") { config.markdownGFM = gfm }
            }
        }
        if let lengthNode = node["summaryLength"], let length = reader.int(lengthNode, key: "summaryLength") {
            if length >= 1 {
                config.summaryLength = length
            } else {
                reader.error(lengthNode, "'summaryLength' must be a whole number of words ≥ 1, found \(length)")
            }
        }
        if let pages = node["paginate"], !pages.isNull {
            if pages.bool == false {
                config.pageSize = nil
            } else if let size = pages.int, size >= 1 {
                config.pageSize = size
            } else {
                reader.error(pages, "'paginate' must be a whole number of at least 1 (items per page), or false, found \(FieldReader.found(pages))")
            }
        }
        if let images = node["images"], !images.isNull {
            decodeImageLimits(images, into: &config, reader: &reader)
        }
        if let strings = node["strings"], !strings.isNull {
            decodeStrings(strings, into: &config, reader: &reader)
        }
        if let theme = node["theme"], !theme.isNull {
            if let pairs = theme.pairs {
                for pair in pairs {
                    guard let key = pair.key.string, let value = pair.value.string else {
                        reader.error(
                            pair.value,
                            "theme tokens must be 'name: value' scalars, found \(pair.value.kindDescription)")
                        continue
                    }
                    // Tokens become CSS custom properties: a name must be an identifier and a
                    // value may not end the declaration or the rule (no `;`, braces or markup).
                    let validName = key.first.map { $0.isASCII && $0.isLetter } == true
                        && key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
                    if !validName {
                        reader.error(pair.key, "theme token name '\(key)' must be letters, digits and '-', starting with a letter (e.g. cornerRadius)")
                        continue
                    }
                    if value.contains(where: { ";{}<>\\\n\r".contains($0) }) {
                        reader.error(pair.value, "theme token '\(key)' has a value with ';', braces, '<', '>' or a backslash, which would break out of the stylesheet; give a plain CSS value such as 12px or #0a5dc2")
                        continue
                    }
                    // An unclosed CSS string or comment would swallow the declarations after it.
                    var quote: Character?  // the quote of the CSS string being read
                    for c in value where c == "\"" || c == "'" {
                        if quote == nil { quote = c } else if quote == c { quote = nil }
                    }
                    if quote != nil || value.contains("/*") {
                        reader.error(pair.value, "theme token '\(key)' has an unbalanced quote or a '/*', which would void the tokens after it in the stylesheet; close the string (\"Inter\", sans-serif)")
                        continue
                    }
                    // The layout reads these two in px (PreparedSite.layoutEnvironment): bounded
                    // like layout lengths, so that no width overflows an Int.
                    if key == "layoutMargin" || key == "readableWidth", let px = Self.pixelNumber(value),
                        !(px.isFinite && abs(px) <= Limits.maxLength)
                    {
                        reader.error(pair.value, "theme token '\(key)' must be at most \(Int(Limits.maxLength))px, found '\(value)'")
                        continue
                    }
                    config.theme.append((key, value))
                }
            } else {
                reader.error(theme, "'theme' must be a mapping of design tokens, found \(FieldReader.found(theme))")
            }
        }
        return config
    }

    /// `images: {maxMegapixels: 100, maxFileMiB: 50}` (docs/limits.md): range-checked before
    /// they become Ints.
    static func decodeImageLimits(_ images: YAMLNode, into config: inout SiteConfig, reader: inout FieldReader) {
        guard images.pairs != nil else {
            reader.error(images, "'images' must be a mapping with 'maxMegapixels' and 'maxFileMiB', found \(FieldReader.found(images))")
            return
        }
        reader.rejectUnknownKeys(images, known: ["maxMegapixels", "maxFileMiB"], in: "'images'")
        if let node = images["maxMegapixels"], let mp = reader.number(node, key: "maxMegapixels") {
            if mp > 0, mp <= 10_000 {
                config.imageMaxPixels = max(1, Int((mp * 1_000_000).rounded()))
            } else {
                reader.error(node, "'maxMegapixels' must be a number above 0 and at most 10000, found \(FieldReader.found(node))")
            }
        }
        if let node = images["maxFileMiB"], let mib = reader.int(node, key: "maxFileMiB") {
            if (1...4096).contains(mib) {
                config.imageMaxFileSize = mib << 20
            } else {
                reader.error(node, "'maxFileMiB' must be a whole number from 1 to 4096, found \(FieldReader.found(node))")
            }
        }
    }

    /// `strings: {seeAll: "More", items: "{count} posts", ja: {seeAll: "もっと見る"}}`: known keys
    /// (``UIStrings/Key``), each a non-empty string whose `{name}` placeholders are the key's own,
    /// and language tags (``isLanguageTag(_:)``), each a mapping of the same keys for pages in
    /// that language.
    static func decodeStrings(_ node: YAMLNode, into config: inout SiteConfig, reader: inout FieldReader) {
        guard let pairs = node.pairs else {
            reader.error(node, "'strings' must be a mapping of interface texts such as '{seeAll: \"More\"}', found \(FieldReader.found(node))")
            return
        }
        let known = UIStrings.Key.allCases.map(\.rawValue)
        // A language tag holds a mapping; a short name with a text is a key's typo (`tag: Tagz`).
        let languages = pairs.compactMap { pair in
            pair.key.string.flatMap { name in
                UIStrings.Key(rawValue: name) == nil && isLanguageTag(name)
                    && (pair.value.pairs != nil || Suggestion.didYouMean(name, in: known).isEmpty) ? name : nil
            }
        }
        reader.rejectUnknownKeys(node, known: known + languages, in: "'strings'")
        config.strings = decodeTexts(pairs, in: "'strings'", reader: &reader)
        var tagLines: [String: Int] = [:]
        for pair in pairs {
            guard let name = pair.key.string, languages.contains(name) else { continue }
            let tag = LanguageTag.normalized(name)
            if let problem = LanguageTag.unknownLanguage(name) {
                reader.warning(pair.key, "'\(name)' in 'strings' \(problem): its texts apply only to pages whose 'lang' is '\(name)'")
            }
            if let first = tagLines[tag] {
                reader.error(pair.key, "'\(name)' in 'strings' is the language of line \(first) again (tags are read without case, '_' as '-'); merge the two")
                continue
            }
            tagLines[tag] = pair.key.line
            guard let texts = pair.value.pairs else {
                reader.error(
                    pair.value,
                    "'\(name)' in 'strings' is a language: its value must be a mapping of that language's texts such as '{seeAll: \"…\"}', found \(FieldReader.found(pair.value))")
                continue
            }
            let context = "'strings.\(name)'"
            reader.rejectUnknownKeys(pair.value, known: known, in: context)
            config.stringsByLanguage[tag] = decodeTexts(texts, in: context, reader: &reader)
        }
    }

    /// The known keys' texts among `pairs` (unknown keys were reported by the caller).
    private static func decodeTexts(_ pairs: [YAMLPair], in context: String, reader: inout FieldReader) -> [UIStrings.Key: String] {
        var texts: [UIStrings.Key: String] = [:]
        for pair in pairs {
            guard let name = pair.key.string, let key = UIStrings.Key(rawValue: name),
                let text = reader.string(pair.value, key: name)
            else { continue }
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty {
                reader.error(pair.value, "'\(name)' in \(context) must not be empty: it is the only text of a link or label; remove it to use the built-in text")
                continue
            }
            let unknown = placeholders(in: trimmed).filter { !key.placeholders.contains($0) }
            if let first = unknown.first {
                let allowed = key.placeholders.isEmpty
                    ? "'\(name)' takes none" : "'\(name)' takes " + key.placeholders.map { "{\($0)}" }.joined(separator: " and ")
                reader.error(pair.value, "'\(name)' in \(context) has the placeholder '{\(first)}', which feedgen does not fill in: \(allowed)")
                continue
            }
            texts[key] = trimmed
        }
        return texts
    }

    /// Whether `name` reads as a BCP 47 language tag: a primary language subtag of two or three
    /// letters, then subtags of one to eight letters or digits after `-` or `_` (`ja`, `pt-BR`,
    /// `zh_Hant`).
    static func isLanguageTag(_ name: String) -> Bool {
        let parts = name.split(separator: "-", omittingEmptySubsequences: false).flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }
        guard let primary = parts.first, (2...3).contains(primary.count), primary.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }

    /// The names of `{name}` placeholders in `text` (ASCII letters between braces).
    static func placeholders(in text: String) -> [String] {
        var names: [String] = []
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { break }
            let name = after[..<close]
            if !name.isEmpty, name.allSatisfy({ $0.isASCII && $0.isLetter }) { names.append(String(name)) }
            rest = after
        }
        return names
    }

    /// `16`, `16px`, `1e400px` → its number, as the layout reads a token (any size, for the check).
    static func pixelNumber(_ value: String) -> Double? {
        let text = value.trimmingCharacters(in: .whitespaces)
        return Double(text.hasSuffix("px") ? String(text.dropLast(2)) : text)
    }

    /// `scheme://host…` with an http(s) scheme.
    static func isAbsoluteURL(_ text: String) -> Bool {
        for scheme in ["http://", "https://"] where text.lowercased().hasPrefix(scheme) {
            let rest = text.dropFirst(scheme.count)
            return !rest.isEmpty && !rest.hasPrefix("/") && !rest.contains(" ")
        }
        return false
    }
}
