import Testing

@testable import FeedgenLayout

/// The worked numbers of layout-semantics §7, frame by frame (CSS px).
@Suite struct WorkedExamplesTests {
    let W = 390.0

    /// §7.1's list and §7.2's carousel, and the chips row, as the seed screen draws them:
    /// contentInsets 8 on every side, spacing 8, no reference insets. (The presets of the same
    /// names now sit in the readable content guide: `PresetTests`.)
    func list() -> AdaptiveSection {
        let size = LayoutSize(width: .fractionalWidth(1), height: .estimated(100))
        return AdaptiveSection(
            LayoutSection(
                group: .horizontal(size, repeating: LayoutItem(size: size), count: 1),
                contentInsets: DirectionalEdgeInsets(all: 8), interGroupSpacing: 8))
    }

    func carousel() -> AdaptiveSection {
        let size = LayoutSize(width: .absolute(160), height: .absolute(240))
        return AdaptiveSection(
            LayoutSection(
                group: .horizontal(size, repeating: LayoutItem(size: size), count: 1),
                contentInsets: DirectionalEdgeInsets(all: 8), interGroupSpacing: 8, orthogonalScrollingBehavior: .continuous))
    }

    func chips() -> AdaptiveSection {
        AdaptiveSection(
            LayoutSection(
                group: LayoutGroup(
                    direction: .horizontal, size: LayoutSize(width: .fractionalWidth(1), height: .absolute(36)),
                    content: .subitems([.item(LayoutItem(size: LayoutSize(width: .estimated(80), height: .absolute(36))))]),
                    interItemSpacing: .fixed(8)),
                contentInsets: DirectionalEdgeInsets(all: 8), interGroupSpacing: 8))
    }

