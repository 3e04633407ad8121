import Dispatch
import FeedgenContent
import FeedgenDiagnostics
import FeedgenEmit
import FeedgenLayout
import FeedgenResolve
import FeedgenStorage
import Foundation

/// `Pipeline`: the build's stages as functions (load here; the others in RenderStage.swift,
/// BuildSession.swift, OutputLocation.swift), called in order through ``BuildRun`` by the
/// driver in FeedgenIncremental (`SiteBuilder.build`). Stages only pass values forward.
public enum Pipeline {
    /// Said once per written build of a site without a `baseURL`: feeds and the sitemap need
    /// absolute URLs.
    package static func noBaseURLNote(_ config: SiteConfig) -> Diagnostic {
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
        _ options: BuildOptions, report: inout BuildReport, itemCache: ItemCacheBox?, listing: ContentListing? = nil,
        compiled: CompiledTemplates? = nil
    ) -> (PreparedSite?, TemplateSet?, ContentLinks?) {
        var timing = StageTiming(enabled: options.timing)
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
        // The configuration first: the parsed items of earlier builds (and the output's session,
        // opened meanwhile) are in the build cache beside the configured output folder.
        let configured = listing ?? SiteLoader.configuration(siteRoot: root)
        let cache = options.useCache ? itemCache.flatMap { openItemCache($0, options, config: configured.config, root: root) } : nil
        let listed = listing ?? SiteLoader.list(configured, stampFiles: cache?.vouchesForUnchangedFiles == true)
        let (loaded, loadDiagnostics) = SiteLoader.load(listed, options: loadOptions, store: cache)
        report.diagnostics.append(contentsOf: loadDiagnostics)
        timing.mark("load")

        // 2. Templates (those compiled already from the same files are reused: compiling is
        // a function of the files alone).
        var templates: TemplateSet?
        do {
            let folder = root + "/Templates"
            let overrides = try readTemplates(folder)
            if let compiled, compiled.folder == folder, compiled.overrides == overrides {
                templates = compiled.templates
            } else {
                templates = try TemplateSet(overrides: overrides)
            }
        } catch let error as TemplateErrors {
            report.diagnostics.append(contentsOf: error.diagnostics)
        } catch {
            report.diagnostics.error(SourceLocation(path: "Templates"), "cannot read templates: \(error)")
        }
        guard let site = loaded else { return (nil, templates, nil) }

        // 3. Resolve: layouts, images, links, output paths. The templates are linted on another
        // core meanwhile (the resolver starts on one).
        let lint = templates.map { templates in Background { templates.lint(for: site) } }
        let (prepared, contentLinks) = SiteResolver.resolve(site, diagnostics: &report.diagnostics)
        if let lint { report.diagnostics.append(contentsOf: lint.value) }
        timing.mark("resolve")
        // Feeds and their cards; a section's or tag's own pages count as pages only.
        report.feeds = prepared.feeds.count { $0.ownPage == nil }
        report.cards = prepared.feeds.reduce(0) { $0 + ($1.ownPage != nil ? 0 : $1.sections.reduce(0) { $0 + $1.section.items.count }) }
        report.pages = prepared.feeds.count + prepared.feeds.reduce(0) { $0 + $1.sections.reduce(0) { $0 + $1.pageItems.count { $0.hasBody } } }
        return (prepared, templates, contentLinks)
    }

    /// The build cache's parsed items for a site configured as `config`, kept in `box` with the
    /// lock of the cache taken when the output may be written; the output's session starts
    /// opening on another thread (it reads and checks the cache's back buffer, and rebuilds it
    /// from the output when it does not check out; the output itself is never touched). A patch
    /// build that did not apply may have opened it already. Nil when the box has no memo.
    static func openItemCache(_ box: ItemCacheBox, _ options: BuildOptions, config: SiteConfig, root: String) -> (any ItemMemo)? {
        let output = outputPath(options, configured: config.output, root: root)
        let folder = BuildCache.folder(forOutput: output)
        // An output this build may write (else `run` reports why, and writes nothing).
        let writable = options.write && OutputWriter.check(output: output, siteRoot: root) == nil
        if writable { box.lock.acquire(cacheFolder: folder, output: output, waiting: options.waitingMessage) }
        // A refused output (`/`, the home folder, the site's own folders) gets no cache beside
        // it: the build stops before writing, and nothing of it may be created there.
        let cache = box.memo?.openItems(cacheFolder: folder, writable: writable, options: options)
        box.value = cache
        if writable, box.opening?.output != output {
            let opening = SessionOpening(output: output, memo: box.memo, cutCardsLog: options.testCutLog == "cards.log")
            opening.start(useCache: true)
            box.opening = opening
        }
        return cache
    }

    static func finish(_ report: inout BuildReport, _ options: BuildOptions) -> BuildReport {
        report.diagnostics.sort()
        if report.exitStatus == 0 {
            let failed = report.diagnostics.hasErrors || (options.strict && report.diagnostics.warningCount > 0)
            // An error in feedgen.yaml is a configuration error (content-format §9: exit 2).
            // (Looked for among errors only: a patch's report leaves the last build's packed.)
            let configuration = report.diagnostics.hasErrors && report.diagnostics.items.contains {
                $0.severity == .error && $0.location.path == "feedgen.yaml"
            }
            report.exitStatus = configuration ? 2 : failed ? 1 : 0
        }
        return report
    }

}
