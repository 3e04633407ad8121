import Testing

@testable import FeedgenLayout

/// The model's rules beyond the worked numbers of §7, and feedgen's decisions where
/// layout-semantics leaves a question open (§10; docs/layout.md). CSS px throughout.
@Suite struct ModelTests {
    func section(_ group: LayoutGroup, insets: DirectionalEdgeInsets = .zero, spacing: Double = 0,
                 behavior: OrthogonalScrollingBehavior = .none, reference: ContentInsetsReference = .none,
                 header: BoundarySupplementaryItem? = nil, footer: BoundarySupplementaryItem? = nil,
                 background: Bool = false) -> AdaptiveSection {
        AdaptiveSection(
            LayoutSection(
                group: group, contentInsets: insets, interGroupSpacing: spacing, orthogonalScrollingBehavior: behavior,
                contentInsetsReference: reference, header: header, footer: footer, background: background))
    }

    func solve(_ layout: AdaptiveSection, _ n: Int, width: Double = 390, measured: [String: Size] = [:],
               header: Bool = false, footer: Bool = false, env: LayoutEnvironment? = nil) -> ResolvedSection {
        let input = SectionInput(id: "s", layout: layout, itemIDs: (0..<n).map(String.init), hasHeader: header, hasFooter: footer)
        return CompositionalLayout.solve(
            [input], environment: env ?? LayoutEnvironment(containerWidth: width),
            measurements: Measurements(items: measured, headers: ["s": 30], footers: ["s": 20])
        ).sections[0]
    }

    func item(_ w: LayoutDimension, _ h: LayoutDimension, edges: EdgeSpacing? = nil) -> LayoutItem {
        LayoutItem(size: LayoutSize(width: w, height: h), edgeSpacing: edges)
    }

    func row(_ w: LayoutDimension, _ h: LayoutDimension, _ subitems: [LayoutSubitem], spacing: LayoutSpacing? = nil) -> LayoutGroup {
        LayoutGroup(direction: .horizontal, size: LayoutSize(width: w, height: h), content: .subitems(subitems), interItemSpacing: spacing)
    }

    // MARK: - Measurements

    /// Measurements by index path: two item ids that Swift's `String` calls equal (`é`
    /// precomposed and decomposed) still get their own heights, which a dictionary by id cannot
    /// hold apart; a section listed by index ignores measurements by id.
    @Test func indexedMeasurementsKeepCanonicallyEqualIdsApart() {
        let list = section(
            .horizontal(LayoutSize(width: .fractionalWidth(1), height: .estimated(44)), repeating: item(.fractionalWidth(1), .estimated(44)), count: 1))
        let ids = ["caf\u{E9}", "cafe\u{301}", "x"]
        #expect(ids[0] == ids[1])
        let input = SectionInput(id: "s", layout: list, itemIDs: ids, hasHeader: false, hasFooter: false)
        var m = Measurements(items: ["x": Size(width: 390, height: 500)])
        m.indexedItems[0] = [Size(width: 390, height: 100), Size(width: 390, height: 200), nil]
        let solved = CompositionalLayout.solve([input], environment: LayoutEnvironment(containerWidth: 390), measurements: m)
        #expect(solved.sections[0].items.map(\.frame.height) == [100, 200, 44])
        #expect(solved.sections[0].items.map(\.frame.y) == [0, 100, 300])
        // By id, the two equal ids are one key: both get the last height written.
        var byID = Measurements()
        byID.items[ids[0]] = Size(width: 390, height: 100)
        byID.items[ids[1]] = Size(width: 390, height: 200)
        #expect(byID.items.count == 1)
        let merged = CompositionalLayout.solve([input], environment: LayoutEnvironment(containerWidth: 390), measurements: byID)
        #expect(merged.sections[0].items[0].frame.height == merged.sections[0].items[1].frame.height)
    }

