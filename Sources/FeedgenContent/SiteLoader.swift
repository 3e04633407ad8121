import FeedgenDiagnostics

/// What the caller decides about a load: which hidden items to include, and the instant that
/// counts as "now" (the loader never reads the clock).
public struct LoadOptions: Sendable {
    /// Include items (and feeds) with `draft: true` (`--drafts`).
    public var drafts: Bool
    /// Include items whose `publishDate` is after now (`--future`).
    public var future: Bool
    /// Include items whose `expiryDate` has passed (`--expired`).
    public var expired: Bool
    /// The build's "now"; compared with publishDate/expiryDate in the site's `timeZone`.
    public var now: ContentDate

    public init(drafts: Bool = false, future: Bool = false, expired: Bool = false, now: ContentDate) {
        self.drafts = drafts
        self.future = future
        self.expired = expired
        self.now = now
    }

    /// `now` given as seconds since 1970-01-01T00:00:00Z.
    public init(drafts: Bool = false, future: Bool = false, expired: Bool = false, nowSecondsSinceEpoch: Int64) {
        self.init(
            drafts: drafts, future: future, expired: expired, now: ContentDate(secondsSinceEpoch: nowSecondsSinceEpoch))
    }
}

/// Loads a site folder into the content model (content-format §1–5).
///
/// Every file is read once; item files are parsed on all cores, each into its own result slot,
/// and the results are assembled in a fixed order, so the model and the diagnostics do not
/// depend on scheduling. Diagnostics are returned sorted by path, line and column.
public enum SiteLoader {
    /// The site at `siteRoot` (absolute, or relative to the current directory). `site` is nil
    /// when any error was found; `diagnostics` then holds every error that could be found,
    /// with the warnings and notes. Every file is parsed (no parsed items of earlier builds).
    public static func load(siteRoot: String, options: LoadOptions) -> (site: Site?, diagnostics: Diagnostics) {
        load(list(configuration(siteRoot: siteRoot), stampFiles: false), options: options)
    }

    /// The site at `siteRoot` with its configuration read (`feedgen.yaml`, or the defaults)
    /// and `content/` not listed yet: the first step of a load for a caller that supplies the
    /// parsed items of earlier builds, whose place depends on the configured output folder.
    /// ``list(_:stampFiles:)`` follows.
    public static func configuration(siteRoot: String) -> ContentListing {
        let root = FileSystem.absolute(siteRoot)
        var diagnostics: [Diagnostic] = []
        let config = loadConfig(root: root, diagnostics: &diagnostics)
        return ContentListing(root: root, config: config, configDiagnostics: diagnostics, plan: nil)
    }

    /// `configured` (``configuration(siteRoot:)``) with the shape of its `content/` listed,
    /// before any content file is read (none when there is no `content/` folder).
    ///
    /// - Parameter stampFiles: whether every item file's `stat` is taken while its folder is
    ///   listed: for a caller whose earlier builds' table can vouch for unchanged files (the
    ///   store of parsed items', ``ParsedItemStore/vouchesForUnchangedFiles``) or that decides what to load from what changed
    ///   (the patch build); a first build reads every file anyway.
    public static func list(_ configured: ContentListing, stampFiles: Bool) -> ContentListing {
        var listing = configured
        if FileSystem.isDirectory(configured.root + "/content") == true {
            var scanner = ContentScanner(root: configured.root, stampFiles: stampFiles)
            scanner.scan()
            var plan = scanner.plan
            ItemLanguage.leaveOutTranslations(&plan, siteLanguage: configured.config.language)
            listing.plan = plan
        }
        return listing
    }

