/// Renders 10,000 cards with the default card template (filled in by the templates work).
enum RenderBenchmark {
    static func run() {
        print("render: not measured yet")
    }
}
