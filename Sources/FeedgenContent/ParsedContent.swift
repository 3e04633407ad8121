#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import FeedgenDiagnostics
import FeedgenStorage
import Foundation

/// Every `_feed.md`, `_section.md` and item file of a ``ContentPlan``, read and decoded on all
/// cores. Results are indexed like the plan: `feeds[f]`, `sections[f][s]`, `items[f][s][i]`.
struct ParsedContent: Sendable {
    /// nil: the feed has no `_feed.md`, or it could not be read.
    var feeds: [FeedSettings?]
    var sections: [[SectionSettings?]]
    /// The items that could be read and parsed (the others have an error), in plan order.
    var items: [[[Item]]]
    /// In plan order (feed file, then per section its file and its items).
    var diagnostics: [Diagnostic]

    private enum Job: Sendable {
        case feed(Int)
        case section(Int, Int)
        /// Feed, section, item file of the section, and the file's number among all item files
        /// (as the ``ParsedItemStore`` met them).
        case item(Int, Int, Int, file: Int)
    }

    private enum Output: Sendable {
        case feed(FeedSettings)
        case section(SectionSettings)
        case item(Item)
        case failed
    }

    /// - Parameter timeZone: the site's `timeZone` (a known IANA name): the zone of date-times
    ///   written without one.
    static func parse(
        _ plan: ContentPlan, root: String, markdown: MarkdownOptions, timeZone: String = "UTC", language: String = "en",
        store: (any ParsedItemStore)? = nil
    ) -> ParsedContent {
        let itemCount = plan.feeds.reduce(0) { $0 + $1.sections.reduce(0) { $0 + $1.itemFiles.count } }
        var jobs: [Job] = []
        var files: [ParsedItemFile] = []
        jobs.reserveCapacity(itemCount + plan.feeds.reduce(0) { $0 + 1 + $1.sections.count })
        files.reserveCapacity(itemCount)
        for (f, feed) in plan.feeds.enumerated() {
            if feed.feedFile != nil { jobs.append(.feed(f)) }
            for (s, section) in feed.sections.enumerated() {
                if section.sectionFile != nil { jobs.append(.section(f, s)) }
                for (i, name) in section.itemFiles.enumerated() {
                    jobs.append(.item(f, s, i, file: files.count))
                    files.append(ParsedItemFile(folder: section.folder, name: name))
                }
            }
        }
        store?.meet(files)
        let allJobs = jobs
        let suggestions = KeySuggestions(candidates: Item.knownKeys)
        let zone = TimeZone(identifier: timeZone)
        // In reverse job order: drained front to back below by popping, without copying (an
        // array's `reverse()` copied every output to swap it).
        let last = allJobs.count - 1
        var pending = parallelMap(allJobs.count) { index in
            run(
                allJobs[last - index], plan: plan, root: root, markdown: markdown, timeZone: zone, language: language,
                suggestions: suggestions, store: store)
        }

        var result = ParsedContent(
            feeds: plan.feeds.map { _ in nil },
            sections: plan.feeds.map { $0.sections.map { _ in nil } },
            items: plan.feeds.map {
                $0.sections.map { section in
                    var items: [Item] = []
                    items.reserveCapacity(section.itemFiles.count)
                    return items
                }
            },
            diagnostics: [])
        for job in jobs {
            guard let (output, diagnostics) = pending.popLast() else { break }
            result.diagnostics += diagnostics
            switch (job, output) {
            case (.feed(let f), .feed(let settings)): result.feeds[f] = settings
            case (.section(let f, let s), .section(let settings)): result.sections[f][s] = settings
            case (.item(let f, let s, _, _), .item(let item)): result.items[f][s].append(item)
            default: break
            }
        }
        return result
    }

