/// What the section provider and the solver know about the container (Apple:
/// `NSCollectionLayoutEnvironment`). All values in CSS px.
public struct LayoutEnvironment: Hashable, Sendable {
    /// The collection's width `W`: the page column (`.cl-sections`) in the HTML.
    public var containerWidth: Double
    /// The visible height, the reference of a top-level `fractionalHeight` (CSS `100svh`).
    public var viewportHeight: Double
    /// `env(safe-area-inset-left/right)` on the web; zero in a desktop browser.
    public var safeAreaInsets: DirectionalEdgeInsets
    /// The layout margin token for `contentInsetsReference: layoutMargins`
    /// (UIKit's system minimum margin: 16 in compact width; layout-semantics §10 U-7).
    public var layoutMargin: Double
    /// The readable width token for `contentInsetsReference: readableContent`.
    public var readableWidth: Double
    /// Space between consecutive sections (Apple: `interSectionSpacing`); none after the last.
    public var interSectionSpacing: Double

    public init(
        containerWidth: Double, viewportHeight: Double = 844, safeAreaInsets: DirectionalEdgeInsets = .zero,
        layoutMargin: Double = 16, readableWidth: Double = 672, interSectionSpacing: Double = 0
    ) {
        self.containerWidth = containerWidth
        self.viewportHeight = viewportHeight
        self.safeAreaInsets = safeAreaInsets
        self.layoutMargin = layoutMargin
        self.readableWidth = readableWidth
        self.interSectionSpacing = interSectionSpacing
    }

    /// The width the section provider sees (Apple: `container.effectiveContentSize.width`): the
    /// collection width minus the safe-area insets (layout-semantics §3.3, §4.2). Adaptive rules
    /// compare their `minWidth` with this value. CSS px.
    public var effectiveContentWidth: Double {
        containerWidth - safeAreaInsets.leading - safeAreaInsets.trailing
    }

    /// The leading and trailing offsets that `reference` puts before the section's own insets
    /// (layout-semantics §3.3), CSS px. `automatic` is the configuration default, `safeArea`.
    /// Layout margins add to the safe area (UIKit's `insetsLayoutMarginsFromSafeArea`); the
    /// readable content guide is centred, `readableWidth` wide, and never closer to the edges
    /// than the layout margins (UIKit's readableContentGuide lies inside the margins guide).
    public func referenceInsets(_ reference: ContentInsetsReference) -> (leading: Double, trailing: Double) {
        switch reference {
        case .none:
            return (0, 0)
        case .automatic, .safeArea:
            return (safeAreaInsets.leading, safeAreaInsets.trailing)
        case .layoutMargins:
            return (safeAreaInsets.leading + layoutMargin, safeAreaInsets.trailing + layoutMargin)
        case .readableContent:
            let side = (containerWidth - readableWidth) / 2
            return (
                max(side, safeAreaInsets.leading + layoutMargin), max(side, safeAreaInsets.trailing + layoutMargin)
            )
        }
    }
}

/// Sizes measured by a renderer for self-sizing (estimated) dimensions, as UIKit receives them
/// from `preferredLayoutAttributesFitting(_:)`. Only the estimated axis of a measured size is used.
public struct Measurements: Sendable {
    /// Measured cell sizes, by item identifier.
    public var items: [String: Size]
    /// Measured cell sizes by index path, as UIKit measures a cell: keyed by the section's index
    /// in the snapshot given to ``CompositionalLayout/solve(_:environment:measurements:)``, then
    /// by the item's place in the section's snapshot; nil where unmeasured. A section listed here
    /// ignores ``items``: use it when identifiers may compare equal (Swift's `String` equality is
    /// Unicode canonical equivalence, so `"é"` precomposed and decomposed are one dictionary key:
    /// two items' ids, or two sections' folder names) or to skip hashing every identifier.
    public var indexedItems: [Int: [Size?]] = [:]
    /// Measured header heights, by section identifier.
    public var headers: [String: Double]
    /// Measured header heights by the section's index in the snapshot given to
    /// ``CompositionalLayout/solve(_:environment:measurements:)``, as ``indexedItems`` for cells;
    /// a section listed here ignores ``headers`` (two sections' identifiers may compare equal).
    public var indexedHeaders: [Int: Double] = [:]
    /// Measured footer heights, by section identifier.
    public var footers: [String: Double]

    public init(items: [String: Size] = [:], headers: [String: Double] = [:], footers: [String: Double] = [:]) {
        self.items = items
        self.headers = headers
        self.footers = footers
    }

    public static let none = Measurements()
}
