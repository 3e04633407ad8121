/// Which body images get variants (issue #19 §3, docs/content-format.md §8.2): the raster images
/// of item bodies and `_feed.md` intros that are wider than the column that draws them.
import FeedgenContent
import FeedgenDiagnostics
import FeedgenEmit
import FeedgenResolve

extension ImageVariants {
    /// A body image to resize: its output path, source file, variant widths and `sizes`.
    struct BodyPlan {
        var path: String
        var source: String
        var widths: [Int]
        var sizes: String
    }

    /// The images (`![alt](path)`, beside the item or in `static/`) in the bodies of items that
    /// have a page and in `_feed.md` intros, each once by output path, that are wider than the
    /// page's body column at its widest (the theme's readable width, CSS px: the item page's
    /// `.detail` column and the feed page's `.page-header`, ``ImageSizes/column(_:)``), with the
    /// widths that column draws them at (1× and 2×; ``widths(for:sourceWidth:)``). Narrower
    /// images, SVG, GIF and animated WebP (``formats(of:)``) get none, nor do images in
    /// `_section.md` texts (drawn at the section header's width) or in cards' bodies (only a
    /// card template of the site's own shows one). Reads each planned source into `sources`
    /// and adds each link naming it to `locations` (where a decoding error is reported).
    static func bodyPlans(
        _ site: PreparedSite, sources: inout [String: Source?], locations: inout [String: [SourceLocation]]
    ) -> [BodyPlan] {
        var plans: [BodyPlan] = []
        var planned: [String: Int] = [:]  // output path → index in plans
        var staticFiles: Set<String>?
        for feed in site.feeds {
            // Only paths ending in a raster image's extension are looked up (a site's other body
            // paths are pages and files: tens of thousands on a large documentation site).
            var links = feed.feed.introLinks.filter { isRasterPath($0.target) }
            for s in feed.sections {
                for item in s.pageItems where item.hasBody {
                    // Through a buffer pointer: a link (and its target) is copied only when it is kept.
                    item.markdownLinks.withUnsafeBufferPointer { found in
                        for i in found.indices where isRasterPath(found[i].target) { links.append(found[i]) }
                    }
                }
            }
            guard !links.isEmpty else { continue }
            let env = site.layoutEnvironment(feed, width: 0, viewportHeight: 844)
            let column = ImageSizes.column(env)
            for link in links where link.isPath {
                // The output path and size stage 3 gave the image (BodyPaths); none for a path
                // that names nothing or a file that is no image.
                guard let value = site.contentPages[link.target] else { continue }
                let (path, size, verbatim) = BodyPaths.parse(value)
                guard !verbatim, let size, let x = size.firstIndex(of: "x"), let width = Int(size[..<x]),
                    Double(width) > env.readableWidth
                else { continue }
                let output = String(path)
                if let i = planned[output] {
                    locations[plans[i].source, default: []].append(link.location)
                    continue
                }
                let source: String
                if let file = site.bodyFiles[output] {
                    source = file
                } else {
                    if staticFiles == nil { staticFiles = Set(site.site.staticFiles) }
                    guard staticFiles!.contains(output) else { continue }
                    source = site.site.root + "/static/" + output
                }
                if sources.index(forKey: source) == nil { sources.updateValue(readSource(source), forKey: source) }
                guard let read = sources[source] ?? nil, read.width > 0 else { continue }
                let widths = Self.widths(for: [column], sourceWidth: read.width)
                sources[source]??.widths.formUnion(widths)
                locations[source, default: []].append(link.location)
                planned[output] = plans.count
                plans.append(BodyPlan(path: output, source: source, widths: widths, sizes: ImageSizes.sizes(column)))
            }
        }
        return plans
    }

    /// Whether `target` ends in `.png`, `.jpg`, `.jpeg` or `.webp` (any case): the files that
    /// may get variants (``formats(of:)`` decides by their bytes).
    static func isRasterPath(_ target: String) -> Bool {
        // The last byte first: nearly every other body path ends in `/`, `d` (`.md`) or `l`.
        // (By index: the view's `last` is not inlined.)
        let utf8 = target.utf8
        guard utf8.endIndex != utf8.startIndex else { return false }
        let last = utf8[utf8.index(before: utf8.endIndex)] | 0x20
        guard last == UInt8(ascii: "g") || last == UInt8(ascii: "p") else { return false }
        // Read from the contiguous bytes: through the UTF-8 view's `suffix`, the four tests of
        // every body link of a large site took a percent of an incremental build.
        var target = target
        return target.withUTF8 { bytes in
            // `| 0x20` lower-cases ASCII letters and keeps `.`.
            func ends(_ suffix: StaticString) -> Bool {
                let n = suffix.utf8CodeUnitCount
                guard bytes.count >= n else { return false }
                let tail = bytes.count - n
                for i in 0..<n where bytes[tail + i] | 0x20 != suffix.utf8Start[i] { return false }
                return true
            }
            return ends(".png") || ends(".jpg") || ends(".jpeg") || ends(".webp")
        }
    }
}
