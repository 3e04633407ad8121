import CFileSystem
import FeedgenContent
import Foundation
import FeedgenDiagnostics
import FeedgenStorage

/// Links between content files (`[x](../other/item.md)`): checked against the site's pages, then
/// written as relative links to the right output page (content-format §5).
public struct ContentLinks: Sendable {
    /// Output page of each content file that has one, by site-relative source path.
    public let pages: [String: String]
    /// ``pages`` by the bytes of a marker's path, for rewriting.
    private let table = LazyPageTable()
    /// Each item's links as ``check(_:targets:into:)`` looked them up, in page order: the
    /// detail pages' keys and the build snapshot's records read them
    /// (``pages(of:feed:section:item:)``) instead of looking each link up again.
    private var resolved: [ResolvedLinks] = []
    /// The indices in ``resolved`` of each section's items, by feed and section.
    private var sectionRanges: [[Range<Int>]] = []

    /// An item's links, the page of each (``pages`` of its target) and their problems.
    struct ResolvedLinks: Sendable {
        let links: [MarkdownLink]
        let pages: [String?]
        let problems: [Diagnostic]
    }

    public init(feeds: [PreparedFeed]) {
        var pages: [String: String] = [:]
        pages.reserveCapacity(feeds.reduce(0) { $0 + 1 + $1.sections.reduce(0) { $0 + 1 + $1.section.items.count } })
        for feed in feeds {
            if let source = feed.feed.sourcePath { pages[source] = feed.pagePath }
            // A body link to the feed's folder (`../posts/`) leads to its index.html.
            pages["content/" + (feed.feed.folder.isEmpty ? "" : feed.feed.folder + "/")] = feed.pagePath
            // Its `index.md`, not read (MkDocs' home page), is this page too.
            if let home = feed.feed.homeFile { pages[home] = feed.pagePath }
            for s in feed.sections {
                if let source = s.section.sourcePath { pages[source] = feed.pagePath }
                for item in s.section.items where item.fileName != "" {
                    pages[item.sourcePath] = item.hasBody ? feed.detailPath(item) : feed.pagePath
                }
            }
        }
        // A link to `x.md` finds `x.markdown` (or another Markdown extension) when there is no
        // `x.md`: Jekyll's `{% post_url %}` names a post without its extension (§5.3).
        var resolved = MarkdownLink.addingMdAliases(to: pages)
        Self.addHugoRefLookups(feeds, to: &resolved)
        self.pages = resolved
        self.isEmpty = !feeds.contains { feed in
            !feed.feed.introLinks.isEmpty
                || feed.sections.contains { !$0.section.headerLinks.isEmpty || $0.section.items.contains { !$0.markdownLinks.isEmpty } }
        }
    }

    /// These links with `paths` (``BodyPaths/Resolution/pages``: where body paths lead) added:
    /// into this table itself when nothing else holds it (not a copy of every item's entry).
    public consuming func adding(paths: [String: String]) -> ContentLinks {
        guard !paths.isEmpty else { return self }
        var pages = self.pages
        let isEmpty = self.isEmpty
        _ = consume self
        pages.merge(paths) { $1 }
        return ContentLinks(pages: pages, isEmpty: isEmpty)
    }

    private init(pages: [String: String], isEmpty: Bool) {
        self.pages = pages
        self.isEmpty = isEmpty
    }

    /// Links resolved by `pages` (a patch build's: the pages of the items it renders' links).
    public init(pages: [String: String]) {
        self.pages = pages
        self.isEmpty = pages.isEmpty
    }

