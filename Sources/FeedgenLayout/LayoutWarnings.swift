/// Legal layouts that behave in a way an author may not expect, and combinations the emitted CSS
/// cannot reproduce exactly (layout-semantics §9 step 5). Each is a warning; the layout is still
/// solved and written. Messages name the element and the rule that applies.
extension LayoutCSS {
    /// The warnings for `layout`, in a stable order. A warning that only concerns an adaptive
    /// rule says so (`(adaptive rule from minWidth 700)`).
    public static func warnings(_ layout: AdaptiveSection) -> [String] {
        var out: [String] = []
        func add(_ messages: [String], suffix: String) {
            for m in messages {
                let text = m + suffix
                if !out.contains(m), !out.contains(text) { out.append(text) }
            }
        }
        add(sectionWarnings(layout.base), suffix: "")
        var seen = Set<Double>()
        for rule in layout.rules {
            if !seen.insert(rule.minWidth).inserted {
                out.append("two adaptive rules have minWidth \(CSSLength.number(rule.minWidth)); the later one wins")
            }
            add(sectionWarnings(rule.section), suffix: " (adaptive rule from minWidth \(CSSLength.number(rule.minWidth)))")
        }
        for minWidth in Set(structure(layout).misfits).sorted() {
            out.append(
                "the adaptive rule from minWidth \(CSSLength.number(minWidth)) groups items differently from the base layout; a page has one HTML structure per section, so that rule's item arrangement is not written (keep the same group shape in every rule, or use flat layouts: count groups of items, one repeated item, one item per orthogonal group)"
            )
        }
        if let message = capacityWarning(layout) { out.append(message) }
        if let message = negativeSizeWarning(layout) { out.append(message) }
        if let message = unreachableSubitemWarning(layout) { out.append(message) }
        return out
    }

    static func sectionWarnings(_ s: LayoutSection) -> [String] {
        var out: [String] = []
        let behavior = s.orthogonalScrollingBehavior
        if behavior == .groupPagingCentered {
            if s.contentInsets.leading != 0 || s.contentInsets.trailing != 0 {
                out.append(
                    "groupPagingCentered centres each group and ignores the section's leading and trailing contentInsets")
            }
            if s.group.size.width.isEstimated {
                out.append(
                    "groupPagingCentered with an estimated group width centres the groups by the width's estimate, \(s.group.size.width.sourceForm), not by their measured widths")
            }
        }
        if s.group.size.width.isUniform {
            out.append(
                "uniformAcrossSiblings on the width of the section's group acts as estimated: only heights are shared across a section")
        }
        let mode = mode(of: s)
        if mode == .wrapFlow, case .subitems(let list) = s.group.content, case .item(let item) = list[0] {
            if !s.group.size.height.isEstimated, item.size.height.isEstimated {
                out.append(
                    "a wrapping row of fixed height (\(s.group.size.height.sourceForm)) with estimated item heights: in the browser a row grows to its tallest item")
            }
            if s.group.size.height.isUniform {
                out.append(
                    "uniformAcrossSiblings on the height of a wrapping row's group: in the browser each row is as tall as its own tallest item, not the section's")
            }
            if let e = item.edgeSpacing, [e.leading, e.trailing].contains(where: { $0?.isFlexible == true && $0!.minimum > 0 }) {
                out.append(
                    "flexible leading or trailing edge spacing with a minimum above 0 in a wrapping row: the browser wraps as if the minimum were 0")
            }
        }
        walk(s.group, name: "the section's group", topMode: mode, isTop: true, &out)
        return out
    }

