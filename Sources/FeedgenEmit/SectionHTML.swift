import FeedgenLayout

/// Writes a section's layout elements in the structure that `LayoutCSS` styles: the groups
/// element (`.cl-groups`) with its items, the footer (a boundary supplementary item) and the
/// background decoration. The model decides the structure, the CSS and the frames together.
enum SectionHTML {
    /// - Parameters:
    ///   - cards: the rendered card HTML of each item, in snapshot order.
    ///   - ids: the item identifiers, in the same order.
    ///   - headingID: the id of the section's heading, when it has one (names the list).
    ///   - focusable: whether any card holds a link (a scroller without one gets `tabindex`).
    ///   - deferred: empty, or per card its reserved height when it renders lazily
    ///     (``DeferredCards``): its item element gets the class `cl-cv` and the estimate in
    ///     `style` (flat structures only).
    /// - Returns: the elements that follow the section's header, in order: `.cl-groups` (when
    ///   there are items), `.cl-footer` (when the layout has a footer), `.cl-background` (when a
    ///   rule of the layout has a background decoration).
    static func groups(
        layout: AdaptiveSection, ids: [String], cards: [String], headingID: String?, label: String,
        focusable: Bool, deferred: [DeferredCards.Estimate?] = []
    ) -> String {
        let variants = [layout.base] + layout.rules.map(\.section)
        var out = ""
        if !ids.isEmpty {
            out += groupsElement(
                layout: layout, ids: ids, cards: cards, headingID: headingID, label: label, focusable: focusable,
                orthogonal: variants.contains { $0.orthogonalScrollingBehavior.isOrthogonal }, deferred: deferred)
        }
        if variants.contains(where: { $0.footer != nil }) {
            // The footer's content: the section's item count (docs/layout.md, "Headers and footers").
            if !out.isEmpty { out += "\n" }
            let count = ids.count == 1 ? "1 item" : "\(ids.count) items"
            out += "  <footer class=\"cl-footer\"><p class=\"cl-footer-text\">\(count)</p></footer>"
        }
        if variants.contains(where: \.background) {
            if !out.isEmpty { out += "\n" }
            out += "  <div class=\"cl-background\" aria-hidden=\"true\"></div>"
        }
        return out
    }

    static func groupsElement(
        layout: AdaptiveSection, ids: [String], cards: [String], headingID: String?, label: String,
        focusable: Bool, orthogonal: Bool, deferred: [DeferredCards.Estimate?] = []
    ) -> String {
        let plan = LayoutCSS.plan(layout, itemCount: ids.count)
        var out = "  <div class=\"cl-groups\" role=\"list\""
        if let headingID {
            out += " aria-labelledby=\"\(headingID)\""
        } else {
            out += " aria-label=\"\(HTML.escape(label))\""
        }
        if orthogonal {
            out += " data-scroller"
            // A scroller with nothing focusable inside must be reachable by keyboard (axe:
            // scrollable-region-focusable; web-output §1.1).
            if !focusable { out += " tabindex=\"0\"" }
        }
        out += ">\n"
        func item(_ index: Int, _ classes: String, indent: String) {
            if index < deferred.count, let estimate = deferred[index] {
                out += "\(indent)<div class=\"\(classes) cl-cv\" role=\"listitem\" style=\"\(estimate.style)\">"
            } else {
                out += "\(indent)<div class=\"\(classes)\" role=\"listitem\">"
            }
            out += "<div class=\"cl-cell\" data-item-id=\"\(HTML.escape(ids[index]))\">\n"
            out += cards[index]
            if !cards[index].hasSuffix("\n") { out += "\n" }
            out += "\(indent)</div></div>\n"
        }
        switch plan.structure {
        case .flat:
            for i in ids.indices { item(i, "cl-item", indent: "    ") }
        case .nested:
            func node(_ n: GroupPlan.Node, indent: String) {
                switch n {
                case .item(let index, _):
                    item(index, "cl-item \(n.pathClass)", indent: indent)
                case .group(_, let children):
                    out += "\(indent)<div class=\"cl-group \(n.pathClass)\" role=\"none\">\n"
                    for c in children { node(c, indent: indent + "  ") }
                    out += "\(indent)</div>\n"
                }
            }
            for instance in plan.instances {
                out += "    <div class=\"cl-group lp\" role=\"none\">\n"
                for n in instance { node(n, indent: "      ") }
                out += "    </div>\n"
            }
        }
        if plan.pageMarkers > 0 {
            // Paging snap points every container width (layout-semantics §8, `.paging`).
            out += "    <div class=\"cl-pages\" aria-hidden=\"true\">"
            for k in 0..<plan.pageMarkers { out += "<span style=\"--k:\(k)\"></span>" }
            out += "</div>\n"
        }
        out += "  </div>"
        return out
    }
}
