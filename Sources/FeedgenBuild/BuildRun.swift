/// `BuildRun`: the state of one build as its stages pass it along (report, timing, the build
/// cache's lock, the output session opened early, the listing and snapshot for the patch build),
/// and each stage of ``SiteBuilder/run(_:)`` as a method.
import FeedgenContent
import FeedgenDiagnostics
import FeedgenEmit
import FeedgenResolve
import FeedgenStorage
import Foundation

final class BuildRun {
    let options: BuildOptions
    /// The site folder, absolute.
    let root: String
    let started = BuildSnapshot.now()
    var report = BuildReport()
    var timing = StageTiming()
    let itemCache = SiteBuilder.ItemCacheBox()
    /// The content as listed for a patch build (every item file stamped), reused by the load.
    private var listing: ContentListing?
    /// The snapshot a patch build read and could not apply (the next snapshot starts from it).
    private var lastSnapshot: BuildSnapshot?
    private var feedRecords: [BuildSnapshot.FeedRecord] = []
    /// The stage timing is reported when the build ends (set once the content is loaded).
    private var reportsTiming = false

    init(_ options: BuildOptions) {
        self.options = options
        root = URL(fileURLWithPath: options.siteRoot).standardizedFileURL.path
    }

    /// Ends the build, whichever stage it stopped at: the timing is reported; a session opened
    /// early is finished with, used or not (a failed build must not leave it changing the cache
    /// under the next one: watch mode); what the build writes into the cache is written; the
    /// cache's lock is released last.
    func end() {
        if reportsTiming { timing.report() }
        _ = try? itemCache.opening?.session()
        _ = itemCache.opening?.cardCache()
        itemCache.value?.waitForSources()
        itemCache.lock.release()
    }

    /// The report, with its exit status decided (``SiteBuilder/finish(_:_:)``).
    func finish() -> BuildReport { SiteBuilder.finish(&report, options) }

    /// Stage 1: a build that may record a snapshot lists the content first (every item file
    /// stamped); one that may be patched then tries that (``PatchBuild``), and otherwise the
    /// load reads the site from the same listing.
    /// - Returns: the patch build's report when it applied.
    func listAndPatch() -> BuildReport? {
        options.progress?.begin("reading content")
        guard PatchBuild.isEligible(options), FileManager.default.fileExists(atPath: root + "/content") else { return nil }
        let (options, root, itemCache) = (self.options, self.root, self.itemCache)
        var patchOutput: String?
        let listed = SiteLoader.list(siteRoot: root) { config in
            let output = SiteBuilder.outputPath(options, configured: config.output, root: root)
            guard options.useCache, OutputWriter.check(output: output, siteRoot: root) == nil,
                OutputWriter.strayEntry(output: output) == nil
            else { return }
            itemCache.lock.acquire(cacheFolder: BuildCache.folder(forOutput: output), output: output, waiting: options.waitingMessage)
            let opening = SiteBuilder.SessionOpening(output: output, cutCardsLog: options.testCutLog == "cards.log")
            opening.start(useCache: true, readCards: false)
            itemCache.opening = opening
            patchOutput = output
        }
        listing = listed
        timing.mark("listing")
        guard let output = patchOutput, let opening = itemCache.opening else { return nil }
        switch PatchBuild.attempt(options, listing: listed, output: output, opening: opening, start: started, timing: &timing) {
        case .success(var patched):
            if listed.config.baseURL == nil { patched.diagnostics.append(SiteBuilder.noBaseURLNote(listed.config)) }
            timing.report()
            return SiteBuilder.finish(&patched, options)
        case .failure(let why):
            timing.note("patch build: not applicable (\(why.reason))")
            lastSnapshot = why.snapshot
            if why.sessionUsed { itemCache.opening = nil } else { opening.readCards(useCache: true) }
            return nil
        }
    }

    /// Stages 2–3: ``SiteBuilder/prepare(_:report:itemCache:listing:)``.
    /// - Returns: nil when the build stops here (errors, or warnings with `--strict`).
    func loadAndResolve() -> (PreparedSite, TemplateSet, ContentLinks)? {
        let (prepared, templates, links) = SiteBuilder.prepare(options, report: &report, itemCache: itemCache, listing: listing)
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
        return (prepared, templates, links)
    }

    /// Stage 4: the output folder is checked (`check` validates it as `build` would, writing
    /// nothing), then image variants are made in the build cache beside it (`check`: every
    /// image a build would resize must decode; the cache is only read).
    /// - Returns: false when the build stops here.
    func makeImages(_ site: inout PreparedSite, output: String) -> Bool {
        let cacheFolder = BuildCache.folder(forOutput: output)
        guard options.write else {
            if let problem = OutputWriter.checkLocation(output: output, siteRoot: root) {
                report.diagnostics.error(SourceLocation(path: output), problem)
                report.exitStatus = 2
                return false
            }
            _ = ImageVariants.make(
                &site, cacheFolder: cacheFolder, validateOnly: true, progress: options.progress, diagnostics: &report.diagnostics)
            return !report.diagnostics.hasErrors
        }
        itemCache.value?.saveSourcesEarly()
        report.outputPath = output
        if let problem = OutputWriter.check(output: output, siteRoot: root) {
            report.diagnostics.error(SourceLocation(path: output), problem)
            report.exitStatus = 2
            return false
        }
        if let stray = OutputWriter.strayEntry(output: output) {
            report.diagnostics.error(
                SourceLocation(path: output + "/" + stray),
                "this file in the output folder was not written by feedgen; move it away or into static/")
            report.exitStatus = 2
            return false
        }
        itemCache.lock.acquire(cacheFolder: cacheFolder, output: output, waiting: options.waitingMessage)
        report.images = ImageVariants.make(&site, cacheFolder: cacheFolder, progress: options.progress, diagnostics: &report.diagnostics)
        timing.mark("images")
        return !report.diagnostics.hasErrors
    }

    /// Stages 5–6: ``SiteBuilder/renderAndWrite(_:templates:links:output:options:timing:report:early:feedRecords:)``,
    /// page by page in bounded batches, into the cache's back buffer (only what changed), which
    /// is then exchanged with the output. A failure to write is reported here (exit 2, or 1
    /// when another process cut the card cache short).
    /// - Returns: false when a template failed (the build ends with its errors).
    func renderAndWrite(_ site: PreparedSite, templates: TemplateSet, links: ContentLinks, output: String) -> Bool {
        do {
            try SiteBuilder.renderAndWrite(
                site, templates: templates, links: links, output: options.write ? output : nil, options: options,
                timing: &timing, report: &report, early: itemCache.opening, feedRecords: &feedRecords)
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

    /// After writing: the item cache is saved (or discarded when the build failed), the
    /// snapshot for the next patch build recorded, the logs' seals settled; and the note for a
    /// site without a `baseURL`.
    func record(_ site: PreparedSite, templates: TemplateSet, links: ContentLinks, output: String) {
        if options.write, report.exitStatus == 0 { itemCache.value?.save() } else if options.write { itemCache.value?.discard() }
        if options.write, report.exitStatus == 0, !report.diagnostics.hasErrors, let listing,
            let snapshot = PatchBuild.snapshot(
                options: options, listing: listing, site: site, templates: templates, links: links, feeds: feedRecords,
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
        if report.exitStatus == 0, site.site.config.baseURL == nil {
            // Said once per written build: feeds and the sitemap need absolute URLs.
            report.diagnostics.append(SiteBuilder.noBaseURLNote(site.site.config))
        }
    }
}