    /// Checks one group and, recursively, its subitems.
    static func walk(_ g: LayoutGroup, name: String, topMode: GroupPlan.Mode, isTop: Bool, _ out: inout [String]) {
        let axis = g.direction
        let crossName = axis == .horizontal ? "height" : "width"
        let mainName = axis == .horizontal ? "width" : "height"
        let crossDim = g.size.dimension(axis.cross)
        let crossEstimated = crossDim.isEstimated
        let flexibleSpacing = g.interItemSpacing?.isFlexible == true
        let flowsInCSS = isTop && topMode.isFlat
        func note(_ m: String) { if !out.contains(m) { out.append(m) } }

        if case .count = g.content, let s = g.interItemSpacing, s.isFlexible {
            note(
                "interItemSpacing \(s.sourceForm) in a count group acts as fixed(\(CSSLength.number(s.minimum))): the items fill the group, so no space is left over")
        }
        if case .subitems(let list) = g.content, !g.size.dimension(axis).isEstimated, !flowsInCSS,
            list.contains(where: { Self.mainExtentIsEstimated($0, along: axis) })
        {
            note(
                "\(name) fits its subitems by their estimated \(mainName)s, so how many items a group holds depends on the measured sizes; the page groups items by the estimates (use one subitem in a fractionalWidth(1.0) group to let rows wrap by measured width)")
        }
        var flexibleMinimums = Set<Double>()
        var flexibleEdges = false
        for (i, sub) in g.subitems.enumerated() {
            let subName = g.subitems.count == 1 ? "the item of \(name)" : "subitem \(i + 1) of \(name)"
            let dim = sub.size.dimension(axis.cross)
            switch dim {
            case .estimated where !crossEstimated:
                if case .item = sub {
                    note(
                        "estimated item \(crossName)s in a group of fixed \(crossName): taller items overflow the group and the group keeps its \(crossName) (layout-semantics U-3)")
                }
            case .uniformAcrossSiblings where !crossEstimated:
                note(
                    "uniformAcrossSiblings \(crossName) in a group of fixed \(crossName) (\(crossDim.sourceForm)): the items take the group's \(crossName)")
            case .fractionalWidth(let f), .fractionalHeight(let f):
                if crossEstimated, f != 1, GroupSolver.fraction(dim, along: axis.cross) != nil,
                    !isGridParent(g, isTop: isTop, topMode: topMode)
                {
                    note(
                        "\(subName) is \(dim.sourceForm) of a group whose \(crossName) is estimated: CSS can only stretch it to the whole \(crossName), so the browser differs from the model (use a count group, or fraction 1.0)")
                }
            default:
                break
            }
            if sub.size.dimension(axis).isUniform {
                note("uniformAcrossSiblings on the \(mainName) of \(subName), along its group's axis, acts as estimated")
            }
            switch sub {
            case .item(let item):
                var ignored: [String] = []
                if item.size.width.isEstimated, item.contentInsets.leading != 0 || item.contentInsets.trailing != 0 {
                    ignored.append("leading and trailing")
                }
                if item.size.height.isEstimated, item.contentInsets.top != 0 || item.contentInsets.bottom != 0 {
                    ignored.append("top and bottom")
                }
                if !ignored.isEmpty {
                    note(
                        "the \(ignored.joined(separator: ", ")) contentInsets of \(subName) have no effect: UIKit ignores item insets on an estimated axis")
                }
                if let e = item.edgeSpacing {
                    for s in [e.leading, e.trailing, e.top, e.bottom] {
                        if let s, s.isFlexible {
                            flexibleEdges = true
                            flexibleMinimums.insert(s.minimum)
                        }
                    }
                    let mainEdges = axis == .horizontal ? [e.leading, e.trailing] : [e.top, e.bottom]
                    if flexibleSpacing, mainEdges.contains(where: { $0?.isFlexible == true }) {
                        note(
                            "flexible edge spacing along the axis of \(name), whose interItemSpacing is flexible too: the spacing takes the leftover space; the browser gives a group of one item's leftover to the spacing as well")
                    }
                }
            case .group(let nested):
                if let fraction = GroupSolver.fraction(dim, along: axis.cross), crossEstimated, fraction == 1,
                    nested.size.dimension(axis).isEstimated
                {
                    note("\(subName) stretches across an estimated \(crossName) and has an estimated \(mainName) of its own: the browser may size it by its content")
                }
                walk(nested, name: "nested group \(i + 1) of \(name)", topMode: topMode, isTop: false, &out)
            }
        }
        if flexibleEdges, flexibleMinimums.count > 1 {
            note(
                "flexible edge spacings with different minimums in \(name): CSS shares the leftover space equally among them, so the browser differs from the model (give them the same minimum)")
        }
    }

    /// Whether the children of `g` are laid out by a CSS grid (count groups; gridFlow rows).
    static func isGridParent(_ g: LayoutGroup, isTop: Bool, topMode: GroupPlan.Mode) -> Bool {
        if case .count = g.content { return !(isTop && topMode == .wrapFlow) }
        return false
    }

    /// Whether `sub`'s extent along `axis` comes from measured sizes.
    static func mainExtentIsEstimated(_ sub: LayoutSubitem, along axis: Axis) -> Bool {
        switch sub {
        case .item(let item): return item.size.dimension(axis).isEstimated
        case .group(let g):
            guard g.size.dimension(axis).isEstimated else { return false }
            return g.subitems.contains { mainExtentIsEstimated($0, along: axis) }
        }
    }

    /// The narrowest container the capacity check samples (CSS px): a phone in portrait.
    public static let minimumCheckedWidth = 320.0

