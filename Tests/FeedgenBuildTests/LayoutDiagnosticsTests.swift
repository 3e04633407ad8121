import Foundation
import Testing

@testable import FeedgenBuild

/// Bad layout input: `path:line:column: error: …` and exit status 1; legal but surprising
/// layouts, and layouts the CSS cannot reproduce exactly: `warning: …` and exit status 0.
@Suite struct LayoutDiagnosticsTests {
    /// Builds a one-section site whose `_section.md` holds `layout:` followed by `lines`
    /// (the first of them is line 4 of the file), and returns the exit status and diagnostics.
    func diagnose(_ lines: String) -> (status: Int32, messages: [String]) {
        let root = temporaryFolder()
        writeSite(root, [
            "content/cards/_section.md": "---\ntitle: Cards\nlayout:\n\(lines)\n---\n",
            "content/cards/a.md": "---\ntitle: A\n---\nBody.\n",
            "content/cards/b.md": "---\ntitle: B\n---\nBody.\n",
        ])
        let report = build(root, output: temporaryFolder() + "/out")
        return (report.exitStatus, report.diagnostics.sorted.filter { $0.severity != .note }.map(\.description))
    }

    let at = "content/cards/_section.md"

    // MARK: - Errors

    @Test func unknownKeysEverywhereSuggestTheRightOne() {
        let r = diagnose("""
              item: {widht: absolute(10), height: absolute(10)}
              group: {dirction: vertical}
              header: {hieght: absolute(40)}
              interItemSpacing: 4
            """)
        #expect(r.status == 1)
        #expect(r.messages == [
            "\(at):4:10: error: unknown key 'widht' in item (did you mean 'width'?)",
            "\(at):5:11: error: unknown key 'dirction' in group (did you mean 'direction'?)",
            "\(at):6:12: error: unknown key 'hieght' in header (did you mean 'height'?)",
            "\(at):7:3: error: unknown key 'interItemSpacing' in layout (did you mean 'interGroupSpacing'?)",
        ])
    }

    @Test func unknownKeysInEdgeSpacingSubitemsAndAdaptiveRules() {
        let r = diagnose("""
              group:
                subitems:
                  - iten: {width: absolute(10), height: absolute(10)}
                  - item: {width: absolute(10), height: absolute(10), edgeSpacing: {lead: fixed(4)}}
              adaptive:
                - minWidht: 700
            """)
        #expect(r.status == 1)
        #expect(r.messages == [
            "\(at):6:9: error: unknown subitem 'iten'; expected 'item' or 'group' (did you mean 'item'?)",
            "\(at):7:73: error: unknown key 'lead' in edgeSpacing (did you mean 'leading'?)",
            "\(at):9:7: error: unknown key 'minWidht' in adaptive rule (did you mean 'minWidth'?)",
            "\(at):9:7: error: adaptive rule has no 'minWidth'",
        ])
    }

    @Test func malformedDimensionsAndSpacings() {
        let r = diagnose("""
              item: {width: fractionalWidth 0.5, height: absolute(-3)}
              group: {interItemSpacing: flex(8), width: estimate(10)}
            """)
        #expect(r.status == 1)
        #expect(r.messages == [
            "\(at):4:17: error: malformed dimension 'fractionalWidth 0.5'; expected fractionalWidth(f), fractionalHeight(f), absolute(v), estimated(v) or uniformAcrossSiblings(v) (did you mean 'fractionalWidth'?)",
            "\(at):4:46: error: malformed dimension 'absolute(-3)': the value must be a non-negative number",
            "\(at):5:29: error: malformed spacing 'flex(8)'; expected fixed(v), flexible(v) or a number (did you mean 'flexible'?)",
            "\(at):5:45: error: malformed dimension 'estimate(10)'; expected fractionalWidth(f), fractionalHeight(f), absolute(v), estimated(v) or uniformAcrossSiblings(v) (did you mean 'estimated'?)",
        ])
    }

    @Test func insetsBetweenZeroAndOneAreRejectedOnGroupsAndItems() {
        let r = diagnose("""
              group: {contentInsets: {top: 0.25, leading: 8}}
              item: {contentInsets: 0.5}
            """)
        #expect(r.status == 1)
        #expect(r.messages == [
            "\(at):4:32: error: inset '0.25' is between 0 and 1, which UIKit reads as a fraction of the container; use 0 or a value of at least 1 px",
            "\(at):5:25: error: inset '0.5' is between 0 and 1, which UIKit reads as a fraction of the container; use 0 or a value of at least 1 px",
        ])
    }

    @Test func countMustBeAWholeNumberAtLeastOne() {
        #expect(diagnose("  group: {count: -2}").messages == ["\(at):4:18: error: 'count' must be at least 1, found -2"])
        #expect(diagnose("  group: {count: 1.5}").messages == ["\(at):4:18: error: 'count' must be a whole number, found '1.5'"])
    }

    @Test func unknownBehaviourAndReferenceSuggestTheRightOne() {
        let r = diagnose("""
              orthogonalScrollingBehavior: pagin
              contentInsetsReference: readable
            """)
        #expect(r.messages == [
            "\(at):4:32: error: unknown orthogonalScrollingBehavior 'pagin'; expected one of: none, continuous, continuousGroupLeadingBoundary, paging, groupPaging, groupPagingCentered (did you mean 'paging'?)",
            "\(at):5:27: error: unknown contentInsetsReference 'readable'; expected one of: automatic, none, safeArea, layoutMargins, readableContent (did you mean 'readableContent'?)",
        ])
    }

    @Test func itemsThatCanNeverFitTheirGroup() {
        let r = diagnose("""
              group:
                width: absolute(200)
                height: absolute(50)
                subitems:
                  - item: {width: fractionalWidth(1.5), height: absolute(50)}
                  - item: {width: absolute(190), height: absolute(50), edgeSpacing: {leading: fixed(8), trailing: fixed(4)}}
                  - item: {width: fractionalWidth(1.0), height: absolute(50), edgeSpacing: {leading: flexible(2)}}
                  - group: {direction: vertical, width: absolute(240), height: absolute(50), count: 1}
            """)
        #expect(r.status == 1)
        #expect(r.messages == [
            "\(at):4:3: error: an item width of fractionalWidth(1.5) cannot fit its group's content box",
            "\(at):4:3: error: an item width of 190 px with 12 px of edge spacing cannot fit its group's 200 px content box",
            "\(at):4:3: error: an item width of fractionalWidth(1) with 2 px of edge spacing cannot fit its group's content box",
            "\(at):4:3: error: a nested group width of 240 px cannot fit its group's 200 px content box",
        ])
    }

    @Test func countGapsFillingTheGroup() {
        let r = diagnose("""
              item: {width: fractionalWidth(1.0), height: fractionalHeight(1.0)}
              group: {width: absolute(100), height: absolute(40), count: 6, interItemSpacing: fixed(20)}
            """)
        #expect(r.messages == ["\(at):4:3: error: 6 items with spacing 20 px cannot fit their group's 100 px content box"])
    }

    @Test func aProblemInheritedByAdaptiveRulesIsReportedOnce() {
        let r = diagnose("""
              preset: grid
              item: {width: fractionalWidth(1.0), height: fractionalHeight(1.0)}
              group: {width: absolute(100), height: absolute(40), count: 6, interItemSpacing: fixed(20)}
            """)
        #expect(r.messages == ["\(at):4:3: error: 6 items with spacing 20 px cannot fit their group's 100 px content box"])
    }

    // MARK: - Warnings

    @Test func presetsAndTheirCommonVariantsBuildWithoutWarnings() {
        for layout in ["  preset: list", "  preset: grid", "  preset: carousel", "  preset: chips", "  preset: hero",
                       "  preset: insetGrouped", "  preset: carousel\n  orthogonalScrollingBehavior: paging",
                       "  preset: grid\n  background: true\n  header: {height: absolute(50), pinToVisibleBounds: true}\n  footer: {height: estimated(30)}"]
        {
            let r = diagnose(layout)
            #expect(r.status == 0, "\(layout)")
            #expect(r.messages.isEmpty, "\(layout): \(r.messages)")
        }
    }

    @Test func centredPagingIgnoresInsetsAndCentresByTheEstimate() {
        let r = diagnose("""
              preset: hero
              contentInsets: {leading: 16}
              group: {width: estimated(300)}
            """)
        #expect(r.status == 0)
        #expect(r.messages == [
            "\(at):4:3: warning: groupPagingCentered centres each group and ignores the section's leading and trailing contentInsets",
            "\(at):4:3: warning: groupPagingCentered with an estimated group width centres the groups by the width's estimate, estimated(300), not by their measured widths",
        ])
    }

    @Test func estimatedItemsInAGroupOfFixedHeightOverflow() {
        let r = diagnose("""
              item: {width: fractionalWidth(1.0), height: estimated(40)}
              group: {width: fractionalWidth(1.0), height: absolute(60), count: 2}
            """)
        #expect(r.status == 0)
        #expect(r.messages == [
            "\(at):4:3: warning: estimated item heights in a group of fixed height: taller items overflow the group and the group keeps its height (layout-semantics U-3)"
        ])
    }

    @Test func insetsOnAnEstimatedAxisHaveNoEffect() {
        let r = diagnose("  item: {width: fractionalWidth(1.0), height: estimated(60), contentInsets: {top: 4, leading: 8}}")
        #expect(r.messages == [
            "\(at):4:3: warning: the top and bottom contentInsets of the item of the section's group have no effect: UIKit ignores item insets on an estimated axis"
        ])
    }

    @Test func flexibleSpacingInACountGroupIsFixed() {
        let r = diagnose("  group: {interItemSpacing: flexible(8)}")
        #expect(r.messages == [
            "\(at):4:3: warning: interItemSpacing flexible(8) in a count group acts as fixed(8): the items fill the group, so no space is left over"
        ])
    }

    @Test func uniformHeightInAGroupOfFixedHeightTakesTheGroupsHeight() {
        let r = diagnose("""
              item: {width: fractionalWidth(1.0), height: uniformAcrossSiblings(50)}
              group: {width: fractionalWidth(1.0), height: absolute(80), count: 2}
            """)
        #expect(r.messages == [
            "\(at):4:3: warning: uniformAcrossSiblings height in a group of fixed height (absolute(80)): the items take the group's height"
        ])
    }

    @Test func groupCapacityThatChangesWithTheWidth() {
        let r = diagnose("""
              group:
                direction: horizontal
                width: fractionalWidth(1.0)
                height: absolute(100)
                contentInsets: {leading: 8}
                subitems:
                  - item: {width: absolute(100), height: absolute(100)}
            """)
        #expect(r.status == 0)
        // 3 × 100 + 8 fit from 308 + 2 × 16 (the list preset's layout margins on narrow pages).
        #expect(r.messages == [
            "\(at):4:3: warning: the number of items in each group changes with the container width (2 at 320 px, 3 at 344 px); the page groups items as at 390 px, so at other widths the browser differs from the model (use count groups or fractions that do not depend on the width)"
        ])
    }

    @Test func groupCapacityThatDependsOnMeasuredSizes() {
        let r = diagnose("""
              preset: carousel
              group:
                width: absolute(300)
                height: absolute(36)
                subitems:
                  - item: {width: estimated(80), height: absolute(36)}
            """)
        #expect(r.messages == [
            "\(at):4:3: warning: the section's group fits its subitems by their estimated widths, so how many items a group holds depends on the measured sizes; the page groups items by the estimates (use one subitem in a fractionalWidth(1.0) group to let rows wrap by measured width)"
        ])
    }

    @Test func adaptiveRuleThatRegroupsItems() {
        let r = diagnose("""
              group:
                width: fractionalWidth(1.0)
                height: absolute(100)
                subitems:
                  - item: {width: fractionalWidth(0.5), height: fractionalHeight(1.0)}
                  - group: {direction: vertical, width: fractionalWidth(0.5), height: fractionalHeight(1.0), count: 2}
              adaptive:
                - minWidth: 700
                  group: {width: fractionalWidth(1.0), height: absolute(100), count: 4}
                - minWidth: 700
                  interGroupSpacing: 4
            """)
        #expect(r.status == 0)
        #expect(r.messages == [
            "\(at):4:3: warning: two adaptive rules have minWidth 700; the later one wins",
            "\(at):4:3: warning: the adaptive rule from minWidth 700 groups items differently from the base layout; a page has one HTML structure per section, so that rule's item arrangement is not written (keep the same group shape in every rule, or use flat layouts: count groups of items, one repeated item, one item per orthogonal group)",
        ])
    }

    @Test func fractionsOfAnEstimatedHeightOtherThanOneInAFlexGroup() {
        let r = diagnose("""
              group:
                width: fractionalWidth(1.0)
                height: estimated(100)
                subitems:
                  - item: {width: fractionalWidth(0.5), height: estimated(100)}
                  - item: {width: fractionalWidth(0.5), height: fractionalHeight(0.5)}
            """)
        #expect(r.messages == [
            "\(at):4:3: warning: subitem 2 of the section's group is fractionalHeight(0.5) of a group whose height is estimated: CSS can only stretch it to the whole height, so the browser differs from the model (use a count group, or fraction 1.0)"
        ])
    }

    @Test func aSubitemThatNeverGetsAPlace() {
        // Two halves and a gap are wider than the group: every group holds the first half only.
        let r = diagnose("""
              group:
                width: fractionalWidth(1.0)
                height: absolute(100)
                interItemSpacing: fixed(4)
                subitems:
                  - item: {width: fractionalWidth(0.5), height: fractionalHeight(1.0)}
                  - group: {direction: vertical, width: fractionalWidth(0.5), height: fractionalHeight(1.0), count: 2}
            """)
        #expect(r.status == 0)
        #expect(r.messages == [
            "\(at):4:3: warning: subitem 2 of the section's group never gets a place at 320 px: the subitems before it fill the group, and each group starts again at the first subitem (check the fractions and the interItemSpacing)"
        ])
    }

    @Test func flexibleEdgeSpacingsWithDifferentMinimums() {
        let r = diagnose("""
              group:
                width: fractionalWidth(1.0)
                height: absolute(100)
                subitems:
                  - item: {width: absolute(100), height: absolute(100), edgeSpacing: {leading: flexible(4), trailing: flexible(10)}}
            """)
        #expect(r.messages.contains(
            "\(at):4:3: warning: flexible edge spacings with different minimums in the section's group: CSS shares the leftover space equally among them, so the browser differs from the model (give them the same minimum)"))
    }

    @Test func warningsFailAStrictBuild() {
        let root = temporaryFolder()
        writeSite(root, [
            "content/cards/_section.md": "---\nlayout:\n  preset: hero\n  contentInsets: 16\n---\n",
            "content/cards/a.md": "---\ntitle: A\n---\nBody.\n",
        ])
        #expect(build(root, output: temporaryFolder() + "/out").exitStatus == 0)
        #expect(build(root, output: temporaryFolder() + "/out", strict: true).exitStatus == 1)
    }
}
