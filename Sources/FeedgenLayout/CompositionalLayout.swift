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

    /// The section description in force for `layout` at `environment` (the section provider
    /// evaluated with the environment's effective content width, layout-semantics §4.2).
    public static func section(_ layout: AdaptiveSection, in environment: LayoutEnvironment) -> LayoutSection {
        layout.section(forWidth: environment.effectiveContentWidth)
    }

    /// The reference box of a section's top-level group (layout-semantics §1.1, §3.6), CSS px:
    /// the section's content width × (viewport height − vertical insets) in a normal section; the
    /// full scroller width × viewport height in an orthogonal one (feedgen's decision on U-1:
    /// neither the section's insets nor its `contentInsetsReference` narrow it).
    public static func groupContainer(_ section: LayoutSection, in env: LayoutEnvironment) -> Size {
        if section.orthogonalScrollingBehavior.isOrthogonal {
            return Size(width: env.containerWidth, height: env.viewportHeight)
        }
        let ref = env.referenceInsets(section.contentInsetsReference)
        return Size(
            width: env.containerWidth - ref.leading - ref.trailing - section.contentInsets.horizontal,
            height: env.viewportHeight - section.contentInsets.vertical)
    }

    static func solveSection(
        _ input: SectionInput, top: Double, environment env: LayoutEnvironment, measurements: Measurements
    ) -> ResolvedSection {
        let W = env.containerWidth
        let layout = section(input.layout, in: env)
        let ref = env.referenceInsets(layout.contentInsetsReference)
        let insets = layout.contentInsets
        let ids = input.itemIDs
        let contentX = ref.leading + insets.leading
        let contentWidth = W - ref.leading - ref.trailing - insets.horizontal

        var y = top
        func supplementary(_ item: BoundarySupplementaryItem?, measured: Double?) -> Rect {
            // Headers and footers follow the section's inline insets (U-6); fractions refer to
            // that width and to the viewport height.
            let h = (item ?? BoundarySupplementaryItem()).height
                .resolve(in: Size(width: contentWidth, height: env.viewportHeight), measured: measured)
            return Rect(x: contentX, y: y, width: contentWidth, height: h)
        }
        var headerFrame: Rect?
        if input.hasHeader {
            let frame = supplementary(layout.header, measured: measurements.headers[input.id])
            headerFrame = frame
            y += frame.height
        }

        var groups: [Rect] = []
        var items: [ResolvedItem] = []
        var orthogonal: ResolvedOrthogonal?

        if !ids.isEmpty {
            y += insets.top
            let orthogonalBehavior = layout.orthogonalScrollingBehavior
            let container = groupContainer(layout, in: env)
            let instances = InstanceSequence(
                group: layout.group, container: container, ids: ids, measurements: measurements,
                uniformHeight: layout.group.size.height.isUniform)
            groups.reserveCapacity(instances.estimatedCount)
            items.reserveCapacity(ids.count)

            func append(_ instance: GroupSolver.Instance, offset: Int, at x: Double, _ y: Double) {
                let group = groups.count
                groups.append(Rect(x: x, y: y, width: instance.size.width, height: instance.size.height))
                for p in instance.items {
                    items.append(
                        ResolvedItem(
                            id: ids[p.index + offset],
                            frame: Rect(x: p.cell.x + x, y: p.cell.y + y, width: p.cell.width, height: p.cell.height),
                            slot: Rect(x: p.slot.x + x, y: p.slot.y + y, width: p.slot.width, height: p.slot.height),
                            groupIndex: group))
                }
            }

            if orthogonalBehavior.isOrthogonal {
                let leadingInset: Double
                let trailingInset: Double
                if orthogonalBehavior == .groupPagingCentered {
                    // Centring insets replace the section's inline insets (§7.4, U-2). They come
                    // from the group description (an estimated width uses its estimate), as the
                    // CSS padding does.
                    let c = (W - layout.group.size.width.resolve(in: container)) / 2
                    leadingInset = c
                    trailingInset = c
                } else {
                    leadingInset = contentX
                    trailingInset = ref.trailing + insets.trailing
                }
                var x = leadingInset
                var rowHeight = 0.0
                instances.forEach { instance, offset in
                    if !groups.isEmpty { x += layout.interGroupSpacing }
                    append(instance, offset: offset, at: x, y)
                    x += instance.size.width
                    rowHeight = max(rowHeight, instance.size.height)
                }
                let scroller = Rect(x: 0, y: y - insets.top, width: W, height: insets.vertical + rowHeight)
                orthogonal = OrthogonalSnapping.resolve(
                    behavior: orthogonalBehavior, groups: groups, scroller: scroller,
                    contentWidth: x + trailingInset, leadingInset: leadingInset)
                y += rowHeight
            } else {
                instances.forEach { instance, offset in
                    if !groups.isEmpty { y += layout.interGroupSpacing }
                    append(instance, offset: offset, at: contentX, y)
                    y += instance.size.height
                }
            }
            y += insets.bottom
        }

        var footerFrame: Rect?
        if input.hasFooter {
            let frame = supplementary(layout.footer, measured: measurements.footers[input.id])
            footerFrame = frame
            y += frame.height
        }
        let frame = Rect(x: 0, y: top, width: W, height: y - top)
        return ResolvedSection(
            id: input.id, frame: frame, headerFrame: headerFrame, footerFrame: footerFrame,
            backgroundFrame: layout.background ? frame : nil, groups: groups, items: items,
            orthogonal: orthogonal, layout: layout)
    }
}

