import CXXHash
import Testing

@testable import FeedgenStorage

/// ``StableHasher``: XXH3-64 of the length-prefixed bytes; the value of some bytes does not
/// depend on how they are split into pieces (a feed page is hashed from its pieces, other files
/// from one buffer), nor on where the hasher switches from gathering to streaming.
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
        let sizes = [0, 1, 7, 8, 31, 32, 63, 64, 65, 95, 96, 97, 127, 128, 1000, 1016, 1017, 1024, 4099, 70_000]
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

    /// The value is XXH3-64 (seed 0) of the little-endian byte count and the bytes: the
    /// library's own value, and the published XXH3 value of empty input.
    @Test func valueIsXXH3OfTheLengthPrefixedBytes() {
        #expect(XXH3_64bits(nil, 0) == 0x2D06_8005_38D3_94C2)
        for size in [0, 3, 1016, 1017, 5000] {
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let prefixed = withUnsafeBytes(of: UInt64(size).littleEndian) { Array($0) } + bytes
            let expected = prefixed.withUnsafeBytes { XXH3_64bits($0.baseAddress, $0.count) }
            #expect(StableHasher.hash(bytes) == expected, "size \(size)")
        }
    }

    /// A copy goes on independently of the original, also once both stream (copy on write).
    @Test func copiesAreIndependent() {
        var a = StableHasher(seed: 7)
        a.combine([UInt8](repeating: 1, count: 2000))
        var b = a
        a.combine("a")
        b.combine("b")
        var a2 = StableHasher(seed: 7)
        a2.combine([UInt8](repeating: 1, count: 2000))
        a2.combine("a")
        #expect(a.value == a2.value)
        #expect(a.value != b.value)
        var small = StableHasher()
        small.combine(1)
        let copy = small
        small.combine(2)
        #expect(copy.value != small.value)
    }

    /// Every byte counts: changing any one byte of a long input changes the value.
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
