import Dispatch
import FeedgenContent
import FeedgenDiagnostics
import FeedgenEmit
import FeedgenLayout
import Foundation

/// Options of `feedgen build` and `feedgen check` (content-format §9).
public struct BuildOptions: Sendable {
    /// The site folder (absolute or relative to the working directory).
    public var siteRoot: String
    /// The output folder; nil: `output` of feedgen.yaml, relative to the site (default `public`).
    public var output: String?
    public var drafts = false
    public var future = false
    public var expired = false
    /// Warnings become errors.
    public var strict = false
    /// `check` validates everything and writes nothing.
    public var write = true
    /// "Now" for publishDate/expiryDate, in seconds since 1970 (the caller reads the clock).
    public var now: Int64
    /// Watch mode: pages load `_feedgen/live-reload.js`, which reloads them after a rebuild.
    public var liveReload = false
    /// Use the build cache beside the output (``BuildCache``); false (`--clean`) parses, renders
    /// and writes everything.
    public var useCache = true
    /// Also write `_previews/`: every section at the preview widths, light and dark (``Preview``).
    public var previews = false
    /// The process exits after this build (`feedgen build` without `--watch`): the site's
    /// objects are left for the exit to reclaim (``ExitReclaimed``) rather than freed one by one.
    public var exitsAfterBuild = false
    /// Told (one line, ending in a line feed) when the build waits for another build writing
    /// the same output (``BuildLock``); nil: says nothing.
    public var onWaiting: (@Sendable (String) -> Void)?
    /// Shows the build's stage and count (the CLI's terminal line); finished (its line
    /// cleared) before ``SiteBuilder/build(_:)`` returns. nil: nothing shown.
    public var progress: (any BuildProgressReporting)?
    /// Long sections defer their off-screen cards (``SiteRenderer/contentVisibility``); false
    /// for the browser benchmark only (`FEEDGEN_NO_CONTENT_VISIBILITY=1`, read by the CLI).
    public var contentVisibility = true
    /// A test hook (debug builds; Tests/FeedgenBuildTests/CacheRobustnessTests): the build
    /// cache's log of this name (`items.log`, `cards.log`, or `items.log after commit`) is cut
    /// short while the build reads it, as another process could. Set by the CLI from
    /// `FEEDGEN_TEST_CUT_LOG`; nil in every real build.
    public var testCutLog: String?
    var itemLogCut: ItemCache.LogCut? {
        switch testCutLog {
        case "items.log": .afterMapping
        case "items.log after commit": .afterCommit
        default: nil
        }
    }

    /// ``onWaiting`` through ``progress`` when there is one, which clears its line first (every
    /// build: `build` and each `build --watch` rebuild).
    var waitingMessage: (@Sendable (String) -> Void)? {
        guard let onWaiting else { return nil }
        guard let progress else { return onWaiting }
        return { progress.say($0, through: onWaiting) }
    }

    public init(siteRoot: String, output: String? = nil, now: Int64) {
        self.siteRoot = siteRoot
        self.output = output
        self.now = now
    }
}

/// What a build did.
public struct BuildReport: Sendable {
    public var diagnostics = Diagnostics()
    /// 0 success, 1 content errors, 2 usage or configuration errors (content-format §9).
    public var exitStatus: Int32 = 0
    public var pages = 0
    public var feeds = 0
    public var cards = 0
    public var outputPath: String?
    /// `_previews/index.html` in the output folder, when the build wrote previews.
    public var previewsPath: String?
    public var seconds = 0.0
    /// Items taken from the build cache without parsing their files.
    public var cachedItems = 0
    /// Of those, items whose file was not read: its stat was as the last build recorded.
    public var unreadItems = 0
    /// Output files written (the others were already right in the back buffer).
    public var filesWritten = 0
    /// Pages rendered (the others were already right in the back buffer).
    public var pagesRendered = 0
    /// Cards rendered through their templates in a build that writes (the others came from the
    /// build cache's `cards.log`).
    public var cardsRendered = 0
    /// Responsive image variants made and reused (``ImageVariants``).
    public var images = ImageVariants.Stats()
    /// The build patched the previous output (``PatchBuild``) instead of building the site.
    public var patched = false

    public init() {}
}

/// The build pipeline: load → decode layouts → compile templates → resolve images → render →
/// write atomically. Stages only pass values forward.
public enum SiteBuilder {
    public static func build(_ options: BuildOptions) -> BuildReport {
        let start = DispatchTime.now()
        var report = run(options)
        options.progress?.finish()
        report.seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        return report
    }

