import Foundation
import Testing

@testable import FeedgenBuild
import FeedgenResolve
import FeedgenIncremental

/// Body images get the responsive variants card images get (issue #19 §3, content-format §8.2):
/// a PNG, JPEG or WebP wider than the page's body column becomes a `<picture>` with the column's
/// `sizes`; small, SVG and GIF images stay plain `<img>`s; the build cache is reused.
@Suite struct BodyImageVariantTests {
    static let sizes = "auto, (min-width: 704px) 672px, calc(100vw - 32px)"
    static let widths = [320, 480, 640, 800, 960, 1280, 1400]

    /// A post with a 1400 × 700 PNG, a small PNG, an SVG and a GIF in its body.
    func site() throws -> (root: String, hash8: String) {
        let root = temporaryFolder()
        writeSite(root, [
            "content/posts/a.md": "---\ntitle: A\n---\nText.\n\n![a wide one](wide.png)\n\n![small](small.png) ![vector](icon.svg) ![moving](anim.gif)\n",
            "content/posts/icon.svg": #"<svg xmlns="http://www.w3.org/2000/svg" width="900" height="90"/>"#,
        ])
        try Data(TestPNG.make(width: 1400, height: 700)).write(to: URL(fileURLWithPath: root + "/content/posts/wide.png"))
        try Data(TestPNG.make(width: 400, height: 300)).write(to: URL(fileURLWithPath: root + "/content/posts/small.png"))
        // GIF89a, 800 × 100, a 2-colour table, one 1 × 1 frame.
        let gif: [UInt8] = Array("GIF89a".utf8) + [0x20, 0x03, 0x64, 0x00, 0x80, 0, 0, 0, 0, 0, 255, 255, 255]
            + [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B]
        try Data(gif).write(to: URL(fileURLWithPath: root + "/content/posts/anim.gif"))
        let hash = try #require(ImageVariants.readSource(root + "/content/posts/wide.png")).hash
        return (root, String(hash.prefix(8)))
    }

    static func picture(_ src: String, alt: String, width: Int, height: Int, hash8: String, stem: String, up: String, widths: [Int] = widths) -> String {
        let webp = widths.map { "\(up)images/\(stem)-\(hash8)-\($0).webp \($0)w" }.joined(separator: ", ")
        let png = widths.map { "\(up)images/\(stem)-\(hash8)-\($0).png \($0)w" }.joined(separator: ", ")
        return #"<picture><source type="image/webp" srcset="\#(webp)" sizes="\#(sizes)"><img src="\#(src)" width="\#(width)" height="\#(height)" alt="\#(alt)" srcset="\#(png)" sizes="\#(sizes)" loading="lazy" decoding="async" /></picture>"#
    }

