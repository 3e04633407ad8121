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
    ///   - scrollerID: the `id` of an orthogonal section's scroller (the target of the
    ///     Previous/Next buttons' `aria-controls`); ignored in a section that never scrolls.
    ///   - slideshow: write the items as the slides of a WAI-ARIA APG carousel (the `hero`
    ///     preset): each item `role="group"` with `aria-roledescription="slide"` and the label
    ///     "N of M", the scroller their unnamed `aria-live="polite"` container; otherwise the items
    ///     are a list (`role="list"` named by the heading, items `role="listitem"`).
    ///   - deferred: empty, or per card its reserved height when it renders lazily
    ///     (``DeferredCards``): its item element gets the class `cl-cv` and the estimate in
    ///     `style` (flat structures only).
    /// - Returns: the elements that follow the section's header, in order: `.cl-groups` (when
    ///   there are items), `.cl-footer` (when the layout has a footer), `.cl-background` (when a
    ///   rule of the layout has a background decoration).
    static func groups(
        layout: AdaptiveSection, ids: [String], cards: [CardHTML], headingID: String?, label: String,
        focusable: Bool, scrollerID: String? = nil, slideshow: Bool = false, deferred: [DeferredCards.Estimate?] = []
    ) -> String {
        var out: [UInt8] = []
        groups(
            layout: layout, ids: ids, cards: cards, headingID: headingID, label: label, focusable: focusable,
            scrollerID: scrollerID, slideshow: slideshow, deferred: deferred, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// ``groups(layout:ids:cards:headingID:label:focusable:scrollerID:slideshow:deferred:)``
    /// as UTF-8 appended to `out` (a feed page being assembled: each card's bytes are copied once,
    /// from where they are, ``CardHTML``, into the page).
    static func groups(
        layout: AdaptiveSection, ids: [String], cards: [CardHTML], headingID: String?, label: String,
        focusable: Bool, scrollerID: String?, slideshow: Bool, deferred: [DeferredCards.Estimate?], into out: inout [UInt8]
    ) {
        let variants = [layout.base] + layout.rules.map(\.section)
        let start = out.count
        if !ids.isEmpty {
            groupsElement(
                layout: layout, ids: ids, cards: cards, headingID: headingID, label: label, focusable: focusable,
                orthogonal: variants.contains { $0.orthogonalScrollingBehavior.isOrthogonal }, scrollerID: scrollerID,
                slideshow: slideshow, deferred: deferred, into: &out)
        }
        if variants.contains(where: { $0.footer != nil }) {
            // The footer's content: the section's item count (docs/layout.md, "Headers and footers").
            if out.count > start { out += "\n".utf8 }
            let count = ids.count == 1 ? "1 item" : "\(ids.count) items"
            out += "  <footer class=\"cl-footer\"><p class=\"cl-footer-text\">\(count)</p></footer>".utf8
        }
        if variants.contains(where: \.background) {
            if out.count > start { out += "\n".utf8 }
            out += "  <div class=\"cl-background\" aria-hidden=\"true\"></div>".utf8
        }
    }

    /// The bytes ``groups(layout:ids:cards:headingID:label:focusable:scrollerID:slideshow:deferred:)``
    /// writes, about: every card and its wrapping.
    static func estimatedSize(ids: [String], cards: [CardHTML]) -> Int {
        cards.reduce(0) { $0 + $1.utf8Count } + ids.reduce(0) { $0 + $1.utf8.count + 192 } + 1024
    }

    static func groupsElement(
        layout: AdaptiveSection, ids: [String], cards: [CardHTML], headingID: String?, label: String,
        focusable: Bool, orthogonal: Bool, scrollerID: String?, slideshow: Bool,
        deferred: [DeferredCards.Estimate?], into out: inout [UInt8]
    ) {
        let plan = LayoutCSS.plan(layout, itemCount: ids.count)
        // The slides' container is named only when it must be a focus stop (below).
        let slides = slideshow && orthogonal
        let named = !slides || !focusable
        // Room for every card and its wrapping at once: a 100,000-card section is hundreds of MB,
        // which doubling would copy again and again.
        let needed = out.count + estimatedSize(ids: ids, cards: cards)
        out.reserveCapacity(needed)  // nothing when the page being assembled has the room already
        out += "  <div class=\"cl-groups\"".utf8
        if orthogonal, let scrollerID { out += " id=\"\(HTML.escape(scrollerID))\"".utf8 }
        if !slides {
            out += " role=\"list\"".utf8
        } else if named {
            out += " role=\"group\"".utf8
        }
        if named, let headingID {
            out += " aria-labelledby=\"\(headingID)\"".utf8
        } else if named {
            out += " aria-label=\"\(HTML.escape(label))\"".utf8
        }
        // APG carousel: the slides' container is a polite live region when nothing rotates.
        if slides { out += " aria-atomic=\"false\" aria-live=\"polite\"".utf8 }
        if orthogonal {
            out += " data-scroller".utf8
            // A scroller with nothing focusable inside must be reachable by keyboard (axe:
            // scrollable-region-focusable; web-output §1.1).
            if !focusable { out += " tabindex=\"0\"".utf8 }
        }
        out += ">\n".utf8
        func item(_ index: Int, _ classes: String, indent: String) {
            let role = slides ? "role=\"group\" aria-roledescription=\"slide\" aria-label=\"\(index + 1) of \(ids.count)\"" : "role=\"listitem\""
            if index < deferred.count, let estimate = deferred[index] {
                out += "\(indent)<div class=\"\(classes) cl-cv\" \(role) style=\"\(estimate.style)\">".utf8
            } else {
                out += "\(indent)<div class=\"\(classes)\" \(role)>".utf8
            }
            out += "<div class=\"cl-cell\" data-item-id=\"\(HTML.escape(ids[index]))\">\n".utf8
            cards[index].withUTF8 { out.append(contentsOf: $0) }
            if !cards[index].endsWithLineFeed { out += "\n".utf8 }
            out += "\(indent)</div></div>\n".utf8
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
                    out += "\(indent)<div class=\"cl-group \(n.pathClass)\" role=\"none\">\n".utf8
                    for c in children { node(c, indent: indent + "  ") }
                    out += "\(indent)</div>\n".utf8
                }
            }
            for instance in plan.instances {
                out += "    <div class=\"cl-group lp\" role=\"none\">\n".utf8
                for n in instance { node(n, indent: "      ") }
                out += "    </div>\n".utf8
            }
        }
        if plan.pageMarkers > 0 {
            // Paging snap points every container width (layout-semantics §8, `.paging`).
            out += "    <div class=\"cl-pages\" aria-hidden=\"true\">".utf8
            for k in 0..<plan.pageMarkers { out += "<span style=\"--k:\(k)\"></span>".utf8 }
            out += "</div>\n".utf8
        }
        out += "  </div>".utf8
    }
}