    @Test func selfSizingListProvisionalPass() {
        let input = SectionInput(id: "s1", layout: list(), itemIDs: ["a", "b", "c"])
        let r = CompositionalLayout.solve([input], environment: LayoutEnvironment(containerWidth: W))
        #expect(r.sections[0].items.map(\.frame) == [
            Rect(x: 8, y: 8, width: 374, height: 100),
            Rect(x: 8, y: 116, width: 374, height: 100),
            Rect(x: 8, y: 224, width: 374, height: 100),
        ])
        #expect(r.sections[0].frame.height == 332)
    }

    @Test func selfSizingListMeasured() {
        let input = SectionInput(id: "s1", layout: list(), itemIDs: ["a", "b", "c"])
        let measured = Measurements(items: [
            "a": Size(width: 374, height: 120), "b": Size(width: 374, height: 80), "c": Size(width: 374, height: 96),
        ])
        let r = CompositionalLayout.solve([input], environment: LayoutEnvironment(containerWidth: W), measurements: measured)
        #expect(r.sections[0].items.map(\.frame) == [
            Rect(x: 8, y: 8, width: 374, height: 120),
            Rect(x: 8, y: 136, width: 374, height: 80),
            Rect(x: 8, y: 224, width: 374, height: 96),
        ])
        #expect(r.sections[0].frame == Rect(x: 0, y: 0, width: 390, height: 328))
    }

    @Test func continuousCarouselAfterList() {
        let measured = Measurements(items: [
            "a": Size(width: 374, height: 120), "b": Size(width: 374, height: 80), "c": Size(width: 374, height: 96),
        ])
        let ids = (0..<5).map { "p\($0)" }
        let r = CompositionalLayout.solve(
            [
                SectionInput(id: "s1", layout: list(), itemIDs: ["a", "b", "c"]),
                SectionInput(id: "s2", layout: carousel(), itemIDs: ids),
            ],
            environment: LayoutEnvironment(containerWidth: W), measurements: measured)
        let s2 = r.sections[1]
        #expect(s2.frame == Rect(x: 0, y: 328, width: 390, height: 256))
        #expect(s2.items.map(\.frame.x) == [8, 176, 344, 512, 680])
        #expect(s2.items.allSatisfy { $0.frame.y == 336 && $0.frame.width == 160 && $0.frame.height == 240 })
        let o = try! #require(s2.orthogonal)
        #expect(o.contentWidth == 848)
        #expect(o.maxOffset == 458)
        #expect(o.scrollerFrame == Rect(x: 0, y: 328, width: 390, height: 256))
        #expect(o.snapOffsets.isEmpty)
        #expect(r.contentHeight == 584)
    }

    func grid(_ width: LayoutDimension = .fractionalWidth(1), insets: Double = 0, height: LayoutDimension = .absolute(200), count: Int = 2) -> AdaptiveSection {
        AdaptiveSection(
            LayoutSection(
                group: .horizontal(
                    LayoutSize(width: width, height: height),
                    repeating: LayoutItem(size: LayoutSize(width: .fractionalWidth(1), height: .fractionalHeight(1))),
                    count: count, spacing: .fixed(10)),
                contentInsets: DirectionalEdgeInsets(top: 0, leading: insets, bottom: 0, trailing: insets),
                interGroupSpacing: 10))
    }

    @Test(arguments: [(390.0, 190.0, 200.0), (768, 379, 389)])
    func twoColumnGrid(width: Double, itemW: Double, x1: Double) {
        let r = CompositionalLayout.solve(
            [SectionInput(id: "g", layout: grid(), itemIDs: ["0", "1", "2", "3"])],
            environment: LayoutEnvironment(containerWidth: width))
        #expect(r.sections[0].items.map(\.frame) == [
            Rect(x: 0, y: 0, width: itemW, height: 200),
            Rect(x: x1, y: 0, width: itemW, height: 200),
            Rect(x: 0, y: 210, width: itemW, height: 200),
            Rect(x: x1, y: 210, width: itemW, height: 200),
        ])
    }

    @Test func gridWithSectionInsets() {
        let r = CompositionalLayout.solve(
            [SectionInput(id: "g", layout: grid(insets: 16), itemIDs: ["0", "1"])],
            environment: LayoutEnvironment(containerWidth: W))
        #expect(r.sections[0].items.map(\.frame.x) == [16, 200])
        #expect(r.sections[0].items.map(\.frame.width) == [174, 174])
    }

    @Test func adaptiveThreeColumnsKeepsFractions() {
        let adaptive = AdaptiveSection(grid().base, rules: [.init(minWidth: 600, section: grid(count: 3).base)])
        let r = CompositionalLayout.solve(
            [SectionInput(id: "g", layout: adaptive, itemIDs: ["0", "1", "2"])], environment: LayoutEnvironment(containerWidth: 768))
        let xs = r.sections[0].items.map(\.frame.x)
        #expect(abs(r.sections[0].items[0].frame.width - 249.333_333_333) < 1e-6)
        #expect(abs(xs[1] - 259.333_333_333) < 1e-6)
        #expect(abs(xs[2] - 518.666_666_666) < 1e-6)
    }

    @Test func estimatedRowsAreTallestItemAndItemsKeepTheirHeights() {
        let layout = AdaptiveSection(
            LayoutSection(
                group: .horizontal(
                    LayoutSize(width: .fractionalWidth(1), height: .estimated(200)),
                    repeating: LayoutItem(size: LayoutSize(width: .fractionalWidth(1), height: .estimated(200))),
                    count: 2, spacing: .fixed(10)),
                interGroupSpacing: 10))
        let m = Measurements(items: [
            "0": Size(width: 190, height: 120), "1": Size(width: 190, height: 80),
            "2": Size(width: 190, height: 96), "3": Size(width: 190, height: 60),
        ])
        let r = CompositionalLayout.solve(
            [SectionInput(id: "g", layout: layout, itemIDs: ["0", "1", "2", "3"])],
            environment: LayoutEnvironment(containerWidth: W), measurements: m)
        #expect(r.sections[0].items.map(\.frame.height) == [120, 80, 96, 60])
        #expect(r.sections[0].items.map(\.frame.y) == [0, 0, 130, 130])
        #expect(r.sections[0].groups.map(\.height) == [120, 96])
    }

    func paged(_ behavior: OrthogonalScrollingBehavior) -> AdaptiveSection {
        AdaptiveSection(
            LayoutSection(
                group: .horizontal(
                    LayoutSize(width: .fractionalWidth(0.85), height: .absolute(200)),
                    repeating: LayoutItem(size: LayoutSize(width: .fractionalWidth(1), height: .fractionalHeight(1))),
                    count: 1),
                interGroupSpacing: 10, orthogonalScrollingBehavior: behavior))
    }

    @Test func groupPagingCentered() throws {
        let r = CompositionalLayout.solve(
            [SectionInput(id: "h", layout: paged(.groupPagingCentered), itemIDs: (0..<5).map(String.init))],
            environment: LayoutEnvironment(containerWidth: W))
        let s = r.sections[0]
        #expect(s.items.map(\.frame.x) == [29.25, 370.75, 712.25, 1053.75, 1395.25])
        #expect(s.items.allSatisfy { $0.frame.width == 331.5 })
        let o = try #require(s.orthogonal)
        #expect(o.contentWidth == 1756)
        #expect(o.maxOffset == 1366)
        #expect(o.snapOffsets == [0, 341.5, 683, 1024.5, 1366])
    }

    @Test func groupPagingAndPagingClampToTheEnd() throws {
        let ids = (0..<5).map(String.init)
        let g = CompositionalLayout.solve([SectionInput(id: "h", layout: paged(.groupPaging), itemIDs: ids)], environment: LayoutEnvironment(containerWidth: W))
        let go = try #require(g.sections[0].orthogonal)
        #expect(go.contentWidth == 1697.5)
        #expect(go.snapOffsets == [0, 341.5, 683, 1024.5, 1307.5])
        let p = CompositionalLayout.solve([SectionInput(id: "h", layout: paged(.paging), itemIDs: ids)], environment: LayoutEnvironment(containerWidth: W))
        #expect(try #require(p.sections[0].orthogonal).snapOffsets == [0, 390, 780, 1170, 1307.5])
    }

    @Test func partialLastGroupKeepsSlotPositions() {
        let r = CompositionalLayout.solve(
            [SectionInput(id: "g", layout: grid(count: 3), itemIDs: ["0", "1", "2", "3"])],
            environment: LayoutEnvironment(containerWidth: 320))
        let items = r.sections[0].items
        #expect(items[3].frame.x == 0)
        #expect(items[3].frame.width == items[0].frame.width)
        #expect(r.sections[0].groups.count == 2)
    }

    @Test func headerSitsAboveTheTopInset() {
        let input = SectionInput(id: "s", layout: list(), itemIDs: ["a"], hasHeader: true)
        let r = CompositionalLayout.solve([input], environment: LayoutEnvironment(containerWidth: W), measurements: Measurements(headers: ["s": 50]))
        #expect(r.sections[0].headerFrame == Rect(x: 8, y: 0, width: 374, height: 50))
        #expect(r.sections[0].items[0].frame.y == 58)
    }

    @Test func emptySectionHasNoInsets() {
        let r = CompositionalLayout.solve([SectionInput(id: "e", layout: list(), itemIDs: [])], environment: LayoutEnvironment(containerWidth: W))
        #expect(r.sections[0].frame.height == 0)
    }

    @Test func interSectionSpacingOnlyBetweenSections() {
        let sections = [
            SectionInput(id: "a", layout: carousel(), itemIDs: ["1"]),
            SectionInput(id: "b", layout: carousel(), itemIDs: ["2"]),
        ]
        let r = CompositionalLayout.solve(sections, environment: LayoutEnvironment(containerWidth: W, interSectionSpacing: 20))
        #expect(r.sections[1].frame.y == 276)
        #expect(r.contentHeight == 532)
    }

    @Test func chipsFlowAndWrapByMeasuredWidth() {
        let ids = ["a", "b", "c", "d"]
        let m = Measurements(items: [
            "a": Size(width: 150, height: 36), "b": Size(width: 150, height: 36),
            "c": Size(width: 100, height: 36), "d": Size(width: 60, height: 36),
        ])
        let r = CompositionalLayout.solve(
            [SectionInput(id: "c", layout: chips(), itemIDs: ids)], environment: LayoutEnvironment(containerWidth: 390), measurements: m)
        // Content width 374: 150 + 8 + 150 = 308 fits, + 8 + 100 = 416 does not.
        #expect(r.sections[0].items.map(\.frame) == [
            Rect(x: 8, y: 8, width: 150, height: 36), Rect(x: 166, y: 8, width: 150, height: 36),
            Rect(x: 8, y: 52, width: 100, height: 36), Rect(x: 116, y: 52, width: 60, height: 36),
        ])
    }

    @Test func itemContentInsetsShrinkTheCellOnlyOnAbsoluteAxes() {
        let item = LayoutItem(size: LayoutSize(width: .fractionalWidth(1), height: .estimated(50)), contentInsets: DirectionalEdgeInsets(all: 2))
        let layout = AdaptiveSection(LayoutSection(group: .horizontal(LayoutSize(width: .fractionalWidth(1), height: .estimated(50)), repeating: item, count: 3)))
        let r = CompositionalLayout.solve([SectionInput(id: "s", layout: layout, itemIDs: ["a"])], environment: LayoutEnvironment(containerWidth: 60))
        #expect(r.sections[0].items[0].slot == Rect(x: 0, y: 0, width: 20, height: 50))
        #expect(r.sections[0].items[0].frame == Rect(x: 2, y: 0, width: 16, height: 50))
    }

    @Test func nestedGroupsFillCyclically() {
        // A 200-tall row: a half-width item, then a half-width column of two.
        let half = LayoutItem(size: LayoutSize(width: .fractionalWidth(0.5), height: .fractionalHeight(1)))
        let column = LayoutGroup(
            direction: .vertical, size: LayoutSize(width: .fractionalWidth(0.5), height: .fractionalHeight(1)),
            content: .count(2, .item(LayoutItem(size: LayoutSize(width: .fractionalWidth(1), height: .fractionalHeight(1))))),
            interItemSpacing: .fixed(4))
        let row = LayoutGroup(
            direction: .horizontal, size: LayoutSize(width: .fractionalWidth(1), height: .absolute(200)),
            content: .subitems([.item(half), .group(column)]))
        let r = CompositionalLayout.solve(
            [SectionInput(id: "n", layout: AdaptiveSection(LayoutSection(group: row)), itemIDs: ["a", "b", "c", "d"])],
            environment: LayoutEnvironment(containerWidth: 400))
        #expect(r.sections[0].items.map(\.frame) == [
            Rect(x: 0, y: 0, width: 200, height: 200),
            Rect(x: 200, y: 0, width: 200, height: 98),
            Rect(x: 200, y: 102, width: 200, height: 98),
            Rect(x: 0, y: 200, width: 200, height: 200),
        ])
    }

    /// §7.3, estimated-height variant with `uniformAcrossSiblings` items: each row's items
    /// become as tall as the row's tallest (120/120, then 96/96).
    @Test func uniformAcrossSiblingsPerRow() {
        let m = Measurements(items: [
            "0": Size(width: 190, height: 120), "1": Size(width: 190, height: 80),
            "2": Size(width: 190, height: 96), "3": Size(width: 190, height: 60),
        ])
        let r = CompositionalLayout.solve(
            [SectionInput(id: "g", layout: uniformGrid(groupHeight: .estimated(200)), itemIDs: ["0", "1", "2", "3"])],
            environment: LayoutEnvironment(containerWidth: W), measurements: m)
        #expect(r.sections[0].items.map(\.frame) == [
            Rect(x: 0, y: 0, width: 190, height: 120), Rect(x: 200, y: 0, width: 190, height: 120),
            Rect(x: 0, y: 130, width: 190, height: 96), Rect(x: 200, y: 130, width: 190, height: 96),
        ])
    }

    /// §7.3: set on the outermost group, the largest value is shared by the whole section:
    /// every item becomes 120 ([S3]).
    @Test func uniformAcrossSiblingsSectionWide() {
        let m = Measurements(items: [
            "0": Size(width: 190, height: 120), "1": Size(width: 190, height: 80),
            "2": Size(width: 190, height: 96), "3": Size(width: 190, height: 60),
        ])
        let r = CompositionalLayout.solve(
            [SectionInput(id: "g", layout: uniformGrid(groupHeight: .uniformAcrossSiblings(estimate: 200)), itemIDs: ["0", "1", "2", "3"])],
            environment: LayoutEnvironment(containerWidth: W), measurements: m)
        #expect(r.sections[0].items.map(\.frame.height) == [120, 120, 120, 120])
        #expect(r.sections[0].items.map(\.frame.y) == [0, 0, 130, 130])
        #expect(r.sections[0].groups.map(\.height) == [120, 120])
    }

    func uniformGrid(groupHeight: LayoutDimension) -> AdaptiveSection {
        AdaptiveSection(
            LayoutSection(
                group: .horizontal(
                    LayoutSize(width: .fractionalWidth(1), height: groupHeight),
                    repeating: LayoutItem(size: LayoutSize(width: .fractionalWidth(1), height: .uniformAcrossSiblings(estimate: 200))),
                    count: 2, spacing: .fixed(10)),
                interGroupSpacing: 10))
    }

    /// §7.2, alternative reading: contentInsets 8 on the item, none on the section.
    @Test func continuousCarouselWithItemInsets() throws {
        let size = LayoutSize(width: .absolute(160), height: .absolute(240))
        let layout = AdaptiveSection(
            LayoutSection(
                group: .horizontal(size, repeating: LayoutItem(size: size, contentInsets: DirectionalEdgeInsets(all: 8)), count: 1),
                interGroupSpacing: 8, orthogonalScrollingBehavior: .continuous))
        let r = CompositionalLayout.solve(
            [SectionInput(id: "c", layout: layout, itemIDs: (0..<5).map(String.init))], environment: LayoutEnvironment(containerWidth: W))
        let s = r.sections[0]
        #expect(s.items.map(\.slot.x) == [0, 168, 336, 504, 672])
        #expect(s.items[0].frame == Rect(x: 8, y: 8, width: 144, height: 224))
        #expect(try #require(s.orthogonal).contentWidth == 832)
        #expect(s.frame.height == 240)
    }
}
