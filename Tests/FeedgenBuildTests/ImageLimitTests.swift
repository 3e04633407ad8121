// Issue #22: numbers read from image headers and feedgen.yaml are range-checked before they
// become Ints, and the image limits (pixels, file size) are errors before any decoding.
@testable import FeedgenResolve
import Foundation
import Testing

@testable import FeedgenBuild

@Suite struct ImageLimitTests {
    static let item = "---\ntitle: A\nimage: {src: a.IMG, alt: A}\n---\nText.\n"

    /// A site whose one item shows `content/food/a.<ext>` holding `bytes`.
    static func site(_ bytes: [UInt8], ext: String, config: String? = nil) throws -> String {
        let root = temporaryFolder()
        var files = ["content/food/a.md": item.replacingOccurrences(of: "IMG", with: ext)]
        if let config { files["feedgen.yaml"] = config }
        writeSite(root, files)
        try Data(bytes).write(to: URL(fileURLWithPath: root + "/content/food/a." + ext))
        return root
    }

    /// A PNG whose IHDR says `width` × `height`, then the start of a real IDAT (rows of zeros,
    /// deflated) that a decoder would read on and on.
    static func bigPNG(width: Int, height: Int) -> [UInt8] {
        let stored: [UInt8] = [0x78, 0x01, 0, 0xFF, 0xFF, 0, 0] + [UInt8](repeating: 0, count: 65535)
        return Array(ImageTests.png.prefix(16)) + ImageTests.be32(width) + ImageTests.be32(height) + [8, 2, 0, 0, 0]
            + [0, 0, 0, 0] + ImageTests.be32(stored.count) + Array("IDAT".utf8) + stored + [0, 0, 0, 0]
    }

    /// The build's and `check`'s diagnostics.
    static func errors(_ root: String) throws -> (build: [String], check: String, status: Int32) {
        let report = build(root, output: temporaryFolder() + "/public")
        // Refused from the header: nothing was decoded or encoded.
        #expect(report.images == ImageVariants.Stats())
        #expect(report.exitStatus == 1)
        let checked = try CacheRobustnessTests.run(["check", root, "--quiet"])
        return (report.diagnostics.sorted.filter { $0.severity == .error }.map(\.description), checked.stderr, checked.status)
    }

    /// These trapped (SIGILL, "Double value cannot be converted to Int") in `build` and `check`.
    @Test(arguments: ["1e400", "inf", "NaN", "1e300", "99999999999999999999", "-1e300"])
    func anAbsurdSVGSizeIsAnErrorAtTheImage(_ value: String) throws {
        let root = try Self.site(Array("<svg xmlns='http://www.w3.org/2000/svg' width='\(value)' height='10'/>".utf8), ext: "svg")
        let expected = "content/food/a.md:3:8: error: 'a.svg' states a size no image has: its SVG width '\(value)' is not a size: give a number of px up to 100000"
        let (errors, check, status) = try Self.errors(root)
        #expect(errors == [expected])
        #expect(status == 1)
        #expect(check == expected + "\n")
    }

