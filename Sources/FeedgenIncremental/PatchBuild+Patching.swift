/// `PatchBuild.attempt`: a build that re-renders only the changed cards' pages, from the last
/// build's snapshot, or says why it does not apply.
import CFileSystem
import FeedgenBuild
import FeedgenContent
import FeedgenDiagnostics
import FeedgenEmit
import FeedgenResolve
import FeedgenStorage
import Foundation

extension PatchBuild {
    /// Why a patch did not apply (for `FEEDGEN_TIMING`); the build then takes its usual path.
    struct NotApplicable: Error {
        var reason: String
        /// The output's session began changing its back buffer: the usual path needs another.
        var sessionUsed = false
        /// The output's snapshot, when it was read (``snapshot(options:listing:site:templates:links:feeds:report:start:previous:)``).
        var snapshot: BuildSnapshot?
        /// The listing's item files, when they were listed (the build's records list them too).
        var itemFiles: [(path: String, stamp: FileStamp?)]?
    }

    /// One changed item: where it is in the snapshot and in the partial site.
    struct Change {
        var file: Int
        var record: BuildSnapshot.ItemRecord
        var feed: Int
        var section: Int
        var item: Int
    }

    /// Patches the output of `options` from `listing` when the snapshot allows it.
    ///
    /// - Parameter early: the snapshot read while the content was listed, if it was.
    /// - Returns: the build's report (its output written), or ``NotApplicable`` with nothing
    ///   written: the caller builds the usual way.
    static func attempt(
        _ options: BuildOptions, listing: ContentListing, output: String, opening opened: () -> Pipeline.SessionOpening?,
        start: Int64, early: EarlySnapshot? = nil, timing: inout StageTiming
    ) -> Result<BuildReport, NotApplicable> {
        let folder = BuildCache.folder(forOutput: output)
        guard !listing.hasErrors else { return .failure(NotApplicable(reason: "configuration")) }
        // A patch rewrites only what changed: a cache file replaced by something else, or a
        // killed build's temporary file, waits for the usual build, which replaces them.
        guard BuildCache.isHealthy(cacheFolder: folder) else { return .failure(NotApplicable(reason: "build cache damaged")) }
        // The output's session (the cache's lock taken) is waited for where it is needed. Another
        // build may have replaced the snapshot before this one had the lock: then no patch.
        let snapshotPath = folder + "/" + BuildSnapshot.fileName
        let stamp = FileStamp.of(snapshotPath)
        func locked() -> Pipeline.SessionOpening? {
            guard let opening = opened(), stamp != nil, FileStamp.of(snapshotPath) == stamp else { return nil }
            return opening
        }
        // An item file changed since the snapshot was written: the patch will render it, and
        // the output's session starts opening now, while the snapshot is read.
        if let written = stamp, listing.hasItemFile(changedSince: written.mtime - BuildSnapshot.racyMargin) {
            guard let opening = locked() else { return .failure(NotApplicable(reason: "output not opened")) }
            opening.startIfIdle()
        }
        guard let old = early?.snapshot(cacheFolder: folder) ?? BuildSnapshot.read(cacheFolder: folder) else {
            let exists = CacheFile.exists(folder + "/" + BuildSnapshot.fileName)
            return .failure(NotApplicable(reason: exists ? "snapshot unreadable" : "no snapshot"))
        }
        if options.exitsAfterBuild { ExitReclaimed.keep(old) }
        // A usual build after this attempt reuses what the snapshot knows, and the item files.
        let files = listing.itemFiles
        return patch(
            options, listing: listing, files: files, output: output, opening: locked, start: start, old: old,
            templates: early?.templates(folder: listing.root + "/Templates"), timing: &timing)
            .mapError { failure in
                var failure = failure
                failure.snapshot = old
                failure.itemFiles = files
                return failure
            }
    }