/// The group instances of one section, in order.
///
/// Every full instance of a group is the same unless an item in it was measured (only estimated
/// dimensions read measurements), so the sequence solves one template instance and translates
/// it; instances holding measured items, and the partial last one, are solved on their own.
/// With a section-wide `uniformAcrossSiblings` height on the top-level group ([S3]), every
/// instance is then re-solved at the tallest instance's height.
struct InstanceSequence {
    let group: LayoutGroup
    let container: Size
    let ids: [String]
    let measurements: Measurements
    let uniformHeight: Bool

    var estimatedCount: Int { ids.count }

    /// Calls `body` with each instance and the index of its first item (instance item indices
    /// are relative to that offset).
    func forEach(_ body: (GroupSolver.Instance, Int) -> Void) {
        let n = ids.count
        let measuredItems = measurements.items
        let plain = GroupSolver(measured: nil)
        let solver: GroupSolver
        if measuredItems.isEmpty {
            solver = plain
        } else {
            let ids = self.ids
            solver = GroupSolver(measured: { measuredItems[ids[$0]] })
        }
        let template = plain.fill(group, container: container, start: 0, available: n)
        let k = template.consumed
        guard k > 0 else { return }

        // Whether items start...start+k (the next one too: it may fit once measured) were measured.
        func touchesMeasured(_ start: Int) -> Bool {
            if measuredItems.isEmpty { return false }
            for i in start...min(start + k, n - 1) where measuredItems[ids[i]] != nil { return true }
            return false
        }

        func next(_ start: Int) -> (GroupSolver.Instance, Int) {
            if start + k <= n, !touchesMeasured(start) { return (template, start) }
            return (solver.fill(group, container: container, start: start, available: n - start), 0)
        }

        if !uniformHeight {
            var start = 0
            while start < n {
                let (instance, offset) = next(start)
                if instance.consumed == 0 { break }
                body(instance, offset)
                start += instance.consumed
            }
            return
        }
        var all: [(GroupSolver.Instance, Int, Int)] = []
        var start = 0
        while start < n {
            let (instance, offset) = next(start)
            if instance.consumed == 0 { break }
            all.append((instance, offset, start))
            start += instance.consumed
        }
        let tallest = all.map(\.0.size.height).max() ?? 0
        var stretchedTemplate: GroupSolver.Instance?
        for (instance, offset, start) in all {
            if instance.size.height == tallest {
                body(instance, offset)
            } else if offset != 0 {
                if stretchedTemplate == nil {
                    stretchedTemplate = plain.fill(
                        group, container: container, start: 0, available: k, overrideWidth: instance.size.width,
                        overrideHeight: tallest)
                }
                body(stretchedTemplate!, offset)
            } else {
                body(
                    solver.fill(
                        group, container: container, start: start, available: instance.consumed,
                        overrideWidth: instance.size.width, overrideHeight: tallest), 0)
            }
        }
    }
}

extension LayoutDimension {
    /// True for `uniformAcrossSiblings`.
    public var isUniform: Bool {
        if case .uniformAcrossSiblings = self { return true }
        return false
    }
}
