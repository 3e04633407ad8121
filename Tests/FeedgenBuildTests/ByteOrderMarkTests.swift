import Foundation
import Testing

@testable import FeedgenBuild
import FeedgenContent

/// A UTF-8 byte-order mark (as Windows editors write) is removed from every text input, not
/// copied into the output.
@Suite struct ByteOrderMarkTests {
    static let bom = "\u{FEFF}"

    @Test func siteTemplatesAndThemeLoseTheirBOM() throws {
        let root = smallSite([
            "feed.mustache": Self.bom + "FEED {{feed.title}}\n",
            "cards/card.mustache": Self.bom + "CARD {{title}}",
            "theme.css": Self.bom + "body { color: red; }\n",
        ])
        let out = temporaryFolder() + "/public"
        #expect(errors(build(root, output: out)) == [])
        let files = snapshot(out)
        // The old code kept the BOM: the page began with EF BB BF.
        #expect(files["index.html"] == Data("FEED Site\n".utf8))
        #expect(files["assets/theme.css"] == Data("body { color: red; }\n".utf8))
    }

}
