/// The check of `other.md#part` links, and of body paths that lead to a page (`/docs/x/#part`,
/// `../post/#part`): the fragment must be an id of that page (a heading id, a footnote id, a
/// section heading), else a warning at the link.
import FeedgenContent
import FeedgenDiagnostics

/// The ids of each content file's page, gathered from the rendered Markdown it shows; computed
/// only for the files that a link with a fragment names.
package struct ContentAnchors: Sendable {
    /// What each content file's page shows, by site-relative source path.
    private var texts: [String: Text] = [:]
    /// What each output page shows, by its output path (a table of its own: no key to build
    /// per page; its keys end in `.html`, so they have no Markdown aliases).
    private var pageTexts: [String: Text] = [:]
    /// The ids of ``texts``' and of ``pageTexts``' entries, once asked for.
    private var cache: [String: Set<String>] = [:]
    private var pageCache: [String: Set<String>] = [:]

    /// `sources` and `pages`: the only source paths and output pages whose ids will be asked
    /// for; an item's text is kept when its source path or its ``MarkdownLink/mdAlias(of:)`` is
    /// one of `sources`, so the aliases made below are those the whole table would have for them.
    init(feeds: [PreparedFeed], sources: Set<String>, pages: Set<String>) {
        // An alias ends in `.md`: made per key only when a wanted key does.
        let aliases = sources.contains { $0.hasSuffix(".md") }
        func wantedSource(_ key: String) -> Bool {
            sources.contains(key) || (aliases && MarkdownLink.mdAlias(of: key).map(sources.contains) == true)
        }
        texts.reserveCapacity(feeds.reduce(0) { $0 + 2 + $1.sections.reduce(0) { $0 + 1 + $1.section.items.count } })
        pageTexts.reserveCapacity(feeds.reduce(0) { $0 + 1 + $1.sections.reduce(0) { $0 + $1.section.items.count } })
        for feed in feeds {
            // A feed page shows its intro, every section's header text and section headings.
            var html = [feed.feed.introHTML]
            var ids: [String] = []
            for s in feed.sections {
                html.append(s.section.headerHTML)
                if s.section.title != nil { ids.append(OutputPaths.sectionAnchor(s.section.id)) }
            }
            let page = Text.page(html: html, ids: ids)
            pageTexts[feed.pagePath] = page
            if let source = feed.feed.sourcePath { texts[source] = page }
            texts["content/" + (feed.feed.folder.isEmpty ? "" : feed.feed.folder + "/")] = page
            for s in feed.sections {
                if let source = s.section.sourcePath { texts[source] = page }
                for item in s.section.items where item.fileName != "" {
                    if wantedSource(item.sourcePath) { texts[item.sourcePath] = item.hasBody ? .item(item) : page }
                    guard item.hasBody, !pages.isEmpty else { continue }
                    let path = feed.detailPath(item)
                    if pages.contains(path) { pageTexts[path] = .item(item) }
                }
            }
        }
        // The alias ``ContentLinks`` gives (`x.md` for `x.markdown`; of two, the first by path).
        texts = MarkdownLink.addingMdAliases(to: texts)
    }

    /// A warning (an error with `--strict`) for every link to a page of the site whose fragment
    /// is no id of that page. Links to files that are no page are reported by ``ContentLinks``;
    /// a body path that leads to a file (an image, a PDF) has its fragment unchecked.
    /// `targets`: the links of `feeds` resolved by `pages` (``LinkTargets/resolved(by:)``), when
    /// known.
    package static func check(
        _ feeds: [PreparedFeed], pages: [String: String], targets: LinkTargets? = nil, into diagnostics: inout Diagnostics
    ) {
        var links: [(link: MarkdownLink, page: String)] = []
        var k = 0
        // With `targets`, whether a target's links can need a check is asked once per target:
        // not when it leads to no page, nor when it is a body path or folder link that names
        // nothing (skipped below) — most links with a fragment on a site whose links were
        // written for another site. The rest are read in place, copied only when checked.
        let checked = targets.map { targets in
            targets.targets.indices.map { t in
                guard let page = targets.pages[t] else { return false }
                let target = targets.targets[t]
                return !((MarkdownLink.isPathTarget(target) || target.hasSuffix("/")) && BodyPaths.parse(page).verbatim)
            }
        }
        BodyPaths.forEachLink(feeds) { link in
            defer { k += 1 }
            if let checked, let targets, !checked[Int(targets.ofLink[k])] { return }
            guard needsCheck(link.pointee) else { return }
            let page = if let targets { targets.page(ofLink: k) } else { pages[link.pointee.target] }
            if let page { links.append((link.pointee, page)) }
        }
        guard !links.isEmpty else { return }
        // Only the pages these links name are looked at: their texts alone are gathered (a
        // site of 10,000 items links to a few of them with a fragment).
        var (sources, named) = (Set<String>(), Set<String>())
        for (link, value) in links {
            if link.isPath || link.target.hasSuffix("/") {
                let resolved = BodyPaths.parse(value)
                if !resolved.verbatim { named.insert(String(resolved.path)) }
            } else {
                sources.insert(link.target)
            }
        }
        var anchors = ContentAnchors(feeds: feeds, sources: sources, pages: named)
        for (link, value) in links {
            var target = link.target
            var page = link.target
            var isPage = false
            // A body path or a folder link (`/docs/x/`, `../post/`) names no source file: the
            // page it resolved to holds the ids; a path to a file (an image, a PDF) is not checked.
            if link.isPath || link.target.hasSuffix("/") {
                let resolved = BodyPaths.parse(value)
                guard !resolved.verbatim, anchors.pageTexts[String(resolved.path)] != nil else { continue }
                (target, page, isPage) = (String(resolved.path), String(resolved.path), true)
            }
            let fragment = MarkdownLink.decodePercent(link.fragment!)
            let ids = anchors.ids(of: target, isPage: isPage)
            guard !ids.contains(fragment) else { continue }
            diagnostics.warning(
                link.location,
                MarkdownHeadings.deadAnchorMessage(destination: link.destination, fragment: fragment, page: page, ids: ids))
        }
    }

    /// Whether `link` has a fragment that a page may lack (not empty, not `top`).
    private static func needsCheck(_ link: MarkdownLink) -> Bool {
        link.fragment.map { !MarkdownHeadings.alwaysFound(MarkdownLink.decodePercent($0)) } ?? false
    }

    /// A page's text: a feed page's HTML pieces and the ids it has besides theirs, or an item's
    /// detail page, whose body is read only when a link needs its ids (an item taken from the
    /// build cache decodes it then).
    private enum Text: Sendable {
        case page(html: [String], ids: [String])
        case item(Item)
    }

    /// The ids of the page of `target`: a source path, or with `isPage` an output page's path.
    private mutating func ids(of target: String, isPage: Bool) -> Set<String> {
        if let known = isPage ? pageCache[target] : cache[target] { return known }
        var ids: Set<String> = []
        switch isPage ? pageTexts[target] : texts[target] {
        case .page(let html, let extra):
            for html in html { ids.formUnion(MarkdownHeadings.ids(inHTML: html)) }
            ids.formUnion(extra)
        case .item(let item): ids = MarkdownHeadings.ids(inHTML: item.html)
        case nil: break
        }
        if isPage { pageCache[target] = ids } else { cache[target] = ids }
        return ids
    }
}
