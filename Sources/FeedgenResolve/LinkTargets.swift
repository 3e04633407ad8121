/// `LinkTargets`: the Markdown links of a site's feeds by the index of their distinct target, so
/// that the checks after body paths look each target's page up once, not once per link (a site's
/// bodies may hold tens of thousands of links to a few hundred targets).
import FeedgenContent

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
/// their bytes (``ByteKeys``) while every target is ASCII, by a String dictionary once one is not
/// (a non-ASCII target may equal one whose bytes differ, by canonical equivalence, which only a
/// String comparison sees). Tens of thousands of links name a few hundred targets: a SipHash of
/// each link's String was most of the walk over them.
struct TargetInterner {
    /// The distinct targets, in the order of their first link.
    private(set) var targets: [String] = []
    /// The targets by their bytes, while all are ASCII.
    private var keys = ByteKeys()
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

    /// ``index(of:)`` by the bytes of `target`; nil when it is new and not ASCII.
    private mutating func byteIndex(_ key: UnsafeBufferPointer<UInt8>, _ target: String) -> (index: Int32, isNew: Bool)? {
        // A key found has the bytes of an ASCII target: only a new one is tested.
        if let found = keys.index(of: UnsafeRawBufferPointer(key)) { return (Int32(found), false) }
        var high: UInt8 = 0
        for b in key { high |= b }
        guard high < 0x80 else { return nil }
        targets.append(target)
        return (Int32(keys.insert(UnsafeRawBufferPointer(key)).index), true)
    }
}
