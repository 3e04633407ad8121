import FeedgenDiagnostics

/// Builds the feeds from the plan and the parsed files: orders sections and items, checks item
/// ids, and leaves out drafts, future and expired items (each with a note).
struct FeedAssembler {
    let config: SiteConfig
    let options: LoadOptions
    let window: PublishWindow
    let plan: ContentPlan
    /// Consumed while assembling: item arrays are moved out, so items are not copied.
    private var parsed: ParsedContent
    var diagnostics: [Diagnostic] = []
    /// Whether some item's publishDate or expiryDate was compared with "now" (``Site/isScheduled``).
    private(set) var isScheduled = false

    init(config: SiteConfig, options: LoadOptions, window: PublishWindow, plan: ContentPlan, parsed: ParsedContent) {
        self.config = config
        self.options = options
        self.window = window
        self.plan = plan
        self.parsed = parsed
    }

    mutating func assemble() -> [Feed] {
        var feeds: [Feed] = []
        for (f, feedPlan) in plan.feeds.enumerated() {
            if let feed = assembleFeed(f, feedPlan) { feeds.append(feed) }
        }
        checkOutputPaths(feeds)
        return feeds
    }

    private mutating func assembleFeed(_ f: Int, _ feedPlan: FeedPlan) -> Feed? {
        let settings = parsed.feeds[f] ?? FeedSettings()
        if settings.draft, !options.drafts, let path = feedPlan.feedFile {
            let node = settings.frontMatter?["draft"]
            diagnostics.append(
                .note(
                    SourceLocation(path: path, line: node?.line ?? 1, column: node?.column ?? 1),
                    "skipped draft feed (use --drafts to include)"))
            return nil
        }
        var sections: [Section] = []
        for (s, sectionPlan) in feedPlan.sections.enumerated() {
            let sectionSettings = parsed.sections[f][s] ?? SectionSettings()
            var items: [Item] = []
            swap(&items, &parsed.items[f][s])
            ItemOrdering.sort(&items, by: sectionSettings.sort)
            items.insert(contentsOf: sectionSettings.inlineItems, at: 0)
            var section =
                Section(
                    id: sectionPlan.id, sourcePath: sectionPlan.sectionFile, title: sectionSettings.title,
                    weight: sectionSettings.weight, layout: sectionSettings.layout, sort: sectionSettings.sort,
                    lang: sectionSettings.lang, controls: sectionSettings.controls, headerHTML: sectionSettings.headerHTML,
                    items: items, frontMatter: sectionSettings.frontMatter)
            section.headerLinks = sectionSettings.headerLinks
            sections.append(section)
        }
        checkDuplicateIDs(sections)
        for s in sections.indices { removeHiddenItems(&sections[s].items) }
        let name = feedPlan.path.split(separator: "/").last.map(String.init)
        var feed = Feed(
            path: ItemName.urlSafePath(feedPlan.path), folder: feedPlan.path, sourcePath: feedPlan.feedFile,
            title: settings.title ?? name ?? config.title, description: settings.description, lang: settings.lang,
            introHTML: settings.introHTML, interSectionSpacing: settings.interSectionSpacing,
            sections: orderSections(sections, settings: settings, feedFile: feedPlan.feedFile, folder: feedPlan.folder),
            frontMatter: settings.frontMatter)
        feed.introLinks = settings.introLinks
        feed.homeFile = feedPlan.homeFile
        return feed
    }

