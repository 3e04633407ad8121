import FeedgenDiagnostics

/// One card: a Markdown file in a section folder, or one mapping of a section's `items` list.
public struct Item: Sendable, Hashable {
    /// Unique within the feed; the output page is `<feed path>/<id>.html`.
    public var id: String
    /// The site-relative file: the item's `.md`, or the `_section.md` for an inline item.
    public var sourcePath: String
    /// `1:1` of the file, or the inline item's mapping.
    public var location: SourceLocation
    public var title: String
    /// `description`, else the body's first paragraph as plain text.
    public var description: String?
    public var date: ContentDate?
    public var publishDate: ContentDate?
    public var expiryDate: ContentDate?
    public var draft: Bool
    public var weight: Int?
    public var image: ItemImage?
    /// As written; nil when the front matter has none.
    public var link: String?
    /// The card template name (default `card`).
    public var type: String
    public var tags: [String]
    public var lang: String?
    /// The `params` mapping merged with the unknown top-level keys, in source order.
    public var params: [YAMLPair]
    /// The rendered body; `""` when there is none.
    public var html: String
    /// Whether the Markdown body holds anything but white space.
    public var hasBody: Bool
    /// The path below the section folder (`a.md`, `sub/b.md`), the key of `sort: file`;
    /// `""` for an inline item.
    public var fileName: String
    public var frontMatter: YAMLNode
    /// Links in the body to other content files, rewritten to `feedgen-md:` destinations in
    /// `html` until the build resolves them (see `MarkdownLink`).
    public var markdownLinks: [MarkdownLink] = []

    public init(
        id: String, sourcePath: String, location: SourceLocation, title: String, description: String? = nil,
        date: ContentDate? = nil, publishDate: ContentDate? = nil, expiryDate: ContentDate? = nil,
        draft: Bool = false, weight: Int? = nil, image: ItemImage? = nil, link: String? = nil,
        type: String = "card", tags: [String] = [], lang: String? = nil, params: [YAMLPair] = [],
        html: String = "", hasBody: Bool = false, fileName: String = "",
        frontMatter: YAMLNode = YAMLNode(.mapping([]), line: 1, column: 1)
    ) {
        self.id = id
        self.sourcePath = sourcePath
        self.location = location
        self.title = title
        self.description = description
        self.date = date
        self.publishDate = publishDate
        self.expiryDate = expiryDate
        self.draft = draft
        self.weight = weight
        self.image = image
        self.link = link
        self.type = type
        self.tags = tags
        self.lang = lang
        self.params = params
        self.html = html
        self.hasBody = hasBody
        self.fileName = fileName
        self.frontMatter = frontMatter
    }
}

/// An item's `image`: a path string, or a mapping `src`, `alt`, `width`, `height`.
public struct ItemImage: Sendable, Hashable {
    /// As written: relative to the item file or to `static/`.
    public var src: String
    public var alt: String?
    public var width: Int?
    public var height: Int?
    /// Where the `image` value is.
    public var location: SourceLocation

    public init(src: String, alt: String? = nil, width: Int? = nil, height: Int? = nil, location: SourceLocation) {
        self.src = src
        self.alt = alt
        self.width = width
        self.height = height
        self.location = location
    }
}