    /// An error for every item link whose file is not a page of the site (missing, skipped as a
    /// draft, or outside the content folder); a warning (an error with `--strict`) for such a
    /// link in a `_feed.md` intro or `_section.md` text, which the page shows as `#`.
    /// The pages of the items' links are kept (``pages(of:feed:section:item:)``). `targets`: the
    /// links of `feeds` by target, resolved by ``pages`` (``LinkTargets/resolved(by:)``), when
    /// known: each target is then looked up once.
    package mutating func check(
        _ feeds: [PreparedFeed], targets: LinkTargets? = nil, into diagnostics: inout Diagnostics
    ) {
        // The items' links are looked up on every core (a table lookup per link, ~20,000 on a
        // site of 10,000 items, unless `targets` has them); their problems are then added in
        // page order. Each item's first link's place among ``BodyPaths/forEachLink(_:item:_:)``'s,
        // counted by that walk itself.
        var items: [(feed: Int, section: Int, item: Int, first: Int)] = []
        var count = 0
        BodyPaths.forEachLink(feeds, item: { items.append(($0, $1, $2, count)) }) { _ in count += 1 }
        let memo = targets.flatMap { $0.fits(linkCount: count) ? $0 : nil }
        let refs = items
        let pages = self.pages
        let itemLinks = parallelMap(refs.count) { k -> ResolvedLinks in
            var found: [Diagnostic] = []
            let links = feeds[refs[k].feed].sections[refs[k].section].section.items[refs[k].item].markdownLinks
            var resolved: [String?] = []
            resolved.reserveCapacity(links.count)
            // A folder link may be a permalink written for another generator, and a Jekyll
            // `{% link %}` / `{% post_url %}` names a file of the Jekyll site, which may not have
            // been copied, as may a Hugo `ref` / `relref`'s: warnings.
            let first = refs[k].first
            // By index in the buffer: a link is read in place (only a missing one's problem is
            // made from it), not copied.
            links.withUnsafeBufferPointer { links in
                for j in links.indices {
                    let page = if let memo { memo.page(ofLink: first + j) } else { pages[links[j].target] }
                    resolved.append(page)
                    if page == nil, let problem = Self.problem(links[j]) { found.append(problem) }
                }
            }
            return ResolvedLinks(links: links, pages: resolved, problems: found)
        }
        var k = 0
        var ranges: [[Range<Int>]] = []
        ranges.reserveCapacity(feeds.count)
        for feed in feeds {
            // Body paths (images, files, root-relative pages) are reported by ``BodyPaths``.
            for link in feed.feed.introLinks where pages[link.target] == nil && !link.isPath { report(link, error: false, &diagnostics) }
            var sections: [Range<Int>] = []
            for s in feed.sections {
                for link in s.section.headerLinks where pages[link.target] == nil && !link.isPath { report(link, error: false, &diagnostics) }
                let first = k
                for _ in s.section.items.indices {
                    if !itemLinks[k].problems.isEmpty { diagnostics.append(contentsOf: itemLinks[k].problems) }
                    k += 1
                }
                sections.append(first..<k)
            }
            ranges.append(sections)
        }
        // Kept as made (not copied item by item into nested arrays, whose release was a cost).
        self.resolved = itemLinks
        self.sectionRanges = ranges
        ContentAnchors.check(feeds, pages: pages, targets: memo, into: &diagnostics)
    }

    /// ``pages`` of each of `links` (an item's, in order), the item being the one at `feed`,
    /// `section` and `item` when the links were checked: their look-ups then, when these are
    /// still its links (the same storage), else looked up now.
    public func pages(of links: [MarkdownLink], feed f: Int, section s: Int, item i: Int) -> [String?] {
        if f < sectionRanges.count, s < sectionRanges[f].count, i < sectionRanges[f][s].count {
            let checked = resolved[sectionRanges[f][s].lowerBound + i]
            let same = checked.links.count == links.count
                && checked.links.withUnsafeBufferPointer { a in links.withUnsafeBufferPointer { a.baseAddress == $0.baseAddress } }
            if same { return checked.pages }
        }
        return links.map { pages[$0.target] }
    }

    private func report(_ link: MarkdownLink, error: Bool, _ diagnostics: inout Diagnostics) {
        let message = Self.message(link)
        if error { diagnostics.error(link.location, message) } else { diagnostics.warning(link.location, message) }
    }

