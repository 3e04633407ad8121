/// `StableHasher`: the build cache's 64-bit content hash, XXH3 from Debian's libxxhash.
import CXXHash

/// A 64-bit hash that is the same in every process and on every machine (Swift's `Hasher` is
/// seeded per process), for the build cache: it tells whether content changed, it is not a
/// defence against crafted collisions. It is XXH3-64 (xxHash 0.8, the usual choice for content
/// hashing) of the bytes combined, in order, with the seed; strings and byte buffers are
/// length-prefixed, so `("ab","c")` ≠ `("a","bc")`.
///
/// Small inputs are gathered and hashed in one call; past ``pendingLimit`` bytes the hasher
/// switches to XXH3's streaming state (which gives the same value as one call over the whole
/// input). A copy of a hasher is independent of the original (the state is copied on write).
public struct StableHasher: Sendable {
    private let seed: UInt64
    /// The first ``inlineLimit`` bytes gathered are kept in the value itself (most keys are
    /// that short, and a buffer on the heap per hasher cost more than hashing their bytes).
    private var inline: Inline = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    /// Past them, the bytes gathered so far: the first ``pendingCount`` of a buffer of
    /// ``pendingLimit`` bytes (a copy into it in place, where an append to an array takes the
    /// array's generic path for every value combined). Empty while they fit ``inline``.
    private var pending: [UInt8] = []
    private var pendingCount = 0
    private var stream: Stream?

    private typealias Inline = (
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
    )
    /// Bytes gathered in the value itself.
    static let inlineLimit = 256
    /// Bytes gathered before the streaming state is made.
    static let pendingLimit = 1024

    public init(seed: UInt64 = 0) { self.seed = seed }

    public mutating func combine(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { append($0) }
    }
    public mutating func combine(_ value: Int) { combine(UInt64(bitPattern: Int64(value))) }
    public mutating func combine(_ value: Bool) { combine(UInt64(value ? 1 : 2)) }

    /// The byte count, then the bytes.
    public mutating func combine(bytes: UnsafeRawBufferPointer) {
        combine(UInt64(bytes.count))
        append(bytes)
    }

    public mutating func combine(_ bytes: [UInt8]) { bytes.withUnsafeBytes { combine(bytes: $0) } }

    public mutating func combine(_ text: String) {
        // In place when the text is contiguous (a copy to take its bytes retains and releases it).
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { combine(bytes: UnsafeRawBufferPointer($0)) }
        guard done == nil else { return }
        var text = text
        text.withUTF8 { combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    public mutating func combine(_ text: String?) {
        if let text { combine(text) } else { combine(UInt64(0xDEAD)) }
    }

    /// The hash of everything combined so far.
    public var value: UInt64 {
        if let stream { return XXH3_64bits_digest(stream.state) }
        let count = pendingCount
        if pending.isEmpty {
            var inline = inline
            return withUnsafeBytes(of: &inline) { XXH3_64bits_withSeed($0.baseAddress, count, seed) }
        }
        return pending.withUnsafeBytes { XXH3_64bits_withSeed($0.baseAddress, count, seed) }
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if stream == nil, pending.isEmpty, pendingCount + bytes.count <= Self.inlineLimit {
            guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
            let at = pendingCount
            withUnsafeMutableBytes(of: &inline) { $0.baseAddress!.advanced(by: at).copyMemory(from: source, byteCount: bytes.count) }
            pendingCount += bytes.count
            return
        }
        if stream == nil, pendingCount + bytes.count <= Self.pendingLimit {
            guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
            if pending.isEmpty {
                pending = [UInt8](repeating: 0, count: Self.pendingLimit)
                let count = pendingCount
                var inline = inline
                withUnsafeBytes(of: &inline) { from in
                    pending.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: from.baseAddress!, byteCount: count) }
                }
            }
            let at = pendingCount
            pending.withUnsafeMutableBytes { $0.baseAddress!.advanced(by: at).copyMemory(from: source, byteCount: bytes.count) }
            pendingCount += bytes.count
            return
        }
        if stream == nil {
            let made = Stream(seed: seed)
            let count = pendingCount
            if pending.isEmpty {
                var inline = inline
                withUnsafeBytes(of: &inline) { _ = XXH3_64bits_update(made.state, $0.baseAddress, count) }
            } else {
                pending.withUnsafeBytes { _ = XXH3_64bits_update(made.state, $0.baseAddress, count) }
            }
            pending = []
            pendingCount = 0
            stream = made
        } else if !isKnownUniquelyReferenced(&stream!) {
            stream = stream!.copy()
        }
        _ = XXH3_64bits_update(stream!.state, bytes.baseAddress, bytes.count)
    }

    /// XXH3's streaming state (allocated by the library, freed with its owner).
    private final class Stream: @unchecked Sendable {
        let state: OpaquePointer

        init(seed: UInt64) {
            state = XXH3_createState()
            XXH3_64bits_reset_withSeed(state, seed)
        }

        private init(copying other: Stream) {
            state = XXH3_createState()
            XXH3_copyState(state, other.state)
        }

        func copy() -> Stream { Stream(copying: self) }

        deinit { XXH3_freeState(state) }
    }

    /// ``hash(bytes:)`` of `pieces` joined, without joining them.
    public static func hash(pieces: [UnsafeRawBufferPointer]) -> UInt64 {
        var h = StableHasher()
        h.combine(UInt64(pieces.reduce(0) { $0 + $1.count }))
        for piece in pieces { h.append(piece) }
        return h.value
    }

    /// XXH3-64 of `bytes` alone (no byte count first, seed 0), in one call: a digest for
    /// in-memory tables, not equal to ``hash(bytes:)``.
    public static func digest(_ bytes: UnsafeRawBufferPointer) -> UInt64 { XXH3_64bits(bytes.baseAddress, bytes.count) }

    /// ``digest(_:)`` of a text's UTF-8 (read in place when it is contiguous).
    public static func digest(_ text: String) -> UInt64 {
        if let digest = text.utf8.withContiguousStorageIfAvailable({ digest(UnsafeRawBufferPointer($0)) }) { return digest }
        var text = text
        return text.withUTF8 { digest(UnsafeRawBufferPointer($0)) }
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