    /// ``attempt(_:listing:output:opening:start:timing:)`` with the output's snapshot `old`;
    /// `files`: the listing's item files; `opened`: waits for the output's session (nil: no
    /// patch); `templates`: the site's templates compiled already (nil: compiled here).
    static func patch(
        _ options: BuildOptions, listing: ContentListing, files: [(path: String, stamp: FileStamp?)], output: String,
        opening opened: () -> Pipeline.SessionOpening?, start: Int64, old: BuildSnapshot,
        templates early: Result<TemplateSet, any Error>? = nil,
        timing: inout StageTiming
    ) -> Result<BuildReport, NotApplicable> {
        func no(_ reason: String) -> Result<BuildReport, NotApplicable> { .failure(NotApplicable(reason: reason)) }
        let root = listing.root
        let folder = BuildCache.folder(forOutput: output)

        // What changed: item files by their stamps; everything else must not have.
        guard files.count == old.itemFiles.count else { return no("item files added or removed") }
        var changed: [Int] = []
        for (k, file) in files.enumerated() {
            guard file.path == old.itemFiles[k].path else { return no("item files renamed") }
            if file.stamp == nil || file.stamp != old.itemFiles[k].stamp || !old.isTrusted(old.itemFiles[k].stamp) {
                changed.append(k)
                guard changed.count <= maximumChanged else { return no("more than \(maximumChanged) items changed") }
            }
        }
        func unchanged(_ now: [BuildSnapshot.Source], _ then: [BuildSnapshot.Source]) -> Bool {
            now.count == then.count && zip(now, then).allSatisfy { $0.path == $1.path && $0.stamp == $1.stamp && old.isTrusted($1.stamp) }
        }
        guard unchanged(sources(listing.settingsFiles, prefix: root + "/"), old.settingsFiles) else { return no("feed or section files") }
        guard unchanged(sources(old.images.map(\.path), prefix: ""), old.images) else { return no("images") }
        guard old.absent.allSatisfy({ FileStamp.of($0) == nil }) else { return no("an image beside an item") }
        // A changed item the last build did not show (a draft) must stay hidden, with the same
        // note: it has no output.
        var changes: [Change] = []
        var hidden: [Int] = []
        for k in changed {
            guard let record = old.items[k] else {
                hidden.append(k)
                continue
            }
            changes.append(Change(file: k, record: record, feed: -1, section: -1, item: -1))
        }
        // The output's session opens on another thread while the changed items are rendered;
        // with none, nothing is written and no session is needed.
        if !changes.isEmpty {
            guard let opening = opened() else { return no("output not opened") }
            opening.startIfIdle()
        }

        // The templates and the options.
        let templates: TemplateSet
        do {
            if let early {
                templates = try early.get()
            } else {
                templates = try TemplateSet(overrides: try Pipeline.readTemplates(root + "/Templates"))
            }
        } catch {
            return no("templates")
        }
        let salt = RenderKeys.pageSalt(templates: templates, config: listing.config, liveReload: options.liveReload)
        guard inputs(options: options, pageSalt: salt, listing: listing) == old.inputs else {
            return no("options, templates, configuration or the listing's problems")
        }
        timing.mark("patch: listing compared")

        // The changed items, loaded alone.
        var loadOptions = LoadOptions(now: ContentDate(secondsSinceEpoch: options.now))
        loadOptions.drafts = options.drafts
        loadOptions.future = options.future
        loadOptions.expired = options.expired
        let paths = Set((changes.map(\.file) + hidden).map { files[$0].path })
        let (loaded, loadDiagnostics) = SiteLoader.load(listing, options: loadOptions, onlyItems: paths)
        guard let site = loaded, !site.isScheduled else { return no("load") }
        guard unchanged(sources(site.staticFiles, prefix: root + "/static/"), old.staticFiles) else { return no("static files") }
        var diagnostics = Diagnostics()
        let realRoot = URL(fileURLWithPath: site.root).resolvingSymlinksInPath().path
        let (preparedFeeds, preparedImages) = SiteResolver.prepareFeeds(site, realRoot: realRoot, diagnostics: &diagnostics)
        let prepared = PreparedSite(site: site, feeds: preparedFeeds, images: preparedImages)
        if let path = SnapshotAnchors.linkedWithFragment(paths, old: old, feeds: prepared.feeds) {
            return no("\(path) is linked to with a #fragment")
        }
        let hiddenPaths = Set(hidden.map { files[$0].path })
        for feed in prepared.feeds {
            for section in feed.sections {
                for item in section.section.items where item.fileName != "" && hiddenPaths.contains(item.sourcePath) {
                    return no("\(item.sourcePath) is shown now")
                }
            }
        }
        for c in changes.indices {
            let path = files[changes[c].file].path
            var found = false
            for (f, feed) in prepared.feeds.enumerated() {
                for (s, section) in feed.sections.enumerated() {
                    for (i, item) in section.section.items.enumerated() where item.fileName != "" && item.sourcePath == path {
                        (changes[c].feed, changes[c].section, changes[c].item) = (f, s, i)
                        found = true
                    }
                }
            }
            guard found else { return no("\(path) is no longer shown") }
            let item = prepared.feeds[changes[c].feed].sections[changes[c].section].section.items[changes[c].item]
            guard ItemCache.fingerprintOutsideBody(item) == changes[c].record.fingerprint else { return no("\(path) changed outside its body") }
            guard SiteResolver.frontMatterContentLink(item) == nil else { return no("\(path) links to content in its front matter") }
            let known = Set(changes[c].record.links.map(\.target))
            guard item.markdownLinks.allSatisfy({ known.contains($0.target) }) else { return no("\(path) has a new content link") }
            guard keepsDeadPaths(item, record: changes[c].record) else { return no("\(path) spells or drops a path that names nothing") }
        }
        // The changed files' diagnostics in the last build's place: warnings only.
        let reported: Diagnostics
        switch merged(
            old.diagnostics, fresh: loadDiagnostics.items + diagnostics.items, lint: templates.lint(for: site), paths: paths,
            changes: changes, feeds: prepared.feeds, strict: options.strict)
        {
        case .failure(let why): return .failure(why)
        case .success(let list): reported = list
        }
        // Images of the changed items, with their variants (made before, so found in the cache).
        // Body images need none: an item whose body names a file is not patched.
        var images = ImageVariantTable()
        if prepared.images.count > 0 {
            // Variants are looked up (or made) in the build cache: under its lock.
            guard opened() != nil else { return no("output not opened") }
            images = ImageVariants.make(prepared, cacheFolder: folder, bodies: false, progress: nil, diagnostics: &diagnostics).images
            guard !diagnostics.hasErrors else { return no("images") }
        }
        let feeds = prepared.feeds
        var renderer = SiteRenderer(site: prepared, templates: templates, contentVisibility: options.contentVisibility)
        renderer.images = images
        timing.mark("patch: items loaded")

        // Detail pages and cards.
        var pages: [(file: OutputFile, key: UInt64)] = []
        var cards: [Int: [ChangedCard]] = [:]
        do {
            for change in changes {
                let page = SiteRenderer.Page.detail(feed: change.feed, section: change.section, item: change.item)
                let item = renderer.item(of: page)!
                var targets: [String: String] = [:]
                for link in change.record.links { targets[link.target] = link.page }
                // An item without a body has no page (``SiteRenderer/pages()``), only its card.
                let links = ContentLinks(pages: targets)
                if item.hasBody {
                    let rendered = try renderer.renderPage(page)
                    guard case .text(let text) = rendered.contents, resolvesEveryLink(text, links) else {
                        return no("\(files[change.file].path): a content-link marker of another file")
                    }
                    let file = PagePostProcessor(links: links, liveReload: false).process(rendered)
                    let key = renderer.detailInputs(of: page).map { RenderKeys(salt: salt, fingerprints: nil).detailKey($0, linkPages: $0.item.markdownLinks.map { targets[$0.target] }) } ?? 0
                    pages.append((file, key))
                }
                // In a site with views: a card on every page that shows the item.
                if let places = change.record.elsewhere {
                    switch placedCards(change, places: places, renderer: renderer, old: old, links: links, path: files[change.file].path) {
                    case .failure(let why): return .failure(why)
                    case .success(let placed): for (page, card) in placed { cards[page, default: []].append(card) }
                    }
                    continue
                }
                let r = change.record
                guard r.feed < old.feeds.count, r.section < old.feeds[r.feed].map.cards.count,
                    r.item < old.feeds[r.feed].map.cards[r.section].count
                else { return no("snapshot") }
                let map = old.feeds[r.feed].map
                let html = try renderer.card(
                    feed: change.feed, section: change.section, item: change.item, eager: map.eager[r.section][r.item],
                    priority: map.priority[r.section][r.item])
                guard resolvesEveryLink(html, links) else { return no("\(files[change.file].path): a content-link marker of another file") }
                let preset = feeds[change.feed].sections[change.section].preset.rawValue
                cards[r.feed, default: []].append(
                    ChangedCard(
                        section: r.section, item: r.item, range: map.cards[r.section][r.item], html: html, preset: preset, id: item.id,
                        links: links))
            }
        } catch {
            return no("templates")
        }
        timing.mark("patch: rendered")

        // The session: the previous output's files, its changed pages replaced. Without a
        // changed item shown there is nothing to render: the output stays as it is if it is as
        // written, which listing it told (it has a manifest then).
        guard let opening = opened() else { return no("output not opened") }
        if changes.isEmpty, let asWritten = opening.outputAsWritten {
            guard asWritten else {
                return .failure(NotApplicable(reason: "an output file was changed, added or removed by hand", sessionUsed: false))
            }
            if !changed.isEmpty { old.restamped(files, diagnostics: reported, recorded: start).write(cacheFolder: folder) }
            timing.mark("patch: committed")
            return .success(report(old, diagnostics: reported, output: output, items: files.count, changed: 0, pages: 0, written: 0))
        }
        opening.startIfIdle()
        let session: OutputWriter.Session
        do {
            guard let opened = try opening.session() else { return no("session") }
            session = opened
        } catch {
            return no("session")
        }
        let livePaths = session.livePaths
        guard !livePaths.isEmpty else { return no("no manifest of the output") }
        guard pages.allSatisfy({ session.liveHash($0.file.path) != nil }) else { return no("a page not in the output's manifest: \(pages.map(\.file.path))") }
        var snapshot = old
        // The output becomes the back buffer: its pages' records, for the build after.
        snapshot.backFeeds = old.feeds.filter { $0.key != 0 }
        var feedFiles: [(file: OutputFile, feed: Int)] = []
        for (f, list) in cards.sorted(by: { $0.key < $1.key }) {
            let record = old.feeds[f]
            guard record.map.isExact, session.liveHash(record.path) == record.hash else { return no("feed page") }
            guard let mapped = session.mapLive(record.path) else { return no("feed page changed by hand") }
            let base = mapped.bytes
            var replacements: [Replacement] = []
            var folds = record.map.folds
            for card in list.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
                switch replacement(of: card, in: base, map: record.map, folds: &folds, page: record.path, links: card.links) {
                case .failure(let why): return .failure(why)
                case .success(let found): if let found { replacements.append(found) }
                }
            }
            guard !replacements.isEmpty else { continue }
            // The new page: the written page's bytes where they stay (mapped, not copied), the
            // replacements between them.
            let chunks = ByteChunks()
            var copied = 0
            for r in replacements {
                guard r.region.lowerBound >= copied else { return no("feed page map") }
                chunks.append(card: CardHTML(unsafeUTF8: UnsafeRawBufferPointer(rebasing: base[copied..<r.region.lowerBound]), owner: mapped))
                r.bytes.withUnsafeBytes { chunks.append($0) }
                copied = r.region.upperBound
            }
            chunks.append(card: CardHTML(unsafeUTF8: UnsafeRawBufferPointer(rebasing: base[copied...]), owner: mapped))
            // Every card after a replaced one moved by the replacements before it.
            var map = record.map
            map.folds = folds
            for s in map.cards.indices {
                for i in map.cards[s].indices {
                    let range = map.cards[s][i]
                    var delta = 0
                    for r in replacements where r.region.upperBound <= range.lowerBound { delta += r.bytes.count - r.region.count }
                    map.cards[s][i] = (range.lowerBound + delta)..<(range.upperBound + delta)
                }
            }
            var delta = 0
            for r in replacements {
                let lower = r.region.lowerBound + delta + r.cardOffset
                map.cards[r.section][r.item] = lower..<(lower + r.cardLength)
                delta += r.bytes.count - r.region.count
            }
            snapshot.feeds[f].map = map
            snapshot.feeds[f].key = 0
            feedFiles.append((OutputFile(path: record.path, contents: .chunks(chunks)), f))
        }
        // The Atom and JSON Feed documents of a site with a `baseURL`: each changed item's entry
        // replaced.
        let documents: [OutputFile]
        switch syndicationDocuments(changes, prepared: prepared, old: old, session: session, snapshot: &snapshot) {
        case .failure(let why): return .failure(why)
        case .success(let found): documents = found
        }
        timing.mark("patch: feed pages spliced")

