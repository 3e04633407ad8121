import FeedgenLayout
import Foundation

/// Resolves 100,000 items with the model (issue: under 50 ms), for each preset with estimates
/// only (UIKit's provisional pass), then with every item measured (the pass after self-sizing,
/// where no two group instances can share a solution).
enum LayoutBenchmark {
    static func run() {
        let ids = (0..<100_000).map { "item-\($0)" }
        let env = LayoutEnvironment(containerWidth: 390)
        var measured = Measurements()
        for (i, id) in ids.enumerated() {
            measured.items[id] = Size(width: 40 + Double(i % 7) * 13, height: 60 + Double(i % 5) * 17)
        }
        // A self-sizing row: a card beside a column of two cards, every height measured.
        func item(_ f: Double, _ h: Double) -> LayoutSubitem {
            .item(LayoutItem(size: LayoutSize(width: .fractionalWidth(f), height: .estimated(h))))
        }
        let mosaic = AdaptiveSection(
            LayoutSection(
                group: LayoutGroup(
                    direction: .horizontal, size: LayoutSize(width: .fractionalWidth(1), height: .estimated(200)),
                    content: .subitems([
                        item(0.5, 200),
                        .group(
                            LayoutGroup(
                                direction: .vertical,
                                size: LayoutSize(width: .fractionalWidth(0.5), height: .estimated(200)),
                                content: .subitems([item(1, 90), item(1, 90)]), interItemSpacing: .fixed(4))),
                    ])),
                interGroupSpacing: 4))
        let layouts: [(String, AdaptiveSection)] =
            [LayoutPreset.list, .grid, .carousel, .chips, .hero].map { ($0.rawValue, $0.expansion) } + [("mosaic", mosaic)]
        // FEEDGEN_BENCH_FILTER=list-measured runs one case (for profiling).
        let filter = ProcessInfo.processInfo.environment["FEEDGEN_BENCH_FILTER"]
        for (name, layout) in layouts {
            for (label, m) in [("estimated", Measurements.none), ("measured", measured)] {
                if let filter, filter != "\(name)-\(label)" { continue }
                let input = SectionInput(id: "s", layout: layout, itemIDs: ids, hasHeader: true, hasFooter: true)
                var height = 0.0
                let ms = medianMilliseconds {
                    height = CompositionalLayout.solve([input], environment: env, measurements: m).contentHeight
                }
                print(
                    "layout: \(name), 100,000 items at 390 px, \(label): \(String(format: "%.1f", ms)) ms (median of 7; content height \(Int(height)) px)"
                )
            }
        }
    }
}
