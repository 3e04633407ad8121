/// `BuildRun`: the state of one build as its stages pass it along (report, timing, the build
/// cache's lock, the output session opened early, the content listing), and each stage of the
/// pipeline as a method, for X to call in order.
import FeedgenContent
import FeedgenDiagnostics
import FeedgenEmit
import FeedgenResolve
import FeedgenStorage
import Foundation

public final class BuildRun {
    public let options: BuildOptions
    /// The site folder, absolute.
    public let root: String
    /// When the build started (ns since 1970, real-time clock).
    public let started = BuildRun.wallClock()
    public var report = BuildReport()
    public var timing: StageTiming
    let itemCache: Pipeline.ItemCacheBox
    /// The content as listed before loading (every item file stamped), reused by the load.
    public private(set) var listing: ContentListing?
    /// The feed pages as written (``renderAndWrite(_:templates:links:output:)``).
    public private(set) var writtenFeeds: [WrittenFeed] = []
    /// The feed pages as the last build wrote them and as the build before did (the last
    /// snapshot's records of the output and of the back buffer), if known: a feed page whose
    /// key and bytes are still one of those is not rendered again.
    public var lastFeeds: [WrittenFeed] = []
    /// The site's templates compiled already (by a patch that did not apply), reused by
    /// ``loadAndResolve()`` when its files are still the ones read.
    package var compiledTemplates: Pipeline.CompiledTemplates?
    /// Called with the cache folder just before the new output replaces the old one.
    public var beforeCommit: (String) -> Void = { _ in }
    /// The cache saves that ``renderAndWrite(_:images:templates:links:output:)`` leaves to run
    /// after the exchange (beside the snapshot: ``itemCacheSaving()``).
    public let deferredSaves = Pipeline.DeferredSaves()
    /// The stage timing is reported when the build ends (set once the content is loaded).
    private var reportsTiming = false
    /// The report's diagnostics as stage 3 left them, being sorted (``sortReport()``).
    private var sortedEarly: Background<[Diagnostic]>?
    /// Whether ``itemCacheSaving()`` ran: a build that stopped before it (an error in the content)
    /// discards the item cache's new log when it ends, so that no `items.log.tmp-<pid>` is left.
    private var itemCacheFinished = false

    /// - Parameter memo: what earlier builds left in the build cache (FeedgenIncremental's);
    ///   nil: everything is parsed and rendered.
    public init(_ options: BuildOptions, memo: (any BuildMemo)? = nil) {
        self.options = options
        timing = StageTiming(enabled: options.timing)
        itemCache = Pipeline.ItemCacheBox(memo: memo)
        root = URL(fileURLWithPath: options.siteRoot).standardizedFileURL.path
    }

    /// The real-time clock (ns since 1970).
    public static func wallClock() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// Ends the build, whichever stage it stopped at: the timing is reported; a session opened
    /// early is finished with, used or not (a failed build must not leave it changing the cache
    /// under the next one: watch mode); what the build writes into the cache is written; the
    /// cache's lock is released last.
    public func end() {
        for save in deferredSaves.take() { save() }
        if reportsTiming { timing.report() }
        _ = try? itemCache.opening?.session()
        _ = itemCache.opening?.cardCache()
        if !itemCacheFinished { itemCache.value?.discard() }
        itemCache.value?.waitForSources()
        itemCache.lock.release()
    }

    /// The report, with its exit status decided (``Pipeline/finish(_:_:)``).
    public func finish() -> BuildReport { Pipeline.finish(&report, options) }

    /// `report` (another build's: a patch) with its exit status decided, the timing reported.
    public func finish(patched report: inout BuildReport) -> BuildReport {
        timing.report()
        return Pipeline.finish(&report, options)
    }

