/// Resting offsets of an orthogonal section's scroller for each behaviour
/// (layout-semantics §3.6 and §7.4; Apple: `UICollectionLayoutSectionOrthogonalScrollingBehavior`).
enum OrthogonalSnapping {
    static func resolve(
        behavior: OrthogonalScrollingBehavior, groups: [Rect], scroller: Rect, contentWidth: Double,
        leadingInset: Double
    ) -> ResolvedOrthogonal {
        let W = scroller.width
        let maxOffset = max(0, contentWidth - W)
        func clamp(_ v: Double) -> Double { min(max(v, 0), maxOffset) }
        var offsets: [Double]
        switch behavior {
        case .none, .continuous:
            offsets = []
        case .continuousGroupLeadingBoundary, .groupPaging:
            // Groups rest at their leading edge with the section's leading inset kept visible;
            // unreachable positions clamp to the content end.
            offsets = groups.map { clamp($0.x - leadingInset) }
        case .paging:
            // Pages of the collection's own width, not the group's (Apple header; P1).
            offsets = []
            var k = 0.0
            while k * W < maxOffset - 1e-9 {
                offsets.append(k * W)
                k += 1
            }
            offsets.append(maxOffset)
        case .groupPagingCentered:
            offsets = groups.map { clamp($0.x + $0.width / 2 - W / 2) }
        }
        var unique: [Double] = []
        for o in offsets.sorted() where unique.last.map({ abs($0 - o) > 1e-9 }) ?? true {
            unique.append(o)
        }
        return ResolvedOrthogonal(
            behavior: behavior, scrollerFrame: scroller, contentWidth: contentWidth, maxOffset: maxOffset,
            snapOffsets: unique)
    }
}