    private static func message(_ link: MarkdownLink) -> String {
        link.target.hasSuffix("/")
            ? "link '\(link.destination)' leads to the folder \(link.target.dropLast()), which has no page (only a folder with _feed.md has an index.html); fix the path or remove the link"
            : "link '\(link.destination)' leads to \(link.target), which is not a page of this site (missing, a draft, or not yet published); fix the path or remove the link"
    }

    /// What ``check(_:into:)`` reports at an item's `link` that is no body path and leads to no
    /// page: an error, or a warning for a folder link or a Jekyll/Hugo tag's.
    package static func problem(_ link: MarkdownLink) -> Diagnostic? {
        guard !link.isPath else { return nil }
        let tag = link.destination.hasPrefix("{%") || link.destination.hasPrefix("{{")
        return !link.target.hasSuffix("/") && !tag ? .error(link.location, message(link)) : .warning(link.location, message(link))
    }

    /// Whether any item links to another content file (else pages need no rewriting).
    public let isEmpty: Bool

    /// Replaces `feedgen-md:<path>#frag` destinations in `html`, rendered into output page `page`,
    /// by relative URLs. Unknown targets (already reported) become `#`. Scans UTF-8 bytes (pages
    /// can be megabytes; Foundation's string search was the build's hottest spot).
    public func rewrite(_ html: String, page: String) -> String {
        guard !isEmpty else { return html }
        var text = html
        let found = text.withUTF8 { replacements(bytes: UnsafeRawBufferPointer($0), page: page) }
        guard !found.isEmpty else { return html }
        // Assembled from slices of the page and the replacements, which are known UTF-8 (every
        // cut is at an ASCII byte): no second validation of a page's bytes.
        var out = ""
        out.reserveCapacity(text.utf8.count + found.reduce(0) { $0 + $1.text.utf8.count })
        let utf8 = text.utf8
        var copied = utf8.startIndex
        for (range, replacement) in found {
            let lower = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
            out += text[copied..<lower]
            out += replacement
            copied = utf8.index(lower, offsetBy: range.count)
        }
        out += text[copied...]
        return out
    }

    /// ``rewrite(_:page:)`` of a page's UTF-8 bytes (a feed page: ``OutputFile/Contents/utf8(_:)``).
    public func rewrite(_ html: [UInt8], page: String) -> [UInt8] {
        guard !isEmpty else { return html }
        return html.withUnsafeBytes { rewrite(bytes: $0, page: page) } ?? html
    }

    /// Whether any of `pieces` holds the content-link marker (then the joined bytes are
    /// rewritten).
    public func mayRewrite(_ pieces: [UnsafeRawBufferPointer]) -> Bool {
        let marker = Array(Markdown.contentLinkScheme.utf8)
        return pieces.contains { piece in
            guard let base = piece.baseAddress, piece.count >= marker.count else { return false }
            return marker.withUnsafeBytes { feedgen_contains(base, piece.count, $0.baseAddress, marker.count) != 0 }
        }
    }

    /// ``rewrite(_:page:)-([UInt8],_)`` that also tells where the bytes moved: each replaced
    /// destination's range in `html` and its new length, in order.
    public func rewrite(_ html: [UInt8], page: String, edits: inout [(range: Range<Int>, length: Int)]) -> [UInt8] {
        guard !isEmpty else { return html }
        var found: [(range: Range<Int>, length: Int)] = []
        let out = html.withUnsafeBytes { rewrite(bytes: $0, page: page, edits: &found) } ?? html
        edits = found
        return out
    }

    /// The rewritten bytes; nil when `bytes` hold no content link.
    private func rewrite(bytes: UnsafeRawBufferPointer, page: String) -> [UInt8]? {
        var edits: [(range: Range<Int>, length: Int)] = []
        return rewrite(bytes: bytes, page: page, edits: &edits)
    }