    static func run(_ options: BuildOptions) -> BuildReport {
        let started = BuildSnapshot.now()
        var report = BuildReport()
        let root = URL(fileURLWithPath: options.siteRoot).standardizedFileURL.path
        var timing = StageTiming()
        let itemCache = ItemCacheBox()
        // The cache's lock, taken once the output is known (while loading, or below), is
        // released last: after the session opened early is finished with.
        defer { itemCache.lock.release() }
        // Whatever this build writes into the cache is written before its lock is released.
        defer { itemCache.value?.waitForSources() }
        // A session opened early is finished with before the build returns, used or not (a
        // failed build must not leave it changing the cache under the next one: watch mode).
        defer {
            _ = try? itemCache.opening?.session()
            _ = itemCache.opening?.cardCache()
        }
        options.progress?.begin("reading content")
        // A build that may record a snapshot lists the content first (every item file
        // stamped); one that may be patched then tries that (``PatchBuild``), and otherwise
        // loads the site from the same listing.
        var listing: ContentListing?
        var lastSnapshot: BuildSnapshot?
        if PatchBuild.isEligible(options), FileManager.default.fileExists(atPath: root + "/content") {
            var patchOutput: String?
            let listed = SiteLoader.list(siteRoot: root) { config in
                let output = outputPath(options, configured: config.output, root: root)
                guard options.useCache, OutputWriter.check(output: output, siteRoot: root) == nil,
                    OutputWriter.strayEntry(output: output) == nil
                else { return }
                itemCache.lock.acquire(cacheFolder: BuildCache.folder(forOutput: output), output: output, waiting: options.waitingMessage)
                let opening = SessionOpening(output: output, cutCardsLog: options.testCutLog == "cards.log")
                opening.start(useCache: true, readCards: false)
                itemCache.opening = opening
                patchOutput = output
            }
            listing = listed
            timing.mark("listing")
            if let output = patchOutput, let opening = itemCache.opening {
                switch PatchBuild.attempt(options, listing: listed, output: output, opening: opening, start: started, timing: &timing) {
                case .success(var patched):
                    if listed.config.baseURL == nil { patched.diagnostics.append(Self.noBaseURLNote(listed.config)) }
                    timing.report()
                    return finish(&patched, options)
                case .failure(let why):
                    timing.note("patch build: not applicable (\(why.reason))")
                    lastSnapshot = why.snapshot
                    if why.sessionUsed { itemCache.opening = nil } else { opening.readCards(useCache: true) }
                }
            }
        }
        var feedRecords: [BuildSnapshot.FeedRecord] = []
        let (prepared, templates, links) = prepare(options, report: &report, itemCache: itemCache, listing: listing)
        if options.exitsAfterBuild { ExitReclaimed.keep([prepared as Any, templates as Any, links as Any, itemCache]) }
        timing.mark("load+prepare")
        if let cache = itemCache.value {
            report.cachedItems = cache.hits
            report.unreadItems = cache.unread
            timing.note("items: \(cache.hits) cached (\(cache.unread) files not read), \(cache.misses) parsed")
        }
        defer { timing.report() }
        let blocking = report.diagnostics.hasErrors || (options.strict && report.diagnostics.warningCount > 0)
        guard !blocking, report.exitStatus == 0, var prepared, let templates, let links else { return finish(&report, options) }

        // 4. Image variants (not in `check`, which writes nothing): into the build cache beside
        // the output, so the output folder is checked first.
        let output = outputPath(options, site: prepared.site, root: root)
        if !options.write, let problem = OutputWriter.checkLocation(output: output, siteRoot: root) {
            // `check` validates the configured output as `build` would (it only skips what the
            // folder holds: a check writes nothing there).
            report.diagnostics.error(SourceLocation(path: output), problem)
            report.exitStatus = 2
            return finish(&report, options)
        }
        if options.write {
            itemCache.value?.saveSourcesEarly()
            report.outputPath = output
            if let problem = OutputWriter.check(output: output, siteRoot: root) {
                report.diagnostics.error(SourceLocation(path: output), problem)
                report.exitStatus = 2
                return report
            }
            if let stray = OutputWriter.strayEntry(output: output) {
                report.diagnostics.error(
                    SourceLocation(path: output + "/" + stray),
                    "this file in the output folder was not written by feedgen; move it away or into static/")
                report.exitStatus = 2
                return report
            }
            itemCache.lock.acquire(cacheFolder: BuildCache.folder(forOutput: output), output: output, waiting: options.waitingMessage)
            report.images = ImageVariants.make(
                &prepared, cacheFolder: BuildCache.folder(forOutput: output), progress: options.progress, diagnostics: &report.diagnostics)
            timing.mark("images")
            if report.diagnostics.hasErrors { return finish(&report, options) }
        } else {
            // `check`: every image a build would resize must decode (the cache is only read).
            _ = ImageVariants.make(
                &prepared, cacheFolder: BuildCache.folder(forOutput: output), validateOnly: true, progress: options.progress,
                diagnostics: &report.diagnostics)
            if report.diagnostics.hasErrors { return finish(&report, options) }
        }

        // 5–6. Render and write, page by page in bounded batches, into the cache's back buffer
        // (only what changed), which is then exchanged with the output.
        do {
            try renderAndWrite(
                prepared, templates: templates, links: links, output: options.write ? output : nil, options: options,
                timing: &timing,
                report: &report, early: itemCache.opening, feedRecords: &feedRecords)
            if options.write, options.previews { report.previewsPath = output + "/" + Preview.indexPath }
        } catch let error as TemplateErrors {
            report.diagnostics.append(contentsOf: error.diagnostics)
            return finish(&report, options)
        } catch let error as OutputWriter.WriteError where error.cacheCutShort {
            // A card's HTML, in the mapped cards.log, could not be read by write(): the log was
            // truncated meanwhile (reading it directly would have been SIGBUS: MappedFile).
            report.diagnostics.error(
                SourceLocation(path: output),
                "\(BuildCache.folder(forOutput: output))/cards.log was cut short by another process while this build read it (writing \(error.path)); nothing was written to the output; run the build again")
            report.exitStatus = 1
        } catch {
            // The output folder could not be created or written: a configuration problem (exit 2).
            let reason = (error as? OutputWriter.WriteError).map { "\($0.path): \($0.message)" } ?? "\(error.localizedDescription)"
            report.diagnostics.error(SourceLocation(path: output), "cannot write the output folder: \(reason); check --output or the 'output' setting")
            report.exitStatus = 2
        }
        if options.write, report.exitStatus == 0 { itemCache.value?.save() } else if options.write { itemCache.value?.discard() }
        if options.write, report.exitStatus == 0, !report.diagnostics.hasErrors, let listing,
            let snapshot = PatchBuild.snapshot(
                options: options, listing: listing, site: prepared, templates: templates, links: links, feeds: feedRecords,
                report: report, start: started, previous: lastSnapshot)
        {
            snapshot.write(cacheFolder: BuildCache.folder(forOutput: output))
            timing.mark("snapshot")
        }
        if options.write {
            // Seals written within their log's last clock tick are made trustworthy (LogSeal).
            let (racy, waited) = LogSeal.settle()
            timing.mark("seals settled")
            timing.note("seals: \(racy) written within their log's clock tick, settled in \(waited / 1000) µs")
        }
        if report.exitStatus == 0, prepared.site.config.baseURL == nil {
            // Said once per written build: feeds and the sitemap need absolute URLs.
            report.diagnostics.append(noBaseURLNote(prepared.site.config))
        }
        return finish(&report, options)
    }

