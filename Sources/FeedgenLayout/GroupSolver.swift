/// Lays out one instance of a group (layout-semantics §2, §5.2), consuming items in snapshot order.
///
/// Frames are relative to the group's own origin. The solver is pure and deterministic; it keeps
/// fractions as `Double` and never rounds (layout-semantics §10 U-9).
struct GroupSolver {
    /// Measured cell sizes by item index within the section (nil: not measured, use estimates).
    let measured: (Int) -> Size?

    struct PlacedItem {
        var index: Int
        var slot: Rect
        var cell: Rect
    }

    struct Instance {
        var size: Size
        var items: [PlacedItem]
        var consumed: Int
        /// The element tree of this instance, for the emitter.
        var tree: [GroupPlan.Node] = []
    }

    /// One laid-out child of a group, before positions are assigned.
    private struct Child {
        var subitem: LayoutSubitem
        var main: Double
        var cross: Double
        var crossDeferred: Bool
        var edges: (lead: LayoutSpacing?, trail: LayoutSpacing?, crossLead: LayoutSpacing?, crossTrail: LayoutSpacing?)
        var itemIndex: Int?
        var nested: Instance?
        var start: Int
        var descriptionIndex: Int = 0
    }

    /// Fills one instance of `group` in a container of size `container`, taking at most
    /// `available` items starting at item index `start`.
    /// `overrideMain`/`overrideCross` force the group's extent on its parent's axes (a parent
    /// `count` group overrides its subitem's main dimension).
    func fill(
        _ group: LayoutGroup, container: Size, start: Int, available: Int,
        overrideWidth: Double? = nil, overrideHeight: Double? = nil
    ) -> Instance {
        let axis = group.direction
        let insets = group.contentInsets
        let mainInsets = axis == .horizontal ? insets.horizontal : insets.vertical
        let crossInsets = axis == .horizontal ? insets.vertical : insets.horizontal
        var width = overrideWidth ?? group.size.width.resolve(in: container)
        var height = overrideHeight ?? group.size.height.resolve(in: container)
        let mainEstimated = (axis == .horizontal ? overrideWidth : overrideHeight) == nil
            && group.size.dimension(axis).isEstimated
        let crossEstimated = (axis == .horizontal ? overrideHeight : overrideWidth) == nil
            && group.size.dimension(axis.cross).isEstimated
        var inner = Size(width: width - insets.horizontal, height: height - insets.vertical)
        let innerMain = axis == .horizontal ? inner.width : inner.height
        let spacing = group.interItemSpacing ?? .fixed(0)
        let gap = spacing.minimum

        var children: [Child] = []
        var consumed = 0
        var used = 0.0  // along the main axis, with minimum gaps and edge spacing

        func makeChild(_ sub: LayoutSubitem, main forcedMain: Double?) -> Child? {
            guard consumed < available else { return nil }
            let edges = Self.edges(sub.edgeSpacing, axis)
            switch sub {
            case .item(let item):
                let index = start + consumed
                let m = measured(index)
                let mainDim = item.size.dimension(axis)
                let crossDim = item.size.dimension(axis.cross)
                let mainValue = forcedMain
                    ?? mainDim.resolve(in: inner, measured: axis == .horizontal ? m?.width : m?.height)
                let deferred = crossEstimated && Self.refersTo(crossDim, axis: axis.cross)
                let crossValue = crossDim.resolve(in: inner, measured: axis == .horizontal ? m?.height : m?.width)
                return Child(
                    subitem: sub, main: mainValue, cross: crossValue, crossDeferred: deferred, edges: edges,
                    itemIndex: index, nested: nil, start: index)
            case .group(let nestedGroup):
                let crossDim = nestedGroup.size.dimension(axis.cross)
                let deferred = crossEstimated && Self.refersTo(crossDim, axis: axis.cross)
                let instance = fill(
                    nestedGroup, container: inner, start: start + consumed, available: available - consumed,
                    overrideWidth: axis == .horizontal ? forcedMain : nil,
                    overrideHeight: axis == .vertical ? forcedMain : nil)
                let s = instance.size
                return Child(
                    subitem: sub, main: axis == .horizontal ? s.width : s.height,
                    cross: axis == .horizontal ? s.height : s.width, crossDeferred: deferred, edges: edges,
                    itemIndex: nil, nested: instance, start: start + consumed)
            }
        }

        func consumedBy(_ c: Child) -> Int { c.nested?.consumed ?? 1 }

        switch group.content {
        case .count(let n, let sub):
            let count = max(n, 1)
            let each = (innerMain - Double(count - 1) * gap) / Double(count)
            for _ in 0..<count {
                guard let child = makeChild(sub, main: each) else { break }
                if child.nested != nil, consumedBy(child) == 0 { break }
                consumed += consumedBy(child)
                children.append(child)
            }
        case .subitems(let list):
            guard !list.isEmpty else { break }
            var k = 0
            while consumed < available {
                guard var child = makeChild(list[k % list.count], main: nil) else { break }
                child.descriptionIndex = k % list.count
                if child.nested != nil, consumedBy(child) == 0 { break }
                let extent = (children.isEmpty ? 0 : gap) + (child.edges.lead?.minimum ?? 0) + child.main
                    + (child.edges.trail?.minimum ?? 0)
                if !children.isEmpty, !mainEstimated, used + extent > innerMain + 1e-9 { break }
                used += extent
                consumed += consumedBy(child)
                children.append(child)
                k += 1
            }
        }

        // The group's own extent on estimated axes (§2.7).
        let sumMain = children.reduce(0.0) {
            $0 + $1.main + ($1.edges.lead?.minimum ?? 0) + ($1.edges.trail?.minimum ?? 0)
        }
        let minGaps = Double(max(children.count - 1, 0)) * gap
        if mainEstimated {
            let m = sumMain + minGaps + mainInsets
            if axis == .horizontal { width = m } else { height = m }
        }
        if crossEstimated {
            let c = children.filter { !$0.crossDeferred }.map {
                $0.cross + ($0.edges.crossLead?.minimum ?? 0) + ($0.edges.crossTrail?.minimum ?? 0)
            }.max() ?? 0
            if axis == .horizontal { height = c + crossInsets } else { width = c + crossInsets }
        }
        inner = Size(width: width - insets.horizontal, height: height - insets.vertical)
        let finalMain = axis == .horizontal ? inner.width : inner.height
        let finalCross = axis == .horizontal ? inner.height : inner.width

        // Deferred fractional cross sizes resolve against the final box; uniform siblings grow.
        for i in children.indices where children[i].crossDeferred {
            let dim = children[i].subitem.size.dimension(axis.cross)
            children[i].cross = dim.resolve(in: inner)
        }
        let uniform = children.indices.filter {
            if case .uniformAcrossSiblings = children[$0].subitem.size.dimension(axis.cross) { return true }
            return false
        }
        if let tallest = uniform.map({ children[$0].cross }).max() {
            for i in uniform { children[i].cross = tallest }
        }

        // Spacing: flexible inter-item spacing and flexible edges share the leftover (§1.2, §2.3).
        var actualGap = gap
        var leftover = finalMain - sumMain - minGaps
        if spacing.isFlexible, children.count >= 2, leftover > 0 {
            actualGap = gap + leftover / Double(children.count - 1)
            leftover = 0
        }
        let flexibleEdges = children.reduce(0) {
            $0 + ($1.edges.lead?.isFlexible == true ? 1 : 0) + ($1.edges.trail?.isFlexible == true ? 1 : 0)
        }
        let flexShare = flexibleEdges > 0 && leftover > 0 ? leftover / Double(flexibleEdges) : 0

        var placed: [PlacedItem] = []
        var tree: [GroupPlan.Node] = []
        var cursor = axis == .horizontal ? insets.leading : insets.top
        let crossOrigin = axis == .horizontal ? insets.top : insets.leading
        for (i, child) in children.enumerated() {
            if i > 0 { cursor += actualGap }
            cursor += Self.edgeValue(child.edges.lead, share: flexShare)
            // Cross-axis placement: top by default; flexible edges move the item (§2.4).
            var crossPos = crossOrigin + (child.edges.crossLead?.minimum ?? 0)
            let crossFree = finalCross - child.cross - (child.edges.crossLead?.minimum ?? 0)
                - (child.edges.crossTrail?.minimum ?? 0)
            if crossFree > 0 {
                switch (child.edges.crossLead?.isFlexible == true, child.edges.crossTrail?.isFlexible == true) {
                case (true, true): crossPos += crossFree / 2
                case (true, false): crossPos += crossFree
                default: break
                }
            }
            let slot = axis == .horizontal
                ? Rect(x: cursor, y: crossPos, width: child.main, height: child.cross)
                : Rect(x: crossPos, y: cursor, width: child.cross, height: child.main)
            switch child.subitem {
            case .item(let item):
                placed.append(PlacedItem(index: child.itemIndex!, slot: slot, cell: Self.cell(slot, item)))
                tree.append(.item(index: child.itemIndex!, path: [child.descriptionIndex]))
            case .group(let nestedGroup):
                var nested = child.nested!
                let size = Size(width: slot.width, height: slot.height)
                if nested.size != size {
                    nested = fill(
                        nestedGroup, container: inner, start: child.start, available: nested.consumed,
                        overrideWidth: slot.width, overrideHeight: slot.height)
                }
                tree.append(.group(path: [child.descriptionIndex], children: nested.tree.map { $0.prefixed(child.descriptionIndex) }))
                for p in nested.items {
                    placed.append(
                        PlacedItem(
                            index: p.index, slot: p.slot.offsetBy(dx: slot.x, dy: slot.y),
                            cell: p.cell.offsetBy(dx: slot.x, dy: slot.y)))
                }
            }
            cursor += child.main + Self.edgeValue(child.edges.trail, share: flexShare)
        }
        return Instance(size: Size(width: width, height: height), items: placed, consumed: consumed, tree: tree)
    }

    /// The cell: the slot minus contentInsets on the axes whose dimension is not estimated (§1.2).
    static func cell(_ slot: Rect, _ item: LayoutItem) -> Rect {
        let ci = item.contentInsets
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

    /// Whether `dim` is a fraction of the container's extent along `axis` (so it waits for an
    /// estimated group extent on that axis to be settled).
    static func refersTo(_ dim: LayoutDimension, axis: Axis) -> Bool {
        switch dim {
        case .fractionalWidth: axis == .horizontal
        case .fractionalHeight: axis == .vertical
        default: false
        }
    }

    static func edges(_ spacing: EdgeSpacing?, _ axis: Axis)
        -> (lead: LayoutSpacing?, trail: LayoutSpacing?, crossLead: LayoutSpacing?, crossTrail: LayoutSpacing?)
    {
        guard let spacing else { return (nil, nil, nil, nil) }
        let main = spacing.edges(axis)
        let cross = spacing.edges(axis.cross)
        return (main.0, main.1, cross.0, cross.1)
    }

    static func edgeValue(_ s: LayoutSpacing?, share: Double) -> Double {
        guard let s else { return 0 }
        return s.isFlexible ? s.minimum + share : s.minimum
    }
}
