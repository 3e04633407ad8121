/// `PageNames`: the names by which a body path may name a page of the site — its source file
/// without the Markdown extension, its output path without `.html`, a feed's folder, Hugo's
/// `url`, `aliases` and `slug`, a date permalink `…/YYYY/MM/DD/slug/` — with or without a
/// trailing `/`, `index.html` or `.html` (issue #19 §3, content-format §5.4).
import FeedgenContent
import Foundation

/// Page names in the site's `content/` namespace (`content/docs/configuration` for
/// `/docs/configuration/`), each leading to an output page (`docs/configuration.html`).
struct PageNames: Sendable {
    private var table: [String: String] = [:]
    /// The folders of sections that have a `_section.md` (`content/docs`), in page order.
    private var sectionFolders: [String] = []
    /// Pages by date and slug, ``postKey(_:_:_:_:)``: from the item's date or its file or
    /// bundle folder's date prefix, and its file name, bundle folder or `slug:`.
    private var posts: [String: String] = [:]
    /// The same, slugs lower-cased; nil for a key two pages share (ambiguous: unresolved).
    private var foldedPosts: [String: String?] = [:]
    /// Whether ``posts`` are made (``addPosts(_:)``): only a date-shaped name that no other
    /// name matches needs them, and few sites link one.
    private(set) var hasPosts = false

