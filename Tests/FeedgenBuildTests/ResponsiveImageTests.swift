@testable import FeedgenResolve
import Foundation
import Testing

@testable import FeedgenBuild
import FeedgenIncremental
@testable import FeedgenEmit
@testable import FeedgenLayout

/// A real, decodable PNG (RGB gradient, stored deflate blocks) for tests that run libvips.
enum TestPNG {
    static func make(width: Int, height: Int) -> [UInt8] {
        var raw: [UInt8] = []
        raw.reserveCapacity(height * (1 + 3 * width))
        for y in 0..<height {
            raw.append(0)
            for x in 0..<width {
                raw += [UInt8(x * 255 / max(width - 1, 1)), UInt8(y * 255 / max(height - 1, 1)), UInt8((x + y) & 255)]
            }
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var i = 0
        repeat {
            let n = min(65535, raw.count - i)
            zlib.append(i + n == raw.count ? 1 : 0)
            zlib += [UInt8(n & 255), UInt8(n >> 8), UInt8(~n & 255), UInt8((~n >> 8) & 255)]
            zlib += raw[i..<(i + n)]
            i += n
        } while i < raw.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        zlib += be32(Int(b << 16 | a))
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", be32(width) + be32(height) + [8, 2, 0, 0, 0])
        png += chunk("IDAT", zlib)
        png += chunk("IEND", [])
        return png
    }

    static func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in body {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return be32(data.count) + body + be32(Int(~crc))
    }
}

/// Responsive images (issue #8): widths from the layout model, `sizes`, the `<picture>` HTML,
/// the build cache, deterministic bytes, bad images.
@Suite struct ResponsiveImageTests {
    func section(_ preset: LayoutPreset, items: Int = 1) -> SectionInput {
        SectionInput(id: "s", layout: preset.expansion, itemIDs: (0..<items).map { "i\($0)" })
    }

    func ranges(_ preset: LayoutPreset) -> [WidthRange] {
        ItemWidths.ranges(section(preset), environment: LayoutEnvironment(containerWidth: 0))["i0"]!
    }

