import FeedgenContent
import FeedgenMustache

/// Builds the values templates see (documented key by key in docs/templates.md).
public enum TemplateContext {
    /// A YAML value for templates: plain scalars keep their source text (`1.10` stays `1.10`);
    /// `true`/`false` are booleans and nulls are null (YAML 1.2 core schema).
    public static func value(_ node: YAMLNode) -> MustacheValue {
        switch node.kind {
        case .scalar(let text, _):
            if node.isNull { return .null }
            if let b = node.bool { return .bool(b) }
            if node.isPlain, node.double != nil { return .number(text) }
            return .string(text)
        case .sequence(let list):
            return .array(list.map(value))
        case .mapping(let pairs):
            return .object(MustacheObject(pairs.compactMap { p in p.key.string.map { ($0, value(p.value)) } }))
        }
    }

    /// A string, or null when it is empty (so that `{{#x}}…{{/x}}` skips it: Mustache treats
    /// an empty string as truthy).
    static func nonEmpty(_ s: String?) -> MustacheValue {
        guard let s, !s.isEmpty else { return .null }
        return .string(s)
    }

    static func date(_ d: ContentDate?) -> MustacheValue {
        guard let d else { return .null }
        return ["iso": .string(d.iso), "display": .string(d.display)]
    }

    /// The card/item context for `item`, with URLs relative to the page at `page`.
    static func item(
        _ item: Item, feed: PreparedFeed, page: String, image: ImageAsset?, eager: Bool
    ) -> MustacheValue {
        let url = itemURL(item, feed: feed, page: page)
        var imageValue: MustacheValue = .null
        if let image {
            var pairs: [(String, MustacheValue)] = [
                ("src", .string(RelativeURL.hasScheme(image.outputPath) ? image.outputPath : RelativeURL.relative(from: page, to: image.outputPath))),
                ("alt", .string(image.alt)),
                ("loading", .string(eager ? "eager" : "lazy")),
            ]
            if let w = image.width { pairs.append(("width", .int(w))) }
            if let h = image.height { pairs.append(("height", .int(h))) }
            imageValue = .object(MustacheObject(pairs))
        }
        let params = MustacheObject(item.params.compactMap { p in p.key.string.map { ($0, value(p.value)) } })
        return .object(
            MustacheObject([
                ("id", .string(item.id)),
                ("title", .string(item.title)),
                ("description", nonEmpty(item.description)),
                ("html", .string(item.html)),
                ("hasBody", .bool(item.hasBody)),
                ("url", url.map { .string($0) } ?? .null),
                ("date", date(item.date)),
                ("image", imageValue),
                ("type", .string(item.type)),
                ("lang", nonEmpty(item.lang)),
                ("tags", .array(item.tags.map { .string($0) })),
                ("hasTags", .bool(!item.tags.isEmpty)),
                ("params", .object(params)),
            ]))
    }

    /// Where a card leads: its `link` (external URLs as written; site paths made relative), else
    /// its own detail page when it has a body, else nowhere.
    static func itemURL(_ item: Item, feed: PreparedFeed, page: String) -> String? {
        if let link = item.link, !link.isEmpty {
            if RelativeURL.hasScheme(link) || link.hasPrefix("#") { return link }
            var path = link.hasPrefix("/") ? String(link.dropFirst()) : link
            if path.isEmpty || path.hasSuffix("/") { path += "index.html" }
            return RelativeURL.relative(from: page, to: path)
        }
        guard item.hasBody else { return nil }
        return RelativeURL.relative(from: page, to: feed.detailPath(item))
    }
}
