import Testing

@testable import FeedgenContent

/// ``StableHasher``: the value of some bytes does not depend on how they are split into pieces
/// (a feed page is hashed from its pieces, other files from one buffer), around the size where
/// four lanes take over and across 32-byte rounds split between pieces.
@Suite struct StableHasherTests {
    /// A deterministic generator (xorshift), so a failure is reproducible.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(bound))
        }
    }

    @Test func piecesHashAsTheirJoinedBytes() {
        var g = Generator(state: 0x1234_5678_9ABC_DEF1)
        let sizes = [0, 1, 7, 8, 31, 32, 63, 64, 65, 95, 96, 97, 127, 128, 1000, 4099]
        for size in sizes {
            let bytes = (0..<size).map { _ in UInt8(g.next(256)) }
            let whole = StableHasher.hash(bytes)
            for _ in 0..<20 {
                // Cut points, some pieces empty.
                var cuts = (0..<g.next(12)).map { _ in g.next(size + 1) }.sorted()
                cuts = [0] + cuts + [size]
                bytes.withUnsafeBytes { buffer in
                    let pieces = zip(cuts, cuts.dropFirst()).map { UnsafeRawBufferPointer(rebasing: buffer[$0..<$1]) }
                    #expect(StableHasher.hash(pieces: pieces) == whole, "size \(size), cuts \(cuts)")
                }
            }
        }
    }

    /// The lanes see every byte: changing any one byte of a long input changes the value.
    @Test func everyByteCounts() {
        var bytes = (0..<200).map { UInt8($0) }
        let original = StableHasher.hash(bytes)
        for i in bytes.indices {
            bytes[i] ^= 1
            #expect(StableHasher.hash(bytes) != original, "byte \(i)")
            bytes[i] ^= 1
        }
        #expect(StableHasher.hash(bytes) == original)
    }
}
