/// One section of a feed: a folder directly below the feed folder.
public struct Section: Sendable, Hashable {
    /// The folder name, also the `data-section-id` of the output; `""` for the feed's pages.
    public var id: String
    /// Whether this is the feed's pages (``pagesID``): the Markdown files beside its `_feed.md`,
    /// each a detail page and link target but no card of any section, tag page or syndication
    /// feed, as Jekyll's pages and Hugo's regular pages of the home section (content-format §3).
    /// It is never drawn on the feed page.
    public var isPages: Bool { id == Self.pagesID }
    /// The id of a feed's pages: no folder has an empty name, so no section can have it.
    public static let pagesID = ""
    /// ``id`` as the name part of an output file (a section preview, `_previews/<name>.light.html`):
    /// as written, unless longer than 200 bytes, then shortened with a hash like a long item name
    /// (content-format §5.2), so that the file's name stays within the file system's 255 bytes.
    public var outputName: String { id.utf8.count > ItemName.maxSegmentBytes ? ItemName.pathSegment(id) : id }
    /// The site-relative `_section.md` path, nil when the folder has none.
    public var sourcePath: String?
    /// The header text; nil for no header.
    public var title: String?
    /// Order among sections when the feed has no `sections` list (default 0).
    public var weight: Int
    /// The raw `layout` value: a preset name (scalar) or a layout mapping; decoded by the layout stage.
    public var layout: YAMLNode?
    public var sort: SortOrder
    public var lang: String?
    /// Whether a horizontally scrolling section gets Previous/Next buttons (`controls` in
    /// `_section.md`, default `true`; they need a `title`, whose header holds them).
    public var controls: Bool
    /// The `_section.md` body rendered as HTML (the header's supporting text); `""` when none.
    public var headerHTML: String
    /// The header text's links to content files, checked and rewritten as in item bodies.
    public var headerLinks: [MarkdownLink] = []
    /// Inline items first, in list order, then file items in `sort` order.
    public var items: [Item]
    /// The `_section.md` front matter.
    public var frontMatter: YAMLNode?

    public init(
        id: String, sourcePath: String? = nil, title: String? = nil, weight: Int = 0, layout: YAMLNode? = nil,
        sort: SortOrder = .weight, lang: String? = nil, controls: Bool = true, headerHTML: String = "", items: [Item] = [],
        frontMatter: YAMLNode? = nil
    ) {
        self.id = id
        self.sourcePath = sourcePath
        self.title = title
        self.weight = weight
        self.layout = layout
        self.sort = sort
        self.lang = lang
        self.controls = controls
        self.headerHTML = headerHTML
        self.items = items
        self.frontMatter = frontMatter
    }
}

/// How a section orders its file items (`sort` in `_section.md`).
public enum SortOrder: String, Sendable, Hashable, CaseIterable {
    /// Weight ascending (items without one last), then date newest first, then title, then file.
    case weight
    /// Date newest first (items without one last), then title, then file.
    case date
    /// Title, then file.
    case title
    /// Path below the section folder, byte-wise.
    case file
}
