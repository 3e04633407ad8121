/// CommonMark 0.30's smart quotes after `(` and `[` on cmark-gfm, which implements 0.29.
import CCmark

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

enum MarkdownSmartQuotes {
    /// cmark-gfm (CommonMark 0.29) makes the quote in `['a']` or `("b")` a closing one (`[’a’]`);
    /// cmark 0.30, which feedgen used before, opens it (`[‘a’]`), as a reader expects. A closing
    /// `’` or `”` right after `(` or `[` in a text node (cmark-gfm merges adjacent text) becomes
    /// the opening `‘` or `“`. Only with smart punctuation. (After an escaped `\[`, 0.30 closed
    /// the quote; the merged text no longer tells the two apart, so it opens here.)
    static func fix(_ node: OpaquePointer) {
        guard let literal = cmark_node_get_literal(node) else { return }
        let count = strlen(literal)
        guard count >= 3 else { return }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(literal).assumingMemoryBound(to: UInt8.self), count: count)
        func isClosingQuote(_ i: Int) -> Bool {
            i + 2 < count && bytes[i] == 0xE2 && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0x99 || bytes[i + 2] == 0x9D)
        }
        func isOpener(_ b: UInt8) -> Bool { b == UInt8(ascii: "(") || b == UInt8(ascii: "[") }
        var fixes: [Int] = []
        var i = 0
        while let found = memchr(bytes.baseAddress! + i, 0xE2, count - i) {
            let at = bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if at > 0, isOpener(bytes[at - 1]), isClosingQuote(at) { fixes.append(at) }
            i = at + 1
            if i >= count { break }
        }
        guard !fixes.isEmpty else { return }
        var edited = Array(bytes)
        for at in fixes { edited[at + 2] = edited[at + 2] == 0x99 ? 0x98 : 0x9C }  // ’ → ‘, ” → “
        edited.append(0)
        edited.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { _ = cmark_node_set_literal(node, $0.baseAddress) }
        }
    }
}