    /// Stage 1, for a build that may be patched: the content is listed first (every item file
    /// stamped) and, when the output may be written, the cache's lock is taken on another thread
    /// and the output's session made ready to open (``Pipeline/SessionOpening/startIfIdle()``:
    /// a patch that writes nothing needs none). The load then reads the site from the same listing.
    /// - Returns: the listing, the output folder, and `opened`, which waits for that other thread
    ///   and gives the output's session (nil when the output is not to be patched: no cache, a
    ///   stray file, another program's folder). A patch computes what it can before calling it;
    ///   the build calls it before going on in any case (the thread sets the item cache's session).
    /// - Parameter alongside: called on another thread with the output folder while the
    ///   content is listed (a patch build reads the output's snapshot then).
    public func listFirst(
        alongside: (@Sendable (String) -> Void)? = nil
    ) -> (listing: ContentListing, output: String, opened: () -> Pipeline.SessionOpening?)? {
        guard FileManager.default.fileExists(atPath: root + "/content") else { return nil }
        let (options, root, itemCache) = (self.options, self.root, self.itemCache)
        let configured = SiteLoader.configuration(siteRoot: root)
        // The lock and the output's session (they depend on the configured output only) on
        // another thread, while the content is listed on this one.
        final class Opened: @unchecked Sendable { var output: String? }
        let opened = Opened()
        let output = Pipeline.outputPath(options, configured: configured.config.output, root: root)
        let reading = DispatchGroup()
        let opening = DispatchGroup()
        // The output is examined first: of the two threads, it takes longer.
        DispatchQueue.global().async(group: opening) {
            guard options.useCache, OutputWriter.check(output: output, siteRoot: root) == nil else { return }
            // One listing of the output: no stray file, and whether a patch that writes nothing
            // leaves it right.
            let examined = OutputWriter.examine(output: output)
            guard examined.stray == nil else { return }
            itemCache.lock.acquire(cacheFolder: BuildCache.folder(forOutput: output), output: output, waiting: options.waitingMessage)
            let session = Pipeline.SessionOpening(output: output, memo: itemCache.memo, cutCardsLog: options.testCutLog == "cards.log")
            session.outputAsWritten = examined.asWritten
            session.verifiedOutput = examined.verified
            itemCache.opening = session
            opened.output = output
        }
        if let alongside, options.useCache { DispatchQueue.global().async(group: reading) { alongside(output) } }
        let listed = SiteLoader.list(configured, stampFiles: true)
        reading.wait()
        listing = listed
        timing.mark("listing")
        return (listed, output, {
            opening.wait()
            return opened.output == nil ? nil : itemCache.opening
        })
    }

    /// After a patch that did not apply: the session it used is not reused (`sessionUsed`), else
    /// the session (unless the patch started it) and the card cache the full build needs start
    /// being opened.
    public func patchDidNotApply(sessionUsed: Bool) {
        guard let opening = itemCache.opening else { return }
        if sessionUsed {
            itemCache.opening = nil
        } else {
            opening.startIfIdle()
            opening.readCards(useCache: true)
        }
    }

    /// Stages 2–3: ``Pipeline/prepare(_:report:itemCache:listing:)``.
    /// - Returns: nil when the build stops here (errors, or warnings with `--strict`).
    public func loadAndResolve() -> (PreparedSite, TemplateSet, ContentLinks)? {
        let (prepared, templates, links) = Pipeline.prepare(
            options, report: &report, itemCache: itemCache, listing: listing, compiled: compiledTemplates)
        compiledTemplates = nil
        if options.exitsAfterBuild { ExitReclaimed.keep([prepared as Any, templates as Any, links as Any, itemCache]) }
        timing.mark("load+prepare")
        if let cache = itemCache.value {
            report.cachedItems = cache.hits
            report.unreadItems = cache.unread
            timing.note("items: \(cache.hits) cached (\(cache.unread) files not read), \(cache.misses) parsed")
        }
        reportsTiming = true
        let blocking = report.diagnostics.hasErrors || (options.strict && report.diagnostics.warningCount > 0)
        guard !blocking, report.exitStatus == 0, let prepared, let templates, let links else { return nil }
        // Most of the report is known now: it is put in order on another core while the site
        // is written (``sortReport()``).
        let found = report.diagnostics
        sortedEarly = Background { found.sorted }
        return (prepared, templates, links)
    }

    /// Puts the report in printing order (``Diagnostics/sort()``), from the part sorted while the
    /// site was written.
    public func sortReport() {
        guard let early = sortedEarly?.value else { return report.diagnostics.sort() }
        sortedEarly = nil
        report.diagnostics.sort(sortedPrefix: early)
    }

