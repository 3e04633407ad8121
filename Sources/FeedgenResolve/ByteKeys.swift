/// `ByteKeys`: distinct byte strings (ASCII paths), each given an index, found by their bytes in
/// an open-addressed table over their XXH3 digests: the link targets and page paths that the
/// resolve and rewrite stages look up tens of thousands of times, without making a String of a
/// page's bytes or hashing one with SipHash.
import FeedgenStorage
import Foundation

/// Keys by index, in the order they were added. Only for ASCII keys (the callers test it): then
/// two String keys are equal exactly when their bytes are (a non-ASCII one could be canonically
/// equivalent to other bytes).
struct ByteKeys: Sendable {
    /// The keys' bytes, one after the other: key `k` is `bytes[starts[k]..<starts[k + 1]]`.
    private var bytes: [UInt8] = []
    private var starts: [Int] = [0]
    private var digests: [UInt64] = []
    /// Key indices by digest (linear probing), -1 for an empty slot; a power of two long, at
    /// most half full.
    private var slots: [Int32]

    /// An empty table with room for `capacity` keys before it grows.
    init(capacity: Int = 0) {
        var size = 16
        while size < 2 * capacity { size *= 2 }
        slots = [Int32](repeating: -1, count: size)
        digests.reserveCapacity(capacity)
        starts.reserveCapacity(capacity + 1)
    }

    /// The number of keys.
    var count: Int { digests.count }

    /// The index of the key whose bytes are `key`, if any.
    func index(of key: UnsafeRawBufferPointer) -> Int? { find(key, Self.digest(key)).index }

    /// The index of the key whose bytes are `key`, added as the next index when it is new.
    mutating func insert(_ key: UnsafeRawBufferPointer) -> (index: Int, isNew: Bool) {
        let digest = Self.digest(key)
        let (found, slot) = find(key, digest)
        if let found { return (found, false) }
        let index = count
        bytes.append(contentsOf: key)
        starts.append(bytes.count)
        digests.append(digest)
        slots[slot] = Int32(index)
        if 2 * count > slots.count { grow() }
        return (index, true)
    }

    /// XXH3-64 of the bytes (``StableHasher/digest(_:)``), the project's one byte hash.
    private static func digest(_ key: UnsafeRawBufferPointer) -> UInt64 {
        key.isEmpty ? 0 : StableHasher.digest(key)
    }

    /// The key with `key`'s bytes (its digest `digest`), or the empty slot where it goes.
    private func find(_ key: UnsafeRawBufferPointer, _ digest: UInt64) -> (index: Int?, slot: Int) {
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: digest) & mask
        return bytes.withUnsafeBytes { b in
            while true {
                let k = Int(slots[i])
                if k < 0 { return (nil, i) }
                let (s, e) = (starts[k], starts[k + 1])
                if digests[k] == digest, e - s == key.count, key.isEmpty || memcmp(b.baseAddress! + s, key.baseAddress!, key.count) == 0 {
                    return (k, i)
                }
                i = (i + 1) & mask
            }
        }
    }

    /// Twice the slots, every key placed again by its digest (kept: no key hashed again).
    private mutating func grow() {
        slots = [Int32](repeating: -1, count: 2 * slots.count)
        let mask = slots.count - 1
        for (k, digest) in digests.enumerated() {
            var j = Int(truncatingIfNeeded: digest) & mask
            while slots[j] >= 0 { j = (j + 1) & mask }
            slots[j] = Int32(k)
        }
    }
}
