// A UTF-8 byte-order mark is removed from the files the commands read (templates, data,
// --measured files).
import FeedgenContent
import Foundation
import Testing

@testable import FeedgenCLI

@Suite struct ByteOrderMarkTests {
    static let bom = "\u{FEFF}"

    @Test func templateRenderFileAndDataLoseTheirBOM() throws {
        let folder = temporaryFolder()
        try Data((Self.bom + "<p>{{x}}</p>\n").utf8).write(to: URL(fileURLWithPath: folder + "/t.mustache"))
        try Data((Self.bom + "x: 1\n").utf8).write(to: URL(fileURLWithPath: folder + "/d.yaml"))
        try Data((Self.bom + #"{"x": 2}"#).utf8).write(to: URL(fileURLWithPath: folder + "/d.json"))
        for (data, expected) in [("d.yaml", "<p>1</p>\n"), ("d.json", "<p>2</p>\n")] {
            let (output, diagnostics) = try TemplateCommand.render(
                file: folder + "/t.mustache", data: folder + "/" + data, partials: nil, strict: true)
            #expect(diagnostics.items.isEmpty)
            #expect(output == expected)
        }
    }

    @Test func configAndMeasuredFileLoseTheirBOM() throws {
        let root = temporaryFolder()
        writeSite(root, ["feedgen.yaml": Self.bom + "title: Bom\n", "content/s/a.md": "A"])
        let (site, diagnostics) = SiteLoader.load(siteRoot: root, options: LoadOptions(nowSecondsSinceEpoch: 0))
        #expect(diagnostics.items.isEmpty)
        #expect(site?.config.title == "Bom")
        let file = temporaryFolder() + "/m.json"
        try Data((Self.bom + #"{"headers": {"s": 30}}"#).utf8).write(to: URL(fileURLWithPath: file))
        #expect(try LayoutCommand.readMeasurements(file).headers["s"] == 30)
    }
}
