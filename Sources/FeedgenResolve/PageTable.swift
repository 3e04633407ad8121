/// `PageTable`: ``ContentLinks/pages`` looked up by the bytes of a marker's path in a page,
/// without making a String of them and hashing it with SipHash (a site whose body paths name
/// nothing has thousands of markers, each rewritten in its detail page and its feed page).
import CFileSystem
import FeedgenStorage
import Foundation

/// The keys and values of a pages table, in one open-addressed hash table over the keys' bytes.
/// Only for a table whose keys are all ASCII: then a String key equals an ASCII path exactly
/// when their bytes are equal (a non-ASCII key could be canonically equivalent to one).
final class PageTable: Sendable {
    /// The keys' bytes, one after the other: key `k` is `bytes[starts[k]..<starts[k + 1]]`.
    private let bytes: [UInt8]
    private let starts: [Int]
    /// Each key's value.
    let values: [String]
    /// For a value that keeps a path as written (``BodyPaths/verbatim(_:)``): that path.
    let verbatim: [String?]
    /// Key indices by hash (linear probing), -1 for an empty slot; a power of two long.
    private let slots: [Int32]

    /// Nil when a key of `pages` is not ASCII.
    init?(_ pages: [String: String]) {
        var bytes: [UInt8] = []
        var starts = [0]
        var values: [String] = []
        var verbatim: [String?] = []
        values.reserveCapacity(pages.count)
        verbatim.reserveCapacity(pages.count)
        starts.reserveCapacity(pages.count + 1)
        bytes.reserveCapacity(pages.reduce(0) { $0 + $1.key.utf8.count })
        for (key, value) in pages {
            // From the key's contiguous bytes: through the UTF-8 view, testing and copying each
            // key took most of the table's making.
            var key = key
            let ascii = key.withUTF8 { utf8 in
                guard !utf8.contains(where: { $0 >= 0x80 }) else { return false }
                bytes.append(contentsOf: utf8)
                return true
            }
            guard ascii else { return nil }
            starts.append(bytes.count)
            values.append(value)
            verbatim.append(value.utf8.first == 1 ? String(BodyPaths.parse(value).path) : nil)
        }
        var size = 16
        while size < 2 * values.count { size *= 2 }
        var slots = [Int32](repeating: -1, count: size)
        bytes.withUnsafeBytes { b in
            for k in values.indices {
                var i = Self.hash(UnsafeRawBufferPointer(rebasing: b[starts[k]..<starts[k + 1]])) & (size - 1)
                while slots[i] >= 0 { i = (i + 1) & (size - 1) }
                slots[i] = Int32(k)
            }
        }
        (self.bytes, self.starts, self.values, self.verbatim, self.slots) = (bytes, starts, values, verbatim, slots)
    }

    /// XXH3-64 of the bytes (``StableHasher/digest(_:)``), the project's one byte hash.
    private static func hash(_ b: UnsafeRawBufferPointer) -> Int {
        Int(truncatingIfNeeded: StableHasher.digest(b))
    }

    /// The index of the key whose bytes are `key`, if any.
    func index(of key: UnsafeRawBufferPointer) -> Int? {
        let mask = slots.count - 1
        var i = Self.hash(key) & mask
        return bytes.withUnsafeBytes { b -> Int? in
            while true {
                let k = Int(slots[i])
                if k < 0 { return nil }
                let (s, e) = (starts[k], starts[k + 1])
                if e - s == key.count, key.count == 0 || memcmp(b.baseAddress! + s, key.baseAddress!, key.count) == 0 { return k }
                i = (i + 1) & mask
            }
        }
    }
}

/// A ``PageTable`` made once, on the first page rewritten (most ``ContentLinks`` rewrite none).
final class LazyPageTable: @unchecked Sendable {
    private let lock = NSLock()
    private var made = false
    private var table: PageTable?

    /// The table of `pages` (the same `pages` every call); nil when a key is not ASCII.
    func table(_ pages: [String: String]) -> PageTable? {
        lock.lock()
        defer { lock.unlock() }
        if !made {
            table = PageTable(pages)
            made = true
        }
        return table
    }
}
