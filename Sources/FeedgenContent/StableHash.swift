/// A 64-bit hash that is the same in every process and on every machine (Swift's `Hasher` is
/// seeded per process), for the build cache: it tells whether content changed, it is not a
/// defence against crafted collisions. Bytes are mixed 8 at a time (multiply–xorshift, as in
/// wyhash/murmur finalizers); strings are length-prefixed, so `("ab","c")` ≠ `("a","bc")`.
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

    public mutating func combine(bytes: UnsafeRawBufferPointer) {
        mix(UInt64(bytes.count))
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
