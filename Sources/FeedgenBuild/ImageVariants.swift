import CFileSystem
import CVipsShim
import Dispatch
import FeedgenContent
import FeedgenDiagnostics
import FeedgenEmit
import FeedgenLayout
import FeedgenResolve
import FeedgenStorage
import Foundation

/// Stage 4 of a build, responsive image variants (issue #8, issue #19 §3): each local PNG, JPEG
/// or still WebP item image, and each body image wider than the page's body column
/// (``bodyPlans(_:sources:locations:)``), is resized with libvips to the widths it is drawn at, in
/// WebP and in its own format, and the results are kept in the build cache (``BuildCache``) for
/// the next build. The stage returns what it made (``ImageVariantTable``) to the render stage;
/// the resolved site is not changed. The only file that calls libvips (through the C shim
/// `CVipsShim`).
///
/// Widths: for every container-width range of the item's section (``ItemWidths``, from 320 px to
/// ``maximumContainerWidth``), and of the item page when the item has one, the CSS px width the
/// image is drawn at (``ImageSizes``) × device pixel ratios 1 and 2, rounded up to a step of
/// ``ladder``; never wider than the source (a step above it becomes the source width).
///
/// Passed through unchanged: SVG (a vector image is sharp at every width), GIF and animated WebP
/// (libvips would keep only the first frame), remote URLs.
///
/// Files: `images/<name>-<hash8>-<width>.<ext>` in the output, where `hash8` starts the SHA-256 of
/// the source bytes (content-addressed: a changed image gets new URLs). The cache keys each file
/// by the full SHA-256, width, format, encoder settings and libvips version, and writes each entry to a
/// temporary file renamed into place, so that a killed build never leaves a partial entry; after a
/// successful build, entries it did not use are removed.
/// Encoding strips all metadata, so that rebuilding gives the same bytes.
///
/// libvips is not linked: the shim loads it with dlopen. A site with images to resize loads it to read
/// its version for the cache names (so that an upgraded libvips re-encodes every variant instead of
/// serving an older one's), and starts it only when a variant is missing from the cache; a site
/// without such images never loads it.
public enum ImageVariants {
    /// The widths variants are rounded up to, px.
    public static let ladder = [160, 240, 320, 480, 640, 800, 960, 1280, 1600, 1920, 2560]
    /// The widest container width variants are made for, CSS px (wider viewports get the widest variant).
    public static let maximumContainerWidth = 1920.0
    /// Device pixel ratios variants are made for.
    public static let pixelRatios = [1.0, 2.0]
    public static let webpQuality = 80
    public static let jpegQuality = 82

    /// An output format of a variant.
    public enum Format: String, Sendable, CaseIterable {
        case webp, jpeg, png

        var mimeType: String { "image/" + rawValue }
        var fileExtension: String { self == .jpeg ? "jpg" : rawValue }
        var quality: Int { self == .webp ? webpQuality : self == .jpeg ? jpegQuality : 0 }
        /// The encoder settings, as part of the cache key: `q80-e2` (quality, WebP effort).
        var settings: String {
            switch self {
            case .webp: "q\(webpQuality)-e\(FEEDGEN_VIPS_WEBP_EFFORT)"
            case .jpeg: "q\(jpegQuality)"
            case .png: "lossless"
            }
        }
        var vips: feedgen_vips_format {
            switch self {
            case .webp: FEEDGEN_VIPS_WEBP
            case .jpeg: FEEDGEN_VIPS_JPEG
            case .png: FEEDGEN_VIPS_PNG
            }
        }
    }

