/// Item images found and measured: relative to the item file, then to `static/`
/// (content-format §5), inside the site, within the image limits.
import FeedgenContent
import FeedgenDiagnostics
import Foundation

extension SiteResolver {
    /// Resolves an item image relative to the item file, then to `static/` (content-format §5).
    /// `realRoot` is the site folder with symbolic links resolved (resolved once per build).
    static func resolveImage(
        _ image: ItemImage, item: Item, site: Site, realRoot: String, diagnostics: inout Diagnostics
    ) -> ImageAsset? {
        let alt = image.alt ?? ""
        if RelativeURL.hasScheme(image.src) {
            let scheme = image.src.prefix { $0 != ":" }.lowercased()
            guard scheme == "http" || scheme == "https" else {
                diagnostics.error(image.location, "image URL scheme '\(scheme):' is not allowed; use http, https or a path")
                return nil
            }
            if image.width == nil || image.height == nil {
                // The page got width="" height="" (invalid HTML, and a layout shift on load).
                diagnostics.warning(
                    image.location,
                    "image '\(image.src)' is remote, so feedgen cannot read its size and the page shifts when it loads; give its 'width' and 'height' in an image mapping")
            }
            return ImageAsset(source: "", outputPath: image.src, width: image.width, height: image.height, alt: alt)
        }
        let itemDir = (item.sourcePath as NSString).deletingLastPathComponent
        var candidates: [(source: String, output: String)] = []
        if !image.src.hasPrefix("/") {
            let rel = normalize(itemDir + "/" + image.src)
            if let rel, rel.hasPrefix("content/") {
                candidates.append((site.root + "/" + rel, "assets/" + rel.dropFirst("content/".count)))
            }
        }
        if let rel = normalize(String(image.src.drop { $0 == "/" })) {
            candidates.append((site.root + "/static/" + rel, rel))
        }
        if candidates.isEmpty {
            diagnostics.error(image.location, "image path '\(image.src)' leads outside the site folder; put the image beside the item or in static/")
            return nil
        }
        // The file as named on disk (its name may be in another Unicode normalization); the
        // output path keeps the front matter's spelling.
        for c in candidates.compactMap({ c in LinkResolver.existingPath(c.source).map { (source: $0, output: c.output) } }) {
            // Containment: the file itself (after symbolic links) must be inside the site.
            let real = URL(fileURLWithPath: c.source).resolvingSymlinksInPath().path
            guard real.hasPrefix(realRoot + "/") else {
                diagnostics.error(image.location, "image '\(image.src)' is a symbolic link that leads outside the site folder (to \(real)); copy the image into the site")
                return nil
            }
            var width = image.width
            var height = image.height
            // Limits from stat and the header, even with a given size: libvips decodes it later.
            switch ImageProbe.checkedHeader(
                path: c.source, name: image.src, maxPixels: site.config.imageMaxPixels, maxFileSize: site.config.imageMaxFileSize)
            {
            case .failure(let problem):
                diagnostics.error(image.location, problem.message)
                return nil
            case .success(let header):
                width = width ?? header?.width
                height = height ?? header?.height
            }
            if width == nil || height == nil {
                diagnostics.error(
                    image.location,
                    "'\(image.src)' is not an image feedgen can read (PNG, JPEG, GIF, WebP or SVG); give its 'width' and 'height' in an image mapping, or use an image file")
                return nil
            }
            return ImageAsset(source: c.source, outputPath: c.output, width: width, height: height, alt: alt)
        }
        diagnostics.error(
            image.location,
            "image '\(image.src)' not found (looked beside \(item.sourcePath) and in static/)")
        return nil
    }

    /// Resolves `.` and `..` in a relative path; nil when it would leave its root.
    public static func normalize(_ path: String) -> String? {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." || part.isEmpty { continue }
            if part == ".." {
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            } else {
                parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }
}