    /// Said once per written build of a site without a `baseURL`: feeds and the sitemap need
    /// absolute URLs.
    static func noBaseURLNote(_ config: SiteConfig) -> Diagnostic {
        .note(
            SourceLocation(path: config.source != nil ? "feedgen.yaml" : "."),
            "no 'baseURL', so the Atom and JSON feeds (feed.xml, feed.json), sitemap.xml and canonical/og:url links are not written (they need absolute URLs); add e.g. 'baseURL: https://example.org/' to feedgen.yaml")
    }

    /// Stages 1–3: loads the content, compiles the templates, decodes every layout and resolves
    /// images. Problems go into `report`; nil when the content could not be loaded.
    public static func prepare(_ options: BuildOptions, report: inout BuildReport) -> (PreparedSite?, TemplateSet?) {
        let (site, templates, _) = prepare(options, report: &report, itemCache: nil)
        return (site, templates)
    }

    /// ``prepare(_:report:)``, also giving the site's content links (checked) for rendering.
    static func prepare(
        _ options: BuildOptions, report: inout BuildReport, itemCache: ItemCacheBox?, listing: ContentListing? = nil
    ) -> (PreparedSite?, TemplateSet?, ContentLinks?) {
        var timing = StageTiming()
        defer { timing.report() }
        let root = URL(fileURLWithPath: options.siteRoot).standardizedFileURL.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root + "/content", isDirectory: &isDirectory), isDirectory.boolValue else {
            report.diagnostics.error(
                SourceLocation(path: "."),
                "no content/ folder in '\(options.siteRoot)'; run feedgen in a site folder, pass the site's path, or create one with 'feedgen init DIR'")
            report.exitStatus = 2
            return (nil, nil, nil)
        }