    /// The variant formats of an image file, by its first bytes: PNG → PNG and WebP, JPEG → JPEG
    /// and WebP, still WebP → WebP; nil (passed through) for GIF, SVG, animated WebP and anything else.
    public static func formats(of bytes: [UInt8]) -> [Format]? {
        let n = bytes.count
        if n >= 8, bytes[0...7].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return [.png, .webp] }
        if n >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF { return [.jpeg, .webp] }
        if n >= 21, bytes[0...3].elementsEqual(Array("RIFF".utf8)), bytes[8...11].elementsEqual(Array("WEBP".utf8)) {
            // VP8X with the animation flag (WebP container spec: bit 1 of the flags byte).
            let animated = bytes[12...15].elementsEqual(Array("VP8X".utf8)) && bytes[20] & 0x02 != 0
            return animated ? nil : [.webp]
        }
        return nil
    }

    /// The variant widths for an image drawn over `ranges` (each list one place it appears: its
    /// card, its item page), whose source is `sourceWidth` px wide. Ascending, distinct.
    public static func widths(for ranges: [[WidthRange]], sourceWidth: Int) -> [Int] {
        var needed = Set<Int>()
        for place in ranges {
            for r in place {
                let lo = max(r.minWidth, ImageSizes.minimumWidth)
                let hi = min(r.maxWidth.map { $0 - 1 } ?? maximumContainerWidth, maximumContainerWidth)
                guard lo <= hi else { continue }
                let (a, b) = (r.width(at: lo), r.width(at: hi))
                for ratio in pixelRatios {
                    let (small, large) = (min(a, b) * ratio, max(a, b) * ratio)
                    guard large > 0 else { continue }
                    for step in ladder.indices {
                        let below = step == 0 ? 0 : Double(ladder[step - 1])
                        // A step is needed when some width in [small, large] rounds up to it.
                        if Double(ladder[step]) >= small, below < large { needed.insert(ladder[step]) }
                    }
                    if large > Double(ladder.last!) { needed.insert(ladder.last!) }
                }
            }
        }
        var result = Set(needed.filter { $0 < sourceWidth })
        if needed.contains(where: { $0 >= sourceWidth }) { result.insert(sourceWidth) }
        return result.sorted()
    }

    /// What ``make(_:cacheFolder:diagnostics:)`` did.
    public struct Stats: Sendable, Equatable {
        /// Variants encoded by libvips in this build.
        public var encoded = 0
        /// Variants found in the cache.
        public var reused = 0
        /// Source images given variants.
        public var images = 0
    }

    /// The variants and `sizes` of every local item image of `site` and, with `bodies`, of its
    /// body images, making missing variants in `<cacheFolder>/images/`. An image libvips cannot
    /// decode (truncated, corrupt, unsupported) is an error at its front matter `image:` line (at
    /// each `![…](…)` naming it, for a body image) and gets no variants.
    ///
    /// With `validateOnly` (`feedgen check`, which writes nothing) the cache is only read: an
    /// image with a variant already in the cache is known to decode, and every other one is
    /// resized once (its smallest variant, through the same libvips call as a build) into a
    /// temporary folder that is removed afterwards, so that `check` reports exactly the errors
    /// `build` would, and the table it returns is empty.
    public static func make(
        _ site: PreparedSite, cacheFolder: String, validateOnly: Bool = false, bodies: Bool = true,
        progress: (any BuildProgressReporting)? = nil, diagnostics: inout Diagnostics
    ) -> (images: ImageVariantTable, stats: Stats) {
        var stats = Stats()
        var table = ImageVariantTable()
        // 1. Where each image is drawn, and the sources' bytes.
        var sources: [String: Source?] = [:]
        var plans: [(key: String, source: String, widths: [Int], card: String, covers: Bool, detail: String?)] = []
        var locations: [String: [SourceLocation]] = [:]
        // A site without item images makes no image keys (a string per item) to look up.
        for feed in site.feeds where !site.images.isEmpty {
            let env = site.layoutEnvironment(feed, width: 0, viewportHeight: 844)
            let detail = ImageSizes.column(env)
            for section in feed.sections {
                let keyed = section.section.items.map { (PreparedSite.imageKey(feed: feed, item: $0), $0) }
                guard keyed.contains(where: { site.images[$0.0].map { !$0.source.isEmpty } ?? false }) else { continue }
                let cards = ImageSizes.card(section, environment: env)
                for (key, item) in keyed {
                    guard let asset = site.images[key], !asset.source.isEmpty, let box = cards[item.id] else { continue }
                    var card = box
                    if let w = asset.width, let h = asset.height, h > 0 {
                        card = ImageSizes.drawn(box, item: item.id, aspect: Double(w) / Double(h), section: section, environment: env)
                    }
                    if sources.index(forKey: asset.source) == nil {
                        sources.updateValue(readSource(asset.source), forKey: asset.source)
                    }
                    guard let source = sources[asset.source]!, source.width > 0 else { continue }
                    if let location = item.image?.location { locations[asset.source, default: []].append(location) }
                    let places = item.hasBody ? [card, detail] : [card]
                    let widths = Self.widths(for: places, sourceWidth: source.width)
                    sources[asset.source]??.widths.formUnion(widths)
                    plans.append((
                        key, asset.source, widths, ImageSizes.sizes(card), card != box,
                        item.hasBody ? ImageSizes.sizes(detail) : nil))
                }
            }
        }
        let bodyPlans = bodies ? Self.bodyPlans(site, sources: &sources, locations: &locations) : []
        guard !plans.isEmpty || !bodyPlans.isEmpty else { return (table, stats) }

        // 2. The variants, from the cache or libvips. The cache names hold libvips' version, so
        // libvips is loaded (not started) to read it; sites without images never load it.
        var loadError = [CChar](repeating: 0, count: 512)
        guard feedgen_vips_load(&loadError, loadError.count) == 0, let versionText = feedgen_vips_version() else {
            diagnostics.error(SourceLocation(path: "feedgen"), "libvips could not start: \(text(loadError))")
            return (table, stats)
        }
        let version = String(cString: versionText)
        let cacheImages = cacheFolder + "/images"
        // A cached variant is a regular file (a FIFO, folder or link of its name is made again).
        let cached = { @Sendable (path: String) -> Bool in
            var info = stat()
            return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && access(path, R_OK) == 0
        }
        struct Job { var source: String; var width: Int; var format: Format; var cachePath: String }
        var jobs: [Job] = []
        for (path, source) in sources.sorted(by: { $0.key < $1.key }) {
            guard let source else { continue }
            var sourceJobs: [Job] = []
            for width in source.widths.sorted() {
                for format in source.formats {
                    let name = "\(source.hash)-\(width)-\(format.settings)-vips\(version).\(format.fileExtension)"
                    sourceJobs.append(Job(source: path, width: width, format: format, cachePath: cacheImages + "/" + name))
                }
            }
            if validateOnly {
                // Decoded before when any variant is cached; else resized once (into the
                // temporary folder below), not cached.
                guard !sourceJobs.contains(where: { cached($0.cachePath) }), let first = sourceJobs.first else { continue }
                sourceJobs = [first]
            }
            jobs += sourceJobs
        }
        // Where new variants go: the cache, or for `validateOnly` a temporary folder, made only
        // when an image is to be decoded (a check of a built site needs none).
        let folder: String
        if validateOnly {
            guard !jobs.isEmpty else { return (table, stats) }
            let temporary = URL(fileURLWithPath: NSTemporaryDirectory()).standardizedFileURL.path
            var template = Array((temporary + (temporary.hasSuffix("/") ? "" : "/") + "feedgen-check-XXXXXX").utf8CString)
            guard let made = mkdtemp(&template) else {
                diagnostics.error(
                    SourceLocation(path: temporary),
                    "cannot create a temporary folder to check images in (set TMPDIR to a writable folder): \(String(cString: strerror(errno)))")
                return (table, stats)
            }
            folder = String(cString: made)
            for i in jobs.indices { jobs[i].cachePath = folder + "/" + URL(fileURLWithPath: jobs[i].cachePath).lastPathComponent }
        } else {
            folder = cacheImages
            do {
                try FileManager.default.createDirectory(atPath: cacheFolder, withIntermediateDirectories: true)
                // Anything else named `images` (a file, a link) is replaced by a folder.
                guard feedgen_ensure_folder(folder) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            } catch {
                diagnostics.error(SourceLocation(path: cacheFolder), "cannot create the build cache folder: \(error.localizedDescription)")
                return (table, stats)
            }
        }
        defer { if validateOnly { _ = feedgen_remove_any(folder) } }
        // libvips starts only when something is not cached (starting it loads its modules).
        if jobs.contains(where: { !cached($0.cachePath) }) {
            var error = [CChar](repeating: 0, count: 512)
            guard feedgen_vips_init(&error, error.count) == 0 else {
                diagnostics.error(SourceLocation(path: "feedgen"), "libvips could not start: \(text(error))")
                return (table, stats)
            }
        }
        progress?.begin(validateOnly ? "checking images" : "resizing images", total: jobs.count)
        let outcomes = ResultSlotsBox(count: jobs.count)
        let jobList = jobs
        let pid = ProcessInfo.processInfo.processIdentifier
        DispatchQueue.concurrentPerform(iterations: jobs.count) { i in
            let job = jobList[i]
            defer { progress?.advance() }
            if cached(job.cachePath) {
                outcomes.set(i, .reused)
                return
            }
            let temp = "\(folder)/.tmp-\(pid)-\(i)-\(job.width).\(job.format.fileExtension)"
            var message = [CChar](repeating: 0, count: 4096)
            if feedgen_vips_resize_save(job.source, temp, Int32(job.width), job.format.vips, Int32(job.format.quality), 0, &message, message.count) != 0 {
                unlink(temp)
                outcomes.set(i, .failed(text(message)))
            } else if !CacheFile.rename(temp, over: job.cachePath) {
                let reason = String(cString: strerror(errno))
                unlink(temp)
                outcomes.set(i, .failed("cannot store it in the build cache: \(reason)"))
            } else {
                outcomes.set(i, .encoded)
            }
        }
        // libvips' lines, without those naming the cache's temporary file.
        func describe(_ message: String) -> String {
            var lines: [String] = []
            for line in message.split(separator: "\n").map(String.init) where !line.contains(folder) && !lines.contains(line) {
                lines.append(line)
            }
            return lines.isEmpty ? "cannot decode it" : lines.joined(separator: "; ")
        }
        var failed: [String: String] = [:]
        for (i, outcome) in outcomes.values.enumerated() {
            switch outcome {
            case .reused: stats.reused += 1
            case .encoded: stats.encoded += 1
            case .failed(let message): if failed[jobs[i].source] == nil { failed[jobs[i].source] = describe(message) }
            }
        }
        // libvips keeps one error buffer for all threads, and drops every thread's messages while
        // one thread tries its file loaders: a job that failed beside others may have found its
        // message taken, or theirs added to it, or lost. Each failed image is tried once more,
        // alone in the process, for a message that is its own and the same on every build.
        for path in failed.keys.sorted() {
            guard let job = jobs.first(where: { $0.source == path }) else { continue }
            let temp = "\(folder)/.tmp-\(pid)-again.\(job.format.fileExtension)"
            var message = [CChar](repeating: 0, count: 4096)
            if feedgen_vips_resize_save(job.source, temp, Int32(job.width), job.format.vips, Int32(job.format.quality), 1, &message, message.count) != 0 {
                failed[path] = describe(text(message))
            }
            unlink(temp)
        }
        for (path, message) in failed.sorted(by: { $0.key < $1.key }) {
            for location in Set(locations[path] ?? []).sorted() {
                diagnostics.error(location, "'\(URL(fileURLWithPath: path).lastPathComponent)' is not an image feedgen can resize (\(message)); replace the file with a valid PNG, JPEG or WebP image")
            }
        }

        if validateOnly { return (table, stats) }
        if failed.isEmpty { prune(folder, keeping: Set(jobs.map { URL(fileURLWithPath: $0.cachePath).lastPathComponent })) }

        // 3. The table: each place's variants and sizes.
        var cachePaths: [String: String] = [:]
        for job in jobs { cachePaths["\(job.source)\u{0}\(job.width)\u{0}\(job.format.rawValue)"] = job.cachePath }
        func variants(_ path: String, _ source: Source, widths: [Int]) -> [ImageVariant] {
            var list: [ImageVariant] = []
            for format in source.formats.sorted(by: { $0.rawValue < $1.rawValue }) {
                for width in widths {
                    guard let cached = cachePaths["\(path)\u{0}\(width)\u{0}\(format.rawValue)"] else { continue }
                    list.append(ImageVariant(
                        width: width, mimeType: format.mimeType,
                        outputPath: "images/\(source.name)-\(source.hash.prefix(8))-\(width).\(format.fileExtension)",
                        source: cached))
                }
            }
            return list
        }
        var made = Set<String>()
        // A file shown under several keys (an item on a section's own page or a tag page, too)
        // lists every width made of it under each: the cards of one file carry the same srcset.
        var keys: [String: Set<String>] = [:]
        for plan in plans { keys[plan.source, default: []].insert(plan.key) }
        for plan in plans where failed[plan.source] == nil {
            guard let source = sources[plan.source] ?? nil else { continue }
            made.insert(plan.source)
            table.cards[plan.key] = ResponsiveImage(
                variants: variants(plan.source, source, widths: keys[plan.source]!.count > 1 ? source.widths.sorted() : plan.widths),
                cardSizes: plan.card, cardCovers: plan.covers, detailSizes: plan.detail)
        }
        for plan in bodyPlans where failed[plan.source] == nil {
            guard let source = sources[plan.source] ?? nil else { continue }
            made.insert(plan.source)
            table.bodies[plan.path] = ResponsiveImage(variants: variants(plan.source, source, widths: plan.widths), detailSizes: plan.sizes)
        }
        stats.images = made.count
        return (table, stats)
    }

    /// A NUL-terminated C buffer as a String.
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    enum Outcome: Sendable { case reused, encoded, failed(String) }

    /// Per-job outcomes written from `concurrentPerform` workers.
    final class ResultSlotsBox: @unchecked Sendable {
        private var storage: [Outcome]
        private let lock = NSLock()
        init(count: Int) { storage = Array(repeating: .failed("not run"), count: count) }
        func set(_ i: Int, _ value: Outcome) { lock.withLock { storage[i] = value } }
        var values: [Outcome] { lock.withLock { storage } }
    }
}