    /// The `sections` list order (unlisted sections after it, with a warning), else weight
    /// then folder name.
    /// The feed's pages (``Section/isPages``) come last and are not named in `sections`.
    private mutating func orderSections(
        _ all: [Section], settings: FeedSettings, feedFile: String?, folder: String
    ) -> [Section] {
        let sections = all.filter { !$0.isPages }
        let pages = all.filter(\.isPages)
        let byWeight = sections.sorted { a, b in
            a.weight != b.weight ? a.weight < b.weight : a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
        }
        guard let order = settings.sectionOrder, let feedFile else { return byWeight + pages }
        var byID: [String: Section] = [:]
        for section in sections { byID[section.id] = section }
        var result: [Section] = []
        var listed: [String: Int] = [:]
        for (name, node) in order {
            let location = SourceLocation(path: feedFile, line: node.line, column: node.column)
            if let first = listed[name] {
                diagnostics.append(.error(location, "section '\(name)' is already listed at line \(first)"))
            } else if let section = byID[name] {
                listed[name] = node.line
                result.append(section)
            } else {
                let subfeed = String((folder + "/" + name).dropFirst("content/".count))
                if name != ".", name != "..", plan.feeds.contains(where: { $0.path == subfeed }) {
                    diagnostics.append(
                        .error(
                            location,
                            "'\(name)' is a feed of its own (it has _feed.md), not a section of this one; its page is \(subfeed)/index.html"))
                    continue
                }
                var hint = Suggestion.didYouMean(name, in: sections.map(\.id))
                if hint.isEmpty { hint = " (a section is a folder holding _section.md or .md files)" }
                diagnostics.append(.error(location, "no section folder '\(name)' in \(folder)\(hint)"))
            }
        }
        let node = settings.sectionsNode
        for section in byWeight where listed[section.id] == nil {
            diagnostics.append(
                .warning(
                    SourceLocation(path: feedFile, line: node?.line ?? 1, column: node?.column ?? 1),
                    "section '\(section.id)' is not listed in 'sections'; it is placed after the listed ones"))
            result.append(section)
        }
        return result + pages
    }

    /// Ids are unique within a feed. The first use keeps an id: items with a default id before
    /// items with an explicit `id`, then in file and line order; every other use is an error
    /// pointing at the first.
    /// - Complexity: O(n) with one dictionary of indices; locations are built only for duplicates.
    private mutating func checkDuplicateIDs(_ sections: [Section]) {
        var counts: [String: Int] = [:]
        counts.reserveCapacity(sections.reduce(0) { $0 + $1.items.count })
        var duplicated = false
        for s in sections.indices {
            for i in sections[s].items.indices {
                counts[sections[s].items[i].id, default: 0] += 1
                if counts[sections[s].items[i].id]! > 1 { duplicated = true }
            }
        }
        guard duplicated else { return }
        var uses: [String: [Item]] = [:]
        for section in sections {
            for item in section.items where counts[item.id]! > 1 { uses[item.id, default: []].append(item) }
        }
        for (id, items) in uses {
            let owner = items.min { a, b in
                let (explicitA, explicitB) = (idLocation(a) != a.location, idLocation(b) != b.location)
                return explicitA != explicitB ? !explicitA : a.location < b.location
            }!
            for item in items where item.location != owner.location {
                diagnostics.append(
                    .error(idLocation(item), "duplicate item id '\(id)' (also used by \(owner.location))"))
            }
        }
    }

