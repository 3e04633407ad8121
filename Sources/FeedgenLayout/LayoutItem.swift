/// The description of one card's slot (Apple: `NSCollectionLayoutItem`).
public struct LayoutItem: Hashable, Sendable {
    /// Resolved against the parent group's effective content box.
    public var size: LayoutSize
    /// Shrink the cell inside its slot after placement; ignored on estimated axes
    /// (Apple: NSCollectionLayoutItem.contentInsets).
    public var contentInsets: DirectionalEdgeInsets
    /// Space outside the slot, applied before `contentInsets` (Apple: edgeSpacing).
    public var edgeSpacing: EdgeSpacing?

    public init(
        size: LayoutSize, contentInsets: DirectionalEdgeInsets = .zero, edgeSpacing: EdgeSpacing? = nil
    ) {
        self.size = size
        self.contentInsets = contentInsets
        self.edgeSpacing = edgeSpacing
    }
}

/// What a group holds: an item, or a nested group.
public indirect enum LayoutSubitem: Hashable, Sendable {
    case item(LayoutItem)
    case group(LayoutGroup)

    public var size: LayoutSize {
        switch self {
        case .item(let i): i.size
        case .group(let g): g.size
        }
    }

    /// True for a nested group.
    public var isGroup: Bool {
        if case .group = self { return true }
        return false
    }

    var edgeSpacing: EdgeSpacing? {
        if case .item(let i) = self { return i.edgeSpacing }
        return nil
    }
}

/// A row (horizontal) or column (vertical) of subitems (Apple: `NSCollectionLayoutGroup`).
public struct LayoutGroup: Hashable, Sendable {
    /// How the group is filled.
    public enum Content: Hashable, Sendable {
        /// Exactly `count` equally sized copies of the subitem: the subitem's main-axis dimension
        /// is overridden by `(G − (count − 1)·spacing) / count` (Apple:
        /// `horizontal(layoutSize:subitem:count:)`; layout-semantics §2.2).
        case count(Int, LayoutSubitem)
        /// The subitems in order, repeated cyclically while the next one fits on the group's axis
        /// (Apple: `horizontal(layoutSize:subitems:)`; layout-semantics §2.1).
        case subitems([LayoutSubitem])
    }

    public var direction: Axis
    /// Resolved against the section's layout container (top-level) or the parent group's box.
    public var size: LayoutSize
    public var content: Content
    /// Between consecutive subitems along `direction`; none before the first or after the last.
    public var interItemSpacing: LayoutSpacing?
    /// Shrink the box in which the subitems are laid out; the group's own slot is unchanged.
    public var contentInsets: DirectionalEdgeInsets

    public init(
        direction: Axis, size: LayoutSize, content: Content,
        interItemSpacing: LayoutSpacing? = nil, contentInsets: DirectionalEdgeInsets = .zero
    ) {
        self.direction = direction
        self.size = size
        self.content = content
        self.interItemSpacing = interItemSpacing
        self.contentInsets = contentInsets
    }

    /// A horizontal group of `count` equal items.
    public static func horizontal(
        _ size: LayoutSize, repeating item: LayoutItem, count: Int, spacing: LayoutSpacing? = nil
    ) -> LayoutGroup {
        LayoutGroup(direction: .horizontal, size: size, content: .count(count, .item(item)), interItemSpacing: spacing)
    }

    /// The subitem description at `index` of `subitems` (0 for a `count` group's).
    func subitem(_ index: Int) -> LayoutSubitem {
        switch content {
        case .count(_, let s): s
        case .subitems(let list): list[index]
        }
    }

    /// All subitem descriptions in this group (not recursive).
    public var subitems: [LayoutSubitem] {
        switch content {
        case .count(_, let s): [s]
        case .subitems(let list): list
        }
    }

    /// True when some item's size can come from measurements: an estimated item dimension that
    /// a `count` group does not override (groups themselves are never measured).
    public var readsMeasurements: Bool {
        switch content {
        case .count(_, .item(let item)):
            return item.size.dimension(direction.cross).isEstimated
        case .count(_, .group(let g)):
            return g.readsMeasurements
        case .subitems(let list):
            return list.contains { sub in
                switch sub {
                case .item(let i): i.size.width.isEstimated || i.size.height.isEstimated
                case .group(let g): g.readsMeasurements
                }
            }
        }
    }

    /// True when some dimension anywhere in the group is estimated (self-sizing content).
    public var containsEstimatedDimension: Bool {
        if size.width.isEstimated || size.height.isEstimated { return true }
        return subitems.contains { sub in
            switch sub {
            case .item(let i): i.size.width.isEstimated || i.size.height.isEstimated
            case .group(let g): g.containsEstimatedDimension
            }
        }
    }
}
