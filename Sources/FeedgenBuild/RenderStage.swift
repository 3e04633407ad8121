/// Stages 5–6 of a build: every page and asset rendered and written into the back buffer, and the keys that let unchanged detail pages skip rendering.
import Dispatch
import FeedgenContent
import FeedgenDiagnostics
import FeedgenEmit
import FeedgenLayout
import FeedgenResolve
import FeedgenStorage
import Foundation

extension Pipeline {
    /// How many pages render at once: pages are written as soon as their batch is rendered, so
    /// memory holds one batch of pages, not the whole site.
    static let batchSize = 256
    /// From this many feed pages, they render in parallel with each other rather than one by one.
    static let parallelFeedPages = 4

    /// Renders every page and asset and, with an `output`, writes them through an
    /// ``OutputWriter/Session``: a detail page whose inputs (its template context, the pages its
    /// content links lead to, the templates) hash to the key recorded for the file already in
    /// the back buffer is not rendered at all; other files are written only when their bytes
    /// differ. Without an output (`check`), every page is rendered for its errors. The card
    /// cache is saved after the exchange, or handed to `deferred` to save.
    ///
    /// - Throws: ``TemplateErrors`` (rendering), `OutputWriter.WriteError` (writing).
    static func renderAndWrite(
        _ site: PreparedSite, images: ImageVariantTable, templates: TemplateSet, links: ContentLinks, output: String?,
        options: BuildOptions, timing: inout StageTiming, report: inout BuildReport, early: SessionOpening? = nil,
        memo: (any BuildMemo)? = nil,
        beforeCommit: (String) -> Void, feedRecords: inout [WrittenFeed], deferred: DeferredSaves? = nil, lastFeeds: [WrittenFeed] = []
    ) throws {
        var planner = SiteRenderer(site: site, templates: templates, contentVisibility: options.contentVisibility)
        planner.images = images
        let post = PagePostProcessor(links: links, liveReload: options.liveReload)

        let keys = memo?.renderMemo(templates: templates, config: site.site.config, liveReload: options.liveReload)
        // Cards of earlier builds (only when writing: `check` renders everything; `--clean`
        // renders everything and starts a new log).
        let cardCache: (any CardMemo)? = output.flatMap { output in
            if let early, early.output == output, options.useCache, let cards = early.cardCache() { return cards }
            return memo?.openCards(
                cacheFolder: BuildCache.folder(forOutput: output), read: options.useCache, cutAfterMapping: options.testCutLog == "cards.log")
        }
        var configured = planner
        if let cardCache, let keys { configured.cardStore = keys.cardStore(cardCache) }
        let renderer = configured
        timing.mark("card cache read")

        // Feed pages, one at a time, on a thread of their own, started first: each renders its
        // cards on every core (it is not a dispatch worker, whose nested `concurrentPerform`
        // would run on one thread), and its serial tail (deferred cards, assembling, hashing and
        // writing a page of every card) overlaps the page plan, the back buffer's check and
        // preparation, the detail pages' keys and look-up, and the detail pages, which render
        // meanwhile in batches on every core. A feed page waits for the back buffer only to be
        // written (`gate`).
        let gate = SessionGate()
        let feedCount = site.feeds.count
        let feedHashes = ResultSlots<UInt64>(count: feedCount)
        // Where each feed page's cards are, for the snapshot (``BuildSnapshot``).
        let feedMaps = ResultSlots<FeedPageMap>(count: feedCount)
        let feedKeys = ResultSlots<UInt64>(count: feedCount)
        let rendered = Counter()
        let feedsDone = DispatchGroup()
        feedsDone.enter()
        // A feed page whose key the back buffer has, with the last build's record of those very
        // bytes (its key and hash: where its cards are), is not rendered (only when writing).
        // The site's part of the keys is made on the feed thread (not this one's plan).
        let keysFeeds = output != nil && cardCache != nil
        let last = Dictionary(grouping: lastFeeds.filter { $0.key != 0 }, by: \.path)
        let renderFeed = { @Sendable (f: Int, siteKey: UInt64?) in
            feedHashes.set(f, Result {
                var key: UInt64 = 0
                var cardKeys: [[UInt64]]?
                if let siteKey, let keys, let inputs = renderer.feedInputs(of: f) {
                    key = keys.feedKey(inputs, site: siteKey)
                    cardKeys = inputs.cardKeys
                    if key != 0, let record = last[inputs.path]?.first(where: { $0.key == key }), let session = try gate.session(),
                        session.current([(inputs.path, key)])[0] == record.hash
                    {
                        for list in inputs.cardKeys { cardCache?.keep(list) }
                        feedMaps.set(f, .success(record.map))
                        feedKeys.set(f, .success(key))
                        return record.hash
                    }
                }
                rendered.increment()
                let (page, rendered) = try renderer.feedPage(f, cardKeys: cardKeys)
                let (file, map) = post.process(feedPage: page, map: rendered)
                feedMaps.set(f, .success(map))
                feedKeys.set(f, .success(key))
                return try put(file, key: key) { try gate.session() }
            })
        }
        let feedThread = Thread {
            let siteKey = keysFeeds ? keys?.feedSiteKey(outline: renderer.feedOutline(), links: links) : nil
            // Many feed pages (a paginated section's pages, tag pages) render side by side, each
            // on one core; a few render one after another, each with its cards on every core.
            if feedCount >= Self.parallelFeedPages {
                DispatchQueue.concurrentPerform(iterations: feedCount) { renderFeed($0, siteKey) }
            } else {
                for f in 0..<feedCount { renderFeed(f, siteKey) }
            }
            feedsDone.leave()
        }
        feedThread.stackSize = 8 << 20  // like the main thread's: templates may nest deeply
        feedThread.start()
        // The feed thread is always waited for (it reads this build's renderer and session),
        // and never left waiting for a back buffer that a failure here will not bring.
        defer {
            gate.open(.failure(OutputWriter.WriteError(path: "", message: "the build stopped")))
            feedsDone.wait()
        }

        // The precedence of `SiteRenderer.render()`: pages before assets. Pages stay in site
        // order (no two have one path: `OutputCollisions` made that an error), which is also
        // the order they are written in; sorting 100,000 paths was a serial step of its own.
        let allPages = planner.pages()
        var seen = Set<String>(minimumCapacity: allPages.count + 16)
        let pages = parallelMap(allPages.count) { (renderer.path(of: allPages[$0]), allPages[$0]) }.filter { seen.insert($0.0).inserted }
        // Preview pages (`--previews`) are few: rendered up front, post-processed like pages.
        let previews = options.previews ? try planner.previews().map(post.process) : []
        let (assetFiles, syndicationMaps) = planner.assetFilesAndMaps()
        let assets = (assetFiles + previews).filter { seen.insert($0.path).inserted }.sorted { $0.path < $1.path }
        var paths = pages.map(\.0) + assets.map(\.path)
        if options.liveReload { paths += [LiveReload.scriptPath, LiveReload.buildIDPath] }
        if options.exitsAfterBuild { ExitReclaimed.keep([renderer, pages, paths, cardCache as Any]) }
        timing.mark("plan")
        // The session checks the back buffer against its manifest (listing the whole tree) on
        // another thread: started while the content loaded (`early`), else now.
        let opening = output.map { output in
            if let early = early, early.output == output { return early }
            let late = SessionOpening(output: output, memo: memo, cutCardsLog: options.testCutLog == "cards.log")
            late.start(useCache: options.useCache)
            return late
        }
        let session = try opening?.session()
        try session?.begin(paths: paths)
        // Before the feed thread puts anything: with nothing to keep, no page is looked up.
        let keepsNothing = session?.keepsNothing ?? true
        gate.open(.success(session))
        timing.mark("back buffer checked")
        options.progress?.begin(session == nil ? "checking pages" : "rendering pages", total: pages.count)

        let hashes = ResultSlots<UInt64>(count: pages.count)
        var problems: Set<Diagnostic> = []
        let detailPages = pages.indices.filter { if case .feed = pages[$0].1 { false } else { true } }
        // A page's key (0: none, always rendered).
        let pageKey = { @Sendable (index: Int) -> UInt64 in
            guard session != nil, let keys, case .detail(let f, let s, let i) = pages[index].1, let inputs = renderer.detailInputs(of: pages[index].1)
            else { return 0 }
            return keys.detailKey(inputs, linkPages: links.pages(of: inputs.item.markdownLinks, feed: f, section: s, item: i))
        }
        let renderOne = { @Sendable (index: Int, key: UInt64) in
            hashes.set(index, Result {
                rendered.increment()
                return try put(post.process(try renderer.renderPage(pages[index].1)), key: key) { session }
            })
            options.progress?.advance()
        }
        // Each detail page's key, made on every core; the pages whose key the back buffer
        // already has are then taken in one look-up under the session's lock (per page, the
        // lock was contended by both cores for 10,000 unchanged pages).
        let detailKeys: [UInt64] = parallelMap(detailPages.count) { pageKey(detailPages[$0]) }
        var stale = Array(zip(detailPages, detailKeys))  // (page index, key) of pages to render
        if let session, !keepsNothing {
            let current = session.current(stale.map { (pages[$0.0].0, $0.1) })
            stale = zip(stale, current).compactMap { page, hash in
                guard let hash else { return page }
                hashes.set(page.0, .success(hash))
                return nil
            }
        }
        options.progress?.advance(by: detailPages.count - stale.count)
        for start in stride(from: 0, to: stale.count, by: batchSize) {
            let batch = Array(stale[start..<min(stale.count, start + batchSize)])
            DispatchQueue.concurrentPerform(iterations: batch.count) { renderOne(batch[$0].0, batch[$0].1) }
        }
        feedsDone.wait()
        options.progress?.advance(by: feedCount)
        let feedHashValues = feedHashes.values  // each read of `values` copies every slot
        for (index, page) in pages.enumerated() {
            if case .feed(let f) = page.1 { hashes.set(index, feedHashValues[f]) }
        }
        var manifest: [(String, UInt64)] = []
        for (index, r) in hashes.values.enumerated() {
            switch r {
            case .success(let hash): manifest.append((pages[index].0, hash))
            case .failure(let error as TemplateErrors): problems.formUnion(error.diagnostics)
            case .failure(let error as OutputWriter.WriteError): throw error
            case .failure(let error): problems.insert(.error(SourceLocation(path: "Templates"), "\(error)"))
            }
        }
        if !problems.isEmpty {
            throw TemplateErrors(diagnostics: problems.sorted { ($0.location, $0.message) < ($1.location, $1.message) })
        }
        timing.mark("render+write pages")
        report.pagesRendered = rendered.value
        if let cardCache {
            report.cardsRendered = cardCache.misses
            timing.note("cards: \(cardCache.hits) cached, \(cardCache.misses) rendered")
        }
        guard let session else { return }
        options.progress?.begin("writing the output")
        var assetHashes: [String: UInt64] = [:]
        for file in assets {
            let hash: UInt64
            switch file.contents {
            case .text(let text): hash = StableHasher.hash(text)
            case .utf8(let bytes): hash = StableHasher.hash(bytes)
            case .chunks(let chunks): hash = chunks.stableHash
            case .copy(let source): hash = OutputWriter.Session.copyHash(source)
            }
            try session.put(file, hash: hash, key: 0)
            manifest.append((file.path, hash))
            assetHashes[file.path] = hash
        }
        if options.liveReload {
            let id = LiveReload.buildID(of: manifest.sorted { $0.0 < $1.0 })
            for file in [
                OutputFile(path: LiveReload.scriptPath, contents: .text(LiveReload.script(buildID: id))),
                OutputFile(path: LiveReload.buildIDPath, contents: .text(LiveReload.buildIDScript(id))),
            ] {
                guard case .text(let text) = file.contents else { continue }
                try session.put(file, hash: StableHasher.hash(text), key: 0)
            }
        }
        // What describes the output being replaced (the incremental build's snapshot) goes
        // before the exchange.
        beforeCommit(session.cacheFolder)
        try session.commit()
        if let cardCache {
            if let deferred { deferred.add { cardCache.save() } } else { cardCache.save() }
        }
        let (feedMapValues, feedKeyValues) = (feedMaps.values, feedKeys.values)
        for f in 0..<feedCount {
            guard case .success(let hash) = feedHashValues[f], case .success(let map) = feedMapValues[f] else { continue }
            var record = WrittenFeed(path: site.feeds[f].pagePath, hash: hash, map: map)
            if case .success(let key) = feedKeyValues[f] { record.key = key }
            // A tag's later pages name its first page's documents (``PreparedFeed/syndicationFolder``),
            // which they do not write.
            if f < syndicationMaps.count, site.feeds[f].isSyndicated {
                let feed = site.feeds[f]
                let (atom, json) = (Syndication.atomPath(feed), Syndication.jsonPath(feed))
                let map = syndicationMaps[f]
                if let atomHash = assetHashes[atom], let jsonHash = assetHashes[json], map.json.count == map.atom.count {
                    record.syndication = WrittenSyndication(
                        atomPath: atom, atomHash: atomHash, jsonPath: json, jsonHash: jsonHash, map: map)
                }
            }
            feedRecords.append(record)
        }
        report.filesWritten = session.writes
        timing.mark("assets+commit")
        timing.note("\(report.pagesRendered) of \(pages.count) pages rendered, \(session.writes) files written, back buffer \(session.start)")
    }

    /// Hashes a rendered page and puts it into the back buffer of the session that `session`
    /// gives (none: `check`, which only renders). A feed page (pieces) is hashed while it is
    /// written when it cannot be unchanged (``OutputWriter/Session/put(_:size:key:hashing:)``).
    /// - Returns: the page's hash.
    static func put(
        _ file: OutputFile, key: UInt64, session: () throws -> OutputWriter.Session?
    ) throws -> UInt64 {
        let hash: UInt64
        switch file.contents {
        case .text(let text): hash = StableHasher.hash(text)
        case .utf8(let bytes): hash = StableHasher.hash(bytes)
        case .chunks(let chunks):
            guard let session = try session() else { return chunks.stableHash }
            return try session.put(file, size: chunks.count, key: key) { chunks.stableHash }
        case .copy: return 0
        }
        try session()?.put(file, hash: hash, key: key)
        return hash
    }
}
