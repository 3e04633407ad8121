/// One feed page: `content/` (the home feed) or a folder below it holding `_feed.md`.
public struct Feed: Sendable, Hashable {
    /// Where the feed's pages go, relative to the output root: its folder relative to `content/`
    /// with each name made URL-safe (`""` for the home feed, `"recipes"` for `content/recipes`,
    /// `"news-2"` for `content/news@2`; content-format §5.2).
    public var path: String
    /// The folder relative to `content/` as written (`"news@2"`): what source paths are built on.
    public var folder: String
    /// The site-relative `_feed.md` path (`content/recipes/_feed.md`), nil when there is none.
    public var sourcePath: String?
    /// `title` from `_feed.md`; default: the site title for the home feed, else the folder name.
    public var title: String
    public var description: String?
    public var lang: String?
    /// The `_feed.md` body rendered as HTML; `""` when there is none.
    public var introHTML: String
    /// The intro's links to content files (`[A](posts/a.md)`), checked and rewritten as in bodies.
    public var introLinks: [MarkdownLink] = []
    /// `interSectionSpacing` (CSS px), default 0.
    public var interSectionSpacing: Double
    /// In page order: the `sections` list when given (unlisted sections after it), else by
    /// section `weight`, then folder name.
    public var sections: [Section]
    /// The `_feed.md` front matter.
    public var frontMatter: YAMLNode?
    /// The site-relative `index.md` beside `_feed.md` (MkDocs' and Jekyll's home page), which is
    /// not read (a warning says so): a link to it leads to this feed's page (content-format §3).
    public var homeFile: String?

    public init(
        path: String, folder: String? = nil, sourcePath: String? = nil, title: String, description: String? = nil, lang: String? = nil,
        introHTML: String = "", interSectionSpacing: Double = 0, sections: [Section] = [],
        frontMatter: YAMLNode? = nil
    ) {
        self.path = path
        self.folder = folder ?? path
        self.sourcePath = sourcePath
        self.title = title
        self.description = description
        self.lang = lang
        self.introHTML = introHTML
        self.interSectionSpacing = interSectionSpacing
        self.sections = sections
        self.frontMatter = frontMatter
    }
}
