@testable import FeedgenResolve
import Foundation
import Testing

@testable import FeedgenBuild

/// Item images: intrinsic sizes read from the file, copies beside the pages, errors at the
/// front-matter line.
@Suite struct ImageTests {
    static func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }

    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + be32(480) + be32(270) + [8, 2, 0, 0, 0]

    @Test func png() { #expect(ImageProbe.size(of: Self.png)! == (480, 270)) }

    /// A header that says 0 px wide or high is no size: the page got `<img width="0" height="0">`
    /// and the file was copied without variants, with no error.
    @Test func aZeroSizeIsNoSize() {
        let header = Array(Self.png.prefix(16))
        #expect(ImageProbe.size(of: header + Self.be32(0) + Self.be32(0) + [8, 2, 0, 0, 0]) == nil)
        #expect(ImageProbe.size(of: header + Self.be32(480) + Self.be32(0) + [8, 2, 0, 0, 0]) == nil)
        #expect(ImageProbe.size(of: Array(#"<svg width="0" height="10">"#.utf8)) == nil)
        #expect(ImageProbe.size(of: Array(#"<svg viewBox="0 0 -5 10">"#.utf8)) == nil)
    }

    @Test func gif() {
        #expect(ImageProbe.size(of: Array("GIF89a".utf8) + [0x40, 0x01, 0xF0, 0x00, 0, 0])! == (320, 240))
    }

    @Test func jpeg() {
        // SOI, an APP0 segment, then SOF0 with height 200 and width 300.
        let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x00, 0x00, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0xC8, 0x01, 0x2C, 0x03, 0, 0, 0, 0, 0, 0]
        #expect(ImageProbe.size(of: bytes)! == (300, 200))
    }

    /// An EXIF APP1 segment (TIFF header and an IFD0 holding only Orientation) in either byte order.
    static func exif(orientation: Int, bigEndian: Bool) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 255)] : [UInt8(v & 255), UInt8(v >> 8)] }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? u16(v >> 16) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16) }
        let tiff = (bigEndian ? Array("MM".utf8) : Array("II".utf8)) + u16(42) + u32(8) + u16(1)
            + u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0) + u32(0)
        let body = Array("Exif".utf8) + [0, 0] + tiff
        return [0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 255)] + body
    }

    /// A phone photo stored on its side (EXIF orientation 5–8) is drawn upright by browsers and
    /// by libvips: its size is the stored one turned.
    @Test func jpegTurnedByItsExifOrientation() {
        // SOF0 with height 200 and width 300.
        let frame: [UInt8] = [0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0xC8, 0x01, 0x2C, 0x03, 0, 0, 0, 0, 0, 0]
        for bigEndian in [false, true] {
            for orientation in 1...8 {
                let bytes = [0xFF, 0xD8] + Self.exif(orientation: orientation, bigEndian: bigEndian) + frame
                let expected = orientation >= 5 ? (200, 300) : (300, 200)
                #expect(ImageProbe.size(of: bytes)! == expected, "orientation \(orientation), big-endian \(bigEndian)")
            }
        }
        // A damaged or foreign APP1 changes nothing.
        var damaged = Self.exif(orientation: 6, bigEndian: false)
        damaged[12] = 0x58  // not "II" or "MM"
        #expect(ImageProbe.size(of: [0xFF, 0xD8] + damaged + frame)! == (300, 200))
        let xmp = [0xFF, 0xE1, 0x00, 0x0C] + Array("http://ns".utf8) + [0]
        #expect(ImageProbe.size(of: [0xFF, 0xD8] + xmp + frame)! == (300, 200))
        let cut = Array((Self.exif(orientation: 6, bigEndian: true)).prefix(20))
        #expect(ImageProbe.size(of: [0xFF, 0xD8] + cut) == nil)
    }

    /// A 48 × 32 JPEG with EXIF orientation 6 (made with libvips, the EXIF segment added by hand).
    static let sidewaysJPEG = Data(base64Encoded: "/9j/4QAiRXhpZgAASUkqAAgAAAABABIBAwABAAAABgAAAAAAAAD/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/wAALCAAgADABAREA/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/9oACAEBAAA/APlSiiiilpKKWiloxTaUUtGKWlxUdKKUU4UuKUCv/9k=")!

    /// The page gives the upright size, and the variants (upright, from libvips) are described
    /// by their real widths.
    @Test func sidewaysPhotoIsSizedUpright() throws {
        let root = temporaryFolder()
        writeSite(root, ["content/food/photo.md": "---\ntitle: Photo\nimage: {src: photo.jpg, alt: A photo}\n---\nText.\n"])
        try Self.sidewaysJPEG.write(to: URL(fileURLWithPath: root + "/content/food/photo.jpg"))
        #expect(ImageProbe.size(of: [UInt8](Self.sidewaysJPEG))! == (32, 48))
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        let html = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(html.contains(#"width="32" height="48" alt="A photo""#))
        // Every variant named in a srcset is as wide as its descriptor says.
        let candidates = html.matches(of: /([A-Za-z0-9_.\/-]+\.(?:webp|jpg)) (\d+)w/).map { (String($0.1), Int($0.2)!) }
        #expect(!candidates.isEmpty)
        for (path, width) in candidates {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out + "/" + path)))
            #expect(ImageProbe.size(of: bytes)?.width == width, "\(path)")
            #expect(width <= 32)
        }
    }

    @Test func webpExtended() {
        var bytes = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8X".utf8) + [10, 0, 0, 0, 0, 0, 0, 0]
        bytes += [0x7F, 0x02, 0x00, 0x67, 0x01, 0x00]  // width − 1 = 639, height − 1 = 359 (24-bit little-endian)
        #expect(ImageProbe.size(of: bytes)! == (640, 360))
    }

    @Test func svg() {
        #expect(ImageProbe.size(of: Array(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 16"><path/></svg>"#.utf8))! == (24, 16))
        #expect(ImageProbe.size(of: Array(#"<svg width="40px" height="30" viewBox="0 0 4 3"></svg>"#.utf8))! == (40, 30))
        #expect(ImageProbe.size(of: Array("not an image".utf8)) == nil)
    }

    @Test func imagesAreCopiedAndSized() throws {
        let root = temporaryFolder()
        writeSite(root, [
            "content/food/soup.md": "---\ntitle: Soup\nimage: {src: soup.png, alt: A bowl of soup}\n---\nHot.\n",
            "content/food/logo.md": "---\ntitle: Logo\nimage: /brand/logo.png\n---\n",
        ])
        let png = TestPNG.make(width: 480, height: 270)
        try Data(png).write(to: URL(fileURLWithPath: root + "/content/food/soup.png"))
        try FileManager.default.createDirectory(atPath: root + "/static/brand", withIntermediateDirectories: true)
        try Data(png).write(to: URL(fileURLWithPath: root + "/static/brand/logo.png"))
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        let html = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(html.contains(#"src="assets/food/soup.png" srcset=""#))
        #expect(html.contains(#"width="480" height="270" alt="A bowl of soup""#))
        #expect(html.contains(#"src="brand/logo.png" srcset=""#))
        #expect(html.contains(#"width="480" height="270" alt="""#))
        #expect(FileManager.default.fileExists(atPath: out + "/assets/food/soup.png"))
        #expect(FileManager.default.fileExists(atPath: out + "/brand/logo.png"))
    }

    @Test func anImageWithoutAltIsAWarningAndEmptyAltIsDecorative() {
        let root = temporaryFolder()
        writeSite(root, [
            "content/food/a.md": "---\ntitle: A\nimage: a.svg\n---\n",
            "content/food/b.md": "---\ntitle: B\nimage:\n  src: a.svg\n---\n",
            "content/food/c.md": "---\ntitle: C\nimage: {src: a.svg, alt: \"\"}\n---\n",
            "content/food/a.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"/>",
        ])
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0)
        let advice = "has no 'alt' text, so screen readers skip it; describe it with 'image: {src: a.svg, alt: \"…\"}', or write 'alt: \"\"' if it is decorative"
        #expect(report.diagnostics.sorted.filter { $0.severity == .warning }.map(\.description) == [
            "content/food/a.md:3:8: warning: image 'a.svg' \(advice)",
            "content/food/b.md:4:3: warning: image 'a.svg' \(advice)",
        ])
        let page = (try? String(contentsOfFile: out + "/index.html", encoding: .utf8)) ?? ""
        // Without alt text the image is treated as decorative (alt=""), never left without alt.
        #expect(page.components(separatedBy: "<img ").count - 1 == 3)
        #expect(page.components(separatedBy: " alt=\"\"").count - 1 == 3)
    }

    /// Two cards may show one file with different alt texts (issue #19 §9): one copy, each alt
    /// on its own card. It was an output collision error ("which … writes too").
    @Test func oneImageFileWithTwoAltTextsIsCopiedOnce() throws {
        let root = temporaryFolder()
        writeSite(root, [
            "content/food/a.md": "---\ntitle: A\nimage: {src: a.svg, alt: A red square}\n---\n",
            "content/food/b.md": "---\ntitle: B\nimage: {src: a.svg, alt: The same square again}\n---\n",
            "content/food/a.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"20\"/>",
        ])
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        #expect(report.diagnostics.errorCount == 0)
        let page = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(page.contains(#"src="assets/food/a.svg" width="10" height="20" alt="A red square""#))
        #expect(page.contains(#"src="assets/food/a.svg" width="10" height="20" alt="The same square again""#))
        #expect(try FileManager.default.contentsOfDirectory(atPath: out + "/assets/food") == ["a.svg"])
    }

    @Test func aMissingImageIsAnErrorAtItsLine() {
        let root = temporaryFolder()
        writeSite(root, ["content/food/soup.md": "---\ntitle: Soup\nimage: {src: nowhere.png, alt: \"\"}\n---\n"])
        let report = build(root, output: temporaryFolder() + "/public")
        #expect(report.exitStatus == 1)
        #expect(report.diagnostics.sorted.map(\.description) == [
            "content/food/soup.md:3:8: error: image 'nowhere.png' not found (looked beside content/food/soup.md and in static/)"
        ])
    }
}
