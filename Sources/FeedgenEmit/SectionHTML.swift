import FeedgenLayout

/// Writes a section's layout elements in the structure that `LayoutCSS` styles: the groups
/// element (`.cl-groups`) with its items, the footer (a boundary supplementary item) and the
/// background decoration. The model decides the structure, the CSS and the frames together.
package enum SectionHTML {
    /// - Parameters:
    ///   - cards: the rendered card HTML of each item, in snapshot order.
    ///   - ids: the item identifiers, in the same order.
    ///   - headingID: the id of the section's heading, when it has one (names the list).
    ///   - focusable: whether any card holds a link (a scroller without one gets `tabindex`).
    ///   - scrollerID: the `id` of an orthogonal section's scroller (the target of the
    ///     Previous/Next buttons' `aria-controls`); ignored in a section that never scrolls.
    ///   - slides: nil, or the slides' labels and role description (``Slides``) to write the
    ///     items as the slides of a WAI-ARIA APG carousel (the `hero` preset): each item
    ///     `role="group"` with the slides' `aria-roledescription` ("slide") and its label ("2 of 5"), the
    ///     scroller their unnamed `aria-live="polite"` container; ignored in a section that never
    ///     scrolls. Otherwise the items are a list (`role="list"` named by the heading, items
    ///     `role="listitem"`).
    ///   - footer: the footer's text (plain text: escaped here; "3 items",
    ///     `partials/item-count.mustache`), written when the layout has a footer (nil: empty).
    ///   - deferred: empty, or per card its reserved height when it renders lazily
    ///     (``DeferredCards``): its item element gets the class `cl-cv` and the estimate in
    ///     `style` (flat structures only).
    /// - Returns: the elements that follow the section's header, in order: `.cl-groups` (when
    ///   there are items), `.cl-footer` (when the layout has a footer), `.cl-background` (when a
    ///   rule of the layout has a background decoration).
    static func groups(
        layout: AdaptiveSection, ids: [String], cards: [CardHTML], headingID: String?, label: String,
        focusable: Bool, scrollerID: String? = nil, slides: Slides? = nil, footer: String? = nil,
        deferred: [DeferredCards.Estimate?] = []
    ) -> String {
        var out: [UInt8] = []
        groups(
            layout: layout, ids: ids, cards: cards, headingID: headingID, label: label, focusable: focusable,
            scrollerID: scrollerID, slides: slides, footer: footer, deferred: deferred, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// ``groups(layout:ids:cards:headingID:label:focusable:scrollerID:slides:footer:deferred:)``
    /// as UTF-8 appended to `out` (a feed page being assembled: each card's bytes are copied once,
    /// from where they are, ``CardHTML``, into the page).
    static func groups<Out: HTMLByteSink>(
        layout: AdaptiveSection, ids: [String], cards: [CardHTML], headingID: String?, label: String,
        focusable: Bool, scrollerID: String?, slides: Slides?, footer: String?, deferred: [DeferredCards.Estimate?],
        into out: inout Out, cardRanges: CardRanges? = nil
    ) {
        let variants = [layout.base] + layout.rules.map(\.section)
        let start = out.count
        if !ids.isEmpty {
            groupsElement(
                layout: layout, ids: ids, cards: cards, headingID: headingID, label: label, focusable: focusable,
                orthogonal: variants.contains { $0.orthogonalScrollingBehavior.isOrthogonal }, scrollerID: scrollerID,
                slides: slides, deferred: deferred, into: &out, cardRanges: cardRanges)
        }
        if hasFooter(layout) {
            // The footer's content: the section's item count (docs/layout.md, "Headers and footers").
            if out.count > start { out.append("\n") }
            out.append("  <footer class=\"cl-footer\"><p class=\"cl-footer-text\">")
            out.append(HTML.escape(footer ?? ""))
            out.append("</p></footer>")
        }
        if variants.contains(where: \.background) {
            if out.count > start { out.append("\n") }
            out.append("  <div class=\"cl-background\" aria-hidden=\"true\"></div>")
        }
    }

    /// Where each card's bytes landed in the output (``groups(layout:ids:cards:headingID:label:focusable:scrollerID:slides:footer:deferred:into:cardRanges:)``):
    /// per card, in item order, the byte range of its HTML and of the line feed written after
    /// it when it does not end in one (offsets in the sink, which counts from its start).
    final class CardRanges {
        var ranges: [Range<Int>]
        init(count: Int) { ranges = Array(repeating: 0..<0, count: count) }
    }

    /// The slides of a WAI-ARIA APG carousel: plain text, escaped where it is written.
    struct Slides {
        /// Each slide's `aria-label`, in item order ("2 of 5", `partials/slide-label.mustache`).
        var labels: [String]
        /// Every slide's `aria-roledescription` ("slide", `partials/slide-roledescription.mustache`).
        var roleDescription: String
    }

    /// Whether `layout` has a footer: its base or any adaptive rule sets `footer` (docs/layout.md,
    /// "Headers, footers and the background").
    static func hasFooter(_ layout: AdaptiveSection) -> Bool {
        layout.base.footer != nil || layout.rules.contains { $0.section.footer != nil }
    }

    /// The bytes ``groups(layout:ids:cards:headingID:label:focusable:scrollerID:slides:footer:deferred:)``
    /// writes, about: every card and its wrapping.
    static func estimatedSize(ids: [String], cards: [CardHTML]) -> Int {
        cards.reduce(0) { $0 + $1.utf8Count } + ids.reduce(0) { $0 + $1.utf8.count + 192 } + 1024
    }

    static func groupsElement<Out: HTMLByteSink>(
        layout: AdaptiveSection, ids: [String], cards: [CardHTML], headingID: String?, label: String,
        focusable: Bool, orthogonal: Bool, scrollerID: String?, slides slideshow: Slides?,
        deferred: [DeferredCards.Estimate?], into out: inout Out, cardRanges: CardRanges? = nil
    ) {
        let plan = LayoutCSS.plan(layout, itemCount: ids.count)
        let slideshow = orthogonal ? slideshow : nil
        let labels = slideshow?.labels
        // The attributes every slide's element starts with, its role description escaped once
        // per section.
        let slideAttributes = slideshow.map {
            "\" role=\"group\" aria-roledescription=\"\(HTML.escape($0.roleDescription))\" aria-label=\""
        } ?? ""
        let slides = slideshow != nil
        // The slides' container is named only when it must be a focus stop (below).
        let named = !slides || !focusable
        out.reserveRoom(ids: ids, cards: cards)
        out.append("  <div class=\"cl-groups\"")
        if orthogonal, let scrollerID { out.append(" id=\"\(HTML.escape(scrollerID))\"") }
        if !slides {
            out.append(" role=\"list\"")
        } else if named {
            out.append(" role=\"group\"")
        }
        if named, let headingID {
            out.append(" aria-labelledby=\"\(headingID)\"")
        } else if named {
            out.append(" aria-label=\"\(HTML.escape(label))\"")
        }
        // APG carousel: the slides' container is a polite live region when nothing rotates.
        if slides { out.append(" aria-atomic=\"false\" aria-live=\"polite\"") }
        if orthogonal {
            out.append(" data-scroller")
            // A scroller with nothing focusable inside must be reachable by keyboard (axe:
            // scrollable-region-focusable; web-output §1.1).
            if !focusable { out.append(" tabindex=\"0\"") }
        }
        out.append(">\n")
        // A flat section's items all open and close alike: their markup up to the id and after
        // the card is appended in one piece each (a card's wrapping was a dozen appends).
        let flat = (
            eager: "    <div class=\"cl-item\" role=\"listitem\"" + Self.cellStart,
            deferred: "    <div class=\"cl-item cl-cv\" role=\"listitem\"" + Self.estimateStyleStart,
            styleEnd: Self.estimateStyleEnd + Self.cellStart, close: "    </div></div>\n", lineFeedClose: "\n    </div></div>\n")
        func flatItem(_ index: Int) {
            let estimate = index < deferred.count ? deferred[index] : nil
            if let estimate {
                out.append(flat.deferred)
                out.append(estimate: estimate)
                out.append(flat.styleEnd)
            } else {
                out.append(flat.eager)
            }
            out.append(HTML.escape(ids[index]))
            out.append(Self.cellStartEnd)
            let cardStart = out.count
            out.append(card: cards[index])
            if cards[index].endsWithLineFeed {
                cardRanges?.ranges[index] = cardStart..<out.count
                out.append(flat.close)
            } else {
                out.append(flat.lineFeedClose)
                cardRanges?.ranges[index] = cardStart..<(out.count - flat.close.utf8.count)
            }
        }
        func item(_ index: Int, _ classes: String, indent: String) {
            // Appended piece by piece: for 10,000 cards, interpolated strings were most of the
            // time spent wrapping them.
            out.append(indent)
            out.append("<div class=\"")
            out.append(classes)
            let estimate = index < deferred.count ? deferred[index] : nil
            if estimate != nil { out.append(" cl-cv") }
            if let labels {
                out.append(slideAttributes)
                if index < labels.count { out.append(HTML.escape(labels[index])) }
                out.append("\"")
            } else {
                out.append("\" role=\"listitem\"")
            }
            if let estimate {
                out.append(Self.estimateStyleStart)
                out.append(estimate: estimate)
                out.append(Self.estimateStyleEnd)
            }
            out.append(Self.cellStart)
            out.append(HTML.escape(ids[index]))
            out.append(Self.cellStartEnd)
            let cardStart = out.count
            out.append(card: cards[index])
            if !cards[index].endsWithLineFeed { out.append("\n") }
            cardRanges?.ranges[index] = cardStart..<out.count
            out.append(indent)
            out.append("</div></div>\n")
        }
        switch plan.structure {
        case .flat:
            if labels == nil {
                for i in ids.indices { flatItem(i) }
            } else {
                for i in ids.indices { item(i, "cl-item", indent: "    ") }
            }
        case .nested:
            func node(_ n: GroupPlan.Node, indent: String) {
                switch n {
                case .item(let index, _):
                    item(index, "cl-item \(n.pathClass)", indent: indent)
                case .group(_, let children):
                    out.append("\(indent)<div class=\"cl-group \(n.pathClass)\" role=\"none\">\n")
                    for c in children { node(c, indent: indent + "  ") }
                    out.append("\(indent)</div>\n")
                }
            }
            for instance in plan.instances {
                out.append("    <div class=\"cl-group lp\" role=\"none\">\n")
                for n in instance { node(n, indent: "      ") }
                out.append("    </div>\n")
            }
        }
        if plan.pageMarkers > 0 {
            // Paging snap points every container width (layout-semantics §8, `.paging`).
            out.append("    <div class=\"cl-pages\" aria-hidden=\"true\">")
            for k in 0..<plan.pageMarkers { out.append("<span style=\"--k:\(k)\"></span>") }
            out.append("</div>\n")
        }
        out.append("  </div>")
    }
}
