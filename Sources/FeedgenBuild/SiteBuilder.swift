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
    /// Also write `_previews/`: every section at the preview widths, light and dark (``Preview``).
    public var previews = false

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
}

/// The build pipeline: load → decode layouts → compile templates → resolve images → render →
/// write atomically. Stages only pass values forward.
public enum SiteBuilder {
    public static func build(_ options: BuildOptions) -> BuildReport {
        let start = DispatchTime.now()
        var report = run(options)
        report.seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        return report
    }

    static func run(_ options: BuildOptions) -> BuildReport {
        var report = BuildReport()
        let root = URL(fileURLWithPath: options.siteRoot).standardizedFileURL.path
        var timing = StageTiming()
        let (prepared, templates) = prepare(options, report: &report)
        timing.mark("load+prepare")
        defer { timing.report() }
        let blocking = report.diagnostics.hasErrors || (options.strict && report.diagnostics.warningCount > 0)
        guard !blocking, report.exitStatus == 0, let prepared, let templates else { return finish(&report, options) }

        // 4. Render.
        var files: [OutputFile]
        do {
            let renderer = SiteRenderer(site: prepared, templates: templates)
            files = try renderer.render()
            timing.mark("render")
            if options.previews {
                files = (files + (try renderer.previews())).sorted { $0.path < $1.path }
                timing.mark("previews")
            }
            files = PagePostProcessor(links: ContentLinks(feeds: prepared.feeds), liveReload: options.liveReload).process(files)
            timing.mark("post-process")
        } catch {
            report.diagnostics.append(contentsOf: error.diagnostics)
            return finish(&report, options)
        }

        // 5. Write.
        guard options.write else { return finish(&report, options) }
        let output = outputPath(options, site: prepared.site, root: root)
        report.outputPath = output
        if let problem = OutputWriter.check(output: output, siteRoot: root) {
            report.diagnostics.error(SourceLocation(path: output), problem)
            report.exitStatus = 2
            return report
        }
        do {
            try OutputWriter.write(files, to: output)
            timing.mark("write")
            if options.previews { report.previewsPath = output + "/" + Preview.indexPath }
        } catch {
            // The output folder could not be created or written: a configuration problem (exit 2).
            let reason = (error as? OutputWriter.WriteError).map { "\($0.path): \($0.message)" } ?? "\(error.localizedDescription)"
            report.diagnostics.error(SourceLocation(path: output), "cannot write the output folder: \(reason); check --output or the 'output' setting")
            report.exitStatus = 2
        }
        if report.exitStatus == 0, prepared.site.config.baseURL == nil {
            // Said once per written build: feeds and the sitemap need absolute URLs.
            report.diagnostics.append(.note(
                SourceLocation(path: prepared.site.config.source != nil ? "feedgen.yaml" : "."),
                "no 'baseURL', so the Atom and JSON feeds (feed.xml, feed.json), sitemap.xml and canonical/og:url links are not written (they need absolute URLs); add e.g. 'baseURL: https://example.org/' to feedgen.yaml"))
        }
        return finish(&report, options)
    }

    /// Stages 1–3: loads the content, compiles the templates, decodes every layout and resolves
    /// images. Problems go into `report`; nil when the content could not be loaded.
    public static func prepare(_ options: BuildOptions, report: inout BuildReport) -> (PreparedSite?, TemplateSet?) {
        var timing = StageTiming()
        defer { timing.report() }
        let root = URL(fileURLWithPath: options.siteRoot).standardizedFileURL.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root + "/content", isDirectory: &isDirectory), isDirectory.boolValue else {
            report.diagnostics.error(
                SourceLocation(path: "."),
                "no content/ folder in '\(options.siteRoot)'; run feedgen in a site folder, pass the site's path, or create one with 'feedgen init DIR'")
            report.exitStatus = 2
            return (nil, nil)
        }

