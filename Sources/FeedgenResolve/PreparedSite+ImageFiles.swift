/// The image files a site copies: one per output path, whatever alt texts its cards give it
/// (issue #19 §9: two cards may show one file with different `alt`s).

extension PreparedSite {
    /// Each local item image once, by output path, in byte order of the path, with the variants
    /// of every card that shows it (cards in sections of different widths get different
    /// widths): the assets of several cards that show one file differ only in `alt`, `sizes`
    /// and variants, and the pages carry the first two. Remote images (no source) are left out.
    public var imageFiles: [ImageAsset] {
        var byPath: [String: ImageAsset] = [:]
        var variants: [String: [String: ImageVariant]] = [:]
        for image in images.values where !image.source.isEmpty {
            for v in image.variants { variants[image.outputPath, default: [:]][v.outputPath] = v }
            // Of two assets for one path, the same one whatever the dictionary's order.
            if let kept = byPath[image.outputPath], kept.alt.utf8.lexicographicallyPrecedes(image.alt.utf8) || kept.alt == image.alt { continue }
            byPath[image.outputPath] = image
        }
        return byPath.values.sorted { $0.outputPath.utf8.lexicographicallyPrecedes($1.outputPath.utf8) }.map { image in
            var merged = image
            merged.variants = (variants[image.outputPath] ?? [:]).values.sorted { $0.outputPath.utf8.lexicographicallyPrecedes($1.outputPath.utf8) }
            return merged
        }
    }
}
