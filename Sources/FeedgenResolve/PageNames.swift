/// `PageNames`: the names by which a body path may name a page of the site — its source file
/// without the Markdown extension, its output path without `.html`, a feed's folder — with or
/// without a trailing `/`, `index.html` or `.html` (issue #19 §3, content-format §5.4).
import FeedgenContent

/// Page names in the site's `content/` namespace (`content/docs/configuration` for
/// `/docs/configuration/`), each leading to an output page (`docs/configuration.html`).
struct PageNames {
    private var table: [String: String] = [:]
    /// The folders of sections that have a `_section.md` (`content/docs`), in page order.
    private var sectionFolders: [String] = []
    /// Pages of files named `YYYY-MM-DD-slug`, by that name.
    private var posts: [String: String] = [:]

    init(feeds: [PreparedFeed]) {
        for feed in feeds {
            let folder = feed.feed.folder.isEmpty ? "content" : "content/" + feed.feed.folder
            add(folder, feed.pagePath)
            add(feed.feed.path.isEmpty ? "content" : "content/" + feed.feed.path, feed.pagePath)
        }
        for feed in feeds {
            for s in feed.sections {
                if let source = s.section.sourcePath, source.hasSuffix("/_section.md") {
                    sectionFolders.append(String(source.dropLast("/_section.md".count)))
                }
                for item in s.section.items where item.fileName != "" {
                    let page = item.hasBody ? feed.detailPath(item) : feed.pagePath
                    let n = MarkdownLink.markdownExtensionLength(item.sourcePath)
                    let stem = String(decoding: item.sourcePath.utf8.dropLast(n), as: UTF8.self)
                    add(stem, page)
                    // A page bundle (`x/index.md`, Hugo's `x/_index.md`) is named by its folder.
                    for bundle in ["/index", "/_index"] where stem.hasSuffix(bundle) { add(String(stem.dropLast(bundle.count)), page) }
                    if item.hasBody { add("content/" + page.dropLast(".html".count), page) }
                    // Jekyll's post permalink (`/news/2016/05/18/jekyll-3-1-4-released/`, any
                    // categories before the date) names the file `2016-05-18-jekyll-3-1-4-released`.
                    let name = stem.split(separator: "/").last.map(String.init) ?? ""
                    if Self.datedName(name.split(separator: "-", maxSplits: 3, omittingEmptySubsequences: false)) != nil, posts[name] == nil {
                        posts[name] = page
                    }
                }
            }
        }
    }

    /// The first claim of a name wins (feeds in order, then items in page order): deterministic.
    private mutating func add(_ name: String, _ page: String) {
        if table[name] == nil { table[name] = page }
    }

    /// The page a root-relative path `p` (without its `/`) names: from `content/`, else below
    /// the folder of exactly one section (a Hugo or Jekyll site copied into `content/docs/`
    /// links `/configuration/all/` from its own root).
    func page(rootRelative p: String) -> String? {
        if let page = page("content/" + p) { return page }
        var found: String?
        for folder in sectionFolders {
            guard let page = page(folder + "/" + p) else { continue }
            if found != nil, found != page { return nil }
            found = page
        }
        return found
    }

    /// The output page that `target` (a `content/…` path, percent-decoded) names, if any: the
    /// target with trailing `/`s, then a final `index.html` or `.html`, removed.
    func page(_ target: String) -> String? {
        var name = Substring(target)
        while name.hasSuffix("/") { name = name.dropLast() }
        if name.hasSuffix("/index.html") {
            name = name.dropLast("/index.html".count)
        } else if name.hasSuffix(".html") {
            name = name.dropLast(".html".count)
        }
        if let page = table[String(name)] { return page }
        // `…/YYYY/MM/DD/slug`: a Jekyll permalink.
        let parts = name.split(separator: "/")
        guard !posts.isEmpty, parts.count >= 4, let key = Self.datedName(Array(parts.suffix(4))) else { return nil }
        return posts[key]
    }

    /// `YYYY-MM-DD-slug` when `parts` are a 4-digit year, a 1–2-digit month and day and a
    /// non-empty slug (the two digits written as Jekyll's file names write them), else nil.
    static func datedName(_ parts: [Substring]) -> String? {
        guard parts.count == 4, parts[0].count == 4, (1...2).contains(parts[1].count), (1...2).contains(parts[2].count),
            !parts[3].isEmpty, parts[0...2].allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
        else { return nil }
        return parts.joined(separator: "-")
    }
}
