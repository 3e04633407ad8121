import Foundation
import Testing

@testable import FeedgenCLI
import FeedgenLayout

/// `feedgen layout --json` on right-to-left sections (issue 21 item 8): frames mirrored about the
/// container as the page draws them, snap offsets as the negative `scrollLeft` values of a
/// right-to-left scroller; left-to-right sections unchanged.
@Suite struct LayoutJSONTests {
    /// A 160 × 240 shelf with insets 20 (leading) and 8 (trailing), `groupPaging`, 4 cards at 390 px.
    func shelf() -> ResolvedLayout {
        let item = LayoutItem(size: LayoutSize(width: .fractionalWidth(1), height: .fractionalHeight(1)))
        let group = LayoutGroup(
            direction: .horizontal, size: LayoutSize(width: .absolute(160), height: .absolute(240)),
            content: .count(1, .item(item)))
        let section = LayoutSection(
            group: group, contentInsets: DirectionalEdgeInsets(top: 8, leading: 20, bottom: 8, trailing: 8),
            interGroupSpacing: 8, orthogonalScrollingBehavior: .groupPaging)
        let input = SectionInput(id: "s", layout: AdaptiveSection(section), itemIDs: ["a", "b", "c", "d"])
        return CompositionalLayout.solve([input], environment: LayoutEnvironment(containerWidth: 390))
    }

    func section(_ json: String) throws -> [String: Any] {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        return try #require((root["sections"] as? [[String: Any]])?.first)
    }

    func x(_ frame: Any?) -> Double? { (frame as? [String: Any])?["x"] as? Double }

    @Test func rightToLeftSectionsAreMirroredWithNegativeOffsets() throws {
        let layout = shelf()
        let ltr = try section(LayoutJSON.encode(layout, feed: "/"))
        let rtl = try section(LayoutJSON.encode(layout, feed: "/", rightToLeft: [true]))
        #expect(ltr["direction"] as? String == "ltr")
        #expect(rtl["direction"] as? String == "rtl")
        let ltrItems = try #require(ltr["items"] as? [[String: Any]])
        let rtlItems = try #require(rtl["items"] as? [[String: Any]])
        // Card a: x 20 → 390 − 20 − 160 = 210; card b: 188 → 42; card d: 524 → −294 (off to the left).
        #expect(ltrItems.map { x($0["frame"]) } == [20, 188, 356, 524])
        #expect(rtlItems.map { x($0["frame"]) } == [210, 42, -126, -294])
        #expect(rtlItems.map { x($0["slot"]) } == [210, 42, -126, -294])
        let ltrScroll = try #require(ltr["orthogonal"] as? [String: Any])
        let rtlScroll = try #require(rtl["orthogonal"] as? [String: Any])
        // Content 20 + 4 × 160 + 3 × 8 + 8 = 692 px: at most 302; groups rest at x − 20.
        #expect(ltrScroll["snapOffsets"] as? [Double] == [0, 168, 302])
        #expect(rtlScroll["snapOffsets"] as? [Double] == [0, -168, -302])
        #expect(rtlScroll["maxOffset"] as? Double == 302)
        #expect(x(rtlScroll["scroller"]) == 0)
        #expect(x(rtl["frame"]) == 0)
    }
}
