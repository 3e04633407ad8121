/// Maps a section's layout to HTML structure (`plan`) and CSS rules (`rules`): the one place where
/// the model decides the CSS (layout-semantics §8). Each dimension becomes a `CSSLength`, so the
/// browser's boxes equal the solver's frames at every container width.
///
/// Element structure the rules style (written by the emitter):
/// ```
/// section.cl-section[data-section-id]         container "cl-section": the collection width W
///   header.cl-header                          boundary supplementary header (follows insets)
///   div.cl-groups[role=list]                  section insets; orthogonal: the scroller [data-scroller]
///     div.cl-group.lp[role=none]              one per group instance (structure .nested)
///       div.cl-item.lp-0[role=listitem]       the slot (padding = item contentInsets)
///         div.cl-cell[data-item-id]           the cell: the card's frame
///     div.cl-pages > span                     paging snap markers, one per container width
///   footer.cl-footer                          boundary supplementary footer
///   div.cl-background                         background decoration (behind everything)
/// ```
///
/// Every rule block sets the same properties, so an adaptive rule (`@container cl-section
/// (min-width: …)`) replaces the base rule's arrangement completely.
public enum LayoutCSS {
    // MARK: - Modes and plan

    /// The arrangement of one section description (see `GroupPlan.Mode`).
    public static func mode(of section: LayoutSection) -> GroupPlan.Mode {
        let g = section.group
        if section.orthogonalScrollingBehavior.isOrthogonal {
            return mergedItem(g) != nil ? .rowFlow : .groups
        }
        guard g.direction == .horizontal, g.contentInsets.isZero, !g.size.width.isEstimated else { return .groups }
        switch g.content {
        case .count(_, .item):
            return .gridFlow
        case .subitems(let list) where list.count == 1:
            if case .item = list[0], g.size.width == .fractionalWidth(1) { return .wrapFlow }
            return .groups
        default:
            return .groups
        }
    }

    /// The one item of a group that is exactly its item (no group insets, no edge spacing, the
    /// item fills the group on both axes), so one element can be both: nil otherwise.
    static func mergedItem(_ g: LayoutGroup) -> LayoutItem? {
        guard g.contentInsets.isZero else { return nil }
        let item: LayoutItem
        var overriddenMain = false
        switch g.content {
        case .count(1, .item(let i)):
            item = i
            overriddenMain = true
        case .subitems(let list) where list.count == 1:
            guard case .item(let i) = list[0] else { return nil }
            item = i
        default:
            return nil
        }
        guard item.edgeSpacing == nil else { return nil }
        for axis in Axis.allCases {
            if axis == g.direction, overriddenMain { continue }
            let own = g.size.dimension(axis)
            let sub = item.size.dimension(axis)
            if own.isEstimated, sub.isEstimated { continue }
            if !own.isEstimated, GroupSolver.fraction(sub, along: axis) == 1 { continue }
            if case .absolute(let a) = own, case .absolute(let b) = sub, a == b { continue }
            return nil
        }
        return item
    }

    /// The HTML structure shared by all of a section's rules, and the rules whose own mode does
    /// not fit it (their arrangement cannot be written; `warnings` reports them).
    static func structure(_ layout: AdaptiveSection) -> (GroupPlan.Structure, misfits: [Double]) {
        let baseMode = mode(of: layout.base)
        if baseMode.isFlat {
            return (.flat, layout.rules.filter { !mode(of: $0.section).isFlat }.map(\.minWidth))
        }
        let shape = firstInstanceShape(layout.base)
        return (
            .nested,
            layout.rules.filter { mode(of: $0.section).isFlat || firstInstanceShape($0.section) != shape }.map(\.minWidth)
        )
    }

    /// The element tree of a full first instance at width 390 (item indices from 0).
    static func firstInstanceShape(_ section: LayoutSection, width: Double = 390) -> [GroupPlan.Node] {
        let env = LayoutEnvironment(containerWidth: width)
        let solver = GroupSolver(measured: nil, recordsTree: true)
        return solver.fill(
            section.group, container: CompositionalLayout.groupContainer(section, in: env), start: 0,
            available: 4096
        ).tree
    }

    /// How to write `itemCount` items: flat structures need no instances; nested ones get the
    /// instances the solver makes at 390 px (their capacities do not depend on the width, or `warnings`
    /// says so).
    public static func plan(
        _ layout: AdaptiveSection, itemCount: Int,
        environment: LayoutEnvironment = LayoutEnvironment(containerWidth: 390)
    ) -> GroupPlan {
        let (structure, _) = structure(layout)
        let markers = pageMarkers(layout, itemCount: itemCount)
        guard structure == .nested, itemCount > 0 else { return GroupPlan(structure: structure, pageMarkers: markers) }
        let section = mode(of: layout.section(forWidth: environment.effectiveContentWidth)) == .groups
            ? layout.section(forWidth: environment.effectiveContentWidth) : layout.base
        let solver = GroupSolver(measured: nil, recordsTree: true)
        let container = CompositionalLayout.groupContainer(section, in: environment)
        var instances: [[GroupPlan.Node]] = []
        var start = 0
        while start < itemCount {
            let inst = solver.fill(section.group, container: container, start: start, available: itemCount - start)
            if inst.consumed == 0 { break }
            instances.append(inst.tree)
            start += inst.consumed
        }
        return GroupPlan(structure: structure, instances: instances, pageMarkers: markers)
    }

    /// The smallest container width for which the emitted paging markers suffice (CSS px).
    public static let minimumPagingWidth = 160.0

    /// Markers `k · W` for `k = 0 … K − 1` must reach the last resting offset at every container
    /// width `W ≥ minimumPagingWidth` where a rule pages; unreachable markers clamp to the end,
    /// so a few too many are harmless. Estimated extents count with their estimates, every group
    /// as a full one, plus a margin of two.
    static func pageMarkers(_ layout: AdaptiveSection, itemCount: Int) -> Int {
        let variants = [layout.base] + layout.rules.map(\.section)
        guard itemCount > 0, variants.contains(where: { $0.orthogonalScrollingBehavior == .paging }) else { return 0 }
        var most = 1
        var width = minimumPagingWidth
        while width <= 4096 {
            let env = LayoutEnvironment(containerWidth: width)
            let s = layout.section(forWidth: env.effectiveContentWidth)
            if s.orthogonalScrollingBehavior == .paging {
                let container = CompositionalLayout.groupContainer(s, in: env)
                let template = GroupSolver(measured: nil).fill(
                    s.group, container: container, start: 0, available: itemCount)
                if template.consumed > 0 {
                    let groups = Double((itemCount + template.consumed - 1) / template.consumed)
                    let ref = env.referenceInsets(s.contentInsetsReference)
                    let content = ref.leading + ref.trailing + s.contentInsets.horizontal
                        + groups * (template.size.width + s.interGroupSpacing)
                    most = max(most, Int((max(0, content - width) / width).rounded(.up)) + 1)
                }
            }
            width += width < 1024 ? 8 : 64
        }
        return most + 2
    }
}
