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
            let section = solveSection(
                input, top: y, environment: environment, measurements: measurements,
                indexed: measurements.indexedItems[index], indexedHeader: measurements.indexedHeaders[index])
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

    /// One section of ``solve(_:environment:measurements:)``; `indexed`: its measurements by
    /// item index (``Measurements/indexedItems``), if any; `indexedHeader`: its header's measured
    /// height by section index (``Measurements/indexedHeaders``), which wins over the one by id.
    static func solveSection(
        _ input: SectionInput, top: Double, environment env: LayoutEnvironment, measurements: Measurements,
        indexed: [Size?]? = nil, indexedHeader: Double? = nil
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
            let frame = supplementary(layout.header, measured: indexedHeader ?? measurements.headers[input.id])
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
            var instances = InstanceSequence(
                group: layout.group, container: container, ids: ids, measurements: measurements,
                indexed: indexed,
                uniformHeight: layout.group.size.height.isUniform,
                // A wrapping row's lines are the browser's (by measured widths): each shares its
                // own leftover, the last one too.
                keepsFullPositions: LayoutCSS.mode(of: layout) != .wrapFlow)
            groups.reserveCapacity(ids.count / max(instances.capacity, 1) + 1)
            items.reserveCapacity(ids.count)

            func append(_ size: Size, _ placed: [GroupSolver.PlacedItem], offset: Int, at x: Double, _ y: Double) {
                let group = groups.count
                groups.append(Rect(x: x, y: y, width: size.width, height: size.height))
                for p in placed {
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
                while let (size, offset) = instances.next() {
                    if !groups.isEmpty { x += layout.interGroupSpacing }
                    append(size, instances.items, offset: offset, at: x, y)
                    x += size.width
                    rowHeight = max(rowHeight, size.height)
                }
                let scroller = Rect(x: 0, y: y - insets.top, width: W, height: insets.vertical + rowHeight)
                orthogonal = OrthogonalSnapping.resolve(
                    behavior: orthogonalBehavior, groups: groups, scroller: scroller,
                    contentWidth: x + trailingInset, leadingInset: leadingInset)
                y += rowHeight
            } else {
                while let (size, offset) = instances.next() {
                    if !groups.isEmpty { y += layout.interGroupSpacing }
                    append(size, instances.items, offset: offset, at: contentX, y)
                    y += size.height
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

/// The group instances of one section, in order: `while let (size, offset) = next()`, with the
/// instance's items in `items` (their indices relative to `offset`) until the next call.
///
/// Every full instance of a group is the same unless an item in it was measured (only estimated
/// dimensions read measurements), so the sequence solves one template instance and translates
/// it; instances holding measured items, and the partial last one, are solved on their own.
/// With a section-wide `uniformAcrossSiblings` height on the top-level group ([S3]), every
/// instance is then re-solved at the tallest instance's height.
struct InstanceSequence {
    private let group: LayoutGroup
    private let container: Size
    private let n: Int
    private let solver: GroupSolver
    /// Measured sizes by item index; empty when no measurement can matter.
    private let sizes: [Size?]
    private var template: GroupSolver.Instance
    private var buffer: [GroupSolver.PlacedItem] = []
    private var tree: [GroupPlan.Node] = []
    private var stack = GroupSolver.ChildStack()
    private var start = 0
    /// For a section-wide uniform height: every instance's start, size, count, and whether it is
    /// the template; consumed by `next()` in order.
    private var uniform: [(start: Int, size: Size, consumed: Int, templated: Bool)]?
    private var uniformIndex = 0
    /// The items of the instance `next()` returned last.
    private(set) var items: [GroupSolver.PlacedItem] = []

    var capacity: Int { template.consumed }

    init(
        group: LayoutGroup, container: Size, ids: [String], measurements: Measurements, indexed: [Size?]? = nil,
        uniformHeight: Bool, keepsFullPositions: Bool = true
    ) {
        self.group = group
        self.container = container
        n = ids.count
        // Measurements only matter to estimated dimensions; look each item up once.
        var sizes: [Size?] = []
        if let indexed, group.readsMeasurements {
            if indexed.contains(where: { $0 != nil }) {
                sizes = Array(indexed.prefix(n))
                if sizes.count < n { sizes += Array(repeating: nil, count: n - sizes.count) }
            }
        } else if !measurements.items.isEmpty, group.readsMeasurements {
            sizes.reserveCapacity(n)
            var any = false
            for id in ids {
                let size = measurements.items[id]
                any = any || size != nil
                sizes.append(size)
            }
            if !any { sizes = [] }
        }
        self.sizes = sizes
        var plain = GroupSolver(measured: nil)
        plain.keepsFullPositions = keepsFullPositions
        if sizes.isEmpty {
            solver = plain
        } else {
            let table = sizes
            var measured = GroupSolver(measured: { table[$0] })
            measured.keepsFullPositions = keepsFullPositions
            solver = measured
        }
        template = plain.fill(group, container: container, start: 0, available: n)
        if uniformHeight, template.consumed > 0 {
            var list: [(start: Int, size: Size, consumed: Int, templated: Bool)] = []
            while let (size, _) = advance() {
                list.append((start - items.count, size, items.count, isTemplate))
            }
            let tallest = list.map(\.size.height).max() ?? 0
            template = plain.fill(
                group, container: container, start: 0, available: template.consumed,
                overrideWidth: template.size.width, overrideHeight: tallest)
            for i in list.indices { list[i].size.height = tallest }
            uniform = list
        }
    }

    private var isTemplate = false

    /// Whether items start...start+k (the next one too: it may fit once measured) were measured.
    private func touchesMeasured(_ start: Int, _ k: Int) -> Bool {
        if sizes.isEmpty { return false }
        for i in start...min(start + k, n - 1) where sizes[i] != nil { return true }
        return false
    }

    private mutating func solve(_ start: Int, available: Int, width: Double? = nil, height: Double? = nil) -> (Size, Int) {
        items = []  // let go of the buffer, so it is reused in place
        buffer.removeAll(keepingCapacity: true)
        return solver.fill(
            group, container: container, start: start, available: available, overrideWidth: width,
            overrideHeight: height, stack: &stack, placed: &buffer, tree: &tree)
    }

    /// The next instance without the uniform pass.
    private mutating func advance() -> (Size, Int)? {
        let k = template.consumed
        guard k > 0, start < n else { return nil }
        if start + k <= n, !touchesMeasured(start, k) {
            items = template.items
            isTemplate = true
            defer { start += k }
            return (template.size, start)
        }
        let (size, consumed) = solve(start, available: n - start)
        guard consumed > 0 else { return nil }
        items = buffer
        isTemplate = false
        start += consumed
        return (size, 0)
    }

    /// The next instance's size and the offset of its item indices; nil after the last.
    mutating func next() -> (size: Size, offset: Int)? {
        guard let list = uniform else { return advance() }
        guard uniformIndex < list.count else { return nil }
        let entry = list[uniformIndex]
        uniformIndex += 1
        if entry.templated {
            items = template.items
            return (template.size, entry.start)
        }
        let (size, _) = solve(entry.start, available: entry.consumed, width: entry.size.width, height: entry.size.height)
        items = buffer
        return (size, 0)
    }
}

extension LayoutDimension {
    /// True for `uniformAcrossSiblings`.
    public var isUniform: Bool {
        if case .uniformAcrossSiblings = self { return true }
        return false
    }
}
