import Testing

@testable import FeedgenLayout

/// Subitems that take no room along their group's axis (a zero width, no spacing) repeat once
/// per group instead of until the items run out: the fuzzer's FuzzLayout found a layout whose
/// check never finished (a zero-width row of half-width items, solved for 4,096 items per
/// instance of the CSS plan).
@Suite struct ZeroExtentGroupTests {
    func solve(_ group: LayoutGroup, _ n: Int) -> [Rect] {
        let input = SectionInput(id: "s", layout: AdaptiveSection(LayoutSection(group: group)), itemIDs: (0..<n).map(String.init))
        let solved = CompositionalLayout.solve([input], environment: LayoutEnvironment(containerWidth: 400))
        return solved.sections[0].items.map(\.frame)
    }

    @Test func zeroWidthRowHoldsOneRoundOfItsSubitems() {
        let row = LayoutGroup(
            direction: .horizontal, size: LayoutSize(width: .fractionalWidth(0), height: .absolute(200)),
            content: .subitems([
                .item(LayoutItem(size: LayoutSize(width: .fractionalWidth(0.5), height: .fractionalHeight(1)))),
                .item(LayoutItem(size: LayoutSize(width: .absolute(0), height: .fractionalHeight(1)))),
            ]))
        // Two items per group, each group below the last (200 px tall), every frame 0 px wide.
        #expect(
            solve(row, 5) == [
                Rect(x: 0, y: 0, width: 0, height: 200), Rect(x: 0, y: 0, width: 0, height: 200),
                Rect(x: 0, y: 200, width: 0, height: 200), Rect(x: 0, y: 200, width: 0, height: 200),
                Rect(x: 0, y: 400, width: 0, height: 200),
            ])
        // The CSS plan's first instance (4,096 items available) holds the same two.
        #expect(LayoutCSS.firstInstanceShape(LayoutSection(group: row)).count == 2)
    }
}
