/// One axis of a layout size, after Apple's `NSCollectionLayoutDimension`.
///
/// Values are CSS px or fractions. A fraction refers to the *container* of the element being
/// sized: for an item or nested group, its parent group's effective content box (the group's
/// frame minus the group's `contentInsets`); for a section's top-level group, the section's
/// layout container (layout-semantics §1.1; Apple: NSCollectionLayoutDimension).
public enum LayoutDimension: Hashable, Sendable {
    /// `f ×` the container's width.
    case fractionalWidth(Double)
    /// `f ×` the container's height.
    case fractionalHeight(Double)
    /// A fixed value in CSS px.
    case absolute(Double)
    /// A provisional value in CSS px, replaced by the measured size once the content is laid out
    /// (self-sizing). Item `contentInsets` are ignored on an estimated axis.
    case estimated(Double)
    /// Like `estimated`, then grown to the largest measured sibling (iOS 17,
    /// `uniformAcrossSiblings(estimate:)`); on a section's outermost group, section-wide.
    case uniformAcrossSiblings(estimate: Double)

    /// True for `estimated` and `uniformAcrossSiblings` (Apple: `isEstimated`).
    public var isEstimated: Bool {
        switch self {
        case .estimated, .uniformAcrossSiblings: true
        default: false
        }
    }

    /// The estimate of a self-sizing dimension, nil for the others.
    public var estimate: Double? {
        switch self {
        case .estimated(let v), .uniformAcrossSiblings(let v): v
        default: nil
        }
    }

    /// The fraction when this is a fraction of the container's extent along `axis`
    /// (`fractionalWidth` along the horizontal axis, `fractionalHeight` along the vertical one).
    public func fraction(along axis: Axis) -> Double? {
        switch self {
        case .fractionalWidth(let f): axis == .horizontal ? f : nil
        case .fractionalHeight(let f): axis == .vertical ? f : nil
        default: nil
        }
    }

    /// Resolves the dimension in a container of `container` size. Estimated dimensions give
    /// `measured` when present, else their estimate.
    public func resolve(in container: Size, measured: Double? = nil) -> Double {
        switch self {
        case .fractionalWidth(let f): f * container.width
        case .fractionalHeight(let f): f * container.height
        case .absolute(let v): v
        case .estimated(let v), .uniformAcrossSiblings(let v): measured ?? v
        }
    }

    /// The source form used in front matter: `fractionalWidth(1.0)`, `absolute(160)`, ….
    public var sourceForm: String {
        switch self {
        case .fractionalWidth(let f): "fractionalWidth(\(Self.number(f)))"
        case .fractionalHeight(let f): "fractionalHeight(\(Self.number(f)))"
        case .absolute(let v): "absolute(\(Self.number(v)))"
        case .estimated(let v): "estimated(\(Self.number(v)))"
        case .uniformAcrossSiblings(let v): "uniformAcrossSiblings(\(Self.number(v)))"
        }
    }

    static func number(_ v: Double) -> String { Rect.format(v) }
}

/// A width and a height dimension (Apple: `NSCollectionLayoutSize`).
public struct LayoutSize: Hashable, Sendable {
    public var width: LayoutDimension
    public var height: LayoutDimension

    public init(width: LayoutDimension, height: LayoutDimension) {
        self.width = width
        self.height = height
    }

    /// The dimension along `axis`.
    public func dimension(_ axis: Axis) -> LayoutDimension { axis == .horizontal ? width : height }
}

/// The two axes. The page's main scroll axis is vertical; orthogonal sections scroll horizontally.
public enum Axis: String, Hashable, Sendable, CaseIterable {
    case horizontal, vertical

    public var cross: Axis { self == .horizontal ? .vertical : .horizontal }
}

/// Spacing between neighbours (Apple: `NSCollectionLayoutSpacing`): `fixed(v)` is exactly `v`,
/// `flexible(v)` is at least `v` and takes an equal share of the space left in the group.
public enum LayoutSpacing: Hashable, Sendable {
    case fixed(Double)
    case flexible(Double)

    /// The fixed value, or the minimum of a flexible spacing.
    public var minimum: Double {
        switch self {
        case .fixed(let v), .flexible(let v): v
        }
    }

    public var isFlexible: Bool { if case .flexible = self { true } else { false } }

    public var sourceForm: String {
        switch self {
        case .fixed(let v): "fixed(\(LayoutDimension.number(v)))"
        case .flexible(let v): "flexible(\(LayoutDimension.number(v)))"
        }
    }
}

/// Space outside an item on each edge (Apple: `NSCollectionLayoutEdgeSpacing`). It moves the item
/// and its later siblings without resizing it; nil edges have none.
public struct EdgeSpacing: Hashable, Sendable {
    public var leading: LayoutSpacing?
    public var top: LayoutSpacing?
    public var trailing: LayoutSpacing?
    public var bottom: LayoutSpacing?

    public init(
        leading: LayoutSpacing? = nil, top: LayoutSpacing? = nil,
        trailing: LayoutSpacing? = nil, bottom: LayoutSpacing? = nil
    ) {
        self.leading = leading
        self.top = top
        self.trailing = trailing
        self.bottom = bottom
    }

    /// The leading and trailing spacing along `axis` (top/bottom for vertical).
    func edges(_ axis: Axis) -> (LayoutSpacing?, LayoutSpacing?) {
        axis == .horizontal ? (leading, trailing) : (top, bottom)
    }
}
