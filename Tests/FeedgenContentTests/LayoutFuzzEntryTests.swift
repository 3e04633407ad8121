import Testing

@testable import FeedgenContent

/// The entry point of Fuzz/FuzzLayout: a layout value's YAML through LayoutDecoder, counted.
@Suite struct LayoutFuzzEntryTests {
    @Test func presetsDecodeCleanAndBadNumbersAreCounted() {
        for preset in ["list", "carousel", "grid", "chips", "hero", "insetGrouped"] {
            #expect(ContentFuzzing.decodeLayout(preset) == 0)
        }
        #expect(ContentFuzzing.decodeLayout("preset: grid\nadaptive:\n  - minWidth: 700\n    group: {count: 2}\n") == 0)
        #expect(ContentFuzzing.decodeLayout("item: {width: 1e400, height: absolute(-1)}\n") == 2)
        #expect(ContentFuzzing.decodeLayout("layout: [\n") == 1)
    }
}