    private static func run(
        _ job: Job, plan: ContentPlan, root: String, markdown: MarkdownOptions, timeZone: TimeZone?, language: String,
        suggestions: KeySuggestions, store: (any ParsedItemStore)?
    ) -> (Output, [Diagnostic]) {
        func storeKey(_ bytesHash: UInt64) -> UInt64? {
            guard case .item(let f, let s, let i, _) = job else { return nil }
            let section = plan.feeds[f].sections[s]
            return ParsedItemKey.key(
                folder: section.folder, sectionID: section.id, fileName: section.itemFiles[i], bytesHash: bytesHash,
                markdown: markdown, timeZone: timeZone?.identifier ?? "", language: language,
                keepsDate: section.keepingDates.contains(section.itemFiles[i]))
        }
        // An item file whose stat (taken while its folder was listed) is unchanged is not read.
        if let store, case .item(let f, let s, let i, let file) = job,
            let bytesHash = store.unchangedBytesHash(file: file, stamp: plan.feeds[f].sections[s].itemStamps[i]),
            let key = storeKey(bytesHash), let (item, diagnostics) = store.lookup(key, unread: true, countingMiss: false)
        {
            return (.item(item), diagnostics)
        }
        let path: String
        switch job {
        case .feed(let f): path = plan.feeds[f].feedFile!
        case .section(let f, let s): path = plan.feeds[f].sections[s].sectionFile!
        case .item(let f, let s, let i, _):
            let section = plan.feeds[f].sections[s]
            path = section.folder + "/" + section.itemFiles[i]
        }
        let bytes: [UInt8]
        var info = stat()
        switch FileSystem.readFile(root + "/" + path, info: &info) {
        case .success(let b): bytes = b
        case .failure(let failure):
            return (.failed, [.error(SourceLocation(path: path), "cannot read the file: \(failure.message)")])
        }
        // An unchanged item file: its parsed item and diagnostics from the store.
        var itemKey: UInt64?
        if let store, case .item(_, _, _, let file) = job {
            let bytesHash = StableHasher.hash(bytes)
            store.record(file: file, stamp: FileStamp(info), bytesHash: bytesHash)
            itemKey = storeKey(bytesHash)
            if let itemKey, let (item, diagnostics) = store.lookup(itemKey, unread: false, countingMiss: true) {
                return (.item(item), diagnostics)
            }
        }
        let (frontMatter, parseDiagnostics) = FrontMatter.parse(bytes, path: path)
        guard let frontMatter else { return (.failed, parseDiagnostics) }
        var reader = FieldReader(path: path)
        reader.diagnostics = parseDiagnostics
        reader.timeZone = timeZone
        let output: Output
        switch job {
        case .feed:
            output = .feed(FeedSettings.decode(frontMatter, markdown: markdown, reader: &reader))
        case .section(let f, let s):
            let section = plan.feeds[f].sections[s]
            output = .section(
                SectionSettings.decode(
                    frontMatter, sectionID: section.id, sourcePath: path, markdown: markdown,
                    suggestions: suggestions, reader: &reader))
        case .item(let f, let s, let i, _):
            let section = plan.feeds[f].sections[s]
            let fileName = section.itemFiles[i]
            let name = ItemName(sectionID: section.id, fileName: fileName, keepsDate: section.keepingDates.contains(fileName))
            let body = markdown.render(frontMatter.body, source: (path, frontMatter.bodyLine))
            var origin = ItemOrigin(
                sourcePath: path, location: SourceLocation(path: path, line: 1, column: 1),
                defaultID: name.id, defaultTitle: ItemTitle.fromSlug(name.title, fileName: fileName),
                fileName: fileName, html: body.html, summary: body.summary, hasBody: body.hasBody)
            origin.defaultDate = name.date
            if let code = name.lang, !ItemLanguage.isSiteLanguage(code, site: language) { origin.defaultLang = code }
            if let bad = name.invalidDate {
                reader.diagnostics.append(
                    .warning(
                        origin.location,
                        "the file name's date '\(bad)' is not a calendar date: the name is read as a plain name (no date from it; its id and page keep the whole name), where Jekyll would not read the post"))
            }
            var item = Item.decode(frontMatter.fields, origin: origin, suggestions: suggestions, reader: &reader)
            item.markdownLinks = body.links
            item.html = MarkdownHeadings.prefixFootnoteIDs(item.html, itemID: item.id)
            reader.diagnostics += body.warnings
            MarkdownOptions.warnRawHTML(body.rawHTML, reader: &reader)
            reader.diagnostics += body.problems
            if let store, let itemKey { store.store(itemKey, item: item, diagnostics: reader.diagnostics) }
            output = .item(item)
        }
        return (output, reader.diagnostics)
    }
}
