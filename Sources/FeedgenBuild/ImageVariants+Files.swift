/// The files behind image variants: a source image read once (its SHA-256, formats, width and
/// file-name stem) and the build cache's `images/` folder pruned after a successful build.
import FeedgenResolve
import FeedgenStorage
import Foundation

extension ImageVariants {
    /// After a successful build: removes the cache entries this build did not use (variants of
    /// changed or removed images, of another libvips version) and temporary files left by killed
    /// builds, so the cache holds one build's variants.
    static func prune(_ folder: String, keeping used: Set<String>) {
        let pid = ProcessInfo.processInfo.processIdentifier
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where !used.contains(entry) {
            if entry.hasPrefix(".tmp-") {
                // `.tmp-<pid>-…`: another build's file while that build runs.
                let owner = Int32(entry.dropFirst(5).prefix { $0 != "-" }) ?? 0
                if owner != pid, owner > 0, kill(owner, 0) == 0 { continue }
            }
            unlink(folder + "/" + entry)
        }
    }

    /// A source image: its SHA-256, variant formats, pixel width and safe file-name stem.
    struct Source {
        var hash: String
        var formats: [Format]
        var width: Int
        var name: String
        var widths = Set<Int>()
    }

    /// Reads `path` once: nil when it cannot be read or is passed through (``formats(of:)``).
    static func readSource(_ path: String) -> Source? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let bytes = [UInt8](data)
        guard let formats = formats(of: bytes) else { return nil }
        let width = ImageProbe.size(of: Array(bytes.prefix(65536)))?.width ?? 0
        return Source(hash: SHA256.hex(bytes), formats: formats, width: width, name: fileStem(path))
    }

    /// A file name's stem made safe for `srcset` (which splits on commas and spaces) and URLs:
    /// ASCII letters, digits, `-`, `_` and `.` kept, anything else becomes `-`; at most 100 bytes.
    static func fileStem(_ path: String) -> String {
        let base = (URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent)
        let safe = String(base.unicodeScalars.map { c -> Character in
            c.isASCII && (CharacterSet.alphanumerics.contains(c) || c == "-" || c == "_" || c == ".") ? Character(c) : "-"
        })
        // At most 100 bytes (ASCII here): the variant's name adds its hash, width and extension,
        // and must stay within the file system's 255 bytes for a name (issue #22 item 5); the
        // hash keeps two long stems with one beginning apart.
        return safe.isEmpty ? "image" : String(safe.prefix(100))
    }
}