    /// ``load(siteRoot:options:)`` of a site already listed.
    ///
    /// - Parameters:
    ///   - store: the items parsed by earlier builds (the build cache's), which unchanged item
    ///     files are taken from, and which newly parsed ones are added to; nil parses every file.
    ///   - onlyItems: nil loads every item; else only the item files of this set (site-relative
    ///     paths) are read and parsed, without `store`, and the site holds those items only (its
    ///     feeds, sections, inline items and static files are all there). Its diagnostics then
    ///     concern only what was read.
    public static func load(
        _ listing: ContentListing, options: LoadOptions, store: (any ParsedItemStore)? = nil, onlyItems: Set<String>? = nil
    ) -> (site: Site?, diagnostics: Diagnostics) {
        let store = onlyItems == nil && listing.plan != nil ? store : nil
        var listing = listing
        if let onlyItems, var plan = listing.plan {
            // ASCII text equals other ASCII text only byte for byte: an ASCII item file is
            // compared with ASCII paths without making its path (10,000 Strings for the one or
            // two files a patch build loads). Any other is compared as a String.
            func isASCII(_ text: String.UTF8View) -> Bool { text.allSatisfy { $0 < 0x80 } }
            let asciiPaths = onlyItems.allSatisfy { isASCII($0.utf8) } ? onlyItems.map { Array($0.utf8) } : nil
            for f in plan.feeds.indices {
                for s in plan.feeds[f].sections.indices {
                    let section = plan.feeds[f].sections[s]
                    let folder = Array(section.folder.utf8)
                    let folderIsASCII = folder.allSatisfy { $0 < 0x80 }
                    let kept = section.itemFiles.indices.filter { i in
                        let file = section.itemFiles[i]
                        if let asciiPaths, folderIsASCII, isASCII(file.utf8) {
                            let length = folder.count + 1 + file.utf8.count
                            return asciiPaths.contains { path in
                                path.count == length && path[folder.count] == UInt8(ascii: "/") && path.starts(with: folder)
                                    && path[(folder.count + 1)...].elementsEqual(file.utf8)
                            }
                        }
                        return onlyItems.contains(section.folder + "/" + file)
                    }
                    plan.feeds[f].sections[s].itemFiles = kept.map { section.itemFiles[$0] }
                    plan.feeds[f].sections[s].itemStamps = kept.map { $0 < section.itemStamps.count ? section.itemStamps[$0] : nil }
                }
            }
            listing.plan = plan
        }
        return loadListed(listing, options: options, store: store)
    }

    private static func loadListed(
        _ listing: ContentListing, options: LoadOptions, store: (any ParsedItemStore)?
    ) -> (site: Site?, diagnostics: Diagnostics) {
        let root = listing.root
        let config = listing.config
        var diagnostics = listing.configDiagnostics
        let window =
            PublishWindow(now: options.now, timeZone: config.timeZone)
            ?? PublishWindow(now: options.now, timeZone: "UTC")!

        var feeds: [Feed] = []
        var isScheduled = false
        if let plan = listing.plan {
            diagnostics += plan.diagnostics
            let markdown = MarkdownOptions(
                unsafe: config.markdownUnsafe, smart: config.markdownSmart, gfm: config.markdownGFM, summaryLength: config.summaryLength)
            let parsed = ParsedContent.parse(
                plan, root: root, markdown: markdown, timeZone: config.timeZone, language: config.language, store: store)
            diagnostics += parsed.diagnostics
            var assembler = FeedAssembler(
                config: config, options: options, window: window, plan: plan, parsed: parsed)
            feeds = assembler.assemble()
            isScheduled = assembler.isScheduled
            diagnostics += assembler.diagnostics
        } else {
            diagnostics.append(
                .error(SourceLocation(path: "content"), "the site has no 'content' folder (looked in \(root))"))
        }
        let staticFiles = listStaticFiles(root: root, diagnostics: &diagnostics)

        var result = Diagnostics()
        var unsorted = Diagnostics()
        unsorted.append(contentsOf: diagnostics)
        result.append(contentsOf: unsorted.sorted)
        guard !result.hasErrors else { return (nil, result) }
        var site = Site(root: root, config: config, feeds: feeds, staticFiles: staticFiles)
        site.isScheduled = isScheduled
        return (site, result)
    }

