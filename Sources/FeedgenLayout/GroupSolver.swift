/// Lays out one instance of a group (layout-semantics §2, §5.2), consuming items in snapshot order.
///
/// Frames are relative to the group's own origin, in CSS px. The solver is pure and
/// deterministic; it keeps fractions as `Double` and never rounds (layout-semantics §10 U-9).
///
/// Rules, in the order the solver applies them:
/// 1. The group's own size resolves against its container; an estimated extent starts at its
///    estimate (Apple: provisional pass, §5.1).
/// 2. Children: a `count` group makes `count` equal slots of `(G − (count − 1)·spacing) / count`
///    along its axis (the slot includes the item's main-axis edge spacing); a `subitems` group
///    repeats its list cyclically while the next child fits (the first child is always placed);
///    a group whose extent along its axis is estimated cannot bound the repetition, so it takes
///    each subitem once (§2.1, §2.2; feedgen's decision for the unbounded case).
/// 3. Extents on estimated axes: along the axis, the sum of the children with their edge
///    spacing and the minimum gaps; across it, the tallest child with its cross edge spacing
///    (§2.7). Children whose cross size is a fraction of that extent are settled afterwards.
/// 4. `uniformAcrossSiblings` children stretch to the group's cross extent, which is the
///    largest sibling when that extent is estimated (§5.2, [S3]).
/// 5. Leftover space goes to flexible inter-item spacing, else in equal shares to flexible edge
///    spacings (§1.2, §2.3).
struct GroupSolver {
    /// Measured cell sizes by item index within the section; nil when nothing was measured.
    let measured: ((Int) -> Size?)?
    /// Records the element tree of each instance (for the emitter's plan).
    var recordsTree = false

    init(measured: ((Int) -> Size?)?, recordsTree: Bool = false) {
        self.measured = measured
        self.recordsTree = recordsTree
    }

    struct PlacedItem {
        var index: Int
        var slot: Rect
        var cell: Rect
    }

    struct Instance {
        var size: Size
        var items: [PlacedItem]
        var consumed: Int
        /// The element tree of this instance, when `recordsTree`.
        var tree: [GroupPlan.Node] = []
    }

    /// How a child's cross-axis extent is settled.
    enum CrossMode: Equatable {
        /// Resolved on its own (absolute, estimated, or a fraction of a settled extent).
        case fixed
        /// A fraction of the group's estimated cross extent: settled after it, not part of it.
        case deferred(Double)
        /// `uniformAcrossSiblings`: part of the extent with its own size, then stretched to it.
        case stretch
    }

    private struct Child {
        var subitem: LayoutSubitem
        var descriptionIndex: Int
        var main: Double
        var cross: Double
        var mode: CrossMode
        var lead: LayoutSpacing?
        var trail: LayoutSpacing?
        var crossLead: LayoutSpacing?
        var crossTrail: LayoutSpacing?
        var itemIndex: Int
        var nested: Instance?

        var mainEdges: Double { (lead?.minimum ?? 0) + (trail?.minimum ?? 0) }
        var crossEdges: Double { (crossLead?.minimum ?? 0) + (crossTrail?.minimum ?? 0) }
        var consumed: Int { nested?.consumed ?? 1 }
    }

