import Testing

@testable import FeedgenLayout

/// A partial last group keeps the positions its items would have in a full group
/// (layout-semantics §2.6, [R1]: item `i` uses slot `i mod k` of the group's template), in every
/// spacing mode: `count` slots, `subitems` with fixed or flexible inter-item spacing, flexible
/// edge spacing, horizontal and vertical; a wrapping row's lines are the exception (each is laid
/// out by the browser from measured widths and shares its own leftover). Exact frames at a
/// 400 px container without insets.
@Suite struct PartialGroupTests {
    func xs(_ group: LayoutGroup, _ n: Int, vertical: Bool = false) -> [Double] {
        let input = SectionInput(id: "s", layout: AdaptiveSection(LayoutSection(group: group)), itemIDs: (0..<n).map(String.init))
        let solved = CompositionalLayout.solve([input], environment: LayoutEnvironment(containerWidth: 400))
        return solved.sections[0].items.map { vertical ? $0.frame.y : $0.frame.x }
    }

    func item(_ w: LayoutDimension, _ h: LayoutDimension = .absolute(50), edges: EdgeSpacing? = nil) -> LayoutSubitem {
        .item(LayoutItem(size: LayoutSize(width: w, height: h), edgeSpacing: edges))
    }

    /// 120 + 80 + 120 px with flexible(4) spacing: a full group's gaps are (400 − 320) / 2 = 40.
    @Test func flexibleInterItemSpacing() {
        let group = LayoutGroup(
            direction: .horizontal, size: LayoutSize(width: .fractionalWidth(1), height: .absolute(50)),
            content: .subitems([item(.fractionalWidth(0.3)), item(.fractionalWidth(0.2)), item(.fractionalWidth(0.3))]),
            interItemSpacing: .flexible(4))
        #expect(xs(group, 3) == [0, 160, 280])
        // Two items in the last group: where a full group has them (they were spread to 0 and 320).
        #expect(xs(group, 5) == [0, 160, 280, 0, 160])
        #expect(xs(group, 4) == [0, 160, 280, 0])
    }

    /// 120 px items with flexible(0) leading and trailing edges: three fit, the 40 px left over
    /// is shared by six edges (6⅔ px each).
    @Test func flexibleEdgeSpacing() {
        let edges = EdgeSpacing(leading: .flexible(0), trailing: .flexible(0))
        let group = LayoutGroup(
            direction: .horizontal, size: LayoutSize(width: .fractionalWidth(1), height: .absolute(50)),
            content: .subitems([item(.absolute(120), edges: edges), item(.absolute(120), edges: edges)]))
        // (Two subitems, so it is not a wrapping row.) 6⅔, 140, 273⅓ (to 1/1000 px: the model keeps fractions, U-9).
        let full: [Double] = [6.667, 140, 273.333]
        func r(_ v: [Double]) -> [Double] { v.map { ($0 * 1000).rounded() / 1000 } }
        #expect(r(xs(group, 3)) == full)
        // One item in the last group: at the first slot (it was centred at 140).
        #expect(r(xs(group, 4)) == full + [6.667])
        #expect(r(xs(group, 5)) == full + [6.667, 140])
    }

    /// A vertical group 300 px tall of 80 px items with flexible(4) spacing: three fit, gaps 30.
    @Test func verticalFlexibleSpacing() {
        let column = LayoutGroup(
            direction: .vertical, size: LayoutSize(width: .fractionalWidth(1), height: .absolute(300)),
            content: .subitems([item(.fractionalWidth(1), .absolute(80))]), interItemSpacing: .flexible(4))
        #expect(xs(column, 3, vertical: true) == [0, 110, 220])
        // Second group (from y 300): two items at 300 and 410 (they were at 300 and 520).
        #expect(xs(column, 5, vertical: true) == [0, 110, 220, 300, 410])
    }

    /// `count` groups: equal slots, the partial group's items in the first ones (flexible
    /// spacing acts as fixed); fixed spacing in a `subitems` group: packed at the start.
    @Test func countSlotsAndFixedSpacing() {
        let counted = LayoutGroup(
            direction: .horizontal, size: LayoutSize(width: .fractionalWidth(1), height: .absolute(50)),
            content: .count(3, LayoutSubitem.item(LayoutItem(size: LayoutSize(width: .fractionalWidth(1), height: .absolute(50))))),
            interItemSpacing: .flexible(20))
        #expect(xs(counted, 5) == [0, 140, 280, 0, 140])
        let fixed = LayoutGroup(
            direction: .horizontal, size: LayoutSize(width: .fractionalWidth(1), height: .absolute(50)),
            content: .subitems([item(.absolute(100))]), interItemSpacing: .fixed(10))
        #expect(xs(fixed, 5) == [0, 110, 220, 0, 110])
    }

    /// A wrapping row (one repeated item in a `fractionalWidth(1)` group: chips) lays out each
    /// line on its own: the last line's two items share its own leftover.
    @Test func wrappingRowLinesShareTheirOwnLeftover() {
        let row = LayoutGroup(
            direction: .horizontal, size: LayoutSize(width: .fractionalWidth(1), height: .absolute(50)),
            content: .subitems([item(.absolute(120))]), interItemSpacing: .flexible(0))
        #expect(xs(row, 5) == [0, 140, 280, 0, 280])
    }
}
