/// The CSS rules of a section (`LayoutCSS.rules`): every rule block with the same properties,
/// each group and item as a CSS box whose size is the model's (layout-semantics §8).
extension LayoutCSS {
    /// The CSS rules for one section. `scope` selects the section element (for example
    /// `[data-feed="/recipes"] [data-section-id="popular"]`).
    public static func rules(_ layout: AdaptiveSection, scope: String) -> String {
        let (structure, misfits) = structure(layout)
        let variants = [layout.base] + layout.rules.map(\.section)
        let parts = Parts(
            footer: variants.contains { $0.footer != nil }, background: variants.contains(where: \.background),
            pages: variants.contains { $0.orthogonalScrollingBehavior == .paging },
            snaps: variants.contains {
                [.continuousGroupLeadingBoundary, .groupPaging, .groupPagingCentered].contains($0.orthogonalScrollingBehavior)
            })
        var css = sectionRules(layout.base, scope: scope, structure: structure, parts: parts, writesItems: true)
        for rule in layout.rules {
            css += "@container cl-section (min-width: \(CSSLength.number(rule.minWidth))px) {\n"
            css += sectionRules(
                rule.section, scope: scope, structure: structure, parts: parts,
                writesItems: !misfits.contains(rule.minWidth))
            css += "}\n"
        }
        return css
    }

    /// A rule block whose properties are listed up front with their reset values, so that every
    /// block of a selector sets the same properties in the same order.
    struct Block {
        var selector: String
        private(set) var declarations: [(String, String)]

        init(_ selector: String, _ defaults: [(String, String)]) {
            self.selector = selector
            self.declarations = defaults
        }

        mutating func set(_ property: String, _ value: String) {
            if let i = declarations.firstIndex(where: { $0.0 == property }) {
                declarations[i].1 = value
            } else {
                declarations.append((property, value))
            }
        }

        var css: String {
            "\(selector) { " + declarations.map { "\($0.0): \($0.1);" }.joined(separator: " ") + " }\n"
        }
    }

    static let groupsDefaults: [(String, String)] = [
        ("display", "block"), ("flex-direction", "row"), ("flex-wrap", "nowrap"), ("grid-template-columns", "none"),
        ("grid-auto-rows", "auto"), ("column-gap", "0px"), ("row-gap", "0px"), ("align-items", "normal"),
        ("align-content", "normal"), ("justify-content", "normal"), ("justify-items", "normal"),
        ("padding-block", "0px"), ("padding-inline", "0px"), ("container-type", "normal"), ("overflow-x", "visible"),
        ("overflow-y", "visible"), ("overscroll-behavior-x", "auto"), ("scroll-snap-type", "none"),
        ("scroll-padding-inline", "auto"), ("--cl-snap", "none"),
    ]

    static let boxDefaults: [(String, String)] = [
        ("flex", "0 0 auto"), ("width", "auto"), ("height", "auto"), ("max-width", "none"), ("margin", "0px"),
        ("padding", "0px"), ("align-self", "auto"), ("justify-self", "auto"), ("contain", "none"),
    ]

    static let groupDefaults: [(String, String)] = boxDefaults + [
        ("display", "flex"), ("flex-direction", "row"), ("grid-template-columns", "none"),
        ("grid-template-rows", "none"), ("column-gap", "0px"), ("row-gap", "0px"), ("justify-content", "flex-start"),
        ("justify-items", "start"), ("align-items", "flex-start"), ("align-content", "flex-start"),
    ]

    static let supplementaryDefaults: [(String, String)] = [
        ("margin-inline", "0px"), ("height", "auto"), ("position", "static"), ("top", "auto"), ("bottom", "auto"),
        ("z-index", "auto"),
    ]

    /// The section's leading and trailing inline insets as CSS: its `contentInsets` measured from
    /// the `contentInsetsReference` boundary (layout-semantics §3.3 and §8). The tokens
    /// `--layout-margin` and `--readable-width` stand for `LayoutEnvironment.layoutMargin` and
    /// `readableWidth`; `100cqw` is the section's width `W`.
    public static func inlineInsets(_ s: LayoutSection) -> (leading: String, trailing: String) {
        func side(_ safe: String, _ inset: Double) -> String {
            let own = CSSLength.px(inset).css
            switch s.contentInsetsReference {
            case .none:
                return own
            case .automatic, .safeArea:
                return "calc(env(\(safe), 0px) + \(own))"
            case .layoutMargins:
                return "calc(env(\(safe), 0px) + var(--layout-margin, 16px) + \(own))"
            case .readableContent:
                return
                    "calc(max(env(\(safe), 0px) + var(--layout-margin, 16px), (100cqw - var(--readable-width, 672px)) / 2) + \(own))"
            }
        }
        return (side("safe-area-inset-left", s.contentInsets.leading), side("safe-area-inset-right", s.contentInsets.trailing))
    }

    /// Which optional elements a section has (in any of its rules).
    struct Parts {
        var footer: Bool
        var background: Bool
        var pages: Bool
        /// Some rule snaps on groups (leading boundary, group paging, centred).
        var snaps: Bool
    }