    /// Insets and spacing wider than the container leave items a negative width (UIKit gives
    /// them zero-size frames; CSS clamps them to 0): said once, naming the container width below
    /// which it happens (found to 1/64 px), sampled from `minimumCheckedWidth` to 2560 px with each width's rule.
    static func negativeSizeWarning(_ layout: AdaptiveSection) -> String? {
        let input = SectionInput(id: "s", layout: layout, itemIDs: (0..<3).map { "item\($0)" })
        func isNegative(_ width: Double) -> Bool {
            let solved = CompositionalLayout.solve([input], environment: LayoutEnvironment(containerWidth: width)).sections[0]
            return solved.items.contains { $0.frame.width < 0 || $0.frame.height < 0 }
        }
        func step(_ width: Double) -> Double { width < 1024 ? 8 : 32 }
        var widest: Double?
        var width = minimumCheckedWidth
        while width <= 2560 {
            if isNegative(width) { widest = width }
            width += step(width)
        }
        guard var low = widest else { return nil }
        // Bisect between the last negative sample and the next sample (to 1/64 px).
        var high = low + step(low)
        while high - low > 1.0 / 64 {
            let mid = (low + high) / 2
            if isNegative(mid) { low = mid } else { high = mid }
        }
        return
            "below a container width of \(CSSLength.number((high * 64).rounded() / 64)) px the insets and spacing are wider than the container, so items get a negative size (drawn 0 px wide); reduce contentInsets or spacing, or use an adaptive rule for narrow widths"
    }

    /// Nested structures must hold the same items per group at every width; sampled from
    /// `minimumCheckedWidth` to 2560 px with each width's rule.
    static func capacityWarning(_ layout: AdaptiveSection) -> String? {
        guard structure(layout).0 == .nested else { return nil }
        var first: (width: Double, count: Int, shape: [GroupPlan.Node])?
        var width = minimumCheckedWidth
        while width <= 2560 {
            let env = LayoutEnvironment(containerWidth: width)
            let s = layout.section(forWidth: env.effectiveContentWidth)
            if mode(of: s) == .groups {
                let shape = firstInstanceShape(s, width: width)
                let count = itemCount(shape)
                if let f = first, f.shape != shape {
                    let detail = f.count == count
                        ? "its items are arranged differently at \(Int(f.width)) and \(Int(width)) px"
                        : "\(f.count) at \(Int(f.width)) px, \(count) at \(Int(width)) px"
                    return
                        "the number of items in each group changes with the container width (\(detail)); the page groups items as at 390 px, so at other widths the browser differs from the model (use count groups or fractions that do not depend on the width)"
                }
                if first == nil { first = (width, count, shape) }
            }
            width += width < 1024 ? 8 : 32
        }
        return nil
    }

    /// A subitem that never gets a place: each group instance starts again at the first subitem
    /// (layout-semantics §2.1), so one that does not fit after the subitems before it never
    /// appears. Checked at 390 px and at every width the capacity check samples.
    static func unreachableSubitemWarning(_ layout: AdaptiveSection) -> String? {
        var width = minimumCheckedWidth
        while width <= 2560 {
            let env = LayoutEnvironment(containerWidth: width)
            let s = layout.section(forWidth: env.effectiveContentWidth)
            var present = Set<[Int]>()
            func collect(_ nodes: [GroupPlan.Node]) {
                for n in nodes {
                    switch n {
                    case .item(_, let path): present.insert(path)
                    case .group(let path, let children):
                        present.insert(path)
                        collect(children)
                    }
                }
            }
            collect(firstInstanceShape(s, width: width))
            if let missing = descriptionPaths(s.group, []).first(where: { !present.contains($0) }) {
                let name = missing.map { "subitem \($0 + 1)" }.reversed().joined(separator: " of nested group ")
                return
                    "\(name) of the section's group never gets a place at \(Int(width)) px: the subitems before it fill the group, and each group starts again at the first subitem (check the fractions and the interItemSpacing)"
            }
            width += width < 1024 ? 8 : 32
        }
        return nil
    }

    /// The paths of every subitem description below `g` (`[1, 0]`: the first subitem of the
    /// second subitem).
    static func descriptionPaths(_ g: LayoutGroup, _ prefix: [Int]) -> [[Int]] {
        var out: [[Int]] = []
        for (i, sub) in g.subitems.enumerated() {
            out.append(prefix + [i])
            if case .group(let nested) = sub { out += descriptionPaths(nested, prefix + [i]) }
        }
        return out
    }

    static func itemCount(_ nodes: [GroupPlan.Node]) -> Int {
        nodes.reduce(0) {
            switch $1 {
            case .item: $0 + 1
            case .group(_, let children): $0 + itemCount(children)
            }
        }
    }
}
