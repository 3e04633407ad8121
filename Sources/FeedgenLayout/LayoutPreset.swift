/// The named presets of content-format §6.2, each exactly an expansion into the full form.
/// The expansions are documented in docs/layout.md. Single-column presets (list, carousel, chips,
/// hero, insetGrouped) sit in UIKit's readable content guide (`readableContent`: the layout
/// margin on phones, a centred column of the readable width from 704 px on), so a wide page
/// keeps phone-length lines; the grid follows the layout margins and gains columns instead.
public enum LayoutPreset: String, CaseIterable, Sendable {
    /// Self-sizing cards, one per row: item and group `fractionalWidth(1.0)` × `estimated(100)`,
    /// a horizontal group of count 1, contentInsets top and bottom 8, interGroupSpacing 12, in the
    /// readable content guide (seed screen "Today").
    case list
    /// Fixed 160 × 240 cards scrolling sideways: item and group `absolute(160)` × `absolute(240)`,
    /// contentInsets top and bottom 8, interGroupSpacing 12, `continuous`; the row starts and ends
    /// at the readable content guide and scrolls to the page's edges.
    case carousel
    /// An adaptive grid: group `fractionalWidth(1.0)` × `estimated(200)`, count 2,
    /// interItemSpacing 12, interGroupSpacing 12, within the layout margins; count 3 from a
    /// container width of 700, 4 from 1000.
    case grid
    /// Word chips that flow and wrap: items `estimated(80)` wide × `absolute(36)`, spacing 8,
    /// all visible (no inner scroll), in the readable content guide.
    case chips
    /// A paged banner: group `fractionalWidth(0.85)` × `fractionalWidth(0.5)`,
    /// `groupPagingCentered`, interGroupSpacing 12; from a container width of 791 (where 0.85 W
    /// reaches the default readable width) the banner stops growing: `absolute(672)` ×
    /// `absolute(336)`, so a desktop page shows its neighbours instead of one screen-wide slide.
    /// Its header follows the readable content guide.
    case hero
    /// A settings-style list: rows `fractionalWidth(1.0)` × `estimated(44)` with separators,
    /// contentInsets top and bottom 8, rounded first and last rows, in the readable content guide
    /// (which is the layout margins on phones).
    case insetGrouped

    /// The full-form expansion.
    public var expansion: AdaptiveSection {
        switch self {
        case .list:
            let size = LayoutSize(width: .fractionalWidth(1), height: .estimated(100))
            return AdaptiveSection(
                LayoutSection(
                    group: .horizontal(size, repeating: LayoutItem(size: size), count: 1),
                    contentInsets: Self.vertical8, interGroupSpacing: 12, contentInsetsReference: .readableContent))
        case .carousel:
            let size = LayoutSize(width: .absolute(160), height: .absolute(240))
            return AdaptiveSection(
                LayoutSection(
                    group: .horizontal(size, repeating: LayoutItem(size: size), count: 1),
                    contentInsets: Self.vertical8, interGroupSpacing: 12, orthogonalScrollingBehavior: .continuous,
                    contentInsetsReference: .readableContent))
        case .grid:
            func grid(_ n: Int) -> LayoutSection {
                LayoutSection(
                    group: .horizontal(
                        LayoutSize(width: .fractionalWidth(1), height: .estimated(200)),
                        repeating: LayoutItem(size: LayoutSize(width: .fractionalWidth(1), height: .estimated(200))),
                        count: n, spacing: .fixed(12)),
                    contentInsets: Self.vertical8, interGroupSpacing: 12, contentInsetsReference: .layoutMargins)
            }
            return AdaptiveSection(
                grid(2),
                rules: [.init(minWidth: 700, section: grid(3)), .init(minWidth: 1000, section: grid(4))])
        case .chips:
            let item = LayoutItem(size: LayoutSize(width: .estimated(80), height: .absolute(36)))
            return AdaptiveSection(
                LayoutSection(
                    group: LayoutGroup(
                        direction: .horizontal,
                        size: LayoutSize(width: .fractionalWidth(1), height: .absolute(36)),
                        content: .subitems([.item(item)]), interItemSpacing: .fixed(8)),
                    contentInsets: Self.vertical8, interGroupSpacing: 8, contentInsetsReference: .readableContent))
        case .hero:
            let item = LayoutItem(size: LayoutSize(width: .fractionalWidth(1), height: .fractionalHeight(1)))
            func hero(_ size: LayoutSize) -> LayoutSection {
                LayoutSection(
                    group: .horizontal(size, repeating: item, count: 1),
                    contentInsets: Self.vertical8, interGroupSpacing: 12,
                    orthogonalScrollingBehavior: .groupPagingCentered, contentInsetsReference: .readableContent)
            }
            return AdaptiveSection(
                hero(LayoutSize(width: .fractionalWidth(0.85), height: .fractionalWidth(0.5))),
                rules: [
                    .init(minWidth: Self.heroCapWidth, section: hero(LayoutSize(width: .absolute(672), height: .absolute(336))))
                ])
        case .insetGrouped:
            let size = LayoutSize(width: .fractionalWidth(1), height: .estimated(44))
            return AdaptiveSection(
                LayoutSection(
                    group: .horizontal(size, repeating: LayoutItem(size: size), count: 1),
                    contentInsets: Self.vertical8, interGroupSpacing: 0, contentInsetsReference: .readableContent))
        }
    }

    /// Top and bottom 8, no inline insets: the reference (margins or readable guide) is the inset.
    static let vertical8 = DirectionalEdgeInsets(top: 8, leading: 0, bottom: 8, trailing: 0)

    /// The container width from which the hero banner stops growing: the first whole px where
    /// 0.85 W reaches the default readable width, 672 / 0.85 = 790.6.
    public static let heroCapWidth = 791.0
}