    @Test func aWideBodyImageIsAPictureAtTheColumnsWidthsAndSmallSVGAndGIFStayAsTheyAre() throws {
        let (root, h) = try site()
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        let page = try String(contentsOfFile: out + "/posts/a.html", encoding: .utf8)
        let wide = Self.picture("../assets/posts/wide.png", alt: "a wide one", width: 1400, height: 700, hash8: h, stem: "wide", up: "../")
        #expect(page.contains("<p>" + wide + "</p>\n"), "\(page)")
        #expect(page.contains(
            #"<p><img src="../assets/posts/small.png" width="400" height="300" alt="small" /> <img src="../assets/posts/icon.svg" width="900" height="90" alt="vector" /> <img src="../assets/posts/anim.gif" width="800" height="100" alt="moving" /></p>"#))
        var expected = Set(["assets/posts/wide.png", "assets/posts/small.png", "assets/posts/icon.svg", "assets/posts/anim.gif"])
        for w in Self.widths { for ext in ["webp", "png"] { expected.insert("images/wide-\(h)-\(w).\(ext)") } }
        let files = Set(snapshot(out).keys.filter { $0.hasPrefix("images/") || $0.hasPrefix("assets/posts/") })
        #expect(files == expected)
        // The variants are what they say.
        let png640 = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out + "/images/wide-\(h)-640.png")))
        #expect(ImageProbe.size(of: png640)! == (640, 320))
        #expect(report.images == ImageVariants.Stats(encoded: 14, reused: 0, images: 1))

        // A second build takes every variant from the build cache: nothing encoded, same bytes.
        let before = snapshot(out)
        let second = build(root, output: out)
        #expect(second.images == ImageVariants.Stats(encoded: 0, reused: 14, images: 1))
        #expect(snapshot(out) == before)
    }

    /// The page's key holds the variants: a new picture of the same size (new bytes, new
    /// variant names) renders the page again.
    @Test func aChangedBodyImageOfTheSameSizeRendersItsPageAgain() throws {
        let (root, h) = try site()
        let out = temporaryFolder() + "/public"
        #expect(build(root, output: out).exitStatus == 0)
        var png = TestPNG.make(width: 1400, height: 700)
        png.insert(contentsOf: TestPNG.chunk("tEXt", Array("Comment\u{0}second".utf8)), at: png.count - 12)
        try Data(png).write(to: URL(fileURLWithPath: root + "/content/posts/wide.png"))
        let h2 = String(try #require(ImageVariants.readSource(root + "/content/posts/wide.png")).hash.prefix(8))
        #expect(h2 != h)
        let report = build(root, output: out)
        #expect(report.images == ImageVariants.Stats(encoded: 14, reused: 0, images: 1))
        let page = try String(contentsOfFile: out + "/posts/a.html", encoding: .utf8)
        #expect(page.contains(Self.picture("../assets/posts/wide.png", alt: "a wide one", width: 1400, height: 700, hash8: h2, stem: "wide", up: "../")))
        #expect(!FileManager.default.fileExists(atPath: out + "/images/wide-\(h)-640.png"))
        let clean = temporaryFolder() + "/public"
        #expect(build(root, output: clean).exitStatus == 0)
        #expect(snapshot(out) == snapshot(clean))
    }

    /// A `_feed.md` intro is drawn in the page header, as wide as the item page's column: its
    /// images get variants too. A `_section.md` text (the section header's width) does not.
    @Test func introImagesArePicturesAndSectionTextImagesStayPlain() throws {
        let root = temporaryFolder()
        writeSite(root, [
            "content/_feed.md": "---\ntitle: Home\n---\nWelcome ![banner](/images/banner.png \"The banner\")\n",
            "content/news/_section.md": "---\ntitle: News\n---\nAlso ![banner again](/images/banner.png)\n",
            "content/news/a.md": "---\ntitle: A\n---\nA.\n",
        ])
        try FileManager.default.createDirectory(atPath: root + "/static/images", withIntermediateDirectories: true)
        try Data(TestPNG.make(width: 1000, height: 500)).write(to: URL(fileURLWithPath: root + "/static/images/banner.png"))
        let h = String(try #require(ImageVariants.readSource(root + "/static/images/banner.png")).hash.prefix(8))
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 0, "\(report.diagnostics.items)")
        let home = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        let picture = Self.picture(
            "images/banner.png", alt: "banner\" title=\"The banner", width: 1000, height: 500, hash8: h, stem: "banner", up: "",
            widths: [320, 480, 640, 800, 960, 1000])
        #expect(home.contains(#"<div class="page-intro"><p>Welcome "# + picture + "</p>"), "\(home)")
        #expect(home.contains(#"<div class="cl-header-text"><p>Also <img src="images/banner.png" width="1000" height="500" alt="banner again" /></p>"#))
        #expect(report.images == ImageVariants.Stats(encoded: 12, reused: 0, images: 1))
    }

    /// Only paths with a raster image's extension are looked up (in any case).
    @Test func rasterPathsAreFoundByTheirExtension() {
        #expect(["content/a/b.png", "content/a/B.PNG", "/images/x.jpg", "c/d.JPEG", "e.webp"].allSatisfy(ImageVariants.isRasterPath))
        #expect(!["content/a/b.svg", "content/a/b.gif", "/docs/x/", "png", "content/a/b.png.md", "a.jpgx"].contains(where: ImageVariants.isRasterPath))
    }

    /// The column is the theme's: `readableWidth` and `layoutMargin` tokens in px.
    @Test func theColumnFollowsTheThemeTokens() throws {
        let root = temporaryFolder()
        writeSite(root, [
            "feedgen.yaml": "theme:\n  readableWidth: 800px\n  layoutMargin: 24px\n",
            "content/posts/a.md": "---\ntitle: A\n---\n![w](w.png) ![n](n.png)\n",
        ])
        try Data(TestPNG.make(width: 1000, height: 100)).write(to: URL(fileURLWithPath: root + "/content/posts/w.png"))
        try Data(TestPNG.make(width: 780, height: 100)).write(to: URL(fileURLWithPath: root + "/content/posts/n.png"))
        let out = temporaryFolder() + "/public"
        #expect(build(root, output: out).exitStatus == 0)
        let page = try String(contentsOfFile: out + "/posts/a.html", encoding: .utf8)
        #expect(page.contains(#"sizes="auto, (min-width: 848px) 800px, calc(100vw - 48px)""#))
        #expect(page.contains(#"<img src="../assets/posts/n.png" width="780" height="100" alt="n" /></p>"#))
        let h = String(try #require(ImageVariants.readSource(root + "/content/posts/w.png")).hash.prefix(8))
        // 272–800 px at 1× and 2×: 320 … 1600, above the source's 1000 px: 1000.
        #expect(page.contains("srcset=\"" + [320, 480, 640, 800, 960, 1000].map { "../images/w-\(h)-\($0).png \($0)w" }.joined(separator: ", ") + "\""))
    }

    /// An image libvips cannot decode is an error at each `![…](…)` naming it, for `build` and
    /// `check` alike; the previous output stays.
    @Test func anUndecodableBodyImageIsAnErrorAtItsLink() throws {
        let root = temporaryFolder()
        writeSite(root, ["content/posts/a.md": "---\ntitle: A\n---\nSee:\n\n![broken](broken.png)\n"])
        // A whole header (1000 × 500), the pixel data cut short.
        try Data(TestPNG.make(width: 1000, height: 500).prefix(300)).write(to: URL(fileURLWithPath: root + "/content/posts/broken.png"))
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(report.exitStatus == 1)
        let errors = report.diagnostics.sorted.filter { $0.severity == .error }.map(\.description)
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("content/posts/a.md:6:1: error: 'broken.png' is not an image feedgen can resize (") == true, "\(errors)")
        #expect(errors.first?.hasSuffix("); replace the file with a valid PNG, JPEG or WebP image") == true)
        #expect(!FileManager.default.fileExists(atPath: out))
        var options = BuildOptions(siteRoot: root, output: out, now: fixedNow)
        options.write = false
        let check = SiteBuilder.build(options)
        #expect(check.exitStatus == 1)
        #expect(check.diagnostics.sorted.filter { $0.severity == .error }.map(\.description) == errors)
    }
}
