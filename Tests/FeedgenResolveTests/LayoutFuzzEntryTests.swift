import Testing

@testable import FeedgenResolve

/// The entry point of Fuzz/FuzzLayout: a layout value's YAML through LayoutDecoder, counted.
@Suite struct LayoutFuzzEntryTests {
    @Test func presetsDecodeCleanAndBadNumbersAreCounted() {
        for preset in ["list", "carousel", "grid", "chips", "hero", "insetGrouped"] {
            #expect(ResolveFuzzing.decodeLayout(preset) == 0)
        }
        #expect(ResolveFuzzing.decodeLayout("preset: grid\nadaptive:\n  - minWidth: 700\n    group: {count: 2}\n") == 0)
        #expect(ResolveFuzzing.decodeLayout("item: {width: 1e400, height: absolute(-1)}\n") == 2)
        #expect(ResolveFuzzing.decodeLayout("layout: [\n") == 1)
    }
}