    /// The names of `feeds`' pages; the date permalinks only with `posts` (else
    /// ``page(_:needsPosts:)`` says when a name needs them).
    init(feeds: [PreparedFeed], posts: Bool = false) {
        // One name per item is the common case (its stem); bundles, Hugo's names and pages named
        // apart from their file grow the table. Reserved for three per item, it took megabytes
        // of fresh pages (a page fault each) at every build.
        table.reserveCapacity(feeds.reduce(0) { $0 + 2 + $1.sections.reduce(0) { $0 + 1 + $1.section.items.count } })
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
                    // (Both end in `x`: a stem that does not is asked nothing more.)
                    if stem.utf8.last == UInt8(ascii: "x") {
                        for bundle in ["/index", "/_index"] where stem.hasSuffix(bundle) { add(String(stem.dropLast(bundle.count)), page) }
                    }
                    if item.hasBody, !Self.isStem(stem, of: page) { add("content/" + page.dropLast(".html".count), page) }
                    addHugoNames(item, stem: stem, page: page)
                }
            }
        }
        if posts { addPosts(feeds) }
    }

    /// Adds the date permalinks of `feeds`' items (``addPermalinks(_:stem:page:)``, in page
    /// order: the first claim of a key wins).
    mutating func addPosts(_ feeds: [PreparedFeed]) {
        guard !hasPosts else { return }
        hasPosts = true
        for feed in feeds {
            for s in feed.sections {
                for item in s.section.items where item.fileName != "" {
                    let page = item.hasBody ? feed.detailPath(item) : feed.pagePath
                    let n = MarkdownLink.markdownExtensionLength(item.sourcePath)
                    addPermalinks(item, stem: String(decoding: item.sourcePath.utf8.dropLast(n), as: UTF8.self), page: page)
                }
            }
        }
    }

    /// Hugo's `url:` (`p/ymenseo/`, a path from the site root) and `aliases:` (a list, or one
    /// path) name the page; `slug:` replaces the last segment of its source path.
    private mutating func addHugoNames(_ item: Item, stem: String, page: String) {
        var paths: [String] = []
        for pair in item.params {
            switch pair.key.string?.lowercased() {
            case "url": if let url = pair.value.string { paths.append(url) }
            case "aliases": paths += pair.value.elements?.compactMap(\.string) ?? pair.value.string.map { [$0] } ?? []
            case "slug":
                guard let slug = pair.value.string, !slug.isEmpty, !slug.contains("/") else { continue }
                var folder = stem.split(separator: "/").dropLast()
                if ["index", "_index"].contains(stem.split(separator: "/").last ?? "") { folder = folder.dropLast() }
                add(folder.joined(separator: "/") + "/" + slug, page)
            default: continue
            }
        }
        for path in paths where !path.contains("://") {
            let name = Self.name(path)
            let trimmed = name.drop { $0 == "/" }
            if !trimmed.isEmpty { add("content/" + trimmed, page) }
        }
    }

    /// A date permalink (`/blog/2016/05/18/jekyll-3-1-4-released/`, Jekyll's and Hugo's
    /// `/:year/:month/:day/:slug/`, any section path before the date) names the page of the item
    /// with that date (front matter, or the file's or bundle folder's `YYYY-MM-DD-` prefix) and
    /// slug (the file name or bundle folder without that prefix, or `slug:`).
    private mutating func addPermalinks(_ item: Item, stem: String, page: String) {
        let segments = Self.split(Substring(stem), UInt8(ascii: "/"))
        guard var name = segments.last else { return }
        if name == "index" || name == "_index", segments.count >= 2 { name = segments[segments.count - 2] }
        var dates: [(Int, Int, Int)] = []
        var slugs: [String] = []
        if let parts = Self.datedParts(Self.split(name, UInt8(ascii: "-"), maxSplits: 3, omittingEmpty: false)) {
            dates.append((parts.year, parts.month, parts.day))
            slugs.append(parts.slug)
        } else {
            slugs.append(String(name))
        }
        if let date = item.date?.calendarDate { dates.append((date.year, date.month, date.day)) }
        for pair in item.params where pair.key.string?.lowercased() == "slug" {
            if let slug = pair.value.string, !slug.isEmpty, !slug.contains("/") { slugs.append(slug) }
        }
        for (y, m, d) in dates {
            for slug in slugs {
                let key = Self.postKey(y, m, d, slug)
                if posts[key] == nil { posts[key] = page }
                let folded = key.lowercased()
                if let claimed = foldedPosts[folded] {
                    if claimed != page { foldedPosts[folded] = .some(nil) }
                } else {
                    foldedPosts[folded] = page
                }
            }
        }
    }

    /// Whether `stem` is `content/` + `page` without `.html` (the usual item: that name is
    /// added already), compared on bytes without making it. Only when the byte before `.html`
    /// is ASCII: then dropping five characters drops five bytes.
    private static func isStem(_ stem: String, of page: String) -> Bool {
        var stem = stem, page = page
        return stem.withUTF8 { s in
            page.withUTF8 { p in
                let n = p.count - 5
                let prefix: StaticString = "content/"
                guard n > 0, s.count == n + 8, p[n - 1] < 0x80 else { return false }
                return memcmp(s.baseAddress!, prefix.utf8Start, 8) == 0 && memcmp(s.baseAddress! + 8, p.baseAddress!, n) == 0
            }
        }
    }

    static func postKey(_ y: Int, _ m: Int, _ d: Int, _ slug: String) -> String { "\(y)-\(m)-\(d)-\(slug)" }

    /// The first claim of a name wins (feeds in order, then items in page order): deterministic.
    private mutating func add(_ name: String, _ page: String) {
        // One lookup: the default subscript's modify access stores `page` only when `name` has
        // no page yet (a read, then a write, hashed the name twice).
        Self.keep(&table[name, default: page])
    }

    private static func keep(_ value: inout String) {}

    /// The page a root-relative path `p` (without its `/`) names: from `content/`, else below
    /// the folder of exactly one section (a Hugo or Jekyll site copied into `content/docs/`
    /// links `/configuration/all/` from its own root).
    func page(rootRelative p: String, needsPosts: inout Bool) -> String? {
        if let page = page("content/" + p, needsPosts: &needsPosts) { return page }
        var found: String?
        for folder in sectionFolders {
            guard let page = page(folder + "/" + p, needsPosts: &needsPosts) else { continue }
            if found != nil, found != page { return nil }
            found = page
        }
        return found
    }

    /// The output page that `target` (a `content/…` path, percent-decoded) names, if any: the
    /// target with trailing `/`s, then a final `index.html` or `.html`, removed. Without the
    /// date permalinks made, a date-shaped name sets `needsPosts` (the answer is then not known:
    /// ask again once ``addPosts(_:)`` made them).
    func page(_ target: String, needsPosts: inout Bool) -> String? {
        let name = Self.name(target)
        if let page = table[String(name)] { return page }
        // `…/YYYY/MM/DD/slug`: a date permalink; its slug in another case only when one page
        // has it so.
        guard hasPosts else {
            if Self.endsInDate(name) ?? Self.dated(Self.split(name, UInt8(ascii: "/"))) { needsPosts = true }
            return nil
        }
        guard !posts.isEmpty else { return nil }
        let parts = Self.split(name, UInt8(ascii: "/"))
        guard parts.count >= 4, let p = Self.datedParts(Array(parts.suffix(4))) else { return nil }
        let key = Self.postKey(p.year, p.month, p.day, p.slug)
        if let page = posts[key] { return page }
        return foldedPosts[key.lowercased()].flatMap { $0 }
    }

    /// Whether the last four of `parts` are ``datedParts(_:)``'s.
    private static func dated(_ parts: [Substring]) -> Bool {
        parts.count >= 4 && datedParts(Array(parts.suffix(4))) != nil
    }

    /// ``dated(_:)`` of the ASCII `name`'s non-empty `/`-separated segments, on its bytes
    /// without splitting (a character per byte: the same segments); nil for another name.
    static func endsInDate(_ name: Substring) -> Bool? {
        var name = name
        return name.withUTF8 { b -> Bool? in
            guard b.allSatisfy({ $0 < 0x80 }) else { return nil }
            let slash = UInt8(ascii: "/")
            var i = b.count
            // From the end: the slug (any), the day and the month (one or two digits), the
            // year (four).
            for k in 0..<4 {
                while i > 0, b[i - 1] == slash { i -= 1 }
                guard i > 0 else { return false }
                let end = i
                while i > 0, b[i - 1] != slash { i -= 1 }
                guard k > 0 else { continue }
                let n = end - i
                guard k == 3 ? n == 4 : n <= 2, b[i..<end].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                    return false
                }
            }
            return true
        }
    }

    /// `target` without trailing `/`s, then without a final `index.html` or `.html`.
    static func name(_ target: String) -> Substring {
        if let name = asciiName(target) { return name }
        var name = Substring(target)
        while name.hasSuffix("/") { name = name.dropLast() }
        if name.hasSuffix("/index.html") || name == "index.html" {
            name = name.dropLast("index.html".count)
            while name.hasSuffix("/") { name = name.dropLast() }
        } else if name.hasSuffix(".html") {
            name = name.dropLast(".html".count)
        }
        return name
    }

    /// ``name(_:)`` on the bytes of an ASCII `target` (a character per byte: the same cuts);
    /// nil for any other.
    private static func asciiName(_ target: String) -> Substring? {
        let u = target.utf8
        guard u.allSatisfy({ $0 < 0x80 }) else { return nil }
        let slash = UInt8(ascii: "/")
        var end = u.count
        var bytes = target
        bytes.withUTF8 { b in
            func endsWith(_ suffix: StaticString) -> Bool {
                let n = suffix.utf8CodeUnitCount
                return end >= n && memcmp(b.baseAddress! + end - n, suffix.utf8Start, n) == 0
            }
            while end > 0, b[end - 1] == slash { end -= 1 }
            if endsWith("/index.html") || (end == 10 && endsWith("index.html")) {
                end -= 10
                while end > 0, b[end - 1] == slash { end -= 1 }
            } else if endsWith(".html") {
                end -= 5
            }
        }
        return target[..<u.index(u.startIndex, offsetBy: end)]
    }

    /// `s.split(separator:maxSplits:omittingEmptySubsequences:)` at the ASCII `separator`, cut
    /// on bytes when `s` is ASCII (the same cuts: a character per byte), else on characters.
    static func split(_ s: Substring, _ separator: UInt8, maxSplits: Int = .max, omittingEmpty: Bool = true) -> [Substring] {
        let u = s.utf8
        guard u.allSatisfy({ $0 < 0x80 }) else {
            return s.split(separator: Character(Unicode.Scalar(separator)), maxSplits: maxSplits, omittingEmptySubsequences: omittingEmpty)
        }
        // The standard library's algorithm, on bytes.
        var parts: [Substring] = []
        var start = u.startIndex
        if maxSplits == 0 || s.isEmpty {
            if !(omittingEmpty && s.isEmpty) { parts.append(s) }
            return parts
        }
        var i = start
        while i != u.endIndex {
            if u[i] == separator {
                let appended = !(omittingEmpty && start == i)
                if appended { parts.append(s[start..<i]) }
                u.formIndex(after: &i)
                start = i
                if appended && parts.count == maxSplits { break }
                continue
            }
            u.formIndex(after: &i)
        }
        if start != u.endIndex || !omittingEmpty { parts.append(s[start..<u.endIndex]) }
        return parts
    }

    /// Year, month, day and slug when `parts` are a 4-digit year, a 1–2-digit month and day and
    /// a non-empty slug, else nil.
    static func datedParts(_ parts: [Substring]) -> (year: Int, month: Int, day: Int, slug: String)? {
        guard parts.count == 4, parts[0].count == 4, (1...2).contains(parts[1].count), (1...2).contains(parts[2].count),
            !parts[3].isEmpty, parts[0...2].allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
        else { return nil }
        return (y, m, d, String(parts[3]))
    }
}
