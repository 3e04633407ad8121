import Testing

@testable import FeedgenContent

/// The `key: value` fast path gives what libyaml gives, and leaves every other text to libyaml.
@Suite struct YAMLPlainMappingTests {
    static let texts = [
        "title: Document 000999\nweight: 1000\n",
        "title: Document 7\nweight: 3",
        "a: b\n",
        "draft-x:   yes\nn_2: 1.10\nd: 2024-01-01\np: a (b), c/d - e.\n",
        "title: x\ntitle: y\n",
        "title: x \n",
        "title: x\n\nweight: 1\n",
        "title: 'x'\n",
        "title: a: b\n",
        "title: a #c\n",
        "title:\n",
        "title:x\n",
        "title: -5\n",
        "title: Ünï\n",
        "title: x\r\n",
        "  title: x\n",
        "title: x\n  more\n",
        "# c\ntitle: x\n",
        "- a\n",
        "title: x\n---\n",
        "t: x\ttab\n",
    ]

    @Test(arguments: texts) func sameAsLibyaml(text: String) {
        let fast = YAMLParser.parse(text, path: "a.md", firstLine: 2)
        let libyaml = YAMLParser.parse(text, path: "a.md", firstLine: 2, plainFastPath: false)
        #expect(fast.node == libyaml.node)
        #expect(fast.diagnostics.map(\.description) == libyaml.diagnostics.map(\.description))
    }

    @Test func takesOnlyPlainLines() {
        func taken(_ text: String) -> Bool {
            Array(text.utf8).withUnsafeBufferPointer { YAMLPlainMapping.parse($0, firstLine: 1) } != nil
        }
        #expect(taken("title: Document 000999\nweight: 1000\n"))
        #expect(taken("draft-x:   yes\nn_2: 1.10\nd: 2024-01-01\np: a (b), c/d - e.\n"))
        #expect(!taken("title: x\ntitle: y\n"))
        #expect(!taken("title: a #c\n"))
        #expect(!taken("title: 'x'\n"))
        #expect(!taken("title: x \n"))
    }
}
