/// One item's geometry (Apple: `UICollectionViewLayoutAttributes`), in page coordinates
/// relative to the top-left of the collection (the first section's top), CSS px.
/// Items in orthogonal sections are reported as if their scroller were at offset 0.
public struct ResolvedItem: Hashable, Sendable {
    public var id: String
    /// The cell: the slot minus the item's contentInsets on non-estimated axes. The HTML element
    /// carrying `data-item-id` has exactly this box.
    public var frame: Rect
    /// The layout slot, before contentInsets.
    public var slot: Rect
    /// Index of the group instance that holds the item.
    public var groupIndex: Int
}

/// Scrolling geometry of an orthogonal section.
public struct ResolvedOrthogonal: Hashable, Sendable {
    public var behavior: OrthogonalScrollingBehavior
    /// The horizontal scroller, full collection width (layout-semantics §3.6), page coordinates.
    public var scrollerFrame: Rect
    /// The scroller's `scrollWidth`: leading inset + groups + spacing + trailing inset.
    public var contentWidth: Double
    /// `max(0, contentWidth − scroller width)`.
    public var maxOffset: Double
    /// Resting offsets (`scrollLeft`), ascending; empty for `continuous`.
    public var snapOffsets: [Double]
}

/// One section's geometry.
public struct ResolvedSection: Hashable, Sendable {
    public var id: String
    /// From the section's top (its header) to its bottom (footer), full collection width.
    public var frame: Rect
    public var headerFrame: Rect?
    public var footerFrame: Rect?
    /// The background decoration, when the section has one: the whole section frame.
    public var backgroundFrame: Rect?
    /// Group instances, in page coordinates (orthogonal: at scroll offset 0).
    public var groups: [Rect]
    public var items: [ResolvedItem]
    public var orthogonal: ResolvedOrthogonal?
    /// The section description in force at this width (after the adaptive rules).
    public var layout: LayoutSection
}

/// The whole collection at one container width.
public struct ResolvedLayout: Hashable, Sendable {
    public var environment: LayoutEnvironment
    public var sections: [ResolvedSection]
    /// The height of all sections, with interSectionSpacing between them.
    public var contentHeight: Double

    /// The item with identifier `id`, if any.
    public func item(_ id: String) -> ResolvedItem? {
        for s in sections { if let hit = s.items.first(where: { $0.id == id }) { return hit } }
        return nil
    }
}

/// What the solver is given for one section (a diffable snapshot's section and its items).
public struct SectionInput: Hashable, Sendable {
    public var id: String
    public var layout: AdaptiveSection
    /// Item identifiers in snapshot order.
    public var itemIDs: [String]
    /// Whether the section shows a header (it has a title) or a footer.
    public var hasHeader: Bool
    public var hasFooter: Bool

    public init(id: String, layout: AdaptiveSection, itemIDs: [String], hasHeader: Bool = false, hasFooter: Bool = false) {
        self.id = id
        self.layout = layout
        self.itemIDs = itemIDs
        self.hasHeader = hasHeader
        self.hasFooter = hasFooter
    }
}