    private func rewrite(bytes: UnsafeRawBufferPointer, page: String, edits: inout [(range: Range<Int>, length: Int)]) -> [UInt8]? {
        let found = replacements(bytes: bytes, page: page)
        guard !found.isEmpty else { return nil }
        // Written in place at its exact size: a feed page holds thousands of destinations, and
        // the array's generic appends of each slice and replacement cost more than the copies.
        let size = found.reduce(bytes.count) { $0 + $1.text.utf8.count - $1.range.count }
        edits.reserveCapacity(edits.count + found.count)
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            let out = UnsafeMutableRawPointer(buffer.baseAddress!)
            var at = 0
            func put(_ piece: UnsafeRawBufferPointer) {
                guard let base = piece.baseAddress, !piece.isEmpty else { return }
                (out + at).copyMemory(from: base, byteCount: piece.count)
                at += piece.count
            }
            var copied = 0
            for (range, replacement) in found {
                put(UnsafeRawBufferPointer(rebasing: bytes[copied..<range.lowerBound]))
                var text = replacement
                text.withUTF8 { put(UnsafeRawBufferPointer($0)) }
                edits.append((range, replacement.utf8.count))
                copied = range.upperBound
            }
            put(UnsafeRawBufferPointer(rebasing: bytes[copied...]))
            initialized = at
        }
    }

    /// Each content-link destination's byte range in `bytes` and the text that replaces it, in
    /// order.
    private func replacements(bytes: UnsafeRawBufferPointer, page: String) -> [(range: Range<Int>, text: String)] {
        var found: [(range: Range<Int>, text: String)] = []
        let lookup = table.table(pages)
        Self.forEachDestination(in: bytes) { range, destination, fragment in
            var replacement = "#"
            var value: String?
            if case .bytes(let key) = destination, let lookup {
                if let k = lookup.index(of: UnsafeRawBufferPointer(rebasing: bytes[key])) {
                    // A path that names nothing (most of a site's body paths when its links
                    // were written for another site) is kept as written.
                    if let text = lookup.verbatim[k] {
                        found.append((range, fragment.isEmpty ? text : text + fragment))
                        return
                    }
                    value = lookup.values[k]
                }
            } else {
                value = pages[destination.string(in: bytes)]
            }
            if let value {
                let (path, size, verbatim) = BodyPaths.parse(value)
                if verbatim {
                    found.append((range, String(path) + fragment))
                    return
                }
                replacement = RelativeURL.relative(from: page, to: String(path))
                if !fragment.isEmpty { replacement += fragment }
                // An image's size follows its `src` (cmark writes `<img src="…" alt="…"`), unless
                // the tag (raw HTML) has a size of its own.
                if let size, let x = size.firstIndex(of: "x"), range.lowerBound >= 5,
                    UnsafeRawBufferPointer(rebasing: bytes[(range.lowerBound - 5)..<range.lowerBound]).elementsEqual("src=\"".utf8),
                    !Self.tagHasSize(bytes, around: range)
                {
                    replacement += "\" width=\"\(size[..<x])\" height=\"\(size[size.index(after: x)...])"
                }
            }
            found.append((range, replacement))
        }
        return found
    }

    /// Whether the tag holding the destination at `range` has a `width` or `height` attribute
    /// (raw HTML's `<img src="a.png" width="300">`; cmark's `<img>` never has).
    static func tagHasSize(_ bytes: UnsafeRawBufferPointer, around range: Range<Int>) -> Bool {
        var start = range.lowerBound
        while start > 0, bytes[start] != UInt8(ascii: "<") { start -= 1 }
        var end = range.upperBound
        while end < bytes.count, bytes[end] != UInt8(ascii: ">") { end += 1 }
        let tag = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self).lowercased()
        return [" width=", " height=", "\twidth=", "\theight=", "\nwidth=", "\nheight="].contains { tag.contains($0) }
    }

    /// Whether every content-link destination in `bytes` is one of ``pages``: a page rewritten
    /// with these pages alone (a patch build's: the changed item's own links) is then the page
    /// the site's pages would make. Text that merely spells the marker (`feedgen-md:…` in a code
    /// span) is rewritten too, with whatever file it names.
    public func resolvesEveryDestination(in bytes: UnsafeRawBufferPointer) -> Bool {
        var known = true
        Self.forEachDestination(in: bytes) { _, path, _ in
            let destination = path.string(in: bytes)
            guard let value = pages[destination] else { return known = false }
            // A body path that leads to a file (an image: its size and variants; a file beside
            // an item: its copy) is left to the full build; one that names nothing (kept as
            // written) or a page is not.
            if MarkdownLink.isPathTarget(destination), !Self.isPageOrNothing(value) { known = false }
        }
        return known
    }

    /// Whether a ``pages`` value of a body path is a path that names nothing
    /// (``BodyPaths/verbatim(_:)``) or a page: no image size, no copy in `assets/`.
    static func isPageOrNothing(_ value: String) -> Bool {
        let parsed = BodyPaths.parse(value)
        return parsed.verbatim || (parsed.size == nil && !parsed.path.hasPrefix("assets/"))
    }

    /// A marker's site-relative path (percent-decoded): its bytes in the page when they are
    /// ASCII without `%` (their own decoding), else the decoded String.
    private enum Destination {
        case bytes(Range<Int>)
        case decoded(String)

        func string(in page: UnsafeRawBufferPointer) -> String {
            switch self {
            case .bytes(let range): String(decoding: UnsafeRawBufferPointer(rebasing: page[range]), as: UTF8.self)
            case .decoded(let path): path
            }
        }
    }

    /// Calls `body` with each `feedgen-md:<path>#frag` destination in `bytes`, in order: its byte
    /// range, its site-relative path (percent-decoded) and its suffix as written (`?query#frag`,
    /// or empty).
    private static func forEachDestination(
        in bytes: UnsafeRawBufferPointer, _ body: (Range<Int>, Destination, String) -> Void
    ) {
        let marker = Array(Markdown.contentLinkScheme.utf8)
        guard let base = bytes.baseAddress else { return }
        var i = 0
        while i + marker.count <= bytes.count {
            // memmem (feedgen_find) jumps to the next marker: most of a page is not one (a byte loop in Swift
            // was the build's top function once every page with a body path held markers).
            guard let hit = marker.withUnsafeBytes({ feedgen_find(base + i, bytes.count - i, $0.baseAddress, marker.count) }) else { return }
            i = base.distance(to: UnsafeRawPointer(hit))
            // A quote, `>` or space ends it (sixteen bytes at a time: a site whose body paths
            // name nothing has thousands of markers).
            var end = i + marker.count
            end += feedgen_first_of4(
                base + end, bytes.count - end, UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: ">"), UInt8(ascii: " "))
            // The marker's target is percent-encoded: its first `?` or `#` starts the suffix.
            // A marker's path is ASCII: then the bytes say where the suffix starts unless a
            // non-ASCII byte follows the `?` or `#` (a combining mark: the characters decide, as
            // ``LinkResolver/split(_:)`` does), and a path without `%` is its own decoding.
            let start = i + marker.count
            var cut = start
            var escaped = false
            while cut < end, bytes[cut] < 0x80, bytes[cut] != UInt8(ascii: "?"), bytes[cut] != UInt8(ascii: "#") {
                if bytes[cut] == UInt8(ascii: "%") { escaped = true }
                cut += 1
            }
            if cut == end || (bytes[cut] >= 0x80 ? false : cut + 1 == end || bytes[cut + 1] < 0x80) {
                let suffix = cut == end ? "" : String(decoding: UnsafeRawBufferPointer(rebasing: bytes[cut..<end]), as: UTF8.self)
                if escaped {
                    let path = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<cut]), as: UTF8.self)
                    body(i..<end, .decoded(MarkdownLink.decodePercent(path)), suffix)
                } else {
                    body(i..<end, .bytes(start..<cut), suffix)
                }
            } else {
                let (path, suffix) = LinkResolver.split(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
                body(i..<end, .decoded(MarkdownLink.decodePercent(String(path))), String(suffix))
            }
            i = end
        }
    }
}