    /// Two feeds must not write the same page: an item page over another feed's item page or
    /// over a feed's `index.html`.
    private mutating func checkOutputPaths(_ feeds: [Feed]) {
        enum Owner {
            case feed(String)
            /// Feed index, section index, item index.
            case item(Int, Int, Int)
        }
        var pages: [String: Owner] = [:]
        for feed in feeds {
            let page = feed.path.isEmpty ? "index.html" : feed.path + "/index.html"
            // Two folders whose URL-safe names are equal (`a b`, `a-b`) would share one page.
            if case .feed(let other) = pages[page] {
                diagnostics.append(
                    .error(
                        SourceLocation(path: feed.sourcePath ?? "content/" + feed.folder),
                        "feed folder 'content/\(feed.folder)' would write \(page) over the page of feed 'content/\(other)' (folder names are made URL-safe: §5.2); rename one of them"))
                continue
            }
            pages[page] = .feed(feed.folder)
        }
        // An item page `F/id.html` can be another page only when its id is `index` (its feed's
        // page), when its id holds a `/` and there is another feed (`F/a/b.html` is `b.html`
        // of the feed `F/a`), or when two feeds share a folder (reported above, which left a
        // feed page out): else no page is looked up (one String and its hashes per item).
        let shared = pages.count < feeds.count
        let others = feeds.count > 1
        guard shared || feeds.contains(where: { $0.sections.contains { $0.items.contains { Self.mayCollide($0.id, others: others) } } })
        else { return }
        pages.reserveCapacity(feeds.reduce(feeds.count) { $0 + $1.sections.reduce(0) { $0 + $1.items.count } })
        for f in feeds.indices {
            let prefix = feeds[f].path.isEmpty ? "" : feeds[f].path + "/"
            for s in feeds[f].sections.indices {
                for i in feeds[f].sections[s].items.indices {
                    let page = prefix + feeds[f].sections[s].items[i].id + ".html"
                    guard let existing = pages[page] else {
                        pages[page] = .item(f, s, i)
                        continue
                    }
                    let over: String
                    switch existing {
                    case .feed(let path):
                        over = "the page of feed '\(path.isEmpty ? "content" : "content/" + path)'"
                    case .item(let otherFeed, let otherSection, let otherItem):
                        // The same feed: already reported as a duplicate id.
                        if otherFeed == f { continue }
                        over = "the page of item \(feeds[otherFeed].sections[otherSection].items[otherItem].location)"
                    }
                    let item = feeds[f].sections[s].items[i]
                    diagnostics.append(
                        .error(idLocation(item), "item id '\(item.id)' would write \(page) over \(over)"))
                }
            }
        }
    }

    /// Whether the page of an item named `id` may be another page of the site (a feed's, or
    /// with `others`, other feeds being there, another feed's item's): then
    /// ``checkOutputPaths(_:)`` looks every page up.
    private static func mayCollide(_ id: String, others: Bool) -> Bool {
        id == "index" || (others && id.utf8.contains(UInt8(ascii: "/")))
    }

    /// Where to report a problem with an item's id: the `id` value, or the item itself.
    private func idLocation(_ item: Item) -> SourceLocation {
        guard let node = item.frontMatter["id"], !node.isNull else { return item.location }
        return SourceLocation(path: item.sourcePath, line: node.line, column: node.column)
    }

    /// Drafts, future and expired items are left out unless the options include them; each one
    /// left out gets a note. Removes in place (items are moved, not copied).
    private mutating func removeHiddenItems(_ items: inout [Item]) {
        let options = options
        let window = window
        var notes: [Diagnostic] = []
        if !isScheduled {
            isScheduled = items.contains {
                ($0.publishDate != nil && !options.future) || ($0.expiryDate != nil && !options.expired)
            }
        }
        items.removeAll { item in
            guard let (key, message) = Self.hiddenReason(item, options: options, window: window) else { return false }
            // Hugo's `published` is an alias of `publishDate`.
            let node = item.frontMatter[key] ?? (key == "publishDate" ? item.frontMatter["published"] : nil)
            let location =
                node.map { SourceLocation(path: item.sourcePath, line: $0.line, column: $0.column) } ?? item.location
            notes.append(.note(location, message))
            return true
        }
        diagnostics += notes
    }

    /// The key that hides `item` and the note saying so, or nil when it is visible.
    private static func hiddenReason(
        _ item: Item, options: LoadOptions, window: PublishWindow
    ) -> (key: String, message: String)? {
        if item.draft, !options.drafts {
            // `published: false` (Jekyll) hides an item as `draft: true` does.
            if item.frontMatter["draft"]?.bool != true, item.frontMatter["published"]?.bool == false {
                return ("published", "skipped: 'published: false' (use --drafts to include)")
            }
            return ("draft", "skipped draft (use --drafts to include)")
        }
        if let publish = item.publishDate, !options.future, window.isFuture(publish) {
            return ("publishDate", "skipped: publishDate \(publish.iso) is in the future (use --future to include)")
        }
        if let expiry = item.expiryDate, !options.expired, window.isExpired(expiry) {
            return ("expiryDate", "skipped: expired on \(expiry.iso) (use --expired to include)")
        }
        return nil
    }
}
