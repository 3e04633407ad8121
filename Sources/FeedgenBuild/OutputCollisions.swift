import FeedgenContent
import FeedgenDiagnostics
import FeedgenEmit
import Foundation

/// Two inputs must never write one output file, including paths that differ only in letter case
/// or Unicode normalisation (they collide on macOS and Windows file systems, and in URLs typed by
/// people). Each collision is an error naming both inputs.
enum OutputCollisions {
    /// The key under which two output paths count as the same file.
    static func key(_ path: String) -> String {
        if path.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII: normalisation is the identity; lower-case the bytes directly.
            return String(decoding: path.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
        }
        return path.precomposedStringWithCanonicalMapping.lowercased()
    }

    static func check(_ site: PreparedSite, into diagnostics: inout Diagnostics) {
        var claimed: [String: (path: String, source: SourceLocation)] = [:]
        func claim(_ path: String, by source: SourceLocation) {
            let k = key(path)
            if let first = claimed[k] {
                let same = first.path == path ? "'\(path)'" : "'\(path)' and '\(first.path)' (they differ only in case or Unicode normalisation)"
                diagnostics.error(source, "this would write the output file \(same), which \(first.source) writes too; rename one of them")
            } else {
                claimed[k] = (path, source)
            }
        }
        for feed in site.feeds {
            claim(feed.pagePath, by: SourceLocation(path: feed.feed.sourcePath ?? "content/" + feed.feed.path))
            for s in feed.sections {
                for item in s.section.items where item.hasBody {
                    claim(feed.detailPath(item), by: item.location)
                }
            }
        }
        for image in Set(site.images.values).sorted(by: { $0.outputPath < $1.outputPath }) where !image.source.isEmpty {
            if image.outputPath.hasPrefix("assets/") {
                claim(image.outputPath, by: SourceLocation(path: String(image.source.dropFirst(site.site.root.count + 1))))
            }
        }
        for file in site.site.staticFiles {
            claim(file, by: SourceLocation(path: "static/" + file))
        }
    }
}
