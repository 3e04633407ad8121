extension LayoutCSS {
    /// An extent a fraction can refer to, as the browser will know it.
    enum Extent {
        /// An explicit CSS length (definite).
        case expr(CSSLength)
        /// Settled by the layout: stretched, a grid track, or a percentage of one. Percentages
        /// and `fr` tracks inside resolve; there is no expression. The length is the model's
        /// provisional value.
        case stretched(CSSLength)
        /// Sized by content (an estimated dimension): percentages inside do not resolve. The
        /// length is the provisional value (the estimate), which the model also uses.
        case content(CSSLength)

        var length: CSSLength {
            switch self {
            case .expr(let l), .stretched(let l), .content(let l): l
            }
        }

        var isStretched: Bool {
            if case .stretched = self { return true }
            return false
        }

        /// An explicit length: the box's size does not depend on its content or its siblings.
        var isDefinite: Bool {
            if case .expr = self { return true }
            return false
        }

        var isContent: Bool {
            if case .content = self { return true }
            return false
        }

        func shrunk(by v: Double) -> Extent {
            switch self {
            case .expr(let l): .expr(l - .px(v))
            case .stretched(let l): .stretched(l - .px(v))
            case .content(let l): .content(l - .px(v))
            }
        }
    }

    /// What a box's parent provides: how it arranges its children and the extents of its
    /// content box, which fractions refer to.
    struct Parent {
        enum Kind: Equatable {
            /// The groups of a normal section: a flex column.
            case column
            /// The groups of a normal section with a section-wide uniform height: a grid of equal rows.
            case rows
            /// The groups of an orthogonal section: the scroller's flex row.
            case row
            /// `wrapFlow`: a wrapping flex row.
            case wrap
            /// A `subitems` group.
            case flex(Axis)
            /// A `count` group (and `gridFlow`): a grid of equal tracks along the axis.
            case grid(Axis)
        }

        var kind: Kind
        var width: Extent
        var height: Extent
        /// `count` grids: the equal slot along the parent's axis.
        var slotMain: CSSLength? = nil
        var spacingFlexible = false
        /// `subitems` groups with flexible main-axis edges: each flexible edge's share of a full
        /// instance's leftover (nil: `auto` margins share the instance's own).
        var edgeShare: CSSLength? = nil

        var axis: Axis {
            switch kind {
            case .column, .rows: .vertical
            case .row, .wrap: .horizontal
            case .flex(let a), .grid(let a): a
            }
        }

        var isGrid: Bool {
            switch kind {
            case .grid, .rows: true
            default: false
            }
        }

        func extent(_ axis: Axis) -> Extent { axis == .horizontal ? width : height }

        /// The property aligning a child along `axis`, nil for a flex container's main axis.
        func alignProperty(_ axis: Axis) -> String? {
            if isGrid { return axis == .horizontal ? "justify-self" : "align-self" }
            return axis == self.axis ? nil : "align-self"
        }

        var start: String { isGrid ? "start" : "flex-start" }
    }

    /// A box's size along one axis.
    struct Sized {
        var value: String
        /// The box's own extent, for its children.
        var extent: Extent
        var stretch = false
        /// `contain: size`: the box must not grow its parent (a deferred fraction, §5.2).
        var contain = false
    }

    /// The rule blocks of a box and its descendants.
    struct Blocks {
        var blocks: [Block]
        var css: String { blocks.map(\.css).joined() }
    }

    /// A dimension resolved against a definite box, estimates standing for estimated extents.
    static func provisional(_ dim: LayoutDimension, width: CSSLength, height: CSSLength) -> CSSLength {
        switch dim {
        case .absolute(let v): .px(v)
        case .fractionalWidth(let f): f * width
        case .fractionalHeight(let f): f * height
        case .estimated(let v), .uniformAcrossSiblings(let v): .px(v)
        }
    }

    /// The size of a box along `axis` for dimension `dim` inside `parent` (layout-semantics §1.1,
    /// §2.7, §5.2, and the CSS of §8).
    static func size(_ dim: LayoutDimension, axis: Axis, parent: Parent, isItem: Bool) -> Sized {
        let crossOfParent = axis != parent.axis
        switch dim {
        case .absolute(let v):
            return Sized(value: CSSLength.px(v).css, extent: .expr(.px(v)))
        case .estimated(let v):
            return Sized(value: isItem && axis == .horizontal ? "max-content" : "auto", extent: .content(.px(v)))
        case .uniformAcrossSiblings(let v):
            if crossOfParent || (parent.kind == .rows && axis == .vertical) {
                return Sized(value: "auto", extent: .stretched(.px(v)), stretch: true)
            }
            return Sized(value: isItem && axis == .horizontal ? "max-content" : "auto", extent: .content(.px(v)))
        case .fractionalWidth(let f), .fractionalHeight(let f):
            let reference: Axis = if case .fractionalWidth = dim { .horizontal } else { .vertical }
            switch parent.extent(reference) {
            case .expr(let e):
                return Sized(value: (f * e).css, extent: .expr(f * e))
            case .content(let p):
                guard reference == axis, crossOfParent else { return Sized(value: (f * p).css, extent: .expr(f * p)) }
                // A fraction of the parent's estimated cross extent: settled after it (§2.7).
                if f != 1, parent.isGrid {
                    return Sized(value: percent(f), extent: .stretched(f * p), contain: true)
                }
                return Sized(value: "auto", extent: .stretched(p), stretch: true, contain: true)
            case .stretched(let p):
                guard reference == axis else { return Sized(value: (f * p).css, extent: .expr(f * p)) }
                return Sized(value: percent(f), extent: .stretched(f * p))
            }
        }
    }

    static func percent(_ f: Double) -> String { f == 1 ? "100%" : "calc(\(CSSLength.number(f)) * 100%)" }

    static func margin(_ s: LayoutSpacing?, flexibleAsMinimum: Bool) -> String {
        guard let s else { return "0px" }
        if s.isFlexible, !flexibleAsMinimum { return "auto" }
        return CSSLength.px(s.minimum).css
    }

    static func padding(_ i: DirectionalEdgeInsets) -> String {
        "\(CSSLength.px(i.top).css) \(CSSLength.px(i.trailing).css) \(CSSLength.px(i.bottom).css) \(CSSLength.px(i.leading).css)"
    }

    /// The blocks of `sub` (an item, or a group and everything in it) at `selector` in `parent`.
    /// `merged`: the group's one item shares the group's element (`rowFlow`).
    static func box(
        _ sub: LayoutSubitem, selector: String, parent: Parent, path: [Int] = [], merged: LayoutItem? = nil
    ) -> Blocks {
        let isItem: Bool
        var b: Block
        if case .item = sub {
            isItem = true
            b = Block(selector, boxDefaults)
        } else if merged != nil {
            isItem = true
            b = Block(selector, boxDefaults)
        } else {
            isItem = false
            b = Block(selector, groupDefaults)
        }
        let dims = sub.size
        let estimatedAxes = merged?.size ?? dims

        // Sizes on both axes.
        var sized: [Axis: Sized] = [:]
        var edges = EdgeSpacing()
        if case .item(let item) = sub, let e = item.edgeSpacing { edges = e }
        for axis in Axis.allCases {
            if axis == parent.axis, let slot = parent.slotMain {
                // A `count` parent overrides the main dimension: the slot minus fixed edges.
                let (lead, trail) = edges.edges(axis)
                let main = slot - .px((lead?.minimum ?? 0) + (trail?.minimum ?? 0))
                let own: Extent = parent.extent(axis).isStretched ? .stretched(main) : .expr(main)
                sized[axis] = Sized(value: "auto", extent: own, stretch: true)
            } else {
                sized[axis] = size(
                    dims.dimension(axis), axis: axis, parent: parent,
                    isItem: isItem && estimatedAxes.dimension(axis).isEstimated)
            }
        }
        let w = sized[.horizontal]!
        let h = sized[.vertical]!
        b.set("width", w.value)
        b.set("height", h.value)
        for axis in Axis.allCases {
            guard let property = parent.alignProperty(axis) else { continue }
            b.set(property, sized[axis]!.stretch ? "stretch" : parent.start)
        }
        if w.contain || h.contain { b.set("contain", "size") }

        // Edge spacing: margins (§1.2). Flexible main edges take the leftover as auto margins,
        // except where the leftover goes elsewhere (a count slot, flexible inter-item spacing).
        let mainFlexAsMin = parent.slotMain != nil || parent.spacingFlexible
        let main = parent.axis
        func m(_ s: LayoutSpacing?, _ axis: Axis) -> String {
            if axis == main, !mainFlexAsMin, let share = parent.edgeShare, let s, s.isFlexible {
                // No share when a full instance has no room left (the model's leftover ≤ 0).
                return "calc(\(CSSLength.px(s.minimum).css) + max(0px, \(share.css)))"
            }
            return margin(s, flexibleAsMinimum: axis == main ? mainFlexAsMin : false)
        }
        var margins = [
            m(edges.top, .vertical), m(edges.trailing, .horizontal), m(edges.bottom, .vertical),
            m(edges.leading, .horizontal),
        ]
        if parent.kind == .wrap, case .expr(let row) = parent.height, case .expr(let own) = h.extent {
            // A wrapping row of fixed height: every line must be the group's height, so each item's
            // margin box is made exactly that tall, with the item where the model puts it (§2.4).
            let lead = edges.top?.minimum ?? 0
            let free = row - own - .px(lead + (edges.bottom?.minimum ?? 0))
            switch (edges.top?.isFlexible == true, edges.bottom?.isFlexible == true) {
            case (true, true), (true, false):
                let share = edges.bottom?.isFlexible == true ? " / 2" : ""
                let top = "calc(\(CSSLength.px(lead).css) + max(0px, \(free.css))\(share))"
                margins[0] = top
                margins[2] = "calc(\((row - own).css) - \(top))"
            default:
                margins[0] = CSSLength.px(lead).css
                margins[2] = (row - own - .px(lead)).css
            }
        }
        b.set("margin", margins.joined(separator: " "))
        if isItem, estimatedAxes.width.isEstimated, parent.kind == .wrap { b.set("max-width", "100%") }

        // A cell of fixed size on both axes (absolute, or a fraction of a definite box) is a size
        // container: the card inside clamps its text to the whole lines that fit (issue 21;
        // LayoutStylesheet.base). Self-sizing and stretched cells are not: size containment
        // would take their content's size away.
        if isItem {
            let fixed = !w.contain && !h.contain && w.extent.isDefinite && h.extent.isDefinite
            b.set("container-type", fixed ? "size" : "normal")
            b.set("--cl-fixed", fixed ? "1" : "0")
        }

        var out: [Block] = []
        switch sub {
        case .item(let item):
            b.set("padding", padding(cellInsets(item)))
            out.append(b)
        case .group(let g):
            if let item = merged {
                b.set("padding", padding(cellInsets(item)))
                out.append(b)
                break
            }
            b.set("padding", padding(g.contentInsets))
            let innerW = w.extent.shrunk(by: g.contentInsets.horizontal)
            let innerH = h.extent.shrunk(by: g.contentInsets.vertical)
            let horizontal = g.direction == .horizontal
            let spacing = g.interItemSpacing ?? .fixed(0)
            let gap = CSSLength.px(spacing.minimum).css
            b.set("flex-direction", horizontal ? "row" : "column")
            b.set(horizontal ? "column-gap" : "row-gap", gap)
            var children: [Block] = []
            switch g.content {
            case .count(let n, let child):
                let mainExtent = horizontal ? innerW : innerH
                let crossExtent = horizontal ? innerH : innerW
                let slot = (mainExtent.length - .px(Double(n - 1) * spacing.minimum)) / Double(n)
                let tracks = mainExtent.isContent ? "repeat(\(n), \(slot.css))" : "repeat(\(n), minmax(0, 1fr))"
                let crossTrack = crossExtent.isContent ? "auto" : "minmax(0, 1fr)"
                b.set("display", "grid")
                b.set("grid-template-columns", horizontal ? tracks : crossTrack)
                b.set("grid-template-rows", horizontal ? crossTrack : tracks)
                b.set("align-items", "start")
                let p = Parent(kind: .grid(g.direction), width: innerW, height: innerH, slotMain: slot)
                children += box(
                    child, selector: "\(selector) > .\(GroupPlan.pathClass(path + [0]))", parent: p,
                    path: path + [0]
                ).blocks
            case .subitems(let list):
                b.set("display", "flex")
                b.set("justify-content", spacing.isFlexible ? "space-between" : "flex-start")
                // A partial last group keeps a full group's positions (§2.6): the gap a full
                // group's space-between would give, or its flexible edges' share, written out.
                let full = fullInstance(list, spacing: spacing, main: horizontal ? innerW : innerH, axis: g.direction)
                if spacing.isFlexible, let full {
                    b.set("justify-content", "flex-start")
                    b.set(horizontal ? "column-gap" : "row-gap", full.gap.css(width: .cqw))
                }
                var p = Parent(
                    kind: .flex(g.direction), width: innerW, height: innerH, spacingFlexible: spacing.isFlexible)
                if !spacing.isFlexible { p.edgeShare = full?.edgeShare }
                for (i, child) in list.enumerated() {
                    children += box(
                        child, selector: "\(selector) > .\(GroupPlan.pathClass(path + [i]))", parent: p,
                        path: path + [i]
                    ).blocks
                }
            }
            out.append(b)
            out += children
        }
        return Blocks(blocks: out)
    }

    /// A full instance of a `subitems` group (counted at a 390 × 844 container; a count that
    /// depends on the width has its own warning): with flexible spacing the gap its
    /// space-between gives, `(content extent − subitem extents) / (n − 1)` (nil below two
    /// subitems); with fixed spacing each flexible main-axis edge's share of the leftover, over
    /// all `F` flexible edges of the instance (nil without any). Nil when the extent or a
    /// subitem's size is not a definite length (a nested group, an estimated size): `auto`
    /// margins and space-between then stand, sharing each instance's own leftover.
    static func fullInstance(
        _ list: [LayoutSubitem], spacing: LayoutSpacing, main: Extent, axis: Axis
    ) -> (gap: CSSLength, edgeShare: CSSLength?)? {
        guard case .expr(let extent) = main, !list.isEmpty else { return nil }
        var sizes: [(length: CSSLength, flexible: Int)] = []
        for sub in list {
            guard case .item(let item) = sub else { return nil }
            let (lead, trail) = item.edgeSpacing?.edges(axis) ?? (nil, nil)
            let own: CSSLength
            switch item.size.dimension(axis) {
            case .absolute(let v): own = .px(v)
            case .fractionalWidth(let f) where axis == .horizontal: own = f * extent
            case .fractionalHeight(let f) where axis == .vertical: own = f * extent
            default: return nil
            }
            let flexible = (lead?.isFlexible == true ? 1 : 0) + (trail?.isFlexible == true ? 1 : 0)
            sizes.append((own + .px((lead?.minimum ?? 0) + (trail?.minimum ?? 0)), flexible))
        }
        let gap = spacing.minimum
        let available = extent.value(containerWidth: 390, viewportHeight: 844)
        var used = 0.0, total = CSSLength.px(0), n = 0, flexible = 0
        while n < 10_000 {
            let next = sizes[n % sizes.count]
            let v = next.length.value(containerWidth: 390, viewportHeight: 844)
            guard n == 0 || used + gap + v <= available + GroupSolver.fitTolerance else { break }
            used += (n == 0 ? 0 : gap) + v
            total = total + next.length
            flexible += next.flexible
            n += 1
        }
        let leftover = extent - total - .px(Double(n - 1) * gap)
        if spacing.isFlexible {
            guard n >= 2 else { return nil }
            return ((extent - total) / Double(n - 1), nil)
        }
        return (.px(gap), flexible > 0 ? leftover / Double(flexible) : nil)
    }

    /// Item contentInsets that apply: none on an estimated axis (Apple: NSCollectionLayoutItem).
    static func cellInsets(_ item: LayoutItem) -> DirectionalEdgeInsets {
        var i = item.contentInsets
        if item.size.width.isEstimated {
            i.leading = 0
            i.trailing = 0
        }
        if item.size.height.isEstimated {
            i.top = 0
            i.bottom = 0
        }
        return i
    }
}
