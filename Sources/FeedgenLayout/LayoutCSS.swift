/// Maps a section's layout to HTML structure (`plan`) and CSS rules (`rules`): the one place where
/// the model decides the CSS (layout-semantics §8). Each dimension becomes a `CSSLength`, so the
/// browser's boxes equal the solver's frames at every container width.
///
/// Element structure the rules style (written by the emitter):
/// ```
/// section.cl-section[data-section-id]         container "cl-section": the collection width W
///   header.cl-header                          boundary supplementary header (follows insets)
///   div.cl-groups[role=list]                  section insets; orthogonal: the scroller [data-scroller]
///     div.cl-group.lp[role=none]              one per group instance (mode .groups)
///       div.cl-item.lp-0[role=listitem]       the slot (padding = item contentInsets)
///         div.cl-cell[data-item-id]           the cell: the card's frame
///   footer.cl-footer
/// ```
public enum LayoutCSS {
    /// The rendering mode of a section (see `GroupPlan.Mode`).
    public static func mode(_ layout: AdaptiveSection) -> GroupPlan.Mode {
        let modes = Set(([layout.base] + layout.rules.map(\.section)).map(mode(of:)))
        return modes.count == 1 ? modes.first! : .groups
    }

    static func mode(of section: LayoutSection) -> GroupPlan.Mode {
        let group = section.group
        guard !section.orthogonalScrollingBehavior.isOrthogonal, group.direction == .horizontal,
            group.contentInsets.isZero, !group.size.width.isEstimated
        else { return .groups }
        switch group.content {
        case .count(_, .item(let item)) where item.edgeSpacing == nil:
            return .gridFlow
        case .subitems(let list) where list.count == 1:
            if case .item(let item) = list[0], item.edgeSpacing == nil, group.size.width == .fractionalWidth(1),
                !group.size.height.isEstimated || item.size.height.isEstimated || true
            {
                return .wrapFlow
            }
            return .groups
        default:
            return .groups
        }
    }

    /// How to write `itemCount` items: the flow modes need no instances; `.groups` gets the
    /// instances the solver makes at `environment` (capacities of `count` groups do not depend
    /// on the width).
    public static func plan(
        _ layout: AdaptiveSection, itemCount: Int, environment: LayoutEnvironment = LayoutEnvironment(containerWidth: 390)
    ) -> GroupPlan {
        let mode = mode(layout)
        guard mode == .groups else { return GroupPlan(mode: mode, instances: []) }
        let section = layout.section(forWidth: environment.containerWidth)
        let solver = GroupSolver(measured: { _ in nil })
        let container = Size(width: environment.containerWidth - section.contentInsets.horizontal, height: environment.viewportHeight)
        var instances: [[GroupPlan.Node]] = []
        var start = 0
        while start < itemCount {
            let inst = solver.fill(section.group, container: container, start: start, available: itemCount - start)
            if inst.consumed == 0 { break }
            instances.append(inst.tree)
            start += inst.consumed
        }
        return GroupPlan(mode: mode, instances: instances)
    }

    /// The CSS rules for one section. `scope` selects the section element (for example
    /// `[data-feed="recipes"] [data-section-id="popular"]`).
    public static func rules(_ layout: AdaptiveSection, scope: String) -> String {
        let mode = mode(layout)
        var css = sectionRules(layout.base, scope: scope, mode: mode)
        for rule in layout.rules {
            css += "@container cl-section (min-width: \(CSSLength.number(rule.minWidth))px) {\n"
            css += sectionRules(rule.section, scope: scope, mode: mode)
            css += "}\n"
        }
        return css
    }

    // MARK: - Rules

    /// A rule block: `selector { a: b; … }`.
    struct Block {
        var selector: String
        var declarations: [(String, String)] = []

        mutating func set(_ property: String, _ value: String) { declarations.append((property, value)) }

        var css: String {
            "\(selector) { " + declarations.map { "\($0.0): \($0.1);" }.joined(separator: " ") + " }\n"
        }
    }

