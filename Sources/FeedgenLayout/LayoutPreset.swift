/// The named presets of content-format §6.2, each exactly an expansion into the full form.
/// The expansions are documented in docs/layout.md.
public enum LayoutPreset: String, CaseIterable, Sendable {
    /// Self-sizing cards, one per row: item and group `fractionalWidth(1.0)` × `estimated(100)`,
    /// a horizontal group of count 1, contentInsets 8, interGroupSpacing 8 (seed screen "Today").
    case list
    /// Fixed 160 × 240 cards scrolling sideways: item and group `absolute(160)` × `absolute(240)`,
    /// contentInsets 8, interGroupSpacing 8, `continuous`.
    case carousel
    /// An adaptive grid: group `fractionalWidth(1.0)` × `estimated(200)`, count 2,
    /// interItemSpacing 8; count 3 from a container width of 700, 4 from 1000.
    case grid
    /// Word chips that flow and wrap: items `estimated(80)` wide × `absolute(36)`, spacing 8,
    /// all visible (no inner scroll).
    case chips
    /// A paged banner: group `fractionalWidth(0.85)` × `fractionalWidth(0.5)`,
    /// `groupPagingCentered`, interGroupSpacing 8.
    case hero
    /// A settings-style list: rows `fractionalWidth(1.0)` × `estimated(44)` with separators,
    /// layout-margin insets, rounded first and last rows.
    case insetGrouped

    /// The full-form expansion.
    public var expansion: AdaptiveSection {
        switch self {
        case .list:
            let size = LayoutSize(width: .fractionalWidth(1), height: .estimated(100))
            return AdaptiveSection(
                LayoutSection(
                    group: .horizontal(size, repeating: LayoutItem(size: size), count: 1),
                    contentInsets: DirectionalEdgeInsets(all: 8), interGroupSpacing: 8))
        case .carousel:
            let size = LayoutSize(width: .absolute(160), height: .absolute(240))
            return AdaptiveSection(
                LayoutSection(
                    group: .horizontal(size, repeating: LayoutItem(size: size), count: 1),
                    contentInsets: DirectionalEdgeInsets(all: 8), interGroupSpacing: 8,
                    orthogonalScrollingBehavior: .continuous))
        case .grid:
            func grid(_ n: Int) -> LayoutSection {
                LayoutSection(
                    group: .horizontal(
                        LayoutSize(width: .fractionalWidth(1), height: .estimated(200)),
                        repeating: LayoutItem(size: LayoutSize(width: .fractionalWidth(1), height: .estimated(200))),
                        count: n, spacing: .fixed(8)),
                    contentInsets: DirectionalEdgeInsets(all: 8), interGroupSpacing: 8)
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
                    contentInsets: DirectionalEdgeInsets(all: 8), interGroupSpacing: 8))
        case .hero:
            let item = LayoutItem(size: LayoutSize(width: .fractionalWidth(1), height: .fractionalHeight(1)))
            return AdaptiveSection(
                LayoutSection(
                    group: .horizontal(
                        LayoutSize(width: .fractionalWidth(0.85), height: .fractionalWidth(0.5)),
                        repeating: item, count: 1),
                    contentInsets: DirectionalEdgeInsets(top: 8, leading: 0, bottom: 8, trailing: 0),
                    interGroupSpacing: 8, orthogonalScrollingBehavior: .groupPagingCentered))
        case .insetGrouped:
            let size = LayoutSize(width: .fractionalWidth(1), height: .estimated(44))
            return AdaptiveSection(
                LayoutSection(
                    group: .horizontal(size, repeating: LayoutItem(size: size), count: 1),
                    contentInsets: DirectionalEdgeInsets(top: 8, leading: 0, bottom: 8, trailing: 0),
                    interGroupSpacing: 0, contentInsetsReference: .layoutMargins))
        }
    }
}