        // 1. Content.
        var loadOptions = LoadOptions(now: ContentDate(secondsSinceEpoch: options.now))
        loadOptions.drafts = options.drafts
        loadOptions.future = options.future
        loadOptions.expired = options.expired
        if options.useCache, let itemCache {
            loadOptions.itemCache = { config in
                let output = outputPath(options, configured: config.output, root: root)
                let folder = BuildCache.folder(forOutput: output)
                // An output this build may write (else `run` reports why, and writes nothing).
                let writable = options.write && OutputWriter.check(output: output, siteRoot: root) == nil
                if writable { itemCache.lock.acquire(cacheFolder: folder, output: output, waiting: options.waitingMessage) }
                let cache = ItemCache(
                    path: folder + "/items.log", salt: BuildCache.salt, writable: options.write, sourcesPath: folder + "/sources",
                    testCut: options.itemLogCut)
                itemCache.value = cache
                // The output's session opens while the content loads, for an output that may be
                // written: it reads and checks the cache's back buffer, and rebuilds it from the
                // output when it does not check out (the output itself is never touched). A
                // patch build that did not apply may have opened it already.
                if writable, itemCache.opening?.output != output {
                    let opening = SessionOpening(output: output, cutCardsLog: options.testCutLog == "cards.log")
                    opening.start(useCache: true)
                    itemCache.opening = opening
                }
                return cache
            }
        }
        let (loaded, loadDiagnostics) =
            if let listing { SiteLoader.load(listing, options: loadOptions) } else { SiteLoader.load(siteRoot: root, options: loadOptions) }
        report.diagnostics.append(contentsOf: loadDiagnostics)
        timing.mark("load")

        // 2. Templates.
        var templates: TemplateSet?
        do {
            templates = try TemplateSet(overrides: try readTemplates(root + "/Templates"))
        } catch let error as TemplateErrors {
            report.diagnostics.append(contentsOf: error.diagnostics)
        } catch {
            report.diagnostics.error(SourceLocation(path: "Templates"), "cannot read templates: \(error)")
        }
        guard let site = loaded else { return (nil, templates, nil) }