    static func inlineInsets(_ s: LayoutSection) -> (String, String) {
        let lead: String
        let trail: String
        switch s.contentInsetsReference {
        case .none, .automatic, .safeArea:
            lead = CSSLength.px(s.contentInsets.leading).css
            trail = CSSLength.px(s.contentInsets.trailing).css
        case .layoutMargins:
            lead = "calc(var(--layout-margin, 16px) + \(CSSLength.px(s.contentInsets.leading).css))"
            trail = "calc(var(--layout-margin, 16px) + \(CSSLength.px(s.contentInsets.trailing).css))"
        case .readableContent:
            let side = "max(0px, (100cqw - var(--readable-width, 672px)) / 2)"
            lead = "calc(\(side) + \(CSSLength.px(s.contentInsets.leading).css))"
            trail = "calc(\(side) + \(CSSLength.px(s.contentInsets.trailing).css))"
        }
        return (lead, trail)
    }

    static func sectionRules(_ s: LayoutSection, scope: String, mode: GroupPlan.Mode) -> String {
        var out = ""
        let (lead, trail) = inlineInsets(s)
        let orthogonal = s.orthogonalScrollingBehavior.isOrthogonal
        let ins = s.contentInsets

        // Headers and footers follow the section's inline insets (layout-semantics §3.4, U-6).
        for (part, sup) in [("cl-header", s.header), ("cl-footer", s.footer)] {
            var b = Block(selector: "\(scope) > .\(part)")
            b.set("margin-inline", "\(lead) \(trail)")
            if let sup, let h = length(sup.height, width: .containerWidth, height: .viewportHeight) {
                b.set("height", h.css)
            } else {
                b.set("height", "auto")
            }
            b.set("position", sup?.pinToVisibleBounds == true ? "sticky" : "static")
            out += b.css
        }

        var groups = Block(selector: "\(scope) > .cl-groups")
        groups.set("padding-block", "\(CSSLength.px(ins.top).css) \(CSSLength.px(ins.bottom).css)")
        let centred = s.orthogonalScrollingBehavior == .groupPagingCentered
        // The top-level group's container: the section's content width (normal: `.cl-groups` is
        // itself a query container) or the full scroller width (orthogonal, §3.6).
        let topWidth = CSSLength.containerWidth
        let topHeight = orthogonal ? CSSLength.viewportHeight : CSSLength.viewportHeight - .px(ins.vertical)
        let groupWidth = length(s.group.size.width, width: topWidth, height: topHeight)
        if centred, let gw = groupWidth {
            let pad = 0.5 * (CSSLength.containerWidth - gw)
            groups.set("padding-inline", "\(pad.css) \(pad.css)")
        } else {
            groups.set("padding-inline", "\(lead) \(trail)")
        }
        groups.set("container-type", orthogonal ? "normal" : "inline-size")

        switch mode {
        case .gridFlow:
            guard case .count(let n, .item(let item)) = s.group.content else { break }
            let gap = s.group.interItemSpacing?.minimum ?? 0
            groups.set("display", "grid")
            if s.group.size.width == .fractionalWidth(1) {
                groups.set("grid-template-columns", "repeat(\(n), minmax(0, 1fr))")
            } else if let gw = groupWidth {
                let track = (1 / Double(n)) * (gw - .px(Double(n - 1) * gap))
                groups.set("grid-template-columns", "repeat(\(n), \(track.css))")
            }
            groups.set("column-gap", CSSLength.px(gap).css)
            groups.set("row-gap", CSSLength.px(s.interGroupSpacing).css)
            groups.set("align-items", "start")
            groups.set("justify-content", "start")
            let rowHeight = length(s.group.size.height, width: topWidth, height: topHeight)
            groups.set("grid-auto-rows", rowHeight?.css ?? "auto")
            out += groups.css
            let inner = (groupWidth ?? topWidth, rowHeight)
            out += itemBlock(item, selector: "\(scope) > .cl-groups > .cl-item", parent: inner, mainAxis: nil).css
        case .wrapFlow:
            guard case .subitems(let list) = s.group.content, case .item(let item) = list[0] else { break }
            let spacing = s.group.interItemSpacing ?? .fixed(0)
            groups.set("display", "flex")
            groups.set("flex-flow", "row wrap")
            groups.set("column-gap", CSSLength.px(spacing.minimum).css)
            groups.set("row-gap", CSSLength.px(s.interGroupSpacing).css)
            groups.set("align-items", "flex-start")
            groups.set("justify-content", spacing.isFlexible ? "space-between" : "flex-start")
            out += groups.css
            let rowHeight = length(s.group.size.height, width: topWidth, height: topHeight)
            out += itemBlock(item, selector: "\(scope) > .cl-groups > .cl-item", parent: (topWidth, rowHeight), mainAxis: .horizontal).css
        case .groups:
            groups.set("display", "flex")
            groups.set("flex-direction", orthogonal ? "row" : "column")
            groups.set("gap", CSSLength.px(s.interGroupSpacing).css)
            groups.set("align-items", "flex-start")
            if orthogonal {
                groups.set("overflow-x", "auto")
                groups.set("overflow-y", "hidden")
                groups.set("overscroll-behavior-x", "contain")
                switch s.orthogonalScrollingBehavior {
                case .none, .continuous:
                    groups.set("scroll-snap-type", "none")
                case .continuousGroupLeadingBoundary, .groupPaging:
                    groups.set("scroll-snap-type", "x mandatory")
                    groups.set("scroll-padding-inline", "\(lead) \(trail)")
                case .paging, .groupPagingCentered:
                    groups.set("scroll-snap-type", "x mandatory")
                    groups.set("scroll-padding-inline", "0px")
                }
            }
            out += groups.css
            out += groupBlocks(
                s.group, path: [], selector: "\(scope) > .cl-groups > .lp",
                parent: (topWidth, topHeight), mainAxis: orthogonal ? .horizontal : .vertical,
                snap: s.orthogonalScrollingBehavior)
        }
        return out
    }

