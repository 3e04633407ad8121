/// How a section scrolls across the page's main axis
/// (Apple: `UICollectionLayoutSectionOrthogonalScrollingBehavior`).
public enum OrthogonalScrollingBehavior: String, Hashable, Sendable, CaseIterable {
    /// Not orthogonal: groups stack vertically with the page.
    case none
    /// Free horizontal scrolling, no snapping.
    case continuous
    /// Free scrolling that comes to rest on a group's leading edge.
    case continuousGroupLeadingBoundary
    /// Pages of the collection's own width `W` (not the group width).
    case paging
    /// One group per gesture, resting with the leading inset visible.
    case groupPaging
    /// One group per gesture, each group centred in the visible width.
    case groupPagingCentered

    public var isOrthogonal: Bool { self != .none }
}

/// What a section's `contentInsets` are measured from (Apple: `UIContentInsetsReference`).
public enum ContentInsetsReference: String, Hashable, Sendable, CaseIterable {
    /// The configuration's default, which is `safeArea`.
    case automatic
    /// The container's edges.
    case none
    /// The safe area (`env(safe-area-inset-*)` on the web).
    case safeArea
    /// The layout margins (a design token: `LayoutEnvironment.layoutMargin`).
    case layoutMargins
    /// The readable content guide (`LayoutEnvironment.readableWidth`, centred).
    case readableContent
}

/// A section header or footer (Apple: `NSCollectionLayoutBoundarySupplementaryItem` aligned to
/// the top or bottom, `extendsBoundary = true`). Its width follows the section's inline insets.
public struct BoundarySupplementaryItem: Hashable, Sendable {
    /// The height; `estimated` headers take their measured height.
    public var height: LayoutDimension
    /// Sticks to the top (header) or bottom (footer) of the visible area while the section is
    /// visible: `position: sticky` on the web.
    public var pinToVisibleBounds: Bool

    public init(height: LayoutDimension = .estimated(44), pinToVisibleBounds: Bool = false) {
        self.height = height
        self.pinToVisibleBounds = pinToVisibleBounds
    }
}

/// One section's layout (Apple: `NSCollectionLayoutSection`).
public struct LayoutSection: Hashable, Sendable {
    /// The top-level group, repeated for as many instances as the items need.
    public var group: LayoutGroup
    /// Space between the section's boundary and its groups; headers sit above the top inset.
    public var contentInsets: DirectionalEdgeInsets
    /// Space between consecutive group instances.
    public var interGroupSpacing: Double
    /// How the section scrolls across the page (layout-semantics §3.6).
    public var orthogonalScrollingBehavior: OrthogonalScrollingBehavior
    /// What `contentInsets` are measured from (layout-semantics §3.3).
    public var contentInsetsReference: ContentInsetsReference
    /// The header's size and pinning; the section shows a header when it has a title
    /// (`SectionInput.hasHeader`), sized `estimated(44)` when this is nil.
    public var header: BoundarySupplementaryItem?
    /// The footer's size and pinning; feedgen shows a footer when a rule of the layout sets one.
    public var footer: BoundarySupplementaryItem?
    /// A background decoration (Apple: `NSCollectionLayoutDecorationItem.background`) covering
    /// the header, the insets, the groups and the footer: the section's frame (U-8).
    public var background: Bool

    public init(
        group: LayoutGroup, contentInsets: DirectionalEdgeInsets = .zero, interGroupSpacing: Double = 0,
        orthogonalScrollingBehavior: OrthogonalScrollingBehavior = .none,
        contentInsetsReference: ContentInsetsReference = .automatic,
        header: BoundarySupplementaryItem? = nil, footer: BoundarySupplementaryItem? = nil,
        background: Bool = false
    ) {
        self.group = group
        self.contentInsets = contentInsets
        self.interGroupSpacing = interGroupSpacing
        self.orthogonalScrollingBehavior = orthogonalScrollingBehavior
        self.contentInsetsReference = contentInsetsReference
        self.header = header
        self.footer = footer
        self.background = background
    }
}

/// The section provider (Apple: `UICollectionViewCompositionalLayoutSectionProvider`) sampled at
/// build time: a base section and width rules. The first rule, from the last, whose `minWidth` is
/// at most the container's effective width wins; the web output turns each rule into a
/// `@container (min-width: …)` block.
public struct AdaptiveSection: Hashable, Sendable {
    public struct Rule: Hashable, Sendable {
        /// CSS px of the container's effective width (`W_eff`).
        public var minWidth: Double
        public var section: LayoutSection

        public init(minWidth: Double, section: LayoutSection) {
            self.minWidth = minWidth
            self.section = section
        }
    }

    public var base: LayoutSection
    /// Sorted by ascending `minWidth`.
    public var rules: [Rule]

    public init(_ base: LayoutSection, rules: [Rule] = []) {
        self.base = base
        self.rules = rules.sorted { $0.minWidth < $1.minWidth }
    }

    /// The section in force at effective container width `width`.
    public func section(forWidth width: Double) -> LayoutSection {
        rules.last { $0.minWidth <= width }?.section ?? base
    }
}
