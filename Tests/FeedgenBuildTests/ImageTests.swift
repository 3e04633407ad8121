import Foundation
import Testing

@testable import FeedgenBuild

/// Item images: intrinsic sizes read from the file, copies beside the pages, errors at the
/// front-matter line.
@Suite struct ImageTests {
    static func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }

    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + be32(480) + be32(270) + [8, 2, 0, 0, 0]

    @Test func png() { #expect(ImageProbe.size(of: Self.png)! == (480, 270)) }

    @Test func gif() {
        #expect(ImageProbe.size(of: Array("GIF89a".utf8) + [0x40, 0x01, 0xF0, 0x00, 0, 0])! == (320, 240))
    }

    @Test func jpeg() {
        // SOI, an APP0 segment, then SOF0 with height 200 and width 300.
        let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x00, 0x00, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0xC8, 0x01, 0x2C, 0x03, 0, 0, 0, 0, 0, 0]
        #expect(ImageProbe.size(of: bytes)! == (300, 200))
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

    @Test func aMissingImageIsAnErrorAtItsLine() {
        let root = temporaryFolder()
        writeSite(root, ["content/food/soup.md": "---\ntitle: Soup\nimage: nowhere.png\n---\n"])
        let report = build(root, output: temporaryFolder() + "/public")
        #expect(report.exitStatus == 1)
        #expect(report.diagnostics.sorted.map(\.description) == [
            "content/food/soup.md:3:8: error: image 'nowhere.png' not found (looked beside content/food/soup.md and in static/)"
        ])
    }
}