    /// Rules for a group description and, recursively, its subitems.
    static func groupBlocks(
        _ group: LayoutGroup, path: [Int], selector: String, parent: (CSSLength, CSSLength?), mainAxis: Axis?,
        snap: OrthogonalScrollingBehavior = .none, overriddenMain: Bool = false
    ) -> String {
        var b = Block(selector: selector)
        b.set("box-sizing", "border-box")
        b.set("flex", "0 0 auto")
        let w = length(group.size.width, width: parent.0, height: parent.1)
        let h = length(group.size.height, width: parent.0, height: parent.1)
        let ins = group.contentInsets
        setSize(&b, w: w, h: h, dims: group.size, mainAxis: mainAxis, overriddenMain: overriddenMain)
        b.set("padding", "\(CSSLength.px(ins.top).css) \(CSSLength.px(ins.trailing).css) \(CSSLength.px(ins.bottom).css) \(CSSLength.px(ins.leading).css)")
        switch snap {
        case .continuousGroupLeadingBoundary: b.set("scroll-snap-align", "start")
        case .groupPaging:
            b.set("scroll-snap-align", "start")
            b.set("scroll-snap-stop", "always")
        case .groupPagingCentered:
            b.set("scroll-snap-align", "center")
            b.set("scroll-snap-stop", "always")
        default: break
        }
        let spacing = group.interItemSpacing ?? .fixed(0)
        let innerW = w.map { $0 - .px(ins.horizontal) }
        let innerH = h.map { $0 - .px(ins.vertical) }
        var out = ""
        let horizontal = group.direction == .horizontal
        switch group.content {
        case .count(let n, let sub):
            b.set("display", "grid")
            if horizontal {
                b.set("grid-template-columns", "repeat(\(n), minmax(0, 1fr))")
                b.set("grid-template-rows", innerH == nil ? "auto" : "minmax(0, 1fr)")
                b.set("column-gap", CSSLength.px(spacing.minimum).css)
            } else {
                b.set("grid-template-rows", innerH == nil ? "repeat(\(n), auto)" : "repeat(\(n), minmax(0, 1fr))")
                b.set("grid-template-columns", "minmax(0, 1fr)")
                b.set("row-gap", CSSLength.px(spacing.minimum).css)
            }
            b.set("align-items", "start")
            out += childBlocks(sub, index: 0, path: path, selector: selector, parent: (innerW ?? parent.0, innerH), axis: group.direction, overriddenMain: true)
        case .subitems(let list):
            b.set("display", "flex")
            b.set("flex-direction", horizontal ? "row" : "column")
            b.set("gap", CSSLength.px(spacing.minimum).css)
            b.set("align-items", "flex-start")
            b.set("justify-content", spacing.isFlexible ? "space-between" : "flex-start")
            for (i, sub) in list.enumerated() {
                out += childBlocks(sub, index: i, path: path, selector: selector, parent: (innerW ?? parent.0, innerH), axis: group.direction, overriddenMain: false)
            }
        }
        return b.css + out
    }

