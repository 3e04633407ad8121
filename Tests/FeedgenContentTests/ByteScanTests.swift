/// The byte scans of the Markdown passes: the ASCII test, strings from valid UTF-8 bytes, the
/// ForeignSyntax scan for the bytes that start markup, at every offset around its 16-byte blocks,
/// and the substring search (`feedgen_find`) against a plain search.
import CFileSystem
import Testing

@testable import FeedgenContent

@Suite struct ByteScanTests {
    @Test func asciiTestFindsAHighByteAnywhere() {
        for count in [0, 1, 63, 64, 65, 130] {
            let ascii = [UInt8](repeating: UInt8(ascii: "a"), count: count)
            #expect(ascii.withUnsafeBufferPointer { ByteScan.isASCII($0) })
            for k in 0..<count {
                var bytes = ascii
                bytes[k] = 0xC3
                #expect(!bytes.withUnsafeBufferPointer { ByteScan.isASCII($0) }, "high byte at \(k) of \(count)")
            }
        }
    }

    @Test func stringsFromValidBytesKeepTheirText() {
        for text in ["", "a", "plain ASCII text longer than sixty-four bytes, so that a whole block is read", "Café “quotes” 日本語"] {
            let made = Array(text.utf8).withUnsafeBufferPointer { String(validUTF8: $0) }
            #expect(made == text)
            #expect(made.utf8.count == text.utf8.count)
        }
        #expect("x/y.md".withUTF8Bytes { Array($0) } == Array("x/y.md".utf8))
    }

    @Test func nextSpecialStopsAtTheFirstMarkupByte() {
        for special in [UInt8(ascii: "\n"), UInt8(ascii: "{"), UInt8(ascii: "`"), UInt8(ascii: "\\")] {
            for k in 0..<40 {
                var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: 40)
                bytes[k] = special
                if k + 3 < 40 { bytes[k + 3] = UInt8(ascii: "{") }
                bytes.withUnsafeBufferPointer { b in
                    #expect(ForeignSyntaxPass.nextSpecial(in: b, from: 0) == k)
                    #expect(ForeignSyntaxPass.nextSpecial(in: b, from: k) == k)
                    #expect(ForeignSyntaxPass.nextSpecial(in: b, from: k + 1) == (k + 3 < 40 ? k + 3 : 40))
                }
            }
        }
        let none = [UInt8](repeating: UInt8(ascii: "x"), count: 37)
        #expect(none.withUnsafeBufferPointer { ForeignSyntaxPass.nextSpecial(in: $0, from: 5) } == 37)
        #expect(none.withUnsafeBufferPointer { ForeignSyntaxPass.nextSpecial(in: $0, from: 37) } == 37)
    }

    /// `feedgen_find` finds the first occurrence, as a byte-by-byte search does: needles of 1 to
    /// 20 bytes planted at every offset of texts of 0 to 70 bytes (around its 16-byte blocks and
    /// its tail), near-misses (first and last byte right, a middle byte wrong) before them, and
    /// texts without one.
    @Test func substringSearchFindsTheFirstOccurrence() {
        func plain(_ haystack: [UInt8], _ needle: [UInt8]) -> Int? {
            guard needle.count <= haystack.count else { return nil }
            return (0...(haystack.count - needle.count)).first { Array(haystack[$0..<($0 + needle.count)]) == needle }
        }
        func found(_ haystack: [UInt8], _ needle: [UInt8]) -> Int? {
            haystack.withUnsafeBytes { h in
                needle.withUnsafeBytes { n in
                    feedgen_find(h.baseAddress, h.count, n.baseAddress, n.count).map { h.baseAddress!.distance(to: UnsafeRawPointer($0)) }
                }
            }
        }
        var checked = 0
        for needleLength in [1, 2, 3, 11, 16, 17, 20] {
            let needle = (0..<needleLength).map { UInt8(ascii: "a") + UInt8($0 % 20) }
            var nearMiss = needle
            if needleLength > 2 { nearMiss[needleLength / 2] = UInt8(ascii: "z") }
            for count in [0, 1, 15, 16, 17, 31, 32, 33, 47, 70] {
                let text = [UInt8](repeating: UInt8(ascii: "x"), count: count)
                #expect(found(text, needle) == nil)
                guard count >= needleLength else { continue }
                for at in 0...(count - needleLength) {
                    var haystack = text
                    haystack.replaceSubrange(at..<(at + needleLength), with: needle)
                    if at >= needleLength { haystack.replaceSubrange(0..<needleLength, with: nearMiss) }
                    #expect(found(haystack, needle) == plain(haystack, needle), "needle \(needleLength) at \(at) of \(count)")
                    checked += 1
                }
            }
        }
        #expect(checked > 1_000)
    }
}
