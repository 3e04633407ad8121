/// The image files a site copies: one per output path, whatever alt texts its cards give it
/// (issue #19 §9: two cards may show one file with different `alt`s).

extension PreparedSite {
    /// Each local item image once, by output path, in byte order of the path: the assets of
    /// several cards that show one file differ only in `alt`, and the pages carry it. Remote
    /// images (no source) are left out. Their variants are stage 4's (``ImageVariantTable``).
    public var imageFiles: [ImageAsset] {
        var byPath: [String: ImageAsset] = [:]
        for image in images.values where !image.source.isEmpty {
            // Of two assets for one path, the same one whatever the dictionary's order.
            if let kept = byPath[image.outputPath], kept.alt.utf8.lexicographicallyPrecedes(image.alt.utf8) || kept.alt == image.alt { continue }
            byPath[image.outputPath] = image
        }
        return byPath.values.sorted { $0.outputPath.utf8.lexicographicallyPrecedes($1.outputPath.utf8) }
    }
}