        // Nothing to write (a file saved unchanged, a draft edited): the output stays as it is.
        let pageHashes = pages.map { page -> UInt64? in
            guard case .text(let text) = page.file.contents else { return nil }
            return StableHasher.hash(text)
        }
        let unchanged =
            feedFiles.isEmpty && documents.isEmpty && zip(pages, pageHashes).allSatisfy { $1 != nil && session.liveHash($0.file.path) == $1 }
        // Writing nothing leaves the output as it is: only right if nobody changed it by hand.
        if unchanged, !(opening.outputAsWritten ?? session.outputIsAsWritten()) {
            return .failure(NotApplicable(reason: "an output file was changed, added or removed by hand", sessionUsed: false))
        }
        if !changed.isEmpty {
            // The new snapshot: the item files' stamps as this build saw them (the other
            // sources' were checked equal to the old ones above), the changed items' links
            // (their cards' ranges and the files' hashes are set while writing).
            snapshot = snapshot.restamped(files, diagnostics: reported, recorded: start)
            for change in changes {
                let item = feeds[change.feed].sections[change.section].section.items[change.item]
                let targets = Dictionary(change.record.links.map { ($0.target, $0.page) }, uniquingKeysWith: { a, _ in a })
                snapshot.items[change.file]?.links =
                    item.markdownLinks.map {
                        BuildSnapshot.Link(target: $0.target, page: targets[$0.target] ?? "")
                    } + SnapshotAnchors.snapshotMarks(item.markdownLinks)
            }
        }
        if !unchanged {
            do {
                try write(
                    pages: pages, hashes: pageHashes, feedFiles: feedFiles, documents: documents, into: session, livePaths: livePaths,
                    snapshot: &snapshot)
                timing.mark("patch: files put")
                // Encoded while the output is committed; written once it is.
                let finished = snapshot
                let encoded = Background { finished.encodedPieces(salt: BuildCache.salt) }
                BuildSnapshot.remove(cacheFolder: folder)
                let committed = Result { try session.commit() }
                let bytes = encoded.value
                try committed.get()
                BuildSnapshot.write(bytes, cacheFolder: folder)
            } catch let error as NotApplicable {
                return .failure(error)
            } catch {
                // The usual path reports it (from a new session: this one's back buffer is dirty).
                return .failure(NotApplicable(reason: "writing: \(error)", sessionUsed: true))
            }
        } else if !changed.isEmpty {
            snapshot.write(cacheFolder: folder)
        }
        timing.mark("patch: committed")

        return .success(
            report(
                old, diagnostics: reported, output: output, items: files.count, changed: changes.count, pages: pages.count,
                written: unchanged ? 0 : session.writes))
    }
}
