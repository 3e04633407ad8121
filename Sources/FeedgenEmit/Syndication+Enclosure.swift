/// The Atom `enclosure` link of an item image: its MIME type and, for a local file, its
/// length in bytes (RFC 4287 §4.2.7.4 and §4.2.7.6; issue #19, "Feeds").
import FeedgenResolve
import Foundation

extension Syndication {
    /// The MIME type of an image file by its extension (any case; a URL's query and fragment
    /// are ignored), or nil for an extension feedgen does not know as an image.
    static func imageType(_ path: String) -> String? {
        let name = path.prefix { $0 != "?" && $0 != "#" }
        guard let dot = name.lastIndex(of: "."), !name[dot...].contains("/") else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "svg": return "image/svg+xml"
        case "avif": return "image/avif"
        default: return nil
        }
    }

    /// The `<link rel="enclosure" …/>` element of `image` at the absolute URL `url`, with its
    /// line feed: `type` when the extension names an image type, `length` (bytes, the copied
    /// file's size: the original, not a variant) for a local file.
    func enclosure(_ image: ImageAsset, url: String) -> String {
        var x = "    <link rel=\"enclosure\""
        if let type = Self.imageType(image.source.isEmpty ? image.outputPath : image.source) { x += " type=\"\(type)\"" }
        if !image.source.isEmpty, let size = (try? FileManager.default.attributesOfItem(atPath: image.source))?[.size] as? NSNumber {
            x += " length=\"\(size.int64Value)\""
        }
        return x + " href=\"\(Self.xml(url))\"/>\n"
    }
}