    static func childBlocks(
        _ sub: LayoutSubitem, index: Int, path: [Int], selector: String, parent: (CSSLength, CSSLength?), axis: Axis,
        overriddenMain: Bool
    ) -> String {
        let childPath = path + [index]
        let childSelector = "\(selector) > .\(GroupPlan.pathClass(childPath))"
        switch sub {
        case .item(let item):
            return itemBlock(item, selector: childSelector, parent: parent, mainAxis: axis, overriddenMain: overriddenMain).css
        case .group(let g):
            return groupBlocks(g, path: childPath, selector: childSelector, parent: parent, mainAxis: axis, overriddenMain: overriddenMain)
        }
    }

    static func itemBlock(
        _ item: LayoutItem, selector: String, parent: (CSSLength, CSSLength?), mainAxis: Axis?, overriddenMain: Bool = true
    ) -> Block {
        var b = Block(selector: selector)
        b.set("box-sizing", "border-box")
        let w = length(item.size.width, width: parent.0, height: parent.1)
        let h = length(item.size.height, width: parent.0, height: parent.1)
        setSize(&b, w: w, h: h, dims: item.size, mainAxis: mainAxis, overriddenMain: overriddenMain)
        // contentInsets apply on non-estimated axes only (Apple: NSCollectionLayoutItem.contentInsets).
        let ci = item.contentInsets
        let top = item.size.height.isEstimated ? 0 : ci.top
        let bottom = item.size.height.isEstimated ? 0 : ci.bottom
        let lead = item.size.width.isEstimated ? 0 : ci.leading
        let trail = item.size.width.isEstimated ? 0 : ci.trailing
        b.set("padding-block", "\(CSSLength.px(top).css) \(CSSLength.px(bottom).css)")
        b.set("padding-inline", "\(CSSLength.px(lead).css) \(CSSLength.px(trail).css)")
        if let e = item.edgeSpacing {
            func margin(_ s: LayoutSpacing?) -> String {
                guard let s else { return "0px" }
                return s.isFlexible ? "auto" : CSSLength.px(s.minimum).css
            }
            b.set("margin", "\(margin(e.top)) \(margin(e.trailing)) \(margin(e.bottom)) \(margin(e.leading))")
        }
        return b
    }

    /// Sets width/height. In a `count` group the main axis comes from the grid tracks; an
    /// estimated axis is left to the content; a fraction of an indefinite box stretches.
    static func setSize(
        _ b: inout Block, w: CSSLength?, h: CSSLength?, dims: LayoutSize, mainAxis: Axis?, overriddenMain: Bool
    ) {
        if overriddenMain, mainAxis == .horizontal {
            b.set("width", "auto")
        } else if let w {
            b.set("width", w.css)
        } else {
            b.set("width", dims.width.isEstimated ? "max-content" : "auto")
            if dims.width.isEstimated { b.set("max-width", "100%") }
        }
        if overriddenMain, mainAxis == .vertical {
            b.set("height", "auto")
            b.set("align-self", "stretch")
        } else if let h {
            b.set("height", h.css)
            b.set("align-self", "start")
        } else if !dims.height.isEstimated {
            // A fraction of an estimated (indefinite) group height: stretch to the row (§5.3).
            b.set("height", "auto")
            b.set("align-self", "stretch")
        } else {
            b.set("height", "auto")
            b.set("align-self", "start")
        }
    }

    /// A dimension as a CSS length in a container of the given width and height; nil for an
    /// estimated dimension or a fraction of an unknown extent.
    static func length(_ dim: LayoutDimension, width: CSSLength, height: CSSLength?) -> CSSLength? {
        switch dim {
        case .absolute(let v): .px(v)
        case .fractionalWidth(let f): f * width
        case .fractionalHeight(let f): height.map { f * $0 }
        case .estimated, .uniformAcrossSiblings: nil
        }
    }
}
