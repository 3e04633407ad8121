/// The presets' wide-page rules (docs/layout.md "Wide pages: the readable column"): frames at phone, tablet and desktop widths.
import Testing

@testable import FeedgenLayout

@Suite struct PresetTests {
    func solve(_ preset: LayoutPreset, width: Double, items: Int = 3) -> ResolvedSection {
        let ids = (0..<items).map { "\(preset)-\($0)" }
        return CompositionalLayout.solve(
            [SectionInput(id: "s", layout: preset.expansion, itemIDs: ids, hasHeader: true)],
            environment: LayoutEnvironment(containerWidth: width)
        ).sections[0]
    }

    /// (width, card x, card width): the layout margin up to 704, then the centred readable column.
    static let readable: [(Double, Double, Double)] = [
        (320, 16, 288), (390, 16, 358), (704, 16, 672), (768, 48, 672), (1280, 304, 672), (1600, 464, 672),
    ]

    @Test(arguments: readable) func listSitsInTheReadableColumn(width: Double, x: Double, cardWidth: Double) {
        let s = solve(.list, width: width)
        #expect(s.items.map(\.frame.x) == [x, x, x])
        #expect(s.items.allSatisfy { $0.frame.width == cardWidth })
        // The header follows the same guide, so the section title and the cards share their edge.
        #expect(s.headerFrame?.x == x)
        #expect(s.headerFrame?.width == cardWidth)
        // 8 above, 12 between self-sizing cards (estimated 100).
        #expect(s.items.map(\.frame.y) == [52, 164, 276])
    }

    @Test(arguments: readable) func insetGroupedAndChipsFollowTheSameGuide(width: Double, x: Double, cardWidth: Double) {
        let rows = solve(.insetGrouped, width: width)
        #expect(rows.items.allSatisfy { $0.frame.x == x && $0.frame.width == cardWidth })
        #expect(solve(.chips, width: width).items.first?.frame.x == x)
    }

    @Test func carouselStartsAtTheGuideAndScrollsToTheEdges() {
        let phone = solve(.carousel, width: 390, items: 5)
        #expect(phone.items.map(\.frame.x) == [16, 188, 360, 532, 704])
        #expect(phone.orthogonal?.contentWidth == 880)
        let desktop = solve(.carousel, width: 1280, items: 5)
        #expect(desktop.items.map(\.frame.x) == [304, 476, 648, 820, 992])
        // The scroller stays full width; the guide pads its content at both ends.
        #expect(desktop.orthogonal?.scrollerFrame.width == 1280)
        let content: Double = 304 + 5 * 160 + 4 * 12 + 304
        #expect(desktop.orthogonal?.contentWidth == content)
        #expect(desktop.headerFrame?.x == 304)
    }

    @Test func gridGainsColumnsWithinTheLayoutMargins() {
        // 2 columns at 390: (358 − 12) / 2; 4 columns at 1280: (1248 − 36) / 4.
        let phone = solve(.grid, width: 390, items: 4)
        #expect(phone.items.map(\.frame.x) == [16, 201, 16, 201])
        #expect(phone.items.allSatisfy { $0.frame.width == 173 })
        let desktop = solve(.grid, width: 1280, items: 4)
        #expect(desktop.items.map(\.frame.x) == [16, 331, 646, 961])
        #expect(desktop.items.allSatisfy { $0.frame.width == 303 })
    }

    @Test func heroStopsGrowingAtTheReadableWidth() {
        let phone = solve(.hero, width: 390, items: 3)
        #expect(phone.items[0].frame.width == 0.85 * 390)
        #expect(phone.items[0].frame.height == 195)
        #expect(phone.headerFrame?.x == 16)
        // Just below the cap the banner is still 0.85 W × 0.5 W; from 791 on, 672 × 336.
        let below = solve(.hero, width: 790, items: 3)
        #expect(below.items[0].frame.width == 0.85 * 790)
        #expect(below.items[0].frame.height == 395)
        for width in [791.0, 1280, 1600] {
            let wide = solve(.hero, width: width, items: 3)
            #expect(wide.items.allSatisfy { $0.frame.width == 672 && $0.frame.height == 336 }, "\(width)")
            // Centred: the first slide rests at the centring inset (W − 672) / 2, which at the
            // default tokens is the readable column's edge, where the header sits.
            #expect(wide.items[0].frame.x == (width - 672) / 2, "\(width)")
            #expect(wide.headerFrame?.x == (width - 672) / 2, "\(width)")
        }
        #expect(LayoutPreset.heroCapWidth == (672 / 0.85).rounded(.up))
    }

    @Test func theSafeAreaWidensTheGuideOnPhones() {
        // A phone in landscape, 844 wide with 47 px insets: max(47 + 16, (844 − 672) / 2 = 86).
        let env = LayoutEnvironment(
            containerWidth: 844, safeAreaInsets: DirectionalEdgeInsets(top: 0, leading: 47, bottom: 0, trailing: 47))
        #expect(env.referenceInsets(.readableContent) == (86, 86))
        let narrow = LayoutEnvironment(
            containerWidth: 700, safeAreaInsets: DirectionalEdgeInsets(top: 0, leading: 47, bottom: 0, trailing: 47))
        #expect(narrow.referenceInsets(.readableContent) == (63, 63))
    }
}
