/// `RecordSlots`: a record log's table from key to its latest record's place (``RecordLog``).

/// Key → the place of the key's latest record in a list of keys (a later record of a key
/// replaces an earlier one), by open addressing: the keys are content hashes, so a
/// multiplicative hash of them spreads them well, and the table is made in one pass over the
/// keys without the general dictionary's per-key hashing. At most half full.
struct RecordSlots: Sendable {
    /// Place + 1 of the key that a slot holds; 0: empty.
    private let slots: [Int32]
    private let shift: UInt64

    /// The table of `keys` (at most `Int32.max - 1` of them).
    init(_ keys: [UInt64]) {
        var bits = 1
        while (1 << bits) < 2 * keys.count { bits += 1 }
        let shift = UInt64(64 - bits)
        let mask = (1 << bits) - 1
        var slots = [Int32](repeating: 0, count: 1 << bits)
        keys.withUnsafeBufferPointer { keys in
            slots.withUnsafeMutableBufferPointer { slots in
                for place in keys.indices {
                    let key = keys[place]
                    var i = Self.slot(key, shift)
                    while slots[i] != 0, keys[Int(slots[i]) - 1] != key { i = (i + 1) & mask }
                    slots[i] = Int32(place + 1)
                }
            }
        }
        (self.slots, self.shift) = (slots, shift)
    }

    @inline(__always) private static func slot(_ key: UInt64, _ shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The place of the latest record of `key` in `keys` (the list the table was made of).
    @inline(__always) func place(of key: UInt64, _ keys: [UInt64]) -> Int? {
        let mask = slots.count - 1
        var i = Self.slot(key, shift)
        while true {
            let slot = Int(slots[i])
            if slot == 0 { return nil }
            if keys[slot - 1] == key { return slot - 1 }
            i = (i + 1) & mask
        }
    }

    /// Calls `body` with the place of each key's latest record (in no particular order).
    func forEachLatest(_ body: (Int) -> Void) {
        for slot in slots where slot != 0 { body(Int(slot) - 1) }
    }
}
