/// The one factory of a feed page's `LayoutEnvironment`: the page width and the first screen's
/// height with the feed's spacing and the site's px design tokens, for every stage that solves
/// the layout (CSS, previews, deferred cards, image sizes, `feedgen layout`).
import FeedgenLayout
import Foundation

extension PreparedSite {
    /// The layout environment of `feed`'s page at container width `width` (CSS px): the feed's
    /// interSectionSpacing and the `layoutMargin` / `readableWidth` design tokens of
    /// feedgen.yaml's `theme:` when they are given in px (the CSS reads the same tokens;
    /// docs/layout.md, U-7).
    public func layoutEnvironment(_ feed: PreparedFeed, width: Double, viewportHeight: Double) -> LayoutEnvironment {
        var env = LayoutEnvironment(containerWidth: width, viewportHeight: viewportHeight, interSectionSpacing: feed.feed.interSectionSpacing)
        for (key, value) in site.config.theme {
            guard let px = Self.pixels(value) else { continue }
            if key == "layoutMargin" { env.layoutMargin = px }
            if key == "readableWidth" { env.readableWidth = px }
        }
        return env
    }

    /// `16`, `16px` → 16; nil for other units and negative or non-finite numbers.
    public static func pixels(_ text: String) -> Double? {
        var t = text.trimmingCharacters(in: .whitespaces)
        if t.hasSuffix("px") { t.removeLast(2) }
        guard let v = Double(t), v.isFinite, v >= 0 else { return nil }
        return v
    }
}
