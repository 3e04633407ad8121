/// The compositional layout solver (Apple: `UICollectionViewCompositionalLayout`), pure and
/// deterministic: the same input gives the same frames on every machine.
///
/// Geometry follows layout-semantics §3 and §9: sections stack vertically with
/// `interSectionSpacing` between them; inside a section come the header, the top inset, the group
/// instances separated by `interGroupSpacing`, the bottom inset and the footer. Orthogonal sections
/// lay their groups out along x inside a full-width scroller.
public enum CompositionalLayout {
    /// Resolves every section at `environment.containerWidth`.
    ///
    /// - Parameters:
    ///   - sections: the snapshot: sections in order, each with its item identifiers in order.
    ///   - environment: the container (CSS px).
    ///   - measurements: measured sizes for estimated dimensions; missing ones use their estimates
    ///     (UIKit's provisional pass, layout-semantics §5.1).
    /// - Returns: frames in CSS px, relative to the collection's top-left corner.
    public static func solve(
        _ sections: [SectionInput], environment: LayoutEnvironment, measurements: Measurements = .none
    ) -> ResolvedLayout {
        var y = 0.0
        var resolved: [ResolvedSection] = []
        resolved.reserveCapacity(sections.count)
        for (index, input) in sections.enumerated() {
            if index > 0 { y += environment.interSectionSpacing }
            let section = solveSection(input, top: y, environment: environment, measurements: measurements)
            y = section.frame.maxY
            resolved.append(section)
        }
        return ResolvedLayout(environment: environment, sections: resolved, contentHeight: y)
    }

    /// The effective width `W_eff` the section provider sees for `section`'s reference.
    public static func effectiveWidth(_ environment: LayoutEnvironment, reference: ContentInsetsReference) -> Double {
        let ref = environment.referenceInsets(reference)
        return environment.containerWidth - ref.leading - ref.trailing
    }

    static func solveSection(
        _ input: SectionInput, top: Double, environment env: LayoutEnvironment, measurements: Measurements
    ) -> ResolvedSection {
        let W = env.containerWidth
        let baseRef = env.referenceInsets(input.layout.base.contentInsetsReference)
        let layout = input.layout.section(forWidth: W - baseRef.leading - baseRef.trailing)
        let ref = env.referenceInsets(layout.contentInsetsReference)
        let insets = layout.contentInsets
        let ids = input.itemIDs
        let solver = GroupSolver(measured: { i in measurements.items[ids[i]] })

        var y = top
        var headerFrame: Rect?
        if input.hasHeader {
            let h = (layout.header ?? BoundarySupplementaryItem()).height
                .resolve(in: Size(width: W, height: env.viewportHeight), measured: measurements.headers[input.id])
            headerFrame = Rect(x: ref.leading + insets.leading, y: y, width: W - ref.leading - ref.trailing - insets.horizontal, height: h)
            y += h
        }

        var groups: [Rect] = []
        var items: [ResolvedItem] = []
        items.reserveCapacity(ids.count)
        var orthogonal: ResolvedOrthogonal?

        func append(_ instance: GroupSolver.Instance, at origin: (x: Double, y: Double), group: Int) {
            groups.append(Rect(x: origin.x, y: origin.y, width: instance.size.width, height: instance.size.height))
            for p in instance.items {
                items.append(
                    ResolvedItem(
                        id: ids[p.index], frame: p.cell.offsetBy(dx: origin.x, dy: origin.y),
                        slot: p.slot.offsetBy(dx: origin.x, dy: origin.y), groupIndex: group))
            }
        }

        if !ids.isEmpty {
            y += insets.top
            if layout.orthogonalScrollingBehavior.isOrthogonal {
                // The reference box of a top-level group is the full scroller width (§3.6, U-1).
                let container = Size(width: W - ref.leading - ref.trailing, height: env.viewportHeight)
                var instances: [GroupSolver.Instance] = []
                var start = 0
                while start < ids.count {
                    let inst = solver.fill(layout.group, container: container, start: start, available: ids.count - start)
                    if inst.consumed == 0 { break }
                    instances.append(inst)
                    start += inst.consumed
                }
                let centred = layout.orthogonalScrollingBehavior == .groupPagingCentered
                var x: Double
                var trailing: Double
                if centred, let first = instances.first {
                    // Centring insets replace the section's inline insets (§7.4, U-2).
                    x = (W - first.size.width) / 2
                    trailing = (W - (instances.last?.size.width ?? first.size.width)) / 2
                } else {
                    x = ref.leading + insets.leading
                    trailing = insets.trailing + ref.trailing
                }
                let leadingInset = x
                let rowHeight = instances.map(\.size.height).max() ?? 0
                for (g, inst) in instances.enumerated() {
                    if g > 0 { x += layout.interGroupSpacing }
                    append(inst, at: (x, y), group: g)
                    x += inst.size.width
                }
                let contentWidth = x + trailing
                let scroller = Rect(x: 0, y: y - insets.top, width: W, height: insets.vertical + rowHeight)
                orthogonal = OrthogonalSnapping.resolve(
                    behavior: layout.orthogonalScrollingBehavior, groups: groups, scroller: scroller,
                    contentWidth: contentWidth, leadingInset: leadingInset)
                y += rowHeight
            } else {
                let contentX = ref.leading + insets.leading
                let container = Size(
                    width: W - ref.leading - ref.trailing - insets.horizontal,
                    height: env.viewportHeight - insets.vertical)
                var start = 0
                var g = 0
                while start < ids.count {
                    let inst = solver.fill(layout.group, container: container, start: start, available: ids.count - start)
                    if inst.consumed == 0 { break }
                    if g > 0 { y += layout.interGroupSpacing }
                    append(inst, at: (contentX, y), group: g)
                    y += inst.size.height
                    start += inst.consumed
                    g += 1
                }
            }
            y += insets.bottom
        }

        var footerFrame: Rect?
        if input.hasFooter {
            let h = (layout.footer ?? BoundarySupplementaryItem()).height
                .resolve(in: Size(width: W, height: env.viewportHeight), measured: measurements.footers[input.id])
            footerFrame = Rect(x: ref.leading + insets.leading, y: y, width: W - ref.leading - ref.trailing - insets.horizontal, height: h)
            y += h
        }
        let frame = Rect(x: 0, y: top, width: W, height: y - top)
        return ResolvedSection(
            id: input.id, frame: frame, headerFrame: headerFrame, footerFrame: footerFrame,
            backgroundFrame: layout.background ? frame : nil, groups: groups, items: items,
            orthogonal: orthogonal, layout: layout)
    }
}