    static func sectionRules(
        _ s: LayoutSection, scope: String, structure: GroupPlan.Structure, parts: Parts, writesItems: Bool
    ) -> String {
        var out = ""
        let (lead, trail) = inlineInsets(s)
        let behavior = s.orthogonalScrollingBehavior
        let orthogonal = behavior.isOrthogonal
        let ins = s.contentInsets

        // Headers and footers follow the section's inline insets (layout-semantics §3.4, U-6).
        let supplementaryWidth = "100cqw - \(lead) - \(trail)"
        for (part, sup, edge) in [("cl-header", s.header, "top"), ("cl-footer", s.footer, "bottom")]
        where part == "cl-header" || parts.footer {
            var b = Block("\(scope) > .\(part)", supplementaryDefaults)
            b.set("margin-inline", "\(lead) \(trail)")
            let height = sup?.height ?? .estimated(44)
            switch height {
            case .absolute(let v): b.set("height", CSSLength.px(v).css)
            case .fractionalWidth(let f): b.set("height", CSSLength(cqw: 100 * f).css(width: .expression(supplementaryWidth)))
            case .fractionalHeight(let f): b.set("height", CSSLength(svh: 100 * f).css)
            case .estimated, .uniformAcrossSiblings: b.set("height", "auto")
            }
            if sup?.pinToVisibleBounds == true {
                b.set("position", "sticky")
                // Pinned below a notch or a home indicator: the safe area of that edge (the
                // pages set viewport-fit=cover, so env() is the device's inset).
                b.set(edge, "env(safe-area-inset-\(edge), 0px)")
                b.set("z-index", "2")
                // Cards scroll under a pinned header: it needs the background it sits on, the
                // section's decoration when the rule has one, else the page's.
                b.set(
                    "background-color",
                    s.background
                        ? "var(--section-background, var(--card-background, Canvas))" : "var(--background, Canvas)")
            }
            out += b.css
        }
        if parts.background {
            out += Block("\(scope) > .cl-background", [("display", s.background ? "block" : "none")]).css
        }
        if parts.pages {
            out += Block("\(scope) > .cl-groups > .cl-pages", [("display", behavior == .paging ? "block" : "none")]).css
        }

        let mode = mode(of: s)
        var groups = Block("\(scope) > .cl-groups", groupsDefaults)
        groups.set("padding-block", "\(CSSLength.px(ins.top).css) \(CSSLength.px(ins.bottom).css)")
        groups.set("padding-inline", "\(lead) \(trail)")

        // The top-level group's reference box (CompositionalLayout.groupContainer): inside a
        // normal section `.cl-groups` is the query container, so `100cqw` is the section's content
        // width; an orthogonal scroller is not, so `100cqw` is the full width W (U-1).
        let top = Parent(
            kind: orthogonal ? .row : .column, width: .expr(.containerWidth),
            height: .expr(orthogonal ? .viewportHeight : .viewportHeight - .px(ins.vertical)))
        // `.cl-groups`' own properties see the section as the query container.
        let ownWidth: CSSLength.WidthUnit = orthogonal ? .cqw : .expression("100cqw - \(lead) - \(trail)")

        if orthogonal {
            groups.set("display", "flex")
            groups.set("column-gap", CSSLength.px(s.interGroupSpacing).css)
            groups.set("align-items", s.group.size.height.isUniform ? "stretch" : "flex-start")
            groups.set("overflow-x", "auto")
            groups.set("overflow-y", "hidden")
            groups.set("overscroll-behavior-x", "contain")
            // `--cl-snap` names the behaviour in force at this width for the inline script
            // (partials/scroll-paging-script.mustache), which moves one page or group per wheel
            // gesture and brings a focused card fully into view at a resting offset.
            groups.set("--cl-snap", snapKeyword(behavior))
            switch behavior {
            case .none, .continuous:
                break
            case .continuousGroupLeadingBoundary, .groupPaging:
                groups.set("scroll-snap-type", "x mandatory")
                groups.set("scroll-padding-inline", "\(lead) \(trail)")
            case .paging:
                groups.set("scroll-snap-type", "x mandatory")
                groups.set("scroll-padding-inline", "0px")
            case .groupPagingCentered:
                groups.set("scroll-snap-type", "x mandatory")
                groups.set("scroll-padding-inline", "0px")
                // Centring insets: (W − groupWidth) / 2 at both ends (§7.4, U-2).
                let gw = provisional(s.group.size.width, width: .containerWidth, height: top.height.length)
                let c = 0.5 * (CSSLength.containerWidth - gw)
                groups.set("padding-inline", "\(c.css) \(c.css)")
            }
        } else {
            groups.set("container-type", "inline-size")
        }

        var children = ""
        switch mode {
        case .gridFlow:
            guard case .count(let n, .item(let item)) = s.group.content else { break }
            let g = s.group
            let gap = g.interItemSpacing?.minimum ?? 0
            let gw = provisional(g.size.width, width: .containerWidth, height: top.height.length)
            let slot = (gw - .px(Double(n - 1) * gap)) / Double(n)
            groups.set("display", "grid")
            groups.set(
                "grid-template-columns",
                g.size.width == .fractionalWidth(1)
                    ? "repeat(\(n), minmax(0, 1fr))" : "repeat(\(n), \(slot.css(width: .percent)))")
            groups.set("column-gap", CSSLength.px(gap).css)
            groups.set("row-gap", CSSLength.px(s.interGroupSpacing).css)
            groups.set("align-items", "start")
            groups.set("justify-content", "start")
            let row = rowExtent(g, top)
            switch row {
            case .expr(let e): groups.set("grid-auto-rows", e.css(width: ownWidth))
            case .stretched: groups.set("grid-auto-rows", "1fr")
            case .content: groups.set("grid-auto-rows", "auto")
            }
            let parent = Parent(
                kind: .grid(.horizontal), width: .expr(gw), height: row, slotMain: slot,
                spacingFlexible: false)
            children = box(.item(item), selector: "\(scope) > .cl-groups > .cl-item", parent: parent).css
        case .wrapFlow:
            guard case .subitems(let list) = s.group.content, case .item(let item) = list[0] else { break }
            let g = s.group
            let spacing = g.interItemSpacing ?? .fixed(0)
            groups.set("display", "flex")
            groups.set("flex-wrap", "wrap")
            groups.set("column-gap", CSSLength.px(spacing.minimum).css)
            groups.set("row-gap", CSSLength.px(s.interGroupSpacing).css)
            groups.set("align-items", "flex-start")
            groups.set("align-content", "flex-start")
            groups.set("justify-content", spacing.isFlexible ? "space-between" : "flex-start")
            let row = rowExtent(g, top)
            let parent = Parent(
                kind: .wrap, width: .expr(.containerWidth), height: row.isStretched ? .content(row.length) : row,
                spacingFlexible: spacing.isFlexible)
            children = box(.item(item), selector: "\(scope) > .cl-groups > .cl-item", parent: parent).css
        case .rowFlow:
            guard let item = mergedItem(s.group) else { break }
            children = box(.group(s.group), selector: "\(scope) > .cl-groups > .cl-item", parent: top, merged: item).css
        case .groups:
            guard structure == .nested else { break }
            if !orthogonal {
                if s.group.size.height.isUniform {
                    // Section-wide uniform height ([S3]): equal rows, each the tallest instance.
                    groups.set("display", "grid")
                    groups.set("grid-auto-rows", "1fr")
                    groups.set("justify-items", "start")
                    groups.set("align-items", "stretch")
                } else {
                    groups.set("display", "flex")
                    groups.set("flex-direction", "column")
                    groups.set("align-items", "flex-start")
                }
                groups.set("row-gap", CSSLength.px(s.interGroupSpacing).css)
            }
            let parent = !orthogonal && s.group.size.height.isUniform
                ? Parent(kind: .rows, width: top.width, height: top.height) : top
            children = box(.group(s.group), selector: "\(scope) > .cl-groups > .lp", parent: parent).css
        }
        out += groups.css
        if writesItems { out += children }
        if parts.snaps, writesItems {
            out += snapMarker(
                "\(scope) > .cl-groups > \(structure == .nested ? ".lp" : ".cl-item")",
                mode == .groups || mode == .rowFlow ? behavior : .none
            ).css
        }
        return out
    }