    /// Fills one instance of `group` in a container of size `container`, taking at most
    /// `available` items starting at item index `start`. `overrideWidth`/`overrideHeight` force
    /// the group's extent (a parent `count` group overrides its subitem's main dimension; a
    /// stretched or deferred group gets its settled cross extent).
    func fill(
        _ group: LayoutGroup, container: Size, start: Int, available: Int,
        overrideWidth: Double? = nil, overrideHeight: Double? = nil
    ) -> Instance {
        let axis = group.direction
        let horizontal = axis == .horizontal
        let insets = group.contentInsets
        let mainInsets = horizontal ? insets.horizontal : insets.vertical
        let crossInsets = horizontal ? insets.vertical : insets.horizontal
        var width = overrideWidth ?? group.size.width.resolve(in: container)
        var height = overrideHeight ?? group.size.height.resolve(in: container)
        let mainFixed = (horizontal ? overrideWidth : overrideHeight) != nil || !group.size.dimension(axis).isEstimated
        let crossFixed =
            (horizontal ? overrideHeight : overrideWidth) != nil || !group.size.dimension(axis.cross).isEstimated
        let provisional = Size(width: width - insets.horizontal, height: height - insets.vertical)
        let innerMain = horizontal ? provisional.width : provisional.height
        let spacing = group.interItemSpacing ?? .fixed(0)
        let gap = spacing.minimum

        var children: [Child] = []
        var consumed = 0

        func makeChild(_ sub: LayoutSubitem, description: Int, slot: Double?) -> Child? {
            guard consumed < available else { return nil }
            let index = start + consumed
            switch sub {
            case .item(let item):
                let spacing = item.edgeSpacing
                let (lead, trail) = spacing?.edges(axis) ?? (nil, nil)
                let (crossLead, crossTrail) = spacing?.edges(axis.cross) ?? (nil, nil)
                let m = measured?(index)
                let main: Double
                if let slot {
                    main = slot - (lead?.minimum ?? 0) - (trail?.minimum ?? 0)
                } else {
                    main = item.size.dimension(axis).resolve(in: provisional, measured: horizontal ? m?.width : m?.height)
                }
                let crossDim = item.size.dimension(axis.cross)
                let mode = Self.crossMode(crossDim, axis: axis.cross, groupCrossFixed: crossFixed)
                let cross =
                    mode == .fixed || mode == .stretch
                    ? crossDim.resolve(in: provisional, measured: horizontal ? m?.height : m?.width) : 0
                return Child(
                    subitem: sub, descriptionIndex: description, main: main, cross: cross, mode: mode, lead: lead,
                    trail: trail, crossLead: crossLead, crossTrail: crossTrail, itemIndex: index, nested: nil)
            case .group(let nestedGroup):
                let mode = Self.crossMode(
                    nestedGroup.size.dimension(axis.cross), axis: axis.cross, groupCrossFixed: crossFixed)
                let instance = fill(
                    nestedGroup, container: provisional, start: index, available: available - consumed,
                    overrideWidth: horizontal ? slot : nil, overrideHeight: horizontal ? nil : slot)
                guard instance.consumed > 0 else { return nil }
                let s = instance.size
                return Child(
                    subitem: sub, descriptionIndex: description, main: horizontal ? s.width : s.height,
                    cross: horizontal ? s.height : s.width, mode: mode, itemIndex: index, nested: instance)
            }
        }

        switch group.content {
        case .count(let n, let sub):
            let count = max(n, 1)
            let slot = (innerMain - Double(count - 1) * gap) / Double(count)
            children.reserveCapacity(count)
            for _ in 0..<count {
                guard let child = makeChild(sub, description: 0, slot: slot) else { break }
                consumed += child.consumed
                children.append(child)
            }
        case .subitems(let list):
            guard !list.isEmpty else { break }
            if mainFixed {
                var used = 0.0
                var k = 0
                while consumed < available {
                    let d = k % list.count
                    guard let child = makeChild(list[d], description: d, slot: nil) else { break }
                    let extent = (children.isEmpty ? 0 : gap) + child.main + child.mainEdges
                    if !children.isEmpty, used + extent > innerMain + Self.fitTolerance { break }
                    used += extent
                    consumed += child.consumed
                    children.append(child)
                    k += 1
                }
            } else {
                for (d, sub) in list.enumerated() {
                    guard let child = makeChild(sub, description: d, slot: nil) else { break }
                    consumed += child.consumed
                    children.append(child)
                }
            }
        }

        // The group's own extent on estimated axes (§2.7).
        var sumMain = 0.0
        var tallest = 0.0
        for c in children {
            sumMain += c.main + c.mainEdges
            if case .deferred = c.mode { continue }
            tallest = max(tallest, c.cross + c.crossEdges)
        }
        let minGaps = Double(max(children.count - 1, 0)) * gap
        if !mainFixed {
            if horizontal { width = sumMain + minGaps + mainInsets } else { height = sumMain + minGaps + mainInsets }
        }
        if !crossFixed {
            if horizontal { height = tallest + crossInsets } else { width = tallest + crossInsets }
        }
        let inner = Size(width: width - insets.horizontal, height: height - insets.vertical)
        let finalMain = horizontal ? inner.width : inner.height
        let finalCross = horizontal ? inner.height : inner.width

        // Deferred fractions and uniform siblings settle against the final cross extent.
        for i in children.indices {
            switch children[i].mode {
            case .fixed: break
            case .stretch: children[i].cross = finalCross - children[i].crossEdges
            case .deferred(let f):
                children[i].cross = f == 1 ? finalCross - children[i].crossEdges : f * finalCross
            }
        }

        // Leftover space: flexible inter-item spacing first, else flexible edges (§1.2, §2.3).
        var actualGap = gap
        var leftover = finalMain - sumMain - minGaps
        if spacing.isFlexible, children.count >= 2, leftover > 0 {
            actualGap = gap + leftover / Double(children.count - 1)
            leftover = 0
        }
        var flexibleEdges = 0
        for c in children {
            if c.lead?.isFlexible == true { flexibleEdges += 1 }
            if c.trail?.isFlexible == true { flexibleEdges += 1 }
        }
        let share = flexibleEdges > 0 && leftover > 0 ? leftover / Double(flexibleEdges) : 0

        var placed: [PlacedItem] = []
        placed.reserveCapacity(consumed)
        var tree: [GroupPlan.Node] = []
        var cursor = horizontal ? insets.leading : insets.top
        let crossOrigin = horizontal ? insets.top : insets.leading
        for (i, child) in children.enumerated() {
            if i > 0 { cursor += actualGap }
            cursor += Self.edgeValue(child.lead, share: share)
            // Cross-axis placement: top by default; flexible edges move the item (§2.4).
            var crossPos = crossOrigin + (child.crossLead?.minimum ?? 0)
            let crossFree = finalCross - child.cross - child.crossEdges
            if crossFree > 0 {
                switch (child.crossLead?.isFlexible == true, child.crossTrail?.isFlexible == true) {
                case (true, true): crossPos += crossFree / 2
                case (true, false): crossPos += crossFree
                default: break
                }
            }
            let slot =
                horizontal
                ? Rect(x: cursor, y: crossPos, width: child.main, height: child.cross)
                : Rect(x: crossPos, y: cursor, width: child.cross, height: child.main)
            switch child.subitem {
            case .item(let item):
                placed.append(PlacedItem(index: child.itemIndex, slot: slot, cell: Self.cell(slot, item)))
                if recordsTree { tree.append(.item(index: child.itemIndex, path: [child.descriptionIndex])) }
            case .group(let nestedGroup):
                var nested = child.nested!
                if nested.size.width != slot.width || nested.size.height != slot.height {
                    nested = fill(
                        nestedGroup, container: inner, start: child.itemIndex, available: nested.consumed,
                        overrideWidth: slot.width, overrideHeight: slot.height)
                }
                if recordsTree {
                    tree.append(
                        .group(
                            path: [child.descriptionIndex],
                            children: nested.tree.map { $0.prefixed(child.descriptionIndex) }))
                }
                for p in nested.items {
                    placed.append(
                        PlacedItem(
                            index: p.index, slot: p.slot.offsetBy(dx: slot.x, dy: slot.y),
                            cell: p.cell.offsetBy(dx: slot.x, dy: slot.y)))
                }
            }
            cursor += child.main + Self.edgeValue(child.trail, share: share)
        }
        return Instance(size: Size(width: width, height: height), items: placed, consumed: consumed, tree: tree)
    }

