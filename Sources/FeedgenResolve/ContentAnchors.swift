/// The check of `other.md#part` links: the fragment must be an id of the page the file is
/// shown on (a heading id, a footnote id, a section heading), else a warning at the link.
import FeedgenContent
import FeedgenDiagnostics

/// The ids of each content file's page, gathered from the rendered Markdown it shows; computed
/// only for the files that a link with a fragment names.
package struct ContentAnchors {
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
                if s.section.title != nil { ids.append(OutputPaths.sectionAnchor(s.section.id)) }
            }
            let page = (html, ids)
            if let source = feed.feed.sourcePath { texts[source] = page }
            texts["content/" + (feed.feed.folder.isEmpty ? "" : feed.feed.folder + "/")] = page
            for s in feed.sections {
                if let source = s.section.sourcePath { texts[source] = page }
                for item in s.section.items where item.fileName != "" {
                    texts[item.sourcePath] = item.hasBody ? ([item.html], []) : page
                }
            }
        }
        // The alias ``ContentLinks`` gives (`x.md` for `x.markdown`; of two, the first by path).
        texts = MarkdownLink.addingMdAliases(to: texts)
    }

    /// A warning (an error with `--strict`) for every link to a page of the site whose fragment
    /// is no id of that page. Links to files that are no page are reported by ``ContentLinks``.
    package static func check(_ feeds: [PreparedFeed], pages: [String: String], into diagnostics: inout Diagnostics) {
        var links = BodyPaths.allLinks(feeds)
        links.removeAll { link in
            link.fragment.map { MarkdownHeadings.alwaysFound(MarkdownLink.decodePercent($0)) } ?? true
                || pages[link.target] == nil || link.isPath
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
