/// The byte scans of the Markdown passes: the ASCII test, strings from valid UTF-8 bytes, and the
/// ForeignSyntax scan for the bytes that start markup, at every offset around its 16-byte blocks.
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
}
