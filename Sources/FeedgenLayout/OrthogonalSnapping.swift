/// Resting offsets (`scrollLeft`, CSS px) of an orthogonal section's scroller for each behaviour
/// (layout-semantics §3.6 and §7.4; Apple: `UICollectionLayoutSectionOrthogonalScrollingBehavior`):
///
/// - `continuous`: none (free scrolling).
/// - `continuousGroupLeadingBoundary`, `groupPaging`: each group's leading edge minus the
///   leading inset, so the inset stays visible at rest.
/// - `paging`: multiples of the scroller width `W` (the collection's width, not the group's).
/// - `groupPagingCentered`: the offsets that centre each group, `x + w/2 − W/2`.
///
/// All are clamped to `[0, contentWidth − W]`: the content end is a resting point too.
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
        // Every list is ascending (groups are in order and clamping keeps the order): drop repeats.
        var unique: [Double] = []
        unique.reserveCapacity(offsets.count)
        for o in offsets where unique.last.map({ o - $0 > 1e-9 }) ?? true {
            unique.append(o)
        }
        return ResolvedOrthogonal(
            behavior: behavior, scrollerFrame: scroller, contentWidth: contentWidth, maxOffset: maxOffset,
            snapOffsets: unique)
    }
}

extension LayoutCSS {
    /// The value of `--cl-snap` on an orthogonal scroller: `free` (`continuous`), `leading`
    /// (`continuousGroupLeadingBoundary`), `group` (`groupPaging`), `page` (`paging`), `center`
    /// (`groupPagingCentered`); `none` on a section that does not scroll sideways.
    public static func snapKeyword(_ behavior: OrthogonalScrollingBehavior) -> String {
        switch behavior {
        case .none: "none"
        case .continuous: "free"
        case .continuousGroupLeadingBoundary: "leading"
        case .groupPaging: "group"
        case .paging: "page"
        case .groupPagingCentered: "center"
        }
    }
}
