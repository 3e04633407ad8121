import FeedgenLayout

/// Resolves 100,000 items with the model (issue: under 50 ms).
enum LayoutBenchmark {
    static func run() {
        let ids = (0..<100_000).map { "item-\($0)" }
        for preset in [LayoutPreset.list, .grid, .carousel, .chips] {
            let input = SectionInput(id: "s", layout: preset.expansion, itemIDs: ids)
            var height = 0.0
            let ms = medianMilliseconds {
                height = CompositionalLayout.solve([input], environment: LayoutEnvironment(containerWidth: 390)).contentHeight
            }
            print("layout: \(preset.rawValue), 100,000 items at 390 px: \(String(format: "%.1f", ms)) ms (median of 7; content height \(Int(height)) px)")
        }
    }
}