    /// The snap area of a top-level group (layout-semantics §8): a 2 px marker at the group's
    /// leading edge (`start`) or centre (`center`). A marker rather than the group itself, because
    /// a snap area larger than the snapport may rest anywhere inside it (CSS Scroll Snap 1 §6.2),
    /// while UIKit rests on group boundaries whatever their width.
    static func snapMarker(_ selector: String, _ behavior: OrthogonalScrollingBehavior) -> Block {
        var b = Block(
            "\(selector)::before",
            [
                ("content", "none"), ("position", "absolute"), ("top", "0px"), ("inset-inline-start", "0px"),
                ("width", "2px"), ("height", "2px"), ("pointer-events", "none"), ("scroll-snap-align", "none"),
                ("scroll-snap-stop", "normal"),
            ])
        switch behavior {
        case .continuousGroupLeadingBoundary:
            b.set("content", "\"\"")
            b.set("scroll-snap-align", "start")
        case .groupPaging:
            b.set("content", "\"\"")
            b.set("scroll-snap-align", "start")
            b.set("scroll-snap-stop", "always")
        case .groupPagingCentered:
            b.set("content", "\"\"")
            b.set("inset-inline-start", "calc(50% - 1px)")
            b.set("scroll-snap-align", "center")
            b.set("scroll-snap-stop", "always")
        case .none, .continuous, .paging:
            break
        }
        return b
    }

    /// The height of a flow row (one group instance in `gridFlow`/`wrapFlow`).
    static func rowExtent(_ g: LayoutGroup, _ top: Parent) -> Extent {
        if case .uniformAcrossSiblings(let v) = g.size.height { return .stretched(.px(v)) }
        return size(g.size.height, axis: .vertical, parent: top, isItem: false).extent
    }
}
