import FeedgenDiagnostics

/// One card: a Markdown file in a section folder, or one mapping of a section's `items` list.
public struct Item: Sendable, Hashable {
    /// The fields, shared between copies until one of them changes (copy-on-write): an item is
    /// copied in many places (sections, pages, keys), and copying the fields retained each of
    /// its strings, arrays and nodes.
    private var box: Box

    /// The stored fields of an item (see the public properties of the same names).
    struct Fields: Sendable, Hashable {
        var id: String
        var sourcePath: String
        var location: SourceLocation
        var title: String
        var description: String?
        var date: ContentDate?
        var publishDate: ContentDate?
        var expiryDate: ContentDate?
        var draft: Bool
        var weight: Int?
        var image: ItemImage?
        var link: String?
        var type: String
        var tags: [String]
        var lang: String?
        var params: [YAMLPair]
        var html: ItemText
        var hasBody: Bool
        var fileName: String
        var frontMatter: ItemYAML
        var markdownLinks: [MarkdownLink] = []
    }

    final class Box: @unchecked Sendable {  // mutated only while uniquely referenced
        // Unchecked: each read of an item's field otherwise begins a dynamic access (tens of
        // instructions), and every stage walks every item several times.
        @exclusivity(unchecked) var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    /// The box, copied first when another item shares it.
    private mutating func unique() -> Box {
        if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
        return box
    }

    /// Whether `other` is this very value: a copy of it that neither has changed since (every
    /// change to a shared item copies its fields first). Cheap, and false for equal items made
    /// apart; a store that holds a copy of an item can tell by it that the item is unchanged.
    package func isUnchangedCopy(of other: Item) -> Bool { box === other.box }

    /// The same for every unchanged copy of this value (``isUnchangedCopy(of:)``), while one is
    /// alive: a key for stores that hold a copy of the item.
    package var copyIdentity: ObjectIdentifier { ObjectIdentifier(box) }

    public static func == (a: Item, b: Item) -> Bool { a.box === b.box || a.box.fields == b.box.fields }
    public func hash(into hasher: inout Hasher) { box.fields.hash(into: &hasher) }

    /// Unique within the feed; the output page is `<feed path>/<id>.html`.
    public var id: String {
        get { box.fields.id }
        _modify { yield &unique().fields.id }
    }
    /// The site-relative file: the item's `.md`, or the `_section.md` for an inline item.
    public var sourcePath: String {
        get { box.fields.sourcePath }
        _modify { yield &unique().fields.sourcePath }
    }
    /// `1:1` of the file, or the inline item's mapping.
    public var location: SourceLocation {
        get { box.fields.location }
        _modify { yield &unique().fields.location }
    }
    public var title: String {
        get { box.fields.title }
        _modify { yield &unique().fields.title }
    }
    /// `description`, else the body's first paragraph as plain text.
    public var description: String? {
        get { box.fields.description }
        _modify { yield &unique().fields.description }
    }
    public var date: ContentDate? {
        get { box.fields.date }
        _modify { yield &unique().fields.date }
    }
    public var publishDate: ContentDate? {
        get { box.fields.publishDate }
        _modify { yield &unique().fields.publishDate }
    }
    public var expiryDate: ContentDate? {
        get { box.fields.expiryDate }
        _modify { yield &unique().fields.expiryDate }
    }
    public var draft: Bool {
        get { box.fields.draft }
        _modify { yield &unique().fields.draft }
    }
    public var weight: Int? {
        get { box.fields.weight }
        _modify { yield &unique().fields.weight }
    }
    public var image: ItemImage? {
        get { box.fields.image }
        _modify { yield &unique().fields.image }
    }
    /// As written; nil when the front matter has none.
    public var link: String? {
        get { box.fields.link }
        _modify { yield &unique().fields.link }
    }
    /// The card template name (default `card`).
    public var type: String {
        get { box.fields.type }
        _modify { yield &unique().fields.type }
    }
    public var tags: [String] {
        get { box.fields.tags }
        _modify { yield &unique().fields.tags }
    }
    public var lang: String? {
        get { box.fields.lang }
        _modify { yield &unique().fields.lang }
    }
    /// The `params` mapping merged with the unknown top-level keys, in source order.
    public var params: [YAMLPair] {
        get { box.fields.params }
        _modify { yield &unique().fields.params }
    }
    /// The rendered body; `""` when there is none.
    public var html: String {
        get { box.fields.html.value }
        set { unique().fields.html = ItemText(newValue) }
    }

    /// Sets the body to text that a store of parsed items holds (decoded when first read).
    package mutating func setHTML(_ text: ItemText) { unique().fields.html = text }
    /// Whether the Markdown body holds anything but white space.
    public var hasBody: Bool {
        get { box.fields.hasBody }
        _modify { yield &unique().fields.hasBody }
    }
    /// The path below the section folder (`a.md`, `sub/b.md`), the key of `sort: file`;
    /// `""` for an inline item.
    public var fileName: String {
        get { box.fields.fileName }
        _modify { yield &unique().fields.fileName }
    }
    public var frontMatter: YAMLNode {
        get { box.fields.frontMatter.value }
        _modify {
            let box = unique()
            var node = box.fields.frontMatter.value
            yield &node
            box.fields.frontMatter = .value(node)
        }
    }

    /// False when the front matter certainly has no key or value `text` (then a front matter
    /// left encoded by the store of parsed items is not decoded to look for it).
    package func frontMatterMayHold(_ text: String) -> Bool { box.fields.frontMatter.mayHold(text) }

    /// Sets the front matter to a node that a store of parsed items holds (decoded when first read).
    package mutating func setFrontMatter(_ node: ItemYAML) { unique().fields.frontMatter = node }
    /// Links in the body to other content files, rewritten to `feedgen-md:` destinations in
    /// `html` until the build resolves them (see `MarkdownLink`).
    public var markdownLinks: [MarkdownLink] {
        get { box.fields.markdownLinks }
        _modify { yield &unique().fields.markdownLinks }
    }

    public init(
        id: String, sourcePath: String, location: SourceLocation, title: String, description: String? = nil,
        date: ContentDate? = nil, publishDate: ContentDate? = nil, expiryDate: ContentDate? = nil,
        draft: Bool = false, weight: Int? = nil, image: ItemImage? = nil, link: String? = nil,
        type: String = "card", tags: [String] = [], lang: String? = nil, params: [YAMLPair] = [],
        html: String = "", hasBody: Bool = false, fileName: String = "",
        frontMatter: YAMLNode = YAMLNode(.mapping([]), line: 1, column: 1)
    ) {
        box = Box(
            Fields(
                id: id,
                sourcePath: sourcePath,
                location: location,
                title: title,
                description: description,
                date: date,
                publishDate: publishDate,
                expiryDate: expiryDate,
                draft: draft,
                weight: weight,
                image: image,
                link: link,
                type: type,
                tags: tags,
                lang: lang,
                params: params,
                html: ItemText(html),
                hasBody: hasBody,
                fileName: fileName,
                frontMatter: ItemYAML(frontMatter)
            ))
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