    /// A header's height by section index wins over the one by section id, so two sections
    /// whose ids compare equal get their own (the other section keeps its height by id).
    @Test func indexedHeaderHeightsWinOverHeightsByID() {
        let list = section(
            .horizontal(LayoutSize(width: .fractionalWidth(1), height: .estimated(44)), repeating: item(.fractionalWidth(1), .estimated(44)), count: 1),
            header: BoundarySupplementaryItem(height: .estimated(30)))
        let inputs = ["caf\u{E9}", "cafe\u{301}"].map {
            SectionInput(id: $0, layout: list, itemIDs: [], hasHeader: true, hasFooter: false)
        }
        var m = Measurements(headers: ["caf\u{E9}": 90])
        m.indexedHeaders[1] = 50
        let solved = CompositionalLayout.solve(inputs, environment: LayoutEnvironment(containerWidth: 390), measurements: m)
        #expect(solved.sections.map { $0.headerFrame?.height } == [90, 50])
        #expect(solved.sections.map { $0.headerFrame?.y } == [0, 90])
    }

    // MARK: - Groups

    @Test func countSlotsIncludeTheItemsEdgeSpacing() {
        let g = LayoutGroup.horizontal(
            LayoutSize(width: .absolute(300), height: .absolute(50)),
            repeating: item(.fractionalWidth(1), .fractionalHeight(1), edges: EdgeSpacing(leading: .fixed(6), trailing: .fixed(4))),
            count: 3)
        let s = solve(section(g), 3)
        #expect(s.items.map(\.frame.x) == [6, 106, 206])
        #expect(s.items.map(\.frame.width) == [90, 90, 90])
    }

    @Test func anEstimatedGroupExtentTakesEachSubitemOnce() {
        // A scrolling row of chips: each group is one chip, as wide as it measures.
        let chip = item(.estimated(80), .absolute(36))
        let g = row(.estimated(80), .absolute(36), [.item(chip)])
        let s = solve(
            section(g, spacing: 8, behavior: .continuous), 3,
            measured: ["0": Size(width: 50, height: 36), "1": Size(width: 120, height: 36), "2": Size(width: 70, height: 36)])
        #expect(s.groups.map(\.width) == [50, 120, 70])
        #expect(s.items.map(\.frame.x) == [0, 58, 186])
        #expect(s.orthogonal?.contentWidth == 256)
    }

    @Test func flexibleInterItemSpacingTakesTheLeftover() {
        let g = row(.absolute(400), .absolute(50), [.item(item(.absolute(100), .absolute(50)))], spacing: .flexible(8))
        #expect(solve(section(g), 3).items.map(\.frame.x) == [0, 150, 300])
    }

