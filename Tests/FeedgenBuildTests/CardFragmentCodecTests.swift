/// The card cache's record of a card (`CardFragment.encoded()`): its bytes, byte for byte, as
/// `ByteWriter` writes the format (so a faster writer cannot change the cache format).
import FeedgenStorage
import Testing

@testable import FeedgenEmit
@testable import FeedgenIncremental

@Suite struct CardFragmentCodecTests {
    /// The format written number by number with `ByteWriter`: the piece count (`UInt32.max`
    /// without an estimate), each piece as a tag byte and its numbers, then the HTML.
    static func reference(_ fragment: CardFragment) -> [UInt8] {
        var out = ByteWriter()
        if let pieces = fragment.estimate?.pieces {
            out.u32(UInt32(pieces.count))
            for piece in pieces {
                switch piece {
                case .space(let v):
                    out.byte(0)
                    out.double(v)
                case .text(let width, let lineHeight, let fontSize, let inset):
                    out.byte(1)
                    for v in [width, lineHeight, fontSize, inset] { out.double(v) }
                case .lines(let n, let lineHeight):
                    out.byte(2)
                    out.double(Double(n))
                    out.double(lineHeight)
                case .image(let ratio, let intrinsic, let inset, let maxHeight):
                    out.byte(3)
                    out.double(ratio)
                    out.optional(intrinsic) { $0.double($1) }
                    out.double(inset)
                    out.optional(maxHeight) { $0.double($1) }
                }
            }
        } else {
            out.u32(UInt32.max)
        }
        fragment.html.withUTF8 { out.raw($0) }
        return out.bytes
    }

    @Test func everyKindOfPieceIsWrittenInTheCacheFormat() {
        let estimate = CardHeightEstimate(pieces: [
            .space(1.5), .text(width: 123.456, lineHeight: 22.4, fontSize: 16, inset: 32), .lines(3, lineHeight: 20.3),
            .image(ratio: 0.75, intrinsicWidth: 40, inset: 0, maxHeight: 320), .image(ratio: 2, intrinsicWidth: nil, inset: 72, maxHeight: nil),
        ])
        let fragment = CardFragment(html: "<p>Tïtle</p>", estimate: estimate)
        let bytes = fragment.encoded()
        #expect(bytes == Self.reference(fragment))
        // 4 count + 9 + 33 + 17 + 35 + 19 piece bytes + 13 HTML bytes.
        #expect(bytes.count == 4 + 9 + 33 + 17 + 35 + 19 + 13)
        #expect(Array(bytes.prefix(5)) == [5, 0, 0, 0, 0])
        for fragment in [CardFragment(html: "", estimate: nil), CardFragment(html: "<p>x</p>", estimate: CardHeightEstimate(pieces: []))] {
            #expect(fragment.encoded() == Self.reference(fragment))
        }
        #expect(CardFragment(html: "x", estimate: nil).encoded() == [0xFF, 0xFF, 0xFF, 0xFF, 0x78])
    }
}
