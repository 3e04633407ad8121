/// `ImageAsset` (an item image resolved: source, output path, size, alt), the `ImageVariant`s
/// stage 4 makes of an image and the `ResponsiveImage` of a place it is drawn.

/// A resized copy of an item or body image, made by the build (docs/content-format.md, "Images").
public struct ImageVariant: Sendable, Hashable {
    /// Pixel width (the `w` descriptor in `srcset`).
    public var width: Int
    /// `image/webp`, `image/png` or `image/jpeg`.
    public var mimeType: String
    /// Output path relative to the output folder (`images/pancakes-1a2b3c4d-480.webp`).
    public var outputPath: String
    /// Absolute path of the file to copy (an entry of the build cache).
    public var source: String

    public init(width: Int, mimeType: String, outputPath: String, source: String) {
        self.width = width
        self.mimeType = mimeType
        self.outputPath = outputPath
        self.source = source
    }
}

/// An item image resolved by the build: where it is copied and its intrinsic size. Its variants
/// are stage 4's (``ImageVariantTable``), not part of the resolved site.
public struct ImageAsset: Sendable, Hashable {
    /// Absolute path of the source file.
    public var source: String
    /// Output path relative to the output folder.
    public var outputPath: String
    public var width: Int?
    public var height: Int?
    public var alt: String

    public init(source: String, outputPath: String, width: Int?, height: Int?, alt: String) {
        self.source = source
        self.outputPath = outputPath
        self.width = width
        self.height = height
        self.alt = alt
    }
}

/// An image's variants where it is drawn, and the `sizes` of those places (HTML `sizes`:
/// ``ImageSizes/sizes(_:)`` in FeedgenEmit); made by stage 4 (``ImageVariantTable``).
public struct ResponsiveImage: Sendable, Hashable {
    /// By MIME type, then ascending width.
    public var variants: [ImageVariant]
    /// The `sizes` value of the image in its card; nil for a body image.
    public var cardSizes: String?
    /// Whether the card draws the image wider than its box (`object-fit: cover` in a fixed-size
    /// card, ``ImageSizes/drawn(_:item:aspect:section:environment:)``): its `sizes` then has no
    /// `auto`, which would name the box's width.
    public var cardCovers = false
    /// The `sizes` value of the image on the item page (a card image above the body, a body
    /// image in it: the page's body column); nil for a card image of an item without a page.
    public var detailSizes: String?

    public init(variants: [ImageVariant], cardSizes: String? = nil, cardCovers: Bool = false, detailSizes: String? = nil) {
        self.variants = variants
        self.cardSizes = cardSizes
        self.cardCovers = cardCovers
        self.detailSizes = detailSizes
    }
}
