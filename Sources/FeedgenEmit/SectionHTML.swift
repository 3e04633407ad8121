import FeedgenLayout

/// Writes a section's groups element (`.cl-groups`) with its items, in the structure that
/// `LayoutCSS` styles: the model decides the structure, the CSS and the frames together.
enum SectionHTML {
    /// - Parameters:
    ///   - cards: the rendered card HTML of each item, in snapshot order.
    ///   - ids: the item identifiers, in the same order.
    ///   - headingID: the id of the section's heading, when it has one (names the list).
    static func groups(
        layout: AdaptiveSection, ids: [String], cards: [String], headingID: String?, label: String,
        focusable: Bool
    ) -> String {
        guard !ids.isEmpty else { return "" }
        let plan = LayoutCSS.plan(layout, itemCount: ids.count)
        let orthogonal = layout.base.orthogonalScrollingBehavior.isOrthogonal
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
            out += "\(indent)<div class=\"\(classes)\" role=\"listitem\"><div class=\"cl-cell\" data-item-id=\"\(HTML.escape(ids[index]))\">\n"
            out += cards[index]
            if !cards[index].hasSuffix("\n") { out += "\n" }
            out += "\(indent)</div></div>\n"
        }
        switch plan.mode {
        case .gridFlow, .wrapFlow:
            for i in ids.indices { item(i, "cl-item", indent: "    ") }
        case .groups:
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
        out += "  </div>"
        return out
    }
}
