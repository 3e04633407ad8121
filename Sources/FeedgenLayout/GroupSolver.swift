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
    /// A partial instance of a `subitems` group keeps a full one's positions (§2.6); false for
    /// a wrapping row (`LayoutCSS` wrap flow), whose lines each share their own leftover.
    var keepsFullPositions = true

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

    fileprivate struct Child {
        var descriptionIndex: Int
        var main: Double
        var cross: Double
        var mode: CrossMode
        var lead: LayoutSpacing?
        var trail: LayoutSpacing?
        var crossLead: LayoutSpacing?
        var crossTrail: LayoutSpacing?
        var itemIndex: Int
        var consumed: Int
        /// Where the child's items start in the `placed` buffer (appended in snapshot order when
        /// the child is made; positions are written when it is placed).
        var firstPlaced: Int
        /// How many entries of `placed` are the child's.
        var placedCount: Int
        /// A nested group's size from its first solution (nil for an item).
        var nestedSize: Size?
        /// An item's contentInsets that apply (none on estimated axes).
        var cellInsets: DirectionalEdgeInsets = .zero
        /// Where the nested group's element tree starts in the group's tree list.
        var treeIndex = 0

        var mainEdges: Double { (lead?.minimum ?? 0) + (trail?.minimum ?? 0) }
        var crossEdges: Double { (crossLead?.minimum ?? 0) + (crossTrail?.minimum ?? 0) }
    }

    /// Fills one instance of `group` in a container of size `container`, taking at most
    /// `available` items starting at item index `start`. `overrideWidth`/`overrideHeight` force
    /// the group's extent (a parent `count` group overrides its subitem's main dimension; a
    /// stretched or deferred group gets its settled cross extent).
    func fill(
        _ group: LayoutGroup, container: Size, start: Int, available: Int,
        overrideWidth: Double? = nil, overrideHeight: Double? = nil
    ) -> Instance {
        var placed: [PlacedItem] = []
        var tree: [GroupPlan.Node] = []
        var stack = ChildStack()
        let (size, consumed) = fill(
            group, container: container, start: start, available: available, overrideWidth: overrideWidth,
            overrideHeight: overrideHeight, stack: &stack, placed: &placed, tree: &tree)
        return Instance(size: size, items: placed, consumed: consumed, tree: tree)
    }

    /// The children of the groups being solved, innermost last: a group's children sit above
    /// its parent's, and are dropped when it is done (one buffer for a whole section).
    struct ChildStack {
        fileprivate var children: [Child] = []
    }

    /// The instance's size and the number of items it holds; its items are appended to `placed`
    /// (relative to the group's origin) and, when `recordsTree`, its elements to `tree`.
    func fill(
        _ group: LayoutGroup, container: Size, start: Int, available: Int, overrideWidth: Double?,
        overrideHeight: Double?, stack: inout ChildStack, placed: inout [PlacedItem], tree: inout [GroupPlan.Node]
    ) -> (size: Size, consumed: Int) {
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

        let base = stack.children.count
        defer { stack.children.removeLast(stack.children.count - base) }
        var consumed = 0
        var nestedTrees: [[GroupPlan.Node]] = []
        // The subitems a full instance would still hold after the last item (a partial last
        // group keeps the positions of a full one, §2.6): their extents and flexible edges.
        var missing = (count: 0, extent: 0.0, flexibleEdges: 0)

        switch group.content {
        case .count(let n, let sub):
            let count = max(n, 1)
            let slot = (innerMain - Double(count - 1) * gap) / Double(count)
            for _ in 0..<count where consumed < available {
                guard
                    let child = makeChild(
                        sub, description: 0, slot: slot, axis: axis, provisional: provisional, crossFixed: crossFixed,
                        index: start + consumed, available: available - consumed, stack: &stack, placed: &placed,
                        trees: &nestedTrees)
                else { break }
                consumed += child.consumed
                stack.children.append(child)
            }
            // The empty slots of a partial instance take no leftover (flexible spacing acts as fixed).
            let placed = stack.children.count - base
            if placed > 0, placed < count { missing = (count - placed, Double(count - placed) * slot, 0) }
        case .subitems(let list):
            guard !list.isEmpty else { break }
            if mainFixed {
                var used = 0.0
                var k = 0
                var usedAtRound = -1.0
                while consumed < available {
                    let d = k % list.count
                    // Subitems that take no room along the axis (a zero width, no spacing) would
                    // repeat until the items run out: one round of them fills the instance.
                    if d == 0 {
                        if used == usedAtRound { break }
                        usedAtRound = used
                    }
                    // A nested group of fixed main extent that cannot fit is not solved only to be
                    // dropped: solving it first made each nesting level solve its subitems twice,
                    // 2^depth work (40 nested fractionalWidth(1.0) groups never finished).
                    if stack.children.count > base, case .group(let nested) = list[d],
                        !nested.size.dimension(axis).isEstimated,
                        used + gap + nested.size.dimension(axis).resolve(in: provisional) > innerMain + Self.fitTolerance
                    {
                        break
                    }
                    guard
                        let child = makeChild(
                            list[d], description: d, slot: nil, axis: axis, provisional: provisional,
                            crossFixed: crossFixed, index: start + consumed, available: available - consumed,
                            stack: &stack, placed: &placed,
                            trees: &nestedTrees)
                    else { break }
                    let extent = (stack.children.count == base ? 0 : gap) + child.main + child.mainEdges
                    if stack.children.count > base, used + extent > innerMain + Self.fitTolerance {
                        placed.removeLast(child.placedCount)
                        if recordsTree, child.nestedSize != nil { nestedTrees.removeLast() }
                        break
                    }
                    used += extent
                    consumed += child.consumed
                    stack.children.append(child)
                    k += 1
                }
                if keepsFullPositions, consumed == available, stack.children.count > base {
                    missing = Self.missingSubitems(
                        list, from: k, used: used, gap: gap, innerMain: innerMain, axis: axis, provisional: provisional)
                }
            } else {
                for (d, sub) in list.enumerated() where consumed < available {
                    guard
                        let child = makeChild(
                            sub, description: d, slot: nil, axis: axis, provisional: provisional,
                            crossFixed: crossFixed, index: start + consumed, available: available - consumed,
                            stack: &stack, placed: &placed,
                            trees: &nestedTrees)
                    else { break }
                    consumed += child.consumed
                    stack.children.append(child)
                }
            }
        }

        // The group's own extent on estimated axes (§2.7).
        var sumMain = 0.0
        var tallest = 0.0
        for i in base..<stack.children.count {
            let c = stack.children[i]
            sumMain += c.main + c.mainEdges
            if case .deferred = c.mode { continue }
            tallest = max(tallest, c.cross + c.crossEdges)
        }
        let count = stack.children.count - base
        let minGaps = Double(max(count - 1, 0)) * gap
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
        var flexibleEdges = 0
        for i in base..<stack.children.count {
            switch stack.children[i].mode {
            case .fixed: break
            case .stretch: stack.children[i].cross = finalCross - stack.children[i].crossEdges
            case .deferred(let f):
                stack.children[i].cross = f == 1 ? finalCross - stack.children[i].crossEdges : f * finalCross
            }
            if stack.children[i].lead?.isFlexible == true { flexibleEdges += 1 }
            if stack.children[i].trail?.isFlexible == true { flexibleEdges += 1 }
        }

        // Leftover space: flexible inter-item spacing first, else flexible edges (§1.2, §2.3),
        // shared as in a full instance (`missing`: none unless this one ran out of items).
        var actualGap = gap
        let full = count + missing.count
        var leftover = finalMain - sumMain - missing.extent - Double(max(full - 1, 0)) * gap
        if spacing.isFlexible, full >= 2, leftover > 0 {
            actualGap = gap + leftover / Double(full - 1)
            leftover = 0
        }
        let edges = flexibleEdges + missing.flexibleEdges
        let share = edges > 0 && leftover > 0 ? leftover / Double(edges) : 0

        var cursor = horizontal ? insets.leading : insets.top
        let crossOrigin = horizontal ? insets.top : insets.leading
        var shift = 0  // entries added to `placed` by re-solved nested groups so far
        for i in base..<base + count {
            let child = stack.children[i]
            if i > base { cursor += actualGap }
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
            let first = child.firstPlaced + shift
            guard let nestedSize = child.nestedSize else {
                placed[first] = PlacedItem(
                    index: child.itemIndex, slot: slot,
                    cell: child.cellInsets.isZero ? slot : slot.inset(by: child.cellInsets))
                if recordsTree { tree.append(.item(index: child.itemIndex, path: [child.descriptionIndex])) }
                cursor += child.main + Self.edgeValue(child.trail, share: share)
                continue
            }
            var itemCount = child.placedCount
            var nestedTree = recordsTree ? nestedTrees[child.treeIndex] : []
            if nestedSize.width != slot.width || nestedSize.height != slot.height,
                case .group(let nestedGroup) = group.subitem(child.descriptionIndex)
            {
                // Settled on a new extent (deferred or stretched): solve it again there.
                var fresh: [PlacedItem] = []
                nestedTree = []
                _ = fill(
                    nestedGroup, container: inner, start: child.itemIndex, available: child.consumed,
                    overrideWidth: slot.width, overrideHeight: slot.height, stack: &stack, placed: &fresh,
                    tree: &nestedTree)
                placed.replaceSubrange(first..<first + itemCount, with: fresh)
                shift += fresh.count - itemCount
                itemCount = fresh.count
            }
            for j in first..<first + itemCount {
                placed[j].slot = placed[j].slot.offsetBy(dx: slot.x, dy: slot.y)
                placed[j].cell = placed[j].cell.offsetBy(dx: slot.x, dy: slot.y)
            }
            if recordsTree {
                tree.append(
                    .group(path: [child.descriptionIndex], children: nestedTree.map { $0.prefixed(child.descriptionIndex) }))
            }
            cursor += child.main + Self.edgeValue(child.trail, share: share)
        }
        return (Size(width: width, height: height), consumed)
    }

    /// One child of a group, before positions are assigned; nil when a nested group holds nothing.
    /// Its items are appended to `placed` (a nested group's relative to its own origin).
    private func makeChild(
        _ sub: LayoutSubitem, description: Int, slot: Double?, axis: Axis, provisional: Size, crossFixed: Bool,
        index: Int, available: Int, stack: inout ChildStack, placed: inout [PlacedItem],
        trees: inout [[GroupPlan.Node]]
    ) -> Child? {
        let horizontal = axis == .horizontal
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
            placed.append(PlacedItem(index: index, slot: .zero, cell: .zero))
            var cellInsets = item.contentInsets
            if item.size.width.isEstimated {
                cellInsets.leading = 0
                cellInsets.trailing = 0
            }
            if item.size.height.isEstimated {
                cellInsets.top = 0
                cellInsets.bottom = 0
            }
            return Child(
                descriptionIndex: description, main: main, cross: cross, mode: mode, lead: lead, trail: trail,
                crossLead: crossLead, crossTrail: crossTrail, itemIndex: index, consumed: 1,
                firstPlaced: placed.count - 1, placedCount: 1, cellInsets: cellInsets)
        case .group(let nestedGroup):
            let mode = Self.crossMode(
                nestedGroup.size.dimension(axis.cross), axis: axis.cross, groupCrossFixed: crossFixed)
            let before = placed.count
            var nestedTree: [GroupPlan.Node] = []
            let (s, count) = fill(
                nestedGroup, container: provisional, start: index, available: available,
                overrideWidth: horizontal ? slot : nil, overrideHeight: horizontal ? nil : slot, stack: &stack,
                placed: &placed, tree: &nestedTree)
            guard count > 0 else {
                placed.removeLast(placed.count - before)
                return nil
            }
            if recordsTree { trees.append(nestedTree) }
            return Child(
                descriptionIndex: description, main: horizontal ? s.width : s.height,
                cross: horizontal ? s.height : s.width, mode: mode, itemIndex: index, consumed: count,
                firstPlaced: before, placedCount: placed.count - before, nestedSize: s,
                treeIndex: recordsTree ? trees.count - 1 : 0)
        }
    }

    /// How much an item may overshoot its group and still fit: far below a device pixel, so
    /// sums of fractions that equal the group (4 × 25 %) fit despite floating-point error.
    static let fitTolerance = 1e-6

    static func crossMode(_ dim: LayoutDimension, axis: Axis, groupCrossFixed: Bool) -> CrossMode {
        if case .uniformAcrossSiblings = dim { return .stretch }
        if !groupCrossFixed, let f = fraction(dim, along: axis) { return .deferred(f) }
        return .fixed
    }

    /// The fraction when `dim` is a fraction of the container's extent along `axis`.
    static func fraction(_ dim: LayoutDimension, along axis: Axis) -> Double? { dim.fraction(along: axis) }

    static func edgeValue(_ s: LayoutSpacing?, share: Double) -> Double {
        guard let s else { return 0 }
        return s.isFlexible ? s.minimum + share : s.minimum
    }
}
