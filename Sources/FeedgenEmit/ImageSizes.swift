import FeedgenContent
import FeedgenResolve
import Foundation
import FeedgenLayout

/// Where item images are drawn, in CSS px as functions of the viewport width, and the `sizes`
/// attribute that says so (HTML §4.8.4.2.2, "sizes": a list of media conditions and lengths,
/// widest first; the browser picks the first whose condition matches).
///
/// The page column (`.cl-sections`) spans the viewport, so the layout model's container width `W`
/// is `100vw` (a classic scrollbar makes `100vw` a few px wider than `W`: `sizes` then
/// over-estimates slightly, never under). In a card the image spans the card (theme.css:
/// `.card-image { width: 100% }`, the padding is on `.card-body`), and the card is the layout
/// model's cell, so the image width is the item width. On an item page the image spans the
/// `.detail` column: `min(100vw − 2 × 16px, readable width)`.
public enum ImageSizes {
    /// The narrowest container width considered (WCAG 1.4.10 reflow width), CSS px.
    public static let minimumWidth = 320.0
    /// The item page's inline padding in theme.css (`.detail { padding: 16px }`), CSS px.
    public static let detailPadding = 16.0

    /// Each item's image width over the container-width ranges of its section (by item id).
    public static func card(_ section: PreparedSection, environment: LayoutEnvironment) -> [String: [WidthRange]] {
        ItemWidths.ranges(section.input, environment: environment, minimumWidth: minimumWidth)
    }

    /// The width an image of aspect `aspect` (width / height) is drawn at in the cards of
    /// `section`, over the container-width ranges of `ranges` (the cards' widths): in a
    /// fixed-size card (LayoutCSS makes its cell a size container) the image is
    /// `object-fit: cover` in a box of the card's width × `share` of its height (40 %: the
    /// image's share in LayoutStylesheet's fixed-card rules; the whole card in a `hero`, whose
    /// image fills the card), so it is drawn `max(card width, share × card height × aspect)`
    /// wide. Elsewhere the image is as wide as the card and `ranges` is returned as it is.
    /// Each range is split where the two lines cross; both are affine in `W` within a range.
    public static func drawn(
        _ ranges: [WidthRange], item: String, aspect: Double, section: PreparedSection, environment: LayoutEnvironment
    ) -> [WidthRange] {
        guard aspect.isFinite, aspect > 0,
            LayoutCSS.rules(section.layout, scope: "").contains("--cl-fixed: 1")
        else { return ranges }
        let share = section.preset == .hero ? 1.0 : 0.4
        var env = environment
        func height(_ w: Double) -> Double {
            env.containerWidth = w
            let solved = CompositionalLayout.solve([section.input], environment: env)
            return solved.sections.first?.items.first { $0.id == item }?.frame.height ?? 0
        }
        var out: [WidthRange] = []
        for r in ranges {
            let a = r.minWidth, b = r.maxWidth.map { $0 - 1 } ?? max(a + 1000, 2560)
            let (ha, hb) = (share * aspect * height(a), share * aspect * height(b))
            let slope = b > a ? (hb - ha) / (b - a) : 0
            let cover = WidthRange(minWidth: a, maxWidth: r.maxWidth, slope: slope, offset: ha - slope * a)
            let (wa, wb) = (r.width(at: a), r.width(at: b))
            switch (ha > wa + 1e-6, hb > wb + 1e-6) {
            case (false, false): out.append(r)
            case (true, true): out.append(cover)
            case (let first, _):
                // The lines cross inside the range: split at the first whole px past the crossing.
                let x = ((r.offset - cover.offset) / (cover.slope - r.slope)).rounded(.up)
                var left = first ? cover : r, right = first ? r : cover
                left.maxWidth = x
                right.minWidth = x
                out += [left, right]
            }
        }
        return out
    }

    /// The item page's image width: `W − 2 × layoutMargin` up to `readableWidth + 2 × layoutMargin`,
    /// then `readableWidth` (theme.css: `.detail` is `readable-width` wide at most, padded by
    /// `layout-margin`).
    public static func detail(readableWidth: Double, layoutMargin: Double = detailPadding) -> [WidthRange] {
        let knee = readableWidth + 2 * layoutMargin
        return [
            WidthRange(minWidth: minimumWidth, maxWidth: knee, slope: 1, offset: -2 * layoutMargin),
            WidthRange(minWidth: knee, maxWidth: nil, slope: 0, offset: readableWidth),
        ]
    }

    /// The width of the item page's column (its image, and the images of its body) in
    /// `environment`, whose `readableWidth` and `layoutMargin` are the theme's tokens
    /// (``PreparedSite/layoutEnvironment(_:width:viewportHeight:)``). A feed page's intro
    /// (`.page-header`, padded by `max(layout-margin, (100% − readable-width) / 2)`) is as wide.
    public static func column(_ environment: LayoutEnvironment) -> [WidthRange] {
        detail(readableWidth: environment.readableWidth, layoutMargin: environment.layoutMargin)
    }

    /// The `sizes` value for `ranges`: `(min-width: 700px) calc((100vw - 48px) / 3), calc((100vw - 24px) / 2)`.
    /// The first range's expression has no condition (it also covers viewports below
    /// ``minimumWidth``).
    public static func sizes(_ ranges: [WidthRange]) -> String {
        var parts: [String] = []
        for (i, r) in ranges.enumerated().reversed() {
            let length = expression(slope: r.slope, offset: r.offset)
            parts.append(i == 0 ? length : "(min-width: \(number(r.minWidth))px) \(length)")
        }
        return parts.joined(separator: ", ")
    }

    /// `slope × 100vw + offset` as a CSS length: `calc((100vw - 48px) / 3)` when `1 / slope` is a
    /// whole number, else `calc(85vw - 8px)`; a constant is `160px`.
    public static func expression(slope: Double, offset: Double) -> String {
        if abs(slope) < 1e-9 { return number(max(offset, 0)) + "px" }
        let k = (1 / slope).rounded()
        if k >= 1, abs(1 / slope - k) < 1e-6 {
            let inner = offset == 0 ? "100vw" : "100vw \(offset < 0 ? "-" : "+") \(number(abs(offset) * k))px"
            if k == 1 { return offset == 0 ? "100vw" : "calc(\(inner))" }
            return "calc((\(inner)) / \(number(k)))"
        }
        let vw = number(slope * 100) + "vw"
        return offset == 0 ? vw : "calc(\(vw) \(offset < 0 ? "-" : "+") \(number(abs(offset)))px)"
    }

    /// A CSS number: at most 4 decimals, no trailing zeros.
    static func number(_ v: Double) -> String {
        let r = (v * 10_000).rounded() / 10_000
        if r == r.rounded() { return String(Int(r)) }
        var s = String(format: "%.4f", r)
        while s.hasSuffix("0") { s.removeLast() }
        return s
    }
}