    @Test func anAbsurdViewBoxIsAnError() {
        #expect(throws: ImageProbe.HeaderError(message: "its SVG viewBox height '1e309' is not a size: give a number of px up to 100000")) {
            try ImageProbe.header(of: Array("<svg viewBox='0 0 10 1e309'>".utf8))
        }
        #expect(try! ImageProbe.header(of: Array("<svg viewBox='0 0 100000 2.4'>".utf8)) == .init(width: 100_000, height: 2, isVector: true))
        #expect(ImageProbe.size(of: Array("<svg width='1e400' height='1'>".utf8)) == nil)
    }

    /// PNG sides are at most 2³¹ − 1, so that width × height never overflows an Int.
    @Test func aPNGSideOverItsLimitIsAnError() {
        #expect(throws: ImageProbe.HeaderError(message: "its PNG header says 4294967295 × 1 px, over PNG's limit of 2147483647")) {
            try ImageProbe.header(of: Self.bigPNG(width: 0xFFFF_FFFF, height: 1))
        }
    }

    /// 144 MP: was decoded and resized (47 s, 499 MB); now an error from the header, at once.
    @Test(arguments: [(12000, 12000, "144"), (40000, 40000, "1600"), (10001, 10000, "100.01")])
    func anImageOverThePixelLimitIsRejectedBeforeDecoding(_ width: Int, _ height: Int, _ mp: String) throws {
        let root = try Self.site(Self.bigPNG(width: width, height: height), ext: "png")
        let (errors, check, status) = try Self.errors(root)  // the build in under 1 s
        let expected = "content/food/a.md:3:8: error: image too large (\(mp) MP > 100 MP limit): 'a.png' is \(width) × \(height) px; scale it down, or raise 'images.maxMegapixels' in feedgen.yaml"
        #expect(errors == [expected])
        #expect(status == 1)
        #expect(check == expected + "\n")
    }

    /// The limit counts with a size given in front matter too (libvips would decode the file).
    @Test func theLimitsAreConfigurable() throws {
        let png = TestPNG.make(width: 150, height: 100)
        let root = try Self.site(png, ext: "png", config: "images:\n  maxMegapixels: 0.01\n")
        let report = build(root, output: temporaryFolder() + "/public")
        #expect(report.diagnostics.sorted.map(\.description) == [
            "content/food/a.md:3:8: error: image too large (0.02 MP > 0.01 MP limit): 'a.png' is 150 × 100 px; scale it down, or raise 'images.maxMegapixels' in feedgen.yaml"
        ])
        writeSite(root, ["feedgen.yaml": "images:\n  maxFileMiB: 1\n", "content/food/a.md": "---\ntitle: A\nimage: {src: a.png, alt: A, width: 4, height: 3}\n---\n"])
        try Data(png + [UInt8](repeating: 0, count: 1 << 20)).write(to: URL(fileURLWithPath: root + "/content/food/a.png"))
        #expect(build(root, output: temporaryFolder() + "/public").diagnostics.sorted.map(\.description) == [
            "content/food/a.md:3:8: error: image file too large (1.1 MiB > 1 MiB limit): 'a.png' is \(png.count + (1 << 20)) bytes; make it smaller, or raise 'images.maxFileMiB' in feedgen.yaml"
        ])
        writeSite(root, ["feedgen.yaml": "images:\n  maxMegapixels: .inf\n  maxFileMiB: 99999999999999999999\n  maxPixels: 3\n"])
        #expect(build(root, output: temporaryFolder() + "/public").diagnostics.sorted.map(\.description) == [
            "feedgen.yaml:2:18: error: 'maxMegapixels' must be a number, found '.inf'",
            "feedgen.yaml:3:15: error: 'maxFileMiB' must be an integer, found '99999999999999999999'",
            "feedgen.yaml:4:3: error: unknown key 'maxPixels' in 'images' (known keys: maxMegapixels, maxFileMiB)",
        ])
        writeSite(root, ["feedgen.yaml": "images:\n  maxMegapixels: 1e300\n  maxFileMiB: 0\n"])
        #expect(build(root, output: temporaryFolder() + "/public").diagnostics.sorted.map(\.description) == [
            "feedgen.yaml:2:18: error: 'maxMegapixels' must be a number above 0 and at most 10000, found '1e300'",
            "feedgen.yaml:3:15: error: 'maxFileMiB' must be a whole number from 1 to 4096, found '0'",
        ])
    }

    /// `readableWidth: 1e300px` trapped in the image `sizes` (ImageSizes.number).
    @Test(arguments: ["readableWidth", "layoutMargin"])
    func anAbsurdLayoutTokenIsAnError(_ token: String) throws {
        let root = try Self.site(TestPNG.make(width: 40, height: 30), ext: "png", config: "theme:\n  \(token): 1e300px\n")
        let report = build(root, output: temporaryFolder() + "/public")
        let column = 5 + token.count
        #expect(report.diagnostics.sorted.map(\.description) == [
            "feedgen.yaml:2:\(column): error: theme token '\(token)' must be at most 100000px, found '1e300px'"
        ])
    }
}
