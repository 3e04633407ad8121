/// The check of `other.md#part` links: the fragment must be an id of the page the file is
/// shown on (a heading id, a footnote id, a section heading), else a warning at the link.
import FeedgenContent
import FeedgenDiagnostics
import FeedgenEmit

/// The ids of each content file's page, gathered from the rendered Markdown it shows; computed
/// only for the files that a link with a fragment names.
struct ContentAnchors {
    /// The HTML (and extra ids) each content file's page shows, by site-relative source path.
    private var texts: [String: (html: [String], ids: [String])] = [:]
    private var cache: [String: Set<String>] = [:]

    init(feeds: [PreparedFeed]) {
        for feed in feeds {
            // A feed page shows its intro, every section's header text and section headings.
            var html = [feed.feed.introHTML]
            var ids: [String] = []
            for s in feed.sections {
                html.append(s.section.headerHTML)
                if s.section.title != nil { ids.append("sec-" + HTML.identifier(s.section.id)) }
            }
            let page = (html, ids)
            if let source = feed.feed.sourcePath { texts[source] = page }
            texts["content/" + (feed.feed.path.isEmpty ? "" : feed.feed.path + "/")] = page
            for s in feed.sections {
                if let source = s.section.sourcePath { texts[source] = page }
                for item in s.section.items where item.fileName != "" {
                    texts[item.sourcePath] = item.hasBody ? ([item.html], []) : page
                }
            }
        }
    }

    /// A warning (an error with `--strict`) for every link to a page of the site whose fragment
    /// is no id of that page. Links to files that are no page are reported by ``ContentLinks``.
    static func check(_ feeds: [PreparedFeed], pages: [String: String], into diagnostics: inout Diagnostics) {
        var links: [MarkdownLink] = []
        for feed in feeds {
            links += feed.feed.introLinks
            for s in feed.sections {
                links += s.section.headerLinks
                for item in s.section.items { links += item.markdownLinks }
            }
        }
        links.removeAll { link in
            link.fragment.map { MarkdownHeadings.alwaysFound(MarkdownLink.decodePercent($0)) } ?? true
                || pages[link.target] == nil
        }
        guard !links.isEmpty else { return }
        var anchors = ContentAnchors(feeds: feeds)
        for link in links {
            let fragment = MarkdownLink.decodePercent(link.fragment!)
            let ids = anchors.ids(of: link.target)
            guard !ids.contains(fragment) else { continue }
            let page = link.target.hasSuffix("/") ? "the page of " + link.target.dropLast() : link.target
            diagnostics.warning(
                link.location,
                MarkdownHeadings.deadAnchorMessage(destination: link.destination, fragment: fragment, page: page, ids: ids))
        }
    }

    /// For the build snapshot: one `#<target>` entry (page "") per file that `links` name with
    /// a fragment to check, beside the item's real links. A patch build of a changed file that
    /// another item links to so takes the usual path (``linkedWithFragment(_:old:feeds:)``):
    /// its ids may have changed, and with them the warnings of links into it.
    static func snapshotMarks(_ links: [MarkdownLink]) -> [BuildSnapshot.Link] {
        var seen: Set<String> = []
        var marks: [BuildSnapshot.Link] = []
        for link in links where link.fragment.map({ !MarkdownHeadings.alwaysFound(MarkdownLink.decodePercent($0)) }) ?? false {
            if seen.insert(link.target).inserted { marks.append(BuildSnapshot.Link(target: "#" + link.target, page: "")) }
        }
        return marks
    }

    /// The first of `paths` that an item of the `old` snapshot, a `_feed.md` intro or a
    /// `_section.md` text of `feeds` links to with a fragment, or nil.
    static func linkedWithFragment(_ paths: Set<String>, old: BuildSnapshot, feeds: [PreparedFeed]) -> String? {
        for record in old.items {
            for link in record?.links ?? [] where link.target.hasPrefix("#") && paths.contains(String(link.target.dropFirst())) {
                return String(link.target.dropFirst())
            }
        }
        for feed in feeds {
            let links = feed.feed.introLinks + feed.sections.flatMap(\.section.headerLinks)
            if let hit = snapshotMarks(links).first(where: { paths.contains(String($0.target.dropFirst())) }) {
                return String(hit.target.dropFirst())
            }
        }
        return nil
    }

    private mutating func ids(of target: String) -> Set<String> {
        if let known = cache[target] { return known }
        var ids: Set<String> = []
        if let text = texts[target] {
            for html in text.html { ids.formUnion(MarkdownHeadings.ids(inHTML: html)) }
            ids.formUnion(text.ids)
        }
        cache[target] = ids
        return ids
    }
}
