/// `SectionEntries`: the items a view section holds: its own, then those it draws from other
/// sections of its feed (`sections`), kept by `where`, ordered by `sort` when written, with a
/// chips section's tag chips (`terms: tags`).
import FeedgenContent
import FeedgenDiagnostics

enum SectionEntries {
    /// One section's items in order, and the ids of those drawn from other sections.
    struct Entries {
        var items: [Item]
        var drawn: Set<String> = []
    }

    /// The entries of every section of `feed` (``SectionViewSettings`` per section); an ordinary
    /// section keeps its items. Names of unknown sections and keys are errors at their values.
    static func draw(
        feed: PreparedFeed, settings: [SectionViewSettings], tags: [TagPages.Tag], diagnostics: inout Diagnostics
    ) -> [Entries] {
        let sections = feed.sections
        let names = sections.map(\.section.id)
        var result: [Entries] = []
        for (s, view) in settings.enumerated() {
            let section = sections[s].section
            guard view.isView else {
                result.append(Entries(items: section.items))
                continue
            }
            let path = SectionViews.sourcePath(section, feedFolder: feed.feed.folder)
            func at(_ node: YAMLNode) -> SourceLocation { SourceLocation(path: path, line: node.line, column: node.column) }
            var own = section.items
            if view.terms != nil { own += chips(tags, section: section, feed: feed, byName: view.sorted && section.sort == .title) }
            // The sections drawn from, in the order written.
            var sources: [Int] = []
            if view.wholeFeed {
                sources = sections.indices.filter { $0 != s && !settings[$0].draws && settings[$0].terms == nil }
            }
            for (name, node) in view.sources ?? [] {
                guard let t = names.firstIndex(of: name) else {
                    diagnostics.error(
                        at(node),
                        "'sections' names '\(name)', which is no section of this feed; the feed's sections are \(names.map { "'\($0)'" }.joined(separator: ", "))\(Suggestion.didYouMean(name, in: names))")
                    continue
                }
                if t == s {
                    diagnostics.error(at(node), "'sections' names this section itself; name the sections it shows items of")
                } else if settings[t].draws {
                    diagnostics.error(at(node), "'sections' names '\(name)', which is a view itself (it has 'sections'); name the sections it draws from instead")
                } else {
                    sources.append(t)
                }
            }
            var seen = Set(own.map(\.id))
            var drawn: Set<String> = []
            var items = own
            for t in sources {
                for item in sections[t].section.items where seen.insert(item.id).inserted {
                    items.append(item)
                    drawn.insert(item.id)
                }
            }
            let filter = checkedFilter(view.filter, items: items, at: at, diagnostics: &diagnostics)
            if !filter.isEmpty { items = items.filter { item in filter.allSatisfy { matches(item, key: $0.key, value: $0.value) } } }
            if view.sorted, view.draws, view.terms == nil { items = ItemOrdering.sorted(items, by: section.sort) }
            drawn.formIntersection(items.map(\.id))
            result.append(Entries(items: items, drawn: drawn))
        }
        return result
    }

    /// The keys of `filter` that an item can have: a key of content-format §5 or one in the
    /// front matter of one of `items`; any other is an error at the key, with a suggestion.
    static func checkedFilter(
        _ filter: [(key: String, keyNode: YAMLNode, value: YAMLNode)], items: [Item], at: (YAMLNode) -> SourceLocation,
        diagnostics: inout Diagnostics
    ) -> [(key: String, value: YAMLNode)] {
        var checked: [(key: String, value: YAMLNode)] = []
        for (key, keyNode, value) in filter {
            if Item.knownKeys.contains(key) || items.contains(where: { $0.frontMatter[key] != nil }) {
                checked.append((key, value))
                continue
            }
            var keys = Set(Item.knownKeys)
            for item in items { for pair in item.frontMatter.pairs ?? [] { if let k = pair.key.string { keys.insert(k) } } }
            diagnostics.error(
                at(keyNode),
                "'where' names the key '\(key)', which no item of this section has\(Suggestion.didYouMean(key, in: keys.sorted()))")
        }
        return checked
    }

    /// Whether `item` passes `key: value` of a `where`: `tags` holds the value (a list: any of
    /// them; spellings of one tag, ``TagPages/key(_:)``, are equal); `type` is the value; any
    /// other key's front-matter value equals it (`pin: true` matches `pin: true`, not
    /// `pin: "true"`; a missing key never matches).
    static func matches(_ item: Item, key: String, value: YAMLNode) -> Bool {
        switch key {
        case "tags":
            // Spellings of one tag match each other, as they share its page (`Soup` matches `soup`).
            let wanted = Set((value.elements?.compactMap(\.string) ?? value.string.map { [$0] } ?? []).map(TagPages.key))
            return item.tags.contains { wanted.contains(TagPages.key($0)) }
        case "type":
            return item.type == value.string
        default:
            guard let node = item.frontMatter[key] else { return false }
            if let flag = value.bool { return node.bool == flag }
            if let number = value.int { return node.int == number }
            return node.string == value.string && node.bool == nil && node.int == nil
        }
    }

    /// One chip per tag (most items first, then by name; by name with `sort: title`), leading to
    /// the tag's page.
    static func chips(_ tags: [TagPages.Tag], section: Section, feed: PreparedFeed, byName: Bool) -> [Item] {
        let ordered = tags.sorted { a, b in
            if !byName, a.count != b.count { return a.count > b.count }
            return ItemOrdering.byteOrder(a.name.lowercased(), b.name.lowercased()) < 0
                || (a.name.lowercased() == b.name.lowercased() && ItemOrdering.byteOrder(a.name, b.name) < 0)
        }
        let path = SectionViews.sourcePath(section, feedFolder: feed.feed.folder)
        return ordered.map { tag in
            Item(
                id: "tag:" + tag.name, sourcePath: section.sourcePath ?? path, location: tag.location, title: tag.name,
                link: "/" + RelativeURL.percentEncode(tag.page.pagePath), type: "chip")
        }
    }
}
