/// `LinkTargets`: the Markdown links of a site's feeds by the index of their distinct target, so
/// that the checks after body paths look each target's page up once, not once per link (a site's
/// bodies may hold tens of thousands of links to a few hundred targets).
import FeedgenContent
import FeedgenStorage
import Foundation

/// Each link's target as an index into the distinct targets, and, once resolved, each target's
/// page.
package struct LinkTargets: Sendable {
    package init() {}

    /// Each link of ``BodyPaths/forEachLink(_:item:_:)``, in its order: its target's index in
    /// ``targets``.
    package var ofLink: [Int32] = []
    /// The distinct targets (``MarkdownLink/target``), in the order of their first link.
    package var targets: [String] = []
    /// Each of ``targets``' page (a ``ContentLinks/pages`` value), or nil: set by
    /// ``resolved(by:)``.
    package private(set) var pages: [String?] = []

    /// These targets with their pages in `table` (``ContentLinks/pages``).
    package func resolved(by table: [String: String]) -> LinkTargets {
        var copy = self
        copy.pages = targets.map { table[$0] }
        return copy
    }

    /// Whether these are the links of `feeds` (as many as ``BodyPaths/forEachLink(_:item:_:)`` calls
    /// with) and resolved.
    package func fits(linkCount: Int) -> Bool {
        ofLink.count == linkCount && pages.count == targets.count
    }

    /// The page of the `k`th link (in ``BodyPaths/forEachLink(_:item:_:)``'s order).
    package func page(ofLink k: Int) -> String? { pages[Int(ofLink[k])] }
}

/// The distinct targets of a site's links, each given an index on its first link: found by
/// their bytes (XXH3, as ``PageTable``) while every target is ASCII, by a String dictionary
/// once one is not (a non-ASCII target may equal one whose bytes differ, by canonical
/// equivalence, which only a String comparison sees). Tens of thousands of links name a few
/// hundred targets: a SipHash of each link's String was most of the walk over them.
struct TargetInterner {
    /// The distinct targets, in the order of their first link.
    private(set) var targets: [String] = []
    /// The ASCII targets' bytes, one after the other: target `k` is `bytes[starts[k]..<starts[k + 1]]`.
    private var bytes: [UInt8] = []
    private var starts: [Int] = [0]
    private var hashes: [UInt64] = []
    /// Target indices by hash (linear probing), -1 for an empty slot; a power of two long.
    private var slots = [Int32](repeating: -1, count: 64)
    /// Every target by String, once a target is not ASCII (then the only table used).
    private var dictionary: [String: Int32]?

    /// The index of `target` in ``targets``, and whether it was added by this call.
    mutating func index(of target: String) -> (index: Int32, isNew: Bool) {
        if dictionary == nil, let found = target.utf8.withContiguousStorageIfAvailable({ byteIndex($0, target) }), let found {
            return found
        }
        if dictionary == nil {
            var all: [String: Int32] = [:]
            all.reserveCapacity(targets.count + 1)
            for (k, known) in targets.enumerated() { all[known] = Int32(k) }
            dictionary = all
        }
        if let known = dictionary![target] { return (known, false) }
        let index = Int32(targets.count)
        dictionary![target] = index
        targets.append(target)
        return (index, true)
    }

    /// ``index(of:)`` by the bytes of `target`; nil when it is not ASCII.
    private mutating func byteIndex(_ key: UnsafeBufferPointer<UInt8>, _ target: String) -> (index: Int32, isNew: Bool)? {
        let hash = key.isEmpty ? 0 : StableHasher.digest(UnsafeRawBufferPointer(key))
        var mask = slots.count - 1
        var i = Int(truncatingIfNeeded: hash) & mask
        let found = bytes.withUnsafeBytes { b -> Int32? in
            while true {
                let k = Int(slots[i])
                if k < 0 { return nil }
                let (s, e) = (starts[k], starts[k + 1])
                if hashes[k] == hash, e - s == key.count,
                    key.isEmpty || memcmp(b.baseAddress! + s, key.baseAddress!, key.count) == 0
                {
                    return Int32(k)
                }
                i = (i + 1) & mask
            }
        }
        // A key found has the bytes of an ASCII target: only a new one is tested.
        if let found { return (found, false) }
        var high: UInt8 = 0
        for b in key { high |= b }
        guard high < 0x80 else { return nil }
        let index = Int32(targets.count)
        targets.append(target)
        bytes.append(contentsOf: key)
        starts.append(bytes.count)
        hashes.append(hash)
        slots[i] = index
        if 2 * targets.count > slots.count {
            // Grown at half full: the probes stay short.
            slots = [Int32](repeating: -1, count: 2 * slots.count)
            mask = slots.count - 1
            for (k, h) in hashes.enumerated() {
                var j = Int(truncatingIfNeeded: h) & mask
                while slots[j] >= 0 { j = (j + 1) & mask }
                slots[j] = Int32(k)
            }
        }
        return (index, true)
    }
}