        // 1. Content.
        var loadOptions = LoadOptions(now: ContentDate(secondsSinceEpoch: options.now))
        loadOptions.drafts = options.drafts
        loadOptions.future = options.future
        loadOptions.expired = options.expired
        let (loaded, loadDiagnostics) = SiteLoader.load(siteRoot: root, options: loadOptions)
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
        guard let site = loaded else { return (nil, templates) }

        // 3. Layouts and images.
        var feeds: [PreparedFeed] = []
        var images: [String: ImageAsset] = [:]
        let realRoot = URL(fileURLWithPath: site.root).resolvingSymlinksInPath().path
        for feed in site.feeds {
            var sections: [PreparedSection] = []
            for var section in feed.sections {
                // A front-matter `link` to a content file (`link: ../recipes/soup.md`) is checked
                // and rewritten like a link in the body.
                for i in section.items.indices {
                    guard let target = frontMatterContentLink(section.items[i]) else { continue }
                    section.items[i].markdownLinks.append(target.at(section.items[i].location))
                }
                let path = section.sourcePath ?? "content/" + (feed.path.isEmpty ? "" : feed.path + "/") + section.id
                var decoder = LayoutDecoder(path: path)
                let (layout, preset) = decoder.decode(section.layout)
                report.diagnostics.append(contentsOf: decoder.diagnostics)
                sections.append(PreparedSection(section: section, layout: layout, preset: preset))
            }
            let prepared = PreparedFeed(feed: feed, sections: sections)
            for s in sections {
                for item in s.section.items {
                    guard let image = item.image else { continue }
                    if let asset = resolveImage(image, item: item, site: site, realRoot: realRoot, diagnostics: &report.diagnostics) {
                        images[PreparedSite.imageKey(feed: prepared, item: item)] = asset
                    }
                }
            }
            feeds.append(prepared)
        }
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
                    feeds[f].sections[s].section.items[i].link = "/" + page + (target.fragment.map { "#" + $0 } ?? "")
                }
            }
        }
        timing.mark("links")
        report.feeds = feeds.count
        report.cards = feeds.reduce(0) { $0 + $1.sections.reduce(0) { $0 + $1.section.items.count } }
        report.pages = feeds.count + feeds.reduce(0) { $0 + $1.sections.reduce(0) { $0 + $1.section.items.count { $0.hasBody } } }
        let prepared = PreparedSite(site: site, feeds: feeds, images: images)
        OutputCollisions.check(prepared, into: &report.diagnostics)
        timing.mark("collisions")
        return (prepared, templates)
    }

    /// The content file an item's front-matter `link` names (`link: ../recipes/soup.md`), if any.
    static func frontMatterContentLink(_ item: Item) -> MarkdownLink? {
        guard let link = item.link, !RelativeURL.hasScheme(link) else { return nil }
        let directory = item.sourcePath.split(separator: "/").dropLast().joined(separator: "/")
        return MarkdownLink(destination: link, directory: directory)
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
        if let output = options.output {
            return URL(fileURLWithPath: output).standardizedFileURL.path
        }
        let configured = site.config.output
        return URL(fileURLWithPath: configured.hasPrefix("/") ? configured : root + "/" + configured).standardizedFileURL.path
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
            return ImageAsset(source: "", outputPath: image.src, width: image.width, height: image.height, alt: alt)
        }
        let fm = FileManager.default
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
        for c in candidates where fm.fileExists(atPath: c.source) {
            // Containment: the file itself (after symbolic links) must be inside the site.
            let real = URL(fileURLWithPath: c.source).resolvingSymlinksInPath().path
            guard real.hasPrefix(realRoot + "/") else {
                diagnostics.error(image.location, "image '\(image.src)' is a symbolic link that leads outside the site folder (to \(real)); copy the image into the site")
                return nil
            }
            var width = image.width
            var height = image.height
            if width == nil || height == nil, let data = fm.contents(atPath: c.source),
                let size = ImageProbe.size(of: [UInt8](data.prefix(65536)))
            {
                width = width ?? size.width
                height = height ?? size.height
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