    /// Stage 4: the output folder is checked (`check` validates it as `build` would, writing
    /// nothing), then image variants are made in the build cache beside it (`check`: every
    /// image a build would resize must decode; the cache is only read).
    /// - Returns: the variants made (``ImageVariantTable``; empty for `check`), or nil when the
    ///   build stops here.
    public func makeImages(_ site: PreparedSite, output: String) -> ImageVariantTable? {
        let cacheFolder = BuildCache.folder(forOutput: output)
        guard options.write else {
            if let problem = OutputWriter.checkLocation(output: output, siteRoot: root) {
                report.diagnostics.error(SourceLocation(path: output), problem)
                report.exitStatus = 2
                return nil
            }
            _ = ImageVariants.make(
                site, cacheFolder: cacheFolder, validateOnly: true, progress: options.progress, diagnostics: &report.diagnostics)
            return report.diagnostics.hasErrors ? nil : ImageVariantTable()
        }
        itemCache.value?.saveSourcesEarly()
        report.outputPath = output
        if let problem = OutputWriter.check(output: output, siteRoot: root) {
            report.diagnostics.error(SourceLocation(path: output), problem)
            report.exitStatus = 2
            return nil
        }
        // The output was listed already when the listing opened its session (and found none).
        if itemCache.opening?.outputAsWritten == nil || itemCache.opening?.output != output, let stray = OutputWriter.strayEntry(output: output) {
            report.diagnostics.error(
                SourceLocation(path: output + "/" + stray),
                "this file in the output folder was not written by feedgen; move it away or into static/")
            report.exitStatus = 2
            return nil
        }
        itemCache.lock.acquire(cacheFolder: cacheFolder, output: output, waiting: options.waitingMessage)
        // A build that opened no session while it loaded (`--clean`, or after a patch that used
        // it) opens it now, beside the images and the page plan, rather than when the pages
        // are about to be written.
        if itemCache.opening == nil {
            let opening = Pipeline.SessionOpening(output: output, memo: itemCache.memo, cutCardsLog: options.testCutLog == "cards.log")
            opening.start(useCache: options.useCache, readCards: options.useCache, ownThread: true)
            itemCache.opening = opening
        }
        let (images, stats) = ImageVariants.make(site, cacheFolder: cacheFolder, progress: options.progress, diagnostics: &report.diagnostics)
        report.images = stats
        timing.mark("images")
        return report.diagnostics.hasErrors ? nil : images
    }

    /// Stages 5–6: ``Pipeline/renderAndWrite(_:templates:links:output:options:timing:report:early:feedRecords:)``,
    /// page by page in bounded batches, into the cache's back buffer (only what changed), which
    /// is then exchanged with the output. A failure to write is reported here (exit 2, or 1
    /// when another process cut the card cache short).
    /// - Returns: false when a template failed (the build ends with its errors).
    public func renderAndWrite(
        _ site: PreparedSite, images: ImageVariantTable, templates: TemplateSet, links: ContentLinks, output: String
    ) -> Bool {
        do {
            try Pipeline.renderAndWrite(
                site, images: images, templates: templates, links: links, output: options.write ? output : nil, options: options,
                timing: &timing, report: &report, early: itemCache.opening, memo: itemCache.memo, beforeCommit: beforeCommit,
                feedRecords: &writtenFeeds, deferred: deferredSaves, lastFeeds: lastFeeds)
            if options.write, options.previews { report.previewsPath = output + "/" + Preview.indexPath }
        } catch let error as TemplateErrors {
            report.diagnostics.append(contentsOf: error.diagnostics)
            return false
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
        return true
    }

    /// The item cache's saving (or, after an error, its discarding), as work to run on another
    /// thread (beside the snapshot's): the cache is marked finished now.
    public func itemCacheSaving() -> @Sendable () -> Void {
        itemCacheFinished = true
        guard options.write else { return {} }
        let (cache, saves) = (itemCache.value, report.exitStatus == 0)
        return { if saves { cache?.save() } else { cache?.discard() } }
    }

    /// Whether the build wrote its output without an error (what a snapshot may describe).
    public var wroteCleanly: Bool { options.write && report.exitStatus == 0 && !report.diagnostics.hasErrors }

    /// The last step: the logs' seals settled, and the note for a site without a `baseURL`.
    public func settle(_ site: PreparedSite) {
        if options.write {
            // Seals written within their log's last clock tick are made trustworthy (LogSeal).
            let (racy, waited) = LogSeal.settle()
            timing.mark("seals settled")
            timing.note("seals: \(racy) written within their log's clock tick, settled in \(waited / 1000) µs")
        }
        if report.exitStatus == 0, site.site.config.baseURL == nil {
            // Said once per written build: feeds and the sitemap need absolute URLs.
            report.diagnostics.append(Pipeline.noBaseURLNote(site.site.config))
        }
    }
}