    @Test func flexibleEdgesShareTheLeftoverAndMoveItemsAcross() {
        let centred = row(
            .absolute(300), .absolute(100),
            [.item(item(.absolute(120), .absolute(40), edges: EdgeSpacing(leading: .flexible(0), top: .flexible(0), trailing: .flexible(0), bottom: .flexible(0))))])
        // Two fit; the 60 px left over goes in four shares of 15: each item centred in its half.
        #expect(solve(section(centred), 2).items.map(\.frame) == [
            Rect(x: 15, y: 30, width: 120, height: 40), Rect(x: 165, y: 30, width: 120, height: 40),
        ])
        // Alone in a partial group, an item keeps its place in a full one (§2.6; PartialGroupTests).
        #expect(solve(section(centred), 1).items[0].frame == Rect(x: 15, y: 30, width: 120, height: 40))
        let bottom = row(.absolute(300), .absolute(100), [.item(item(.absolute(100), .absolute(40), edges: EdgeSpacing(top: .flexible(0))))])
        #expect(solve(section(bottom), 1).items[0].frame == Rect(x: 0, y: 60, width: 100, height: 40))
        let top = row(.absolute(300), .absolute(100), [.item(item(.absolute(100), .absolute(40), edges: EdgeSpacing(bottom: .flexible(0))))])
        #expect(solve(section(top), 1).items[0].frame == Rect(x: 0, y: 0, width: 100, height: 40))
    }

    @Test func fractionsOfAnEstimatedHeightSettleAfterIt() {
        let g = row(
            .fractionalWidth(1), .estimated(50),
            [.item(item(.fractionalWidth(0.5), .estimated(50))), .item(item(.fractionalWidth(0.25), .fractionalHeight(1))),
             .item(item(.fractionalWidth(0.25), .fractionalHeight(0.5)))])
        let s = solve(section(g), 3, width: 400, measured: ["0": Size(width: 200, height: 90)])
        #expect(s.items.map(\.frame.height) == [90, 90, 45])
        #expect(s.groups[0].height == 90)
    }

    @Test func nestedGroupsStretchToAnEstimatedRowAndResolveAgainstIt() {
        let column = LayoutGroup(
            direction: .vertical, size: LayoutSize(width: .fractionalWidth(0.5), height: .fractionalHeight(1)),
            content: .count(2, .item(item(.fractionalWidth(1), .fractionalHeight(1)))), interItemSpacing: .fixed(10))
        let g = row(.fractionalWidth(1), .estimated(100), [.item(item(.fractionalWidth(0.5), .estimated(100))), .group(column)])
        let s = solve(section(g), 3, width: 400, measured: ["0": Size(width: 200, height: 150)])
        #expect(s.items.map(\.frame) == [
            Rect(x: 0, y: 0, width: 200, height: 150), Rect(x: 200, y: 0, width: 200, height: 70),
            Rect(x: 200, y: 80, width: 200, height: 70),
        ])
    }

    /// 40 nested groups as wide as their container: the solver once tried each level's next
    /// repetition in full before finding it did not fit, 2^40 solves; now instant.
    @Test(.timeLimit(.minutes(1))) func deeplyNestedFullWidthGroupsSolveInLinearTime() {
        var g = row(.fractionalWidth(1), .fractionalHeight(1), [.item(item(.fractionalWidth(1), .fractionalHeight(1)))])
        for _ in 0..<39 { g = row(.fractionalWidth(1), .fractionalHeight(1), [.group(g)]) }
        g = row(.fractionalWidth(1), .absolute(100), [.group(g)])
        let s = solve(section(g), 3)
        #expect(s.items.map(\.frame) == [
            Rect(x: 0, y: 0, width: 390, height: 100), Rect(x: 0, y: 100, width: 390, height: 100),
            Rect(x: 0, y: 200, width: 390, height: 100),
        ])
    }

    @Test func uniformHeightInAGroupOfFixedHeightTakesTheGroupsHeight() {
        let g = row(.fractionalWidth(1), .absolute(80), [.item(item(.fractionalWidth(0.5), .uniformAcrossSiblings(estimate: 30)))])
        let s = solve(section(g), 2, measured: ["0": Size(width: 195, height: 20)])
        #expect(s.items.map(\.frame.height) == [80, 80])
    }

    @Test func shortItemsSitAtTheTopOfTheirGroup() {  // U-11
        let g = row(.fractionalWidth(1), .absolute(120), [.item(item(.fractionalWidth(0.5), .absolute(40)))])
        #expect(solve(section(g), 2).items.map(\.frame.y) == [0, 0])
    }

    @Test func estimatedItemsInAFixedGroupOverflowIt() {  // U-3
        let g = row(.fractionalWidth(1), .absolute(60), [.item(item(.fractionalWidth(1), .estimated(40)))])
        let s = solve(section(g, spacing: 8), 2, measured: ["0": Size(width: 390, height: 100)])
        #expect(s.items.map(\.frame.height) == [100, 40])
        #expect(s.items.map(\.frame.y) == [0, 68])
        #expect(s.groups.map(\.height) == [60, 60])
    }

    @Test func groupInsetsShrinkTheBoxOfTheSubitems() {
        var g = row(.absolute(300), .absolute(100), [.item(item(.fractionalWidth(0.5), .fractionalHeight(1)))])
        g.contentInsets = DirectionalEdgeInsets(top: 10, leading: 20, bottom: 10, trailing: 20)
        let s = solve(section(g), 2)
        #expect(s.items.map(\.frame) == [Rect(x: 20, y: 10, width: 130, height: 80), Rect(x: 150, y: 10, width: 130, height: 80)])
    }

    // MARK: - Sections

    @Test func headerFooterAndBackgroundFrames() {
        let header = BoundarySupplementaryItem(height: .fractionalWidth(0.125))
        let footer = BoundarySupplementaryItem(height: .estimated(44))
        let g = LayoutGroup.horizontal(LayoutSize(width: .fractionalWidth(1), height: .absolute(50)), repeating: item(.fractionalWidth(1), .fractionalHeight(1)), count: 1)
        let s = solve(
            section(g, insets: DirectionalEdgeInsets(all: 8), header: header, footer: footer, background: true), 1,
            header: true, footer: true)
        #expect(s.headerFrame == Rect(x: 8, y: 0, width: 374, height: 46.75))
        #expect(s.items[0].frame == Rect(x: 8, y: 54.75, width: 374, height: 50))
        #expect(s.footerFrame == Rect(x: 8, y: 112.75, width: 374, height: 20))
        #expect(s.frame == Rect(x: 0, y: 0, width: 390, height: 132.75))
        #expect(s.backgroundFrame == s.frame)  // U-8: the background covers the header too
    }

    @Test func anEmptySectionIsItsHeaderAndFooter() {  // U-10
        let g = LayoutGroup.horizontal(LayoutSize(width: .fractionalWidth(1), height: .absolute(50)), repeating: item(.fractionalWidth(1), .fractionalHeight(1)), count: 1)
        let s = solve(section(g, insets: DirectionalEdgeInsets(all: 8), footer: BoundarySupplementaryItem(height: .absolute(40))), 0, header: true, footer: true)
        #expect(s.frame.height == 70)
        #expect(s.footerFrame?.y == 30)
    }

    @Test func referenceInsets() {
        let g = LayoutGroup.horizontal(LayoutSize(width: .fractionalWidth(1), height: .absolute(50)), repeating: item(.fractionalWidth(1), .fractionalHeight(1)), count: 1)
        let insets = DirectionalEdgeInsets(top: 0, leading: 4, bottom: 0, trailing: 6)
        func frame(_ reference: ContentInsetsReference, _ width: Double, safe: Double = 0) -> Rect {
            solve(section(g, insets: insets, reference: reference), 1,
                  env: LayoutEnvironment(containerWidth: width, safeAreaInsets: DirectionalEdgeInsets(top: 0, leading: safe, bottom: 0, trailing: safe))).items[0].frame
        }
        #expect(frame(.none, 390, safe: 20) == Rect(x: 4, y: 0, width: 380, height: 50))
        #expect(frame(.safeArea, 390, safe: 20) == Rect(x: 24, y: 0, width: 340, height: 50))
        #expect(frame(.automatic, 390, safe: 20) == Rect(x: 24, y: 0, width: 340, height: 50))
        #expect(frame(.layoutMargins, 390) == Rect(x: 20, y: 0, width: 348, height: 50))  // U-7: 16 px margins
        #expect(frame(.readableContent, 390) == Rect(x: 20, y: 0, width: 348, height: 50))  // within the margins
        #expect(frame(.readableContent, 1280) == Rect(x: 308, y: 0, width: 662, height: 50))  // (1280 − 672) / 2 = 304
    }

    @Test func adaptiveRulesSeeTheWidthWithoutTheSafeArea() {
        let narrow = LayoutGroup.horizontal(LayoutSize(width: .fractionalWidth(1), height: .absolute(50)), repeating: item(.fractionalWidth(1), .fractionalHeight(1)), count: 1)
        var wide = LayoutSection(group: narrow)
        wide.group.content = .count(2, .item(item(.fractionalWidth(1), .fractionalHeight(1))))
        let layout = AdaptiveSection(LayoutSection(group: narrow), rules: [.init(minWidth: 700, section: wide)])
        let env = LayoutEnvironment(containerWidth: 720, safeAreaInsets: DirectionalEdgeInsets(top: 0, leading: 20, bottom: 0, trailing: 20))
        #expect(CompositionalLayout.section(layout, in: env).group == narrow)
        #expect(CompositionalLayout.section(layout, in: LayoutEnvironment(containerWidth: 700)).group == wide.group)
    }

    // MARK: - Orthogonal

    @Test func orthogonalFractionsAreOfTheFullWidthWhateverTheInsets() {  // U-1
        let g = LayoutGroup.horizontal(LayoutSize(width: .fractionalWidth(0.5), height: .absolute(100)), repeating: item(.fractionalWidth(1), .fractionalHeight(1)), count: 1)
        let s = solve(section(g, insets: DirectionalEdgeInsets(top: 0, leading: 40, bottom: 0, trailing: 40), spacing: 10,
                              behavior: .continuousGroupLeadingBoundary, reference: .layoutMargins), 3)
        #expect(s.items.map(\.frame.width) == [195, 195, 195])
        #expect(s.items.map(\.frame.x) == [56, 261, 466])
        let o = s.orthogonal!
        #expect(o.contentWidth == 56 + 3 * 195 + 20 + 56)
        #expect(o.snapOffsets == [0, 205, 327])
        #expect(o.scrollerFrame == Rect(x: 0, y: 0, width: 390, height: 100))
    }

    @Test func centredPagingIgnoresInsetsAndCentresByTheEstimate() {  // U-2
        let g = row(.estimated(300), .absolute(100), [.item(item(.estimated(300), .fractionalHeight(1)))])
        let s = solve(section(g, insets: DirectionalEdgeInsets(top: 0, leading: 30, bottom: 0, trailing: 50), spacing: 10, behavior: .groupPagingCentered),
                      2, measured: ["0": Size(width: 250, height: 100), "1": Size(width: 320, height: 100)])
        #expect(s.items.map(\.frame.x) == [45, 305])
        #expect(s.orthogonal?.contentWidth == 670.0)  // 45 + 250 + 10 + 320 + 45
        // Centres 170 and 465 against W/2 = 195, clamped to [0, 670 − 390].
        #expect(s.orthogonal?.snapOffsets == [0, 270])
    }

    @Test func pagingRestsOnMultiplesOfTheWidthAndTheEnd() {
        let g = LayoutGroup.horizontal(LayoutSize(width: .absolute(150), height: .absolute(100)), repeating: item(.fractionalWidth(1), .fractionalHeight(1)), count: 1)
        let s = solve(section(g, insets: DirectionalEdgeInsets(all: 10), spacing: 10, behavior: .paging), 12, width: 320)
        #expect(s.orthogonal?.contentWidth == 1930.0)  // 10 + 12 · 150 + 11 · 10 + 10
        // Pages of the container width, then the content end (1930 − 320 = 1610).
        #expect(s.orthogonal?.snapOffsets == [0, 320, 640, 960, 1280, 1600, 1610])
        #expect(solve(section(g, behavior: .paging), 1, width: 320).orthogonal?.snapOffsets == [0])
    }

    @Test func orthogonalRowIsTheTallestGroup() {  // U-4
        let g = LayoutGroup.horizontal(LayoutSize(width: .absolute(100), height: .estimated(50)), repeating: item(.fractionalWidth(1), .estimated(50)), count: 1)
        let s = solve(section(g, behavior: .continuous), 3, measured: ["1": Size(width: 100, height: 90)])
        #expect(s.items.map(\.frame.height) == [50, 90, 50])
        #expect(s.frame.height == 90)
    }

    // MARK: - Instances

    @Test func translatedTemplatesEqualInstancesSolvedOneByOne() {
        // Measuring every item at its estimate must give the provisional pass exactly.
        for preset in LayoutPreset.allCases {
            let ids = (0..<23).map(String.init)
            let plain = solve(preset.expansion, 23)
            var measured: [String: Size] = [:]
            for (id, item) in zip(ids, plain.items) { measured[id] = Size(width: item.frame.width, height: item.frame.height) }
            let remeasured = solve(preset.expansion, 23, measured: measured)
            #expect(remeasured.items == plain.items, "\(preset)")
            #expect(remeasured.frame == plain.frame, "\(preset)")
        }
    }

    @Test func fractionsAreKept() {  // U-9
        let g = LayoutGroup.horizontal(LayoutSize(width: .fractionalWidth(1), height: .absolute(50)), repeating: item(.fractionalWidth(1), .fractionalHeight(1)), count: 3, spacing: .fixed(7))
        let s = solve(section(g), 3, width: 400)
        #expect(s.items[1].frame.x == 386.0 / 3 + 7)
        #expect(s.items[0].frame.width == 386.0 / 3)
    }
}
