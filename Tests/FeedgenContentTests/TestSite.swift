import FeedgenDiagnostics
import Foundation

@testable import FeedgenContent

/// A throw-away site folder built from `path: contents` pairs, removed when the test ends.
final class TestSite {
    let root: String

    init(_ files: [String: String]) throws {
        root =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("feedgen-content-\(UUID().uuidString)").path
        for (path, contents) in files { try write(path, contents) }
        try FileManager.default.createDirectory(atPath: root + "/content", withIntermediateDirectories: true)
    }

    func write(_ path: String, _ contents: String) throws {
        try write(path, Data(contents.utf8))
    }

    func write(_ path: String, _ data: Data) throws {
        let url = URL(fileURLWithPath: root + "/" + path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    /// Loads with `now` = 2026-11-29T12:00:00Z unless told otherwise.
    func load(
        drafts: Bool = false, future: Bool = false, expired: Bool = false,
        now: ContentDate = ContentDate.parse("2026-11-29T12:00:00Z")!
    ) -> (site: Site?, diagnostics: [String]) {
        let (site, diagnostics) = SiteLoader.load(
            siteRoot: root, options: LoadOptions(drafts: drafts, future: future, expired: expired, now: now))
        return (site, diagnostics.items.map(\.description))
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }
}

extension Site {
    /// `section: id, id, …` per section of the feed at `path`, for compact assertions.
    func outline(_ path: String = "") -> [String] {
        (feed(at: path)?.sections ?? []).map { section in
            "\(section.id): " + section.items.map(\.id).joined(separator: ", ")
        }
    }
}
