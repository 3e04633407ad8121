/// `ImageVariantTable`: what stage 4 (images) returns to the render stage — the variants made of
/// each image and the `sizes` of where it is drawn — so that the resolved site stays as stage 3
/// left it (issue #18).
import FeedgenContent

/// Responsive variants by the place an image is drawn (docs/content-format.md §8.2). Empty for
/// a site without local PNG, JPEG or WebP images, and in `feedgen check`.
public struct ImageVariantTable: Sendable {
    /// Card images (front matter `image:`), by ``PreparedSite/imageKey(feed:item:)``.
    public var cards: [String: ResponsiveImage] = [:]
    /// Images in item bodies and `_feed.md` intros (`![alt](path)`) wider than the page's body
    /// column, by output path (`assets/posts/photo.png`, `images/a.png` from `static/`): their
    /// variants and the column's `sizes` (``ResponsiveImage/detailSizes``).
    public var bodies: [String: ResponsiveImage] = [:]

    public init(cards: [String: ResponsiveImage] = [:], bodies: [String: ResponsiveImage] = [:]) {
        self.cards = cards
        self.bodies = bodies
    }

    /// The variants of the image `item` shows in `feed`'s cards, if it has any.
    public func card(feed: PreparedFeed, item: Item) -> ResponsiveImage? {
        cards.isEmpty ? nil : cards[PreparedSite.imageKey(feed: feed, item: item)]
    }

    /// Every variant file once, in byte order of its output path.
    public var files: [ImageVariant] {
        var byPath: [String: ImageVariant] = [:]
        for image in cards.values { for v in image.variants { byPath[v.outputPath] = v } }
        for image in bodies.values { for v in image.variants { byPath[v.outputPath] = v } }
        return byPath.values.sorted { $0.outputPath.utf8.lexicographicallyPrecedes($1.outputPath.utf8) }
    }
}