    /// How much an item may overshoot its group and still fit: far below a device pixel, so
    /// sums of fractions that equal the group (4 × 25 %) fit despite floating-point error.
    static let fitTolerance = 1e-6

    static func crossMode(_ dim: LayoutDimension, axis: Axis, groupCrossFixed: Bool) -> CrossMode {
        if case .uniformAcrossSiblings = dim { return .stretch }
        if !groupCrossFixed, let f = fraction(dim, along: axis) { return .deferred(f) }
        return .fixed
    }

    /// The cell: the slot minus contentInsets on the axes whose dimension is not estimated (§1.2).
    static func cell(_ slot: Rect, _ item: LayoutItem) -> Rect {
        let ci = item.contentInsets
        if ci.isZero { return slot }
        var cell = slot
        if !item.size.width.isEstimated {
            cell.x += ci.leading
            cell.width -= ci.leading + ci.trailing
        }
        if !item.size.height.isEstimated {
            cell.y += ci.top
            cell.height -= ci.top + ci.bottom
        }
        return cell
    }

    /// The fraction when `dim` is a fraction of the container's extent along `axis`.
    static func fraction(_ dim: LayoutDimension, along axis: Axis) -> Double? { dim.fraction(along: axis) }

    static func edgeValue(_ s: LayoutSpacing?, share: Double) -> Double {
        guard let s else { return 0 }
        return s.isFlexible ? s.minimum + share : s.minimum
    }
}
