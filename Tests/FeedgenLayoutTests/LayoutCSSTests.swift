import Testing

@testable import FeedgenLayout

/// The HTML structure and CSS the model decides (layout-semantics §8). The browser suite
/// (Tests/browser/test_layout_conformance.py) checks that the boxes match; these pin the text.
@Suite struct LayoutCSSTests {
    let scope = "[data-section-id=\"s\"]"

    func block(_ css: String, _ selector: String) -> String? {
        css.split(separator: "\n").first { $0.hasPrefix(selector + " {") }.map(String.init)
    }

    @Test func presetsUseFlatArrangements() {
        #expect(LayoutCSS.mode(of: LayoutPreset.list.expansion.base) == .gridFlow)
        #expect(LayoutCSS.mode(of: LayoutPreset.grid.expansion.base) == .gridFlow)
        #expect(LayoutCSS.mode(of: LayoutPreset.chips.expansion.base) == .wrapFlow)
        #expect(LayoutCSS.mode(of: LayoutPreset.carousel.expansion.base) == .rowFlow)
        #expect(LayoutCSS.mode(of: LayoutPreset.hero.expansion.base) == .rowFlow)
        #expect(LayoutCSS.mode(of: LayoutPreset.insetGrouped.expansion.base) == .gridFlow)
        for preset in LayoutPreset.allCases {
            #expect(LayoutCSS.plan(preset.expansion, itemCount: 5).structure == .flat)
        }
    }

    func mosaic(height: Double = 200) -> LayoutSection {
        let half = LayoutItem(size: LayoutSize(width: .fractionalWidth(0.5), height: .fractionalHeight(1)))
        let column = LayoutGroup(
            direction: .vertical, size: LayoutSize(width: .fractionalWidth(0.5), height: .fractionalHeight(1)),
            content: .count(2, .item(LayoutItem(size: LayoutSize(width: .fractionalWidth(1), height: .fractionalHeight(1))))),
            interItemSpacing: .fixed(4))
        return LayoutSection(
            group: LayoutGroup(
                direction: .horizontal, size: LayoutSize(width: .fractionalWidth(1), height: .absolute(height)),
                content: .subitems([.item(half), .group(column)])),
            interGroupSpacing: 4)
    }