        // 3. Layouts and images.
        let realRoot = URL(fileURLWithPath: site.root).resolvingSymlinksInPath().path
        var (feeds, images) = prepareFeeds(site, realRoot: realRoot, diagnostics: &report.diagnostics)
        // Output collisions are checked on another core meanwhile: they depend on the detail
        // pages' paths (a feed's path and each item's id), not on the links rewritten below.
        let collisions = CollisionCheck(PreparedSite(site: site, feeds: feeds, images: images))
        if let templates { report.diagnostics.append(contentsOf: templates.lint(for: site)) }
        timing.mark("layouts+images")
        let contentLinks = ContentLinks(feeds: feeds)
        contentLinks.check(feeds, into: &report.diagnostics)
        // Front-matter links to content files now point at their pages (site-root paths, made
        // relative per page by the templates and absolute in feeds).
        for f in feeds.indices {
            for s in feeds[f].sections.indices {
                for i in feeds[f].sections[s].section.items.indices {
                    guard let target = frontMatterContentLink(feeds[f].sections[s].section.items[i]),
                        let page = contentLinks.pages[target.target]
                    else { continue }
                    feeds[f].sections[s].section.items[i].link = "/" + RelativeURL.percentEncode(page) + (target.fragment.map { "#" + $0 } ?? "")
                }
            }
        }
        timing.mark("links")
        report.feeds = feeds.count
        report.cards = feeds.reduce(0) { $0 + $1.sections.reduce(0) { $0 + $1.section.items.count } }
        report.pages = feeds.count + feeds.reduce(0) { $0 + $1.sections.reduce(0) { $0 + $1.section.items.count { $0.hasBody } } }
        var prepared = PreparedSite(site: site, feeds: feeds, images: images)
        prepared.contentPages = contentLinks.pages
        report.diagnostics.append(contentsOf: collisions.diagnostics())
        timing.mark("collisions")
        return (prepared, templates, contentLinks)
    }

    /// Stage 3 for every feed of `site`: each section's layout decoded, front-matter links to
    /// content files added to their item's links, and each item's image resolved (by
    /// ``PreparedSite/imageKey(feed:item:)``). Problems go into `diagnostics`.
    static func prepareFeeds(
        _ site: Site, realRoot: String, diagnostics: inout Diagnostics
    ) -> (feeds: [PreparedFeed], images: [String: ImageAsset]) {
        var feeds: [PreparedFeed] = []
        var images: [String: ImageAsset] = [:]
        for feed in site.feeds {
            var sections: [PreparedSection] = []
            for var section in feed.sections {
                // A front-matter `link` to a content file (`link: ../recipes/soup.md`) is checked
                // and rewritten like a link in the body.
                for i in section.items.indices {
                    guard let target = frontMatterContentLink(section.items[i]) else { continue }
                    // Reported at the `link` value (the file's or the inline item's), not at 1:1.
                    let item = section.items[i]
                    let location = item.frontMatter["link"].map {
                        SourceLocation(path: item.sourcePath, line: $0.line, column: $0.column)
                    } ?? item.location
                    section.items[i].markdownLinks.append(target.at(location))
                }
                let path = section.sourcePath ?? "content/" + (feed.path.isEmpty ? "" : feed.path + "/") + section.id
                var decoder = LayoutDecoder(path: path)
                let (layout, preset) = decoder.decode(section.layout)
                diagnostics.append(contentsOf: decoder.diagnostics)
                sections.append(PreparedSection(section: section, layout: layout, preset: preset))
            }
            let prepared = PreparedFeed(feed: feed, sections: sections)
            for s in sections {
                for item in s.section.items {
                    guard let image = item.image else { continue }
                    if let asset = resolveImage(image, item: item, site: site, realRoot: realRoot, diagnostics: &diagnostics) {
                        images[PreparedSite.imageKey(feed: prepared, item: item)] = asset
                    }
                }
            }
            feeds.append(prepared)
        }
        return (feeds, images)
    }

    /// How many pages render at once: pages are written as soon as their batch is rendered, so
    /// memory holds one batch of pages, not the whole site.
    static let batchSize = 256

    /// Renders every page and asset and, with an `output`, writes them through an
    /// ``OutputWriter/Session``: a detail page whose inputs (its template context, the pages its
    /// content links lead to, the templates) hash to the key recorded for the file already in
    /// the back buffer is not rendered at all; other files are written only when their bytes
    /// differ. Without an output (`check`), every page is rendered for its errors.
    ///
    /// - Throws: ``TemplateErrors`` (rendering), `OutputWriter.WriteError` (writing).
    static func renderAndWrite(
        _ site: PreparedSite, templates: TemplateSet, links: ContentLinks, output: String?, options: BuildOptions,
        timing: inout StageTiming, report: inout BuildReport, early: SessionOpening? = nil,
        feedRecords: inout [BuildSnapshot.FeedRecord]
    ) throws {
        let planner = SiteRenderer(site: site, templates: templates, contentVisibility: options.contentVisibility)
        let post = PagePostProcessor(links: links, liveReload: options.liveReload)

        let salt = pageSalt(templates: templates, config: site.site.config, liveReload: options.liveReload)
        // Cards of earlier builds (only when writing: `check` renders everything; `--clean`
        // renders everything and starts a new log).
        let cardCache = output.map { output in
            if let early, early.output == output, options.useCache, let cards = early.cardCache() { return cards }
            return CardCache(
                path: BuildCache.folder(forOutput: output) + "/cards.log", salt: BuildCache.salt, read: options.useCache,
                cutAfterMapping: options.testCutLog == "cards.log")
        }
        var configured = planner
        configured.cardStore = cardCache
        configured.cardSalt = salt
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
        let rendered = Counter()
        let feedsDone = DispatchGroup()
        feedsDone.enter()
        let feedThread = Thread {
            for f in 0..<feedCount {
                feedHashes.set(f, Result {
                    rendered.increment()
                    let (page, rendered) = try renderer.feedPage(f)
                    let (file, map) = post.process(feedPage: page, map: rendered)
                    feedMaps.set(f, .success(map))
                    return try put(file, key: 0) { try gate.session() }
                })
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
        let pages = allPages.map { (planner.path(of: $0), $0) }.filter { seen.insert($0.0).inserted }
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
            let late = SessionOpening(output: output, cutCardsLog: options.testCutLog == "cards.log")
            late.start(useCache: options.useCache)
            return late
        }
        let session = try opening?.session()
        try session?.begin(paths: paths)
        gate.open(.success(session))
        timing.mark("back buffer checked")
        options.progress?.begin(session == nil ? "checking pages" : "rendering pages", total: pages.count)

        let hashes = ResultSlots<UInt64>(count: pages.count)
        var problems: Set<Diagnostic> = []
        let detailPages = pages.indices.filter { if case .feed = pages[$0].1 { false } else { true } }
        // A page's key (0: none, always rendered).
        let pageKey = { @Sendable (index: Int) -> UInt64 in
            guard session != nil, let pageKey = renderer.key(of: pages[index].1) else { return 0 }
            return detailKey(pageKey, salt: salt, links: renderer.item(of: pages[index].1)?.markdownLinks ?? [], pages: links.pages)
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
        if let session {
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
        for (index, page) in pages.enumerated() {
            if case .feed(let f) = page.1 { hashes.set(index, feedHashes.values[f]) }
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
        // The snapshot describes the output being replaced: gone before the exchange, and made
        // again by the caller for the new output when it may be patched.
        BuildSnapshot.remove(cacheFolder: session.cacheFolder)
        try session.commit()
        cardCache?.save()
        for f in 0..<feedCount {
            guard case .success(let hash) = feedHashes.values[f], case .success(let map) = feedMaps.values[f] else { continue }
            var record = BuildSnapshot.FeedRecord(path: site.feeds[f].pagePath, hash: hash, map: map)
            if f < syndicationMaps.count {
                let feed = site.feeds[f]
                let (atom, json) = (Syndication.atomPath(feed), Syndication.jsonPath(feed))
                let map = syndicationMaps[f]
                if let atomHash = assetHashes[atom], let jsonHash = assetHashes[json], map.json.count == map.atom.count {
                    record.syndication = BuildSnapshot.SyndicationRecord(
                        atomPath: atom, atomHash: atomHash, jsonPath: json, jsonHash: jsonHash, map: map)
                }
            }
            feedRecords.append(record)
        }
        report.filesWritten = session.writes
        timing.mark("assets+commit")
        timing.note("\(report.pagesRendered) of \(pages.count) pages rendered, \(session.writes) files written, back buffer \(session.start)")
    }

    /// Everything global that a detail page's bytes depend on besides its context: the
    /// templates, the site configuration, live reload, the feedgen binary (``BuildCache/salt``).
    static func pageSalt(templates: TemplateSet, config: SiteConfig, liveReload: Bool) -> UInt64 {
        var global = StableHasher(seed: BuildCache.salt)
        for (name, source) in templates.sources.sorted(by: { $0.key < $1.key }) {
            global.combine(name)
            global.combine(source)
        }
        global.combine(liveReload)
        global.combine(ItemCache.fingerprint(config.source))
        global.combine(config.title)
        global.combine(config.language)
        global.combine(config.baseURL)
        return global.value
    }

    /// The key of a detail page in the back buffer's manifest: its inputs (``SiteRenderer/key(of:)``)
    /// seeded with ``pageSalt(templates:config:liveReload:)``, and the pages its content links
    /// lead to.
    static func detailKey(_ pageKey: UInt64, salt: UInt64, links: [MarkdownLink], pages: [String: String]) -> UInt64 {
        var h = StableHasher(seed: salt)
        h.combine(pageKey)
        for link in links {
            h.combine(link.target)
            h.combine(pages[link.target])
        }
        return h.value
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

    /// The output's session for the feed thread, once the main thread has prepared the back
    /// buffer (or failed to).
    final class SessionGate: @unchecked Sendable {
        private let ready = DispatchGroup()
        private let lock = NSLock()
        private var result: Result<OutputWriter.Session?, any Error>?

        init() { ready.enter() }

        /// Gives the session (the first call only; later ones are ignored).
        func open(_ result: Result<OutputWriter.Session?, any Error>) {
            let first = lock.withLock {
                guard self.result == nil else { return false }
                self.result = result
                return true
            }
            if first { ready.leave() }
        }

        /// Waits for ``open(_:)``. - Throws: the error it was given.
        func session() throws -> OutputWriter.Session? {
            ready.wait()
            return try lock.withLock { result }?.get()
        }
    }

    /// The content file an item's front-matter `link` names (`link: ../recipes/soup.md`), if any.
    static func frontMatterContentLink(_ item: Item) -> MarkdownLink? {
        guard let link = item.link, !RelativeURL.hasScheme(link) else { return nil }
        let directory = item.sourcePath.split(separator: "/").dropLast().joined(separator: "/")
        return MarkdownLink(destination: link, directory: directory)
    }

    /// ``OutputCollisions/check(_:into:)`` on another thread.
    final class CollisionCheck: @unchecked Sendable {
        private var found = Diagnostics()
        private let group = DispatchGroup()

        init(_ site: PreparedSite) {
            DispatchQueue.global().async(group: group) { OutputCollisions.check(site, into: &self.found) }
        }

        /// Waits for the check: its errors.
        func diagnostics() -> [Diagnostic] {
            group.wait()
            return found.items
        }
    }

    /// An ``OutputWriter/Session`` opened on another thread.
    final class SessionOpening: @unchecked Sendable {
        let output: String
        private var result: Result<OutputWriter.Session, any Error>?
        private let group = DispatchGroup()

        /// A test hook (``BuildOptions/testCutLog``).
        private let cutCardsLog: Bool

        init(output: String, cutCardsLog: Bool = false) { (self.output, self.cutCardsLog) = (output, cutCardsLog) }

        private var cards: CardCache?
        private let cardsRead = DispatchGroup()
        /// Whether the card cache is being read (set before ``cardCache()`` is called).
        private var readingCards = false

        /// Opens the session, then reads the output's card cache (`cards.log`), which the feed
        /// pages need first: on this thread, which is done with the session before the content
        /// is loaded, rather than on the build's critical path. `readCards: false` (a patch
        /// build, which needs no card cache): only ``readCards(useCache:)`` reads it.
        func start(useCache: Bool, readCards: Bool = true) {
            if readCards {
                readingCards = true
                cardsRead.enter()
            }
            DispatchQueue.global().async(group: group) {
                self.result = Result { try OutputWriter.Session(output: self.output, useCache: useCache) }
                guard readCards else { return }
                DispatchQueue.global().async { self.readCardCache(useCache: useCache) }
            }
        }

        /// Starts reading the card cache on another thread, when ``start(useCache:readCards:)``
        /// did not (a patch build that did not apply).
        func readCards(useCache: Bool) {
            guard !readingCards else { return }
            readingCards = true
            cardsRead.enter()
            DispatchQueue.global().async { self.readCardCache(useCache: useCache) }
        }

        private func readCardCache(useCache: Bool) {
            cards = CardCache(
                path: BuildCache.folder(forOutput: output) + "/cards.log", salt: BuildCache.salt, read: useCache, cutAfterMapping: cutCardsLog)
            cardsRead.leave()
        }

        /// Waits for the card cache read after the session was opened; nil when none was started.
        func cardCache() -> CardCache? {
            guard readingCards else { return nil }
            cardsRead.wait()
            return cards
        }

        /// Waits for the session. - Throws: what opening it threw.
        func session() throws -> OutputWriter.Session? {
            group.wait()
            return try result?.get()
        }
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func increment() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    /// The build's item cache, made once the configuration (and so the output folder) is known.
    final class ItemCacheBox: @unchecked Sendable {
        var value: ItemCache?
        /// The build cache's lock (``BuildLock``).
        let lock = BuildLock()
        /// The output's session, opened early (see `prepare`).
        var opening: SessionOpening?
    }

    static func finish(_ report: inout BuildReport, _ options: BuildOptions) -> BuildReport {
        if report.exitStatus == 0 {
            let failed = report.diagnostics.hasErrors || (options.strict && report.diagnostics.warningCount > 0)
            // An error in feedgen.yaml is a configuration error (content-format §9: exit 2).
            let configuration = report.diagnostics.items.contains {
                $0.severity == .error && $0.location.path == "feedgen.yaml"
            }
            report.exitStatus = configuration ? 2 : failed ? 1 : 0
        }
        return report
    }

    static func outputPath(_ options: BuildOptions, site: Site, root: String) -> String {
        outputPath(options, configured: site.config.output, root: root)
    }

    /// The output folder's absolute path: `--output`, else the configuration's `output` (relative
    /// to the site). A symbolic link to a folder stands for that folder: the build replaces the
    /// folder it points to (the link is kept), and the build cache sits beside that folder.
    static func outputPath(_ options: BuildOptions, configured: String, root: String) -> String {
        let path = options.output ?? (configured.hasPrefix("/") ? configured : root + "/" + configured)
        let url = URL(fileURLWithPath: path).standardizedFileURL
        var info = stat()
        if lstat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK {
            var isDirectory: ObjCBool = false
            let target = url.resolvingSymlinksInPath()
            if FileManager.default.fileExists(atPath: target.path, isDirectory: &isDirectory), isDirectory.boolValue {
                return target.standardizedFileURL.path
            }
        }
        return url.path
    }

    /// The site's template overrides, by path relative to `Templates/` (sorted; hidden files skipped).
    static func readTemplates(_ folder: String) throws -> [String: String] {
        var result: [String: String] = [:]
        let fm = FileManager.default
        guard let walker = fm.enumerator(atPath: folder) else { return result }
        for case let relative as String in walker {
            if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            var isDirectory: ObjCBool = false
            let path = folder + "/" + relative
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            switch SourceFile.readText(path, shownAs: "Templates/" + relative) {
            case .success(let text): result[relative] = text
            case .failure(let problem): throw TemplateErrors(diagnostics: [problem])
            }
        }
        return result
    }

    /// Resolves an item image relative to the item file, then to `static/` (content-format §5).
    /// `realRoot` is the site folder with symbolic links resolved (resolved once per build).
    static func resolveImage(
        _ image: ItemImage, item: Item, site: Site, realRoot: String, diagnostics: inout Diagnostics
    ) -> ImageAsset? {
        let alt = image.alt ?? ""
        if RelativeURL.hasScheme(image.src) {
            let scheme = image.src.prefix { $0 != ":" }.lowercased()
            guard scheme == "http" || scheme == "https" else {
                diagnostics.error(image.location, "image URL scheme '\(scheme):' is not allowed; use http, https or a path")
                return nil
            }
            if image.width == nil || image.height == nil {
                // The page got width="" height="" (invalid HTML, and a layout shift on load).
                diagnostics.warning(
                    image.location,
                    "image '\(image.src)' is remote, so feedgen cannot read its size and the page shifts when it loads; give its 'width' and 'height' in an image mapping")
            }
            return ImageAsset(source: "", outputPath: image.src, width: image.width, height: image.height, alt: alt)
        }
        let itemDir = (item.sourcePath as NSString).deletingLastPathComponent
        var candidates: [(source: String, output: String)] = []
        if !image.src.hasPrefix("/") {
            let rel = normalize(itemDir + "/" + image.src)
            if let rel, rel.hasPrefix("content/") {
                candidates.append((site.root + "/" + rel, "assets/" + rel.dropFirst("content/".count)))
            }
        }
        if let rel = normalize(String(image.src.drop { $0 == "/" })) {
            candidates.append((site.root + "/static/" + rel, rel))
        }
        if candidates.isEmpty {
            diagnostics.error(image.location, "image path '\(image.src)' leads outside the site folder; put the image beside the item or in static/")
            return nil
        }
        // The file as named on disk (its name may be in another Unicode normalization); the
        // output path keeps the front matter's spelling.
        for c in candidates.compactMap({ c in LinkResolver.existingPath(c.source).map { (source: $0, output: c.output) } }) {
            // Containment: the file itself (after symbolic links) must be inside the site.
            let real = URL(fileURLWithPath: c.source).resolvingSymlinksInPath().path
            guard real.hasPrefix(realRoot + "/") else {
                diagnostics.error(image.location, "image '\(image.src)' is a symbolic link that leads outside the site folder (to \(real)); copy the image into the site")
                return nil
            }
            var width = image.width
            var height = image.height
            // Limits from stat and the header, even with a given size: libvips decodes it later.
            switch ImageProbe.checkedHeader(
                path: c.source, name: image.src, maxPixels: site.config.imageMaxPixels, maxFileSize: site.config.imageMaxFileSize)
            {
            case .failure(let problem):
                diagnostics.error(image.location, problem.message)
                return nil
            case .success(let header):
                width = width ?? header?.width
                height = height ?? header?.height
            }
            if width == nil || height == nil {
                diagnostics.error(
                    image.location,
                    "'\(image.src)' is not an image feedgen can read (PNG, JPEG, GIF, WebP or SVG); give its 'width' and 'height' in an image mapping, or use an image file")
                return nil
            }
            return ImageAsset(source: c.source, outputPath: c.output, width: width, height: height, alt: alt)
        }
        diagnostics.error(
            image.location,
            "image '\(image.src)' not found (looked beside \(item.sourcePath) and in static/)")
        return nil
    }

    /// Resolves `.` and `..` in a relative path; nil when it would leave its root.
    static func normalize(_ path: String) -> String? {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." || part.isEmpty { continue }
            if part == ".." {
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            } else {
                parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }
}
