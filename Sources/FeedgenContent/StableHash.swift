/// A 64-bit hash that is the same in every process and on every machine (Swift's `Hasher` is
/// seeded per process), for the build cache: it tells whether content changed, it is not a
/// defence against crafted collisions. Bytes are mixed 8 at a time, in four lanes for long
/// inputs (multiply–xorshift, as in wyhash/murmur finalizers); strings are length-prefixed, so
/// `("ab","c")` ≠ `("a","bc")`.
public struct StableHasher: Sendable {
    private var state: UInt64

    public init(seed: UInt64 = 0x9E37_79B9_7F4A_7C15) { state = seed }

    @inline(__always) private mutating func mix(_ word: UInt64) {
        state = (state ^ word) &* 0xBF58_476D_1CE4_E5B9
        state ^= state >> 31
    }

    public mutating func combine(_ value: UInt64) { mix(value) }
    public mutating func combine(_ value: Int) { mix(UInt64(bitPattern: Int64(value))) }
    public mutating func combine(_ value: Bool) { mix(value ? 1 : 2) }

    /// One step of a lane: the same mixing as ``mix(_:)``.
    @inline(__always) private static func step(_ lane: UInt64, _ word: UInt64) -> UInt64 {
        var s = (lane ^ word) &* 0xBF58_476D_1CE4_E5B9
        s ^= s >> 31
        return s
    }

    /// Inputs of at least this many bytes are mixed in four independent lanes of 8 bytes
    /// (32 bytes a round): the multiplications of one lane no longer wait for each other, so
    /// long inputs (a 24 MB feed page, every cached card's checksum) hash about 3× faster.
    static let laneThreshold = 64

    public mutating func combine(bytes: UnsafeRawBufferPointer) {
        mix(UInt64(bytes.count))
        var i = 0
        let count = bytes.count
        if count >= Self.laneThreshold, let base = bytes.baseAddress {
            var lanes = Lanes(state)
            while i + 32 <= count {
                lanes.round(base + i)
                i += 32
            }
            state = lanes.a
            mix(lanes.b)
            mix(lanes.c)
            mix(lanes.d)
        }
        finish(UnsafeRawBufferPointer(rebasing: bytes[i...]))
    }

    /// Four lanes, each mixed as ``mix(_:)`` mixes the state.
    private struct Lanes {
        var a, b, c, d: UInt64

        init(_ state: UInt64) {
            a = state
            b = state ^ 0x9E37_79B9_7F4A_7C15
            c = state ^ 0xC2B2_AE3D_27D4_EB4F
            d = state ^ 0x1656_67B1_9E37_79F9
        }

        /// Mixes the 32 bytes at `p`.
        @inline(__always) mutating func round(_ p: UnsafeRawPointer) {
            a = StableHasher.step(a, p.loadUnaligned(as: UInt64.self))
            b = StableHasher.step(b, p.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            c = StableHasher.step(c, p.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
            d = StableHasher.step(d, p.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
        }
    }

    /// The bytes after the lanes: 8 at a time, then the last 0–7 with a marker.
    private mutating func finish(_ bytes: UnsafeRawBufferPointer) {
        var i = 0
        let count = bytes.count
        while i + 8 <= count {
            mix(bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            i += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < count {
            tail |= UInt64(bytes[i]) << shift
            shift += 8
            i += 1
        }
        mix(tail ^ 0xFF)
    }

    public mutating func combine(_ bytes: [UInt8]) { bytes.withUnsafeBytes { combine(bytes: $0) } }

    public mutating func combine(_ text: String) {
        var text = text
        text.withUTF8 { combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    public mutating func combine(_ text: String?) {
        if let text { combine(text) } else { mix(0xDEAD) }
    }

    /// The hash of everything combined so far.
    public var value: UInt64 {
        var h = state
        h ^= h >> 33
        h = h &* 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        return h
    }

    /// ``hash(bytes:)`` of `pieces` joined, without joining them (``combine(bytes:)``'s lanes
    /// read a 32-byte round across two pieces from a copy).
    public static func hash(pieces: [UnsafeRawBufferPointer]) -> UInt64 {
        let total = pieces.reduce(0) { $0 + $1.count }
        guard total >= laneThreshold else {
            var joined: [UInt8] = []
            for piece in pieces { joined.append(contentsOf: piece) }
            return hash(joined)
        }
        var h = StableHasher()
        h.mix(UInt64(total))
        var lanes = Lanes(h.state)
        let lanesEnd = total - total % 32  // the stream offset where the lanes stop
        var offset = 0
        var rest: [UInt8] = []
        rest.reserveCapacity(32)
        withUnsafeTemporaryAllocation(byteCount: 32, alignment: 8) { block in
            var filled = 0
            for piece in pieces {
                guard let base = piece.baseAddress else { continue }
                var p = 0
                let n = piece.count
                while p < n {
                    if offset >= lanesEnd {
                        rest.append(contentsOf: UnsafeRawBufferPointer(rebasing: piece[p...]))
                        offset += n - p
                        break
                    }
                    if filled == 0, n - p >= 32 {
                        // Whole rounds straight from the piece.
                        let rounds = min((n - p) / 32, (lanesEnd - offset) / 32)
                        for _ in 0..<rounds {
                            lanes.round(base + p)
                            p += 32
                        }
                        offset += rounds * 32
                        continue
                    }
                    // A round across pieces: gathered in `block` (it ends at or before lanesEnd,
                    // a multiple of 32 like the offset where the round began).
                    let take = min(32 - filled, n - p)
                    (block.baseAddress! + filled).copyMemory(from: base + p, byteCount: take)
                    filled += take
                    p += take
                    offset += take
                    if filled == 32 {
                        lanes.round(UnsafeRawPointer(block.baseAddress!))
                        filled = 0
                    }
                }
            }
        }
        h.state = lanes.a
        h.mix(lanes.b)
        h.mix(lanes.c)
        h.mix(lanes.d)
        rest.withUnsafeBytes { h.finish($0) }
        return h.value
    }

    public static func hash(bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h = StableHasher()
        h.combine(bytes: bytes)
        return h.value
    }

    public static func hash(_ bytes: [UInt8]) -> UInt64 {
        var h = StableHasher()
        h.combine(bytes)
        return h.value
    }

    public static func hash(_ text: String) -> UInt64 {
        var h = StableHasher()
        h.combine(text)
        return h.value
    }
}