    @Test func nestedGroupsAreWrittenInstanceByInstance() {
        let plan = LayoutCSS.plan(AdaptiveSection(mosaic()), itemCount: 5)
        #expect(plan.structure == .nested)
        #expect(plan.instances == [
            [.item(index: 0, path: [0]), .group(path: [1], children: [.item(index: 1, path: [1, 0]), .item(index: 2, path: [1, 0])])],
            [.item(index: 3, path: [0]), .group(path: [1], children: [.item(index: 4, path: [1, 0])])],
        ])
        let css = LayoutCSS.rules(AdaptiveSection(mosaic()), scope: scope)
        #expect(block(css, "\(scope) > .cl-groups > .lp > .lp-1")?.contains("display: grid;") == true)
        #expect(block(css, "\(scope) > .cl-groups > .lp > .lp-1")?.contains("grid-template-rows: repeat(2, minmax(0, 1fr));") == true)
        #expect(block(css, "\(scope) > .cl-groups > .lp > .lp-0")?.contains("width: 50cqw; height: 200px;") == true)
    }

    @Test func adaptiveRulesReplaceEveryProperty() {
        let layout = AdaptiveSection(mosaic(), rules: [.init(minWidth: 600, section: mosaic(height: 260))])
        let css = LayoutCSS.rules(layout, scope: scope)
        let marker = "@container cl-section (min-width: 600px) {\n"
        let parts = css.split(separator: "@").map(String.init)
        #expect(parts.count == 2 && parts[1].hasPrefix(String(marker.dropFirst())))
        func properties(_ text: String, _ selector: String) -> [String] {
            (block(text, selector) ?? "").split(separator: ";").map { $0.split(separator: ":").first.map(String.init) ?? "" }
        }
        for selector in ["\(scope) > .cl-groups", "\(scope) > .cl-groups > .lp", "\(scope) > .cl-groups > .lp > .lp-1 > .lp-1-0"] {
            #expect(properties(parts[0], selector) == properties(parts[1], selector), "\(selector)")
        }
        #expect(block(parts[1], "\(scope) > .cl-groups > .lp")?.contains("height: 260px;") == true)
    }

    @Test func orthogonalBehavioursSnapOnMarkers() {
        func css(_ behavior: OrthogonalScrollingBehavior) -> String {
            var s = LayoutPreset.carousel.expansion.base
            s.orthogonalScrollingBehavior = behavior
            return LayoutCSS.rules(AdaptiveSection(s), scope: scope)
        }
        let marker = "\(scope) > .cl-groups > .cl-item::before"
        #expect(block(css(.continuous), marker) == nil)
        #expect(block(css(.continuous), "\(scope) > .cl-groups")?.contains("scroll-snap-type: none;") == true)
        let lead = css(.continuousGroupLeadingBoundary)
        #expect(block(lead, marker)?.contains("scroll-snap-align: start; scroll-snap-stop: normal;") == true)
        #expect(block(lead, "\(scope) > .cl-groups")?.contains("scroll-padding-inline: calc(max(env(safe-area-inset-left, 0px) + var(--layout-margin, 16px), (100cqw - var(--readable-width, 672px)) / 2) + 0px) calc(max(env(safe-area-inset-right, 0px) + var(--layout-margin, 16px), (100cqw - var(--readable-width, 672px)) / 2) + 0px);") == true)
        #expect(block(css(.groupPaging), marker)?.contains("scroll-snap-align: start; scroll-snap-stop: always;") == true)
        let paging = css(.paging)
        #expect(block(paging, marker) == nil)
        #expect(block(paging, "\(scope) > .cl-groups > .cl-pages") == "\(scope) > .cl-groups > .cl-pages { display: block; }")
        #expect(LayoutCSS.plan(LayoutSection.pagingCarousel, itemCount: 10).pageMarkers > 0)
        let hero = LayoutCSS.rules(LayoutPreset.hero.expansion, scope: scope)
        #expect(block(hero, "\(scope) > .cl-groups")?.contains("padding-inline: 7.5cqw 7.5cqw;") == true)
        #expect(block(hero, marker)?.contains("inset-inline-start: calc(50% - 1px);") == true)
        #expect(block(hero, marker)?.contains("scroll-snap-align: center; scroll-snap-stop: always;") == true)
    }

    @Test func pageMarkersReachTheEndAtTheNarrowestWidth() {
        // 10 groups of 160 + 9 × 8 + 16 = 1688 px of content; at 160 px wide: ⌈1528 / 160⌉ + 1 = 11 pages, + 2.
        #expect(LayoutCSS.plan(LayoutSection.pagingCarousel, itemCount: 10).pageMarkers == 13)
    }

    @Test func insetsReferences() {
        var s = LayoutPreset.list.expansion.base
        s.contentInsets = DirectionalEdgeInsets(top: 0, leading: 4, bottom: 0, trailing: 6)
        s.contentInsetsReference = .none
        #expect(LayoutCSS.inlineInsets(s) == ("4px", "6px"))
        s.contentInsetsReference = .layoutMargins
        #expect(LayoutCSS.inlineInsets(s).leading == "calc(env(safe-area-inset-left, 0px) + var(--layout-margin, 16px) + 4px)")
        s.contentInsetsReference = .readableContent
        #expect(LayoutCSS.inlineInsets(s).trailing
            == "calc(max(env(safe-area-inset-right, 0px) + var(--layout-margin, 16px), (100cqw - var(--readable-width, 672px)) / 2) + 6px)")
    }

    @Test func headerFooterAndBackgroundRules() {
        var s = LayoutPreset.list.expansion.base
        s.header = BoundarySupplementaryItem(height: .absolute(64), pinToVisibleBounds: true)
        s.footer = BoundarySupplementaryItem(height: .fractionalWidth(0.125))
        s.background = true
        let css = LayoutCSS.rules(AdaptiveSection(s), scope: scope)
        #expect(block(css, "\(scope) > .cl-header")?.contains("height: 64px; position: sticky; top: env(safe-area-inset-top, 0px);") == true)
        #expect(block(css, "\(scope) > .cl-footer")?.contains(
            "height: calc(0.125 * (100cqw - calc(max(env(safe-area-inset-left, 0px) + var(--layout-margin, 16px), (100cqw - var(--readable-width, 672px)) / 2) + 0px) - calc(max(env(safe-area-inset-right, 0px) + var(--layout-margin, 16px), (100cqw - var(--readable-width, 672px)) / 2) + 0px)));") == true)
        // Pinned over a background decoration, the header takes the decoration's colour.
        #expect(block(css, "\(scope) > .cl-header")?.contains(
            "background-color: var(--section-background, var(--card-background, Canvas));") == true)
        #expect(block(css, "\(scope) > .cl-background") == "\(scope) > .cl-background { display: block; }")
        #expect(block(LayoutCSS.rules(LayoutPreset.list.expansion, scope: scope), "\(scope) > .cl-footer") == nil)
    }

    @Test func gridFlowRowsAndTracks() {
        let grid = LayoutCSS.rules(LayoutPreset.grid.expansion, scope: scope)
        #expect(block(grid, "\(scope) > .cl-groups")?.contains("grid-template-columns: repeat(2, minmax(0, 1fr));") == true)
        #expect(grid.contains("@container cl-section (min-width: 1000px) {\n\(scope)"))
        var half = LayoutPreset.grid.expansion.base
        half.group.size = LayoutSize(width: .fractionalWidth(0.5), height: .fractionalWidth(0.25))
        let css = LayoutCSS.rules(AdaptiveSection(half), scope: scope)
        // Tracks in % of the grid's content box; rows in terms of the section's content width.
        #expect(block(css, "\(scope) > .cl-groups")?.contains("grid-template-columns: repeat(2, calc(25% - 6px));") == true)
        #expect(block(css, "\(scope) > .cl-groups")?.contains(
            "grid-auto-rows: calc(0.25 * (100cqw - calc(env(safe-area-inset-left, 0px) + var(--layout-margin, 16px) + 0px) - calc(env(safe-area-inset-right, 0px) + var(--layout-margin, 16px) + 0px)));") == true)
    }

    @Test func lengthsAreWrittenWithoutExponents() {
        #expect(CSSLength.number(1e-7) == "0")
        #expect(CSSLength.number(0.000001) == "0.000001")
        #expect(CSSLength.number(-12.5) == "-12.5")
        #expect(CSSLength(cqw: 85, px: -4).css == "calc(85cqw - 4px)")
        #expect(CSSLength(cqw: 50).css(width: .percent) == "50%")
        #expect(CSSLength(cqw: 50, px: 2).css(width: .expression("100cqw - 8px")) == "calc(0.5 * (100cqw - 8px) + 2px)")
    }
}

extension LayoutSection {
    static var pagingCarousel: AdaptiveSection {
        var s = LayoutPreset.carousel.expansion.base
        s.orthogonalScrollingBehavior = .paging
        return AdaptiveSection(s)
    }
}