    @Test func listGridCarouselHeroWidthsFromTheModel() {
        // The one-column presets sit in the readable guide: W − 32 up to 704 px, then 672 px.
        #expect(ranges(.list) == [
            WidthRange(minWidth: 320, maxWidth: 704, slope: 1, offset: -32),
            WidthRange(minWidth: 704, maxWidth: nil, slope: 0, offset: 672),
        ])
        #expect(ImageSizes.sizes(ranges(.list)) == "(min-width: 704px) 672px, calc(100vw - 32px)")
        #expect(ImageSizes.sizes(ranges(.carousel)) == "160px")
        #expect(ImageSizes.sizes(ranges(.hero)) == "(min-width: 791px) 672px, 85vw")
        #expect(ImageSizes.sizes(ranges(.insetGrouped)) == "(min-width: 704px) 672px, calc(100vw - 32px)")
        // The adaptive grid: 2 columns, 3 from 700 px, 4 from 1000 px (16 px layout margins, spacing 12).
        let grid = ranges(.grid)
        #expect(grid.map(\.minWidth) == [320, 700, 1000])
        #expect(grid.map(\.maxWidth) == [700, 1000, nil])
        #expect(grid[0].width(at: 390) == 173)
        #expect(abs(grid[1].width(at: 768) - 237.3333) < 0.001)
        #expect(grid[2].width(at: 1280) == 303)
        #expect(ImageSizes.sizes(grid) == "(min-width: 1000px) calc((100vw - 68px) / 4), (min-width: 700px) calc((100vw - 56px) / 3), calc((100vw - 44px) / 2)")
        // The solver agrees at every width of the ranges.
        for w in stride(from: 320.0, through: 1600, by: 37) {
            let solved = CompositionalLayout.solve([section(.grid)], environment: LayoutEnvironment(containerWidth: w))
            let r = grid.last { $0.minWidth <= w }!
            #expect(abs(solved.item("i0")!.frame.width - r.width(at: w)) < 0.001, "W = \(w)")
        }
    }

    @Test func aReadableContentKinkIsFoundBetweenBreakpoints() {
        var layout = LayoutPreset.list.expansion
        layout.base.contentInsetsReference = .readableContent
        layout.base.contentInsets = .zero
        let input = SectionInput(id: "s", layout: layout, itemIDs: ["a"])
        let r = ItemWidths.ranges(input, environment: LayoutEnvironment(containerWidth: 0))["a"]!
        #expect(r == [
            WidthRange(minWidth: 320, maxWidth: 704, slope: 1, offset: -32),
            WidthRange(minWidth: 704, maxWidth: nil, slope: 0, offset: 672),
        ])
        #expect(ImageSizes.sizes(r) == "(min-width: 704px) 672px, calc(100vw - 32px)")
        #expect(ImageSizes.sizes(ImageSizes.detail(readableWidth: 672)) == "(min-width: 704px) 672px, calc(100vw - 32px)")
    }

    @Test func variantWidthsCoverOneAndTwoTimesAndNeverUpscale() {
        // Grid: 148…470 CSS px across the ranges, so 1× and 2× need 160…960.
        #expect(ImageVariants.widths(for: [ranges(.grid)], sourceWidth: 4000) == [160, 240, 320, 480, 640, 800, 960])
        #expect(ImageVariants.widths(for: [ranges(.grid)], sourceWidth: 500) == [160, 240, 320, 480, 500])
        // Carousel: 160 CSS px at 1× and 2×.
        #expect(ImageVariants.widths(for: [ranges(.carousel)], sourceWidth: 4000) == [160, 320])
        // List: 288…672 CSS px (the readable column), so 1× and 2× need 320…1600.
        #expect(ImageVariants.widths(for: [ranges(.list)], sourceWidth: 4000) == [320, 480, 640, 800, 960, 1280, 1600])
        #expect(ImageVariants.widths(for: [ranges(.list)], sourceWidth: 480) == [320, 480])
        // A card and the item page together.
        #expect(ImageVariants.widths(for: [ranges(.carousel), ImageSizes.detail(readableWidth: 672)], sourceWidth: 4000)
            == [160, 320, 480, 640, 800, 960, 1280, 1600])
    }

    @Test func passThroughFormats() {
        #expect(ImageVariants.formats(of: TestPNG.make(width: 2, height: 2)) == [.png, .webp])
        #expect(ImageVariants.formats(of: [0xFF, 0xD8, 0xFF, 0xE0]) == [.jpeg, .webp])
        #expect(ImageVariants.formats(of: Array("GIF89a".utf8)) == nil)
        #expect(ImageVariants.formats(of: Array("<svg viewBox='0 0 1 1'/>".utf8)) == nil)
        var webp = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8X".utf8) + [10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        #expect(ImageVariants.formats(of: webp) == [.webp])
        webp[20] = 0x02  // animation flag
        #expect(ImageVariants.formats(of: webp) == nil)
    }

    /// A site with one 1200 × 600 PNG in a grid card.
    func gridSite() throws -> (root: String, hash8: String) {
        let root = temporaryFolder()
        writeSite(root, [
            "content/gallery/_section.md": "---\ntitle: Gallery\nlayout: grid\n---\n",
            "content/gallery/dusk.md": "---\ntitle: Dusk\nimage:\n  src: dusk sky.png\n  alt: A gradient from green to red\n---\n",
        ])
        try Data(TestPNG.make(width: 1200, height: 600)).write(to: URL(fileURLWithPath: root + "/content/gallery/dusk sky.png"))
        let hash = try #require(ImageVariants.readSource(root + "/content/gallery/dusk sky.png")).hash
        return (root, String(hash.prefix(8)))
    }

    @Test func gridCardHTMLIsAPictureWithWebPAndPNGVariants() throws {
        let (root, h) = try gridSite()
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        let html = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        let widths = [160, 240, 320, 480, 640, 800, 960]
        let webp = widths.map { "images/dusk-sky-\(h)-\($0).webp \($0)w" }.joined(separator: ", ")
        let png = widths.map { "images/dusk-sky-\(h)-\($0).png \($0)w" }.joined(separator: ", ")
        let sizes = "(min-width: 1000px) calc((100vw - 68px) / 4), (min-width: 700px) calc((100vw - 56px) / 3), calc((100vw - 44px) / 2)"
        #expect(html.contains(
            #"  <picture><source type="image/webp" srcset="\#(webp)" sizes="\#(sizes)"><img class="card-image" src="assets/gallery/dusk%20sky.png" srcset="\#(png)" sizes="\#(sizes)" width="1200" height="600" alt="A gradient from green to red" style="max-inline-size: 1200px; --cl-image-height: 600px" loading="eager" fetchpriority="high" decoding="async"></picture>"#
                + "\n"), "\(html)")
        for w in widths {
            for ext in ["webp", "png"] {
                #expect(FileManager.default.fileExists(atPath: out + "/images/dusk-sky-\(h)-\(w).\(ext)"))
            }
        }
        // The variants are what they say: 480 px wide PNG, 240 px high.
        let png480 = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out + "/images/dusk-sky-\(h)-480.png")))
        #expect(ImageProbe.size(of: png480)! == (480, 240))
        let webp960 = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out + "/images/dusk-sky-\(h)-960.webp")))
        #expect(ImageProbe.size(of: webp960)! == (960, 480))
        // No metadata chunks: VP8X flags clear, no EXIF chunk.
        #expect(!String(decoding: webp960, as: UTF8.self).contains("EXIF"))
        #expect(report.images == ImageVariants.Stats(encoded: 14, reused: 0, images: 1))
    }

    @Test func lazyImagesStartTheirSizesWithAuto() throws {
        let (root, _) = try gridSite()
        for i in 1...4 {
            writeSite(root, ["content/gallery/more\(i).md": "---\ntitle: More \(i)\nweight: \(i)\nimage:\n  src: more\(i).png\n  alt: \"\"\n---\n"])
            try Data(TestPNG.make(width: 200, height: 100)).write(to: URL(fileURLWithPath: root + "/content/gallery/more\(i).png"))
        }
        let out = temporaryFolder() + "/public"
        #expect(build(root, output: out).exitStatus == 0)
        let html = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(html.components(separatedBy: #"sizes="auto, (min-width: 1000px)"#).count - 1 == 2, "the fifth image: <source> and <img>")
        #expect(html.components(separatedBy: #"loading="lazy""#).count - 1 == 1)
    }

    @Test func aWarmCacheSkipsLibvipsAndGivesTheSameBytes() throws {
        let (root, _) = try gridSite()
        let parent = temporaryFolder()
        let out = parent + "/public"
        let first = build(root, output: out)
        #expect(first.images == ImageVariants.Stats(encoded: 14, reused: 0, images: 1))
        let cache = BuildCache.folder(forOutput: out)
        #expect(cache == parent + "/.public.feedgen-cache")
        let entries = try FileManager.default.contentsOfDirectory(atPath: cache + "/images").sorted()
        #expect(entries.count == 14)
        #expect(entries.allSatisfy { !$0.hasPrefix(".tmp") })
        let before = snapshot(out)
        let second = build(root, output: out)
        #expect(second.images == ImageVariants.Stats(encoded: 0, reused: 14, images: 1))
        #expect(snapshot(out) == before)
        // The output's clean-up keeps the cache, and nothing of it is in the output.
        #expect(FileManager.default.fileExists(atPath: cache + "/images/" + entries[0]))
        #expect(!snapshot(out).keys.contains { $0.contains("feedgen-cache") })
        // A changed image: new variants, and the old ones leave the cache (as do stale temporary files).
        try Data("x".utf8).write(to: URL(fileURLWithPath: cache + "/images/.tmp-999999-0-320.png"))
        try Data(TestPNG.make(width: 300, height: 150)).write(to: URL(fileURLWithPath: root + "/content/gallery/dusk sky.png"))
        let third = build(root, output: out)
        #expect(third.images == ImageVariants.Stats(encoded: 6, reused: 0, images: 1))
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache + "/images").count == 6)
        try Data(TestPNG.make(width: 1200, height: 600)).write(to: URL(fileURLWithPath: root + "/content/gallery/dusk sky.png"))
        #expect(build(root, output: out).images.encoded == 14)
        // A cold cache elsewhere gives the same bytes.
        let other = temporaryFolder() + "/site"
        #expect(build(root, output: other).images.encoded == 14)
        #expect(snapshot(other) == before)
    }

    @Test func aTruncatedImageIsAnErrorAtItsLineAndTheOutputIsKept() throws {
        let (root, _) = try gridSite()
        let out = temporaryFolder() + "/public"
        #expect(build(root, output: out).exitStatus == 0)
        let before = snapshot(out)
        let full = TestPNG.make(width: 1200, height: 600)
        try Data(full.prefix(full.count / 2)).write(to: URL(fileURLWithPath: root + "/content/gallery/dusk sky.png"))
        let report = build(root, output: out)
        #expect(report.exitStatus == 1)
        let messages = report.diagnostics.sorted.map(\.description)
        #expect(messages.count == 1)
        #expect(messages.first?.hasPrefix("content/gallery/dusk.md:4:3: error: 'dusk sky.png' is not an image feedgen can resize (") == true, "\(messages)")
        #expect(messages.first?.hasSuffix("); replace the file with a valid PNG, JPEG or WebP image") == true)
        // libvips' own reason, the same on every build (its error buffer is shared by the
        // threads that resize the image's 14 variants: each failed image is tried again alone).
        #expect(messages.first?.contains("(cannot decode it)") == false, "\(messages)")
        for _ in 0..<3 { #expect(build(root, output: out).diagnostics.sorted.map(\.description) == messages) }
        #expect(snapshot(out) == before)
        // Nothing of the failed encodes stays in the cache.
        let entries = try FileManager.default.contentsOfDirectory(atPath: BuildCache.folder(forOutput: out) + "/images")
        #expect(entries.count == 14)
    }

    /// The message of a bad image does not depend on what else the process does: with other
    /// builds resizing images beside it (libvips' error buffer and error freeze are global), it
    /// is the one a build alone gives. (Found in CI, where parallel tests lost libvips' line.)
    @Test func aBadImagesMessageIsTheSameWhileOtherBuildsResizeImages() throws {
        let (root, _) = try gridSite()
        let full = TestPNG.make(width: 1200, height: 600)
        try Data(full.prefix(full.count / 2)).write(to: URL(fileURLWithPath: root + "/content/gallery/dusk sky.png"))
        let alone = build(root, output: temporaryFolder() + "/public").diagnostics.sorted.map(\.description)
        #expect(alone.count == 1)
        #expect(alone.first?.contains("(cannot decode it)") == false, "\(alone)")
        let others = try (0..<3).map { _ in try gridSite().root }
        for _ in 0..<6 {
            let messages = ImageVariants.ResultSlotsBox(count: 4)
            DispatchQueue.concurrentPerform(iterations: 4) { i in
                let report = build(i == 0 ? root : others[i - 1], output: temporaryFolder() + "/public")
                messages.set(i, .failed(report.diagnostics.sorted.map(\.description).filter { $0.contains(": error: ") }.joined(separator: "\n")))
            }
            #expect(messages.values.map { if case .failed(let text) = $0 { text } else { "" } } == [alone.joined(separator: "\n"), "", "", ""])
        }
    }

    @Test func checkMakesNoVariants() throws {
        let (root, _) = try gridSite()
        let out = temporaryFolder() + "/public"
        var options = BuildOptions(siteRoot: root, output: out, now: fixedNow)
        options.write = false
        let report = SiteBuilder.build(options)
        #expect(report.exitStatus == 0)
        #expect(report.images == ImageVariants.Stats())
        #expect(!FileManager.default.fileExists(atPath: BuildCache.folder(forOutput: out)))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// `check` of a built site decodes nothing, so it needs no temporary folder: with TMPDIR
    /// unusable it passes as the build did. (Found in review: it made the folder first, and
    /// failed with exit 1 where the build succeeded.) An image it must decode names TMPDIR.
    @Test func checkOfABuiltSiteNeedsNoTemporaryFolder() throws {
        let root = temporaryFolder()
        try CacheRobustnessTests.makeSite(root, image: true)
        #expect(try CacheRobustnessTests.run(["build", root, "--quiet"]).status == 0)
        let unusable = ["TMPDIR": root + "/no-such-folder"]
        let checked = try CacheRobustnessTests.run(["check", root, "--quiet"], environment: unusable)
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(checked.stderr == "")
        let fresh = temporaryFolder()
        try CacheRobustnessTests.makeSite(fresh, image: true)
        let failed = try CacheRobustnessTests.run(["check", fresh, "--quiet"], environment: unusable)
        #expect(failed.status == 1)
        #expect(
            failed.stderr
                == "\(root)/no-such-folder: error: cannot create a temporary folder to check images in (set TMPDIR to a writable folder): No such file or directory\n")
    }

    /// `check` reports the images a build could not resize, with the build's message, and
    /// writes nothing (not even into the build cache); an image the cache already holds
    /// variants of is not decoded again.
    @Test func checkReportsAnImageTheBuildCannotResize() throws {
        let (root, _) = try gridSite()
        let out = temporaryFolder() + "/public"
        var options = BuildOptions(siteRoot: root, output: out, now: fixedNow)
        options.write = false
        let image = root + "/content/gallery/dusk sky.png"
        let full = TestPNG.make(width: 1200, height: 600)
        try Data(full.prefix(full.count / 2)).write(to: URL(fileURLWithPath: image))
        let checked = SiteBuilder.build(options)
        #expect(checked.exitStatus == 1)
        let built = build(root, output: out)
        #expect(built.exitStatus == 1)
        #expect(checked.diagnostics.sorted.map(\.description) == built.diagnostics.sorted.map(\.description))
        #expect(checked.diagnostics.sorted.first?.description.hasPrefix("content/gallery/dusk.md:4:3: error: 'dusk sky.png' is not an image feedgen can resize (") == true)
        // Mended and built: check finds the cached variants and leaves the cache as it was.
        try Data(full).write(to: URL(fileURLWithPath: image))
        #expect(build(root, output: out).exitStatus == 0)
        let cache = BuildCache.folder(forOutput: out) + "/images"
        let variants = try FileManager.default.contentsOfDirectory(atPath: cache).sorted()
        let again = SiteBuilder.build(options)
        #expect(again.exitStatus == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache).sorted() == variants)
    }
}
