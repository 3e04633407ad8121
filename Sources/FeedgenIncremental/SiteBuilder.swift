/// `SiteBuilder`: a build from start to end. The pipeline's stages in order (FeedgenBuild's
/// ``BuildRun``), with the incremental layer around them: a build whose only changes are item
/// bodies patches the previous output (``PatchBuild``), and a build that wrote its output
/// records the snapshot that the next one patches from (``BuildSnapshot``).
import Dispatch
import FeedgenBuild
import FeedgenContent
import FeedgenStorage

public enum SiteBuilder {
    /// Builds (or, with `options.write` false, checks) the site. Never throws: every problem is
    /// a diagnostic in the report, with its exit status (content-format §9).
    public static func build(_ options: BuildOptions) -> BuildReport {
        let start = DispatchTime.now()
        var report = run(options)
        options.progress?.finish()
        report.seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        return report
    }

    /// The stages of one build, in order; a stage that returns false (or nil) ends the build
    /// there. Nothing is written before stage 5–6.
    static func run(_ options: BuildOptions) -> BuildReport {
        let memo = CacheMemo()
        let build = BuildRun(options, memo: memo)
        defer { build.end() }
        options.progress?.begin("reading content")
        // 1. List the site; a build whose only changes are item bodies is a patch.
        var lastSnapshot: BuildSnapshot?
        var itemFiles: [(path: String, stamp: FileStamp?)]?
        let early = PatchBuild.EarlySnapshot()
        let templatesFolder = build.root + "/Templates"
        if PatchBuild.isEligible(options),
            let listed = build.listFirst(alongside: {
                if early.read(output: $0) { early.compileTemplates(folder: templatesFolder) }
            })
        {
            // The patch compares the listing with the snapshot while the output is examined,
            // and waits for the output's session only where it needs it.
            var attempt: Result<BuildReport, PatchBuild.NotApplicable>?
            if options.useCache {
                attempt = PatchBuild.attempt(
                    options, listing: listed.listing, output: listed.output, opening: listed.opened, start: build.started,
                    early: early, timing: &build.timing)
            }
            // Not opened (a stray file, no cache): no patch was tried.
            switch listed.opened() == nil ? nil : attempt {
            case nil:
                break
            case .success(var patched):
                if listed.listing.config.baseURL == nil { patched.diagnostics.append(Pipeline.noBaseURLNote(listed.listing.config)) }
                return build.finish(patched: &patched)
            case .failure(let why):
                build.timing.note("patch build: not applicable (\(why.reason))")
                lastSnapshot = why.snapshot
                itemFiles = why.itemFiles
                build.lastFeeds = (why.snapshot?.feeds ?? []) + (why.snapshot?.backFeeds ?? [])
                build.patchDidNotApply(sessionUsed: why.sessionUsed)
                build.compiledTemplates = early.compiledTemplates(folder: templatesFolder)
            }
        }
        // The snapshot describes the output being replaced: gone before the exchange.
        build.beforeCommit = { BuildSnapshot.remove(cacheFolder: $0) }
        // 2–3. Load the content, compile the templates, resolve the site.
        guard let (resolved, templates, links) = build.loadAndResolve() else { return build.finish() }
        let site = resolved
        let output = Pipeline.outputPath(options, site: site.site, root: build.root)
        // The snapshot's item records depend on the resolved site alone: made on another thread
        // while the build writes (the second core is idle for part of it).
        let (previous, fingerprints, listed) = (lastSnapshot, memo.fingerprints, itemFiles)
        let records = PatchBuild.isEligible(options) && !site.site.isScheduled ? build.listing.map { listing in
            Background {
                PatchBuild.itemRecords(listing: listing, site: site, links: links, previous: previous, fingerprints: fingerprints, listed: listed)
            }
        } : nil
        defer { _ = records?.value }
        // 4. Image variants, into the build cache beside the output (checked first).
        guard let images = build.makeImages(site, output: output) else { return build.finish() }
        // 5–6. Render and write into the back buffer, exchanged with the output atomically.
        guard build.renderAndWrite(site, images: images, templates: templates, links: links, output: output) else { return build.finish() }
        // What the next build starts from: the item cache, and the snapshot of this output.
        // The caches are saved on other threads while the snapshot is made here (its item
        // records were made beside the writing): none reads what another writes.
        let saved = DispatchGroup()
        for save in [build.itemCacheSaving()] + build.deferredSaves.take() { DispatchQueue.global().async(group: saved, execute: save) }
        // The report in printing order now: the snapshot records it so, and the order is kept
        // (the few notes added later are merged in).
        build.sortReport()
        if build.wroteCleanly { build.report.diagnostics = PatchBuild.withKinds(build.report.diagnostics, last: lastSnapshot) }
        let recorded = records?.value
        if build.wroteCleanly, let listing = build.listing,
            let snapshot = PatchBuild.snapshot(
                options: options, listing: listing, site: site, templates: templates, feeds: build.writtenFeeds,
                report: build.report, start: build.started, records: recorded ?? nil, backFeeds: lastSnapshot?.feeds ?? [])
        {
            snapshot.write(cacheFolder: BuildCache.folder(forOutput: output))
            if options.exitsAfterBuild { ExitReclaimed.keep(snapshot) }
        }
        // The last snapshot and the records are as many small objects as the site's items.
        if options.exitsAfterBuild { ExitReclaimed.keep([lastSnapshot as Any, records as Any]) }
        saved.wait()
        build.timing.mark("snapshot+caches")
        build.settle(site)
        return build.finish()
    }
}