    /// `feedgen.yaml`, or the defaults when there is none.
    static func loadConfig(root: String, diagnostics: inout [Diagnostic]) -> SiteConfig {
        let path = "feedgen.yaml"
        let folderName = String(root.split(separator: "/").last ?? "site")
        if FileSystem.isDirectory(root + "/" + path) == true {
            // Read as no file, it would leave the site on the defaults without a word.
            diagnostics.append(.error(SourceLocation(path: path), "cannot read the file: not a regular file (a folder)"))
            return SiteConfig(title: folderName)
        }
        guard FileSystem.isFile(root + "/" + path) else {
            for other in ["feedgen.yml", "feedgen.json", "feedgen.toml"] where FileSystem.exists(root + "/" + other) {
                diagnostics.append(
                    .warning(
                        SourceLocation(path: other), "'\(other)' is not read; the configuration file is 'feedgen.yaml'")
                )
            }
            return SiteConfig(title: folderName)
        }
        var node: YAMLNode?
        switch FileSystem.readFile(root + "/" + path) {
        case .failure(let failure):
            diagnostics.append(.error(SourceLocation(path: path), "cannot read the file: \(failure.message)"))
        case .success(let bytes):
            switch SourceText.decode(bytes, path: path) {
            case .failure(let diagnostic):
                diagnostics.append(diagnostic)
            case .success(let source):
                let parsed = YAMLParser.parse(source.text, path: path)
                diagnostics += parsed.diagnostics
                if let root = parsed.node, !root.isNull {
                    if root.pairs != nil {
                        node = root
                    } else {
                        diagnostics.append(
                            .error(
                                SourceLocation(path: path, line: root.line, column: root.column),
                                "feedgen.yaml must be a mapping of 'key: value' lines, found \(root.kindDescription)"))
                    }
                }
            }
        }
        var reader = FieldReader(path: path)
        let config = SiteConfig.decode(node, defaultTitle: folderName, reader: &reader)
        diagnostics += reader.diagnostics
        return config
    }

    /// Every file below `static/` (links followed while they stay inside the site folder),
    /// relative to it, sorted byte-wise. A link leading outside the site is skipped with a warning;
    /// a folder that cannot be listed or a file that cannot be opened for reading is an error at
    /// its path ("cannot read this folder", "cannot read the file: Permission denied"), as in
    /// `content/`: it would otherwise be dropped, or fail the copy as if the output were at fault.
    static func listStaticFiles(root: String, diagnostics: inout [Diagnostic]) -> [String] {
        let base = root + "/static"
        guard FileSystem.isDirectory(base) == true else { return [] }
        let realRoot = FileSystem.realPath(root) ?? root
        var files: [String] = []
        var visited: Set<FileSystem.NodeID> = []
        func walk(_ relative: String) {
            let absolute = relative.isEmpty ? base : base + "/" + relative
            if let id = FileSystem.nodeID(absolute) {
                guard visited.insert(id).inserted else {
                    // As in content/: a folder reached again through a link is not copied twice.
                    diagnostics.append(
                        .warning(
                            SourceLocation(path: "static/" + relative),
                            "folder skipped: it was already read through another path (a symbolic link loop?)"))
                    return
                }
            }
            guard let entries = FileSystem.list(absolute) else {
                diagnostics.append(.error(SourceLocation(path: "static" + (relative.isEmpty ? "" : "/" + relative)), "cannot read this folder"))
                return
            }
            for entry in entries {
                let child = relative.isEmpty ? entry.name : relative + "/" + entry.name
                if entry.hasInvalidName {
                    diagnostics.append(ContentScanner.invalidNameError(shownAs: "static/" + child))
                    continue
                }
                if entry.isBrokenLink {
                    diagnostics.append(ContentScanner.brokenLinkWarning(base + "/" + child, shownAs: "static/" + child))
                    continue
                }
                if entry.isSpecial {
                    // Every file of `static/` is copied, so none is skipped without a word.
                    diagnostics.append(ContentScanner.specialFileError(shownAs: "static/" + child))
                    continue
                }
                if entry.isLink {
                    let target = FileSystem.realPath(base + "/" + child) ?? ""
                    guard target == realRoot || target.hasPrefix(realRoot + "/") else {
                        diagnostics.append(
                            .warning(
                                SourceLocation(path: "static/" + child),
                                "symbolic link skipped: it leads outside the site folder (to \(target)); copy the files into the site instead"))
                        continue
                    }
                }
                if entry.isDirectory {
                    walk(child)
                } else if let reason = FileSystem.unreadable(base + "/" + child) {
                    diagnostics.append(.error(SourceLocation(path: "static/" + child), "cannot read the file: \(reason)"))
                } else {
                    files.append(child)
                }
            }
        }
        walk("")
        files.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return files
    }
}
