/// Items' fingerprints: ``ItemCache/fingerprint(_:)`` and ``ItemCache/fingerprintOutsideBody(_:)``
/// (hashes of an item's cache encoding, whole and without what its body decides), and
/// ``ItemFingerprints``, which keeps those a build computed or read so that no item is encoded twice.
import FeedgenContent
import FeedgenStorage
import Synchronization

extension ItemCache {
    /// A hash of every field of `item` (its exact cache encoding); ``ItemFingerprints`` knows
    /// those of the items a build loaded.
    public static func fingerprint(_ item: Item) -> UInt64 { fingerprints(item, whole: true, outside: false).whole }

    /// ``fingerprint(_:)`` of the item without what its Markdown body decides: its HTML, its
    /// links to other content files and its description (the body's first paragraph when the
    /// front matter has none; the front matter itself is in the fingerprint). Two versions of
    /// an item edited only in its body have equal values.
    public static func fingerprintOutsideBody(_ item: Item) -> UInt64 { fingerprints(item, whole: false, outside: true).outside }

    /// ``fingerprint(_:)`` and ``fingerprintOutsideBody(_:)`` of `item`, each only when asked
    /// (else 0), from one encoding: the body's bytes are hashed where they are, and the
    /// encoding without the body is the encoding's parts with an absent description, an empty
    /// body and no links put in their place.
    static func fingerprints(_ item: Item, whole: Bool = true, outside: Bool = true) -> (whole: UInt64, outside: UInt64) {
        // Without the whole fingerprint, the body is not read (an item of the item cache has
        // it in the mapped log until then); its byte count is then not used.
        var html = whole ? item.html : ""
        return html.withUTF8 { body in
            var writer = ByteWriter()
            writer.bytes.reserveCapacity(2048)
            let ends = writer.itemParts(item, html: body, copyingHTML: false)
            return writer.bytes.withUnsafeBytes { b in
                withUnsafeBytes(of: UInt64.zero) { zeros in
                    // Zeros: an absent value's flag, an empty string's byte count, an empty list's count.
                    func part(_ range: Range<Int>) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: b[range]) }
                    let all = whole ? StableHasher.hash(pieces: [part(0..<ends.html), UnsafeRawBufferPointer(body), part(ends.html..<b.count)]) : 0
                    let rest =
                        outside
                        ? StableHasher.hash(pieces: [
                            part(0..<ends.head), UnsafeRawBufferPointer(rebasing: zeros[0..<1]), part(ends.description..<ends.beforeHTML), zeros,
                            part(ends.html..<ends.beforeLinks), zeros,
                        ]) : 0
                    return (all, rest)
                }
            }
        }
    }

    /// A hash of a YAML document as parsed (values, styles, tags and positions).
    public static func fingerprint(_ node: YAMLNode?) -> UInt64 {
        var writer = ByteWriter()
        writer.optional(node) { $0.node($1) }
        return StableHasher.hash(writer.bytes)
    }
}

/// The ``ItemCache/fingerprint(_:)`` of each item a build took from the item cache or stored
/// in it, computed once (from the bytes stored), and of each item fingerprinted since (with its
/// ``ItemCache/fingerprintOutsideBody(_:)``), so that the keys of its card and page and the
/// snapshot do not encode the item again. An entry holds a copy of its item and counts only
/// for that very value (``Item/isUnchangedCopy(of:)``): an item changed after loading (its
/// links resolved) is fingerprinted again.
package final class ItemFingerprints: Sendable {
    private struct Entry {
        var whole: UInt64
        /// Not known for an item of the item cache.
        var outside: UInt64?
        var item: Item
    }

    /// Keyed by the item's ``Item/copyIdentity``, which the entry's copy keeps unique; in
    /// shards by that identity, each with its lock, so that the cores making the keys of cards
    /// and the snapshot's records at once do not all wait for one lock.
    private let shards: [Shard] = (0..<(1 << ItemFingerprints.shardBits)).map { _ in Shard() }
    private static let shardBits = 6

    private final class Shard: Sendable {
        let table = Mutex<[ObjectIdentifier: Entry]>([:])
    }

    package init() {}

    /// The shard of an identity: the top bits of its address times a large odd number (which
    /// spreads objects of one size, laid out at even steps, over the shards).
    private func shard(_ id: ObjectIdentifier) -> Shard { shards[Int((UInt64(UInt(bitPattern: id)) &* 0x9E37_79B9_7F4A_7C15) >> (64 - Self.shardBits))] }

    private func store(_ entry: Entry, of item: Item) {
        let id = item.copyIdentity
        shard(id).table.withLock { $0[id] = entry }
    }

    func remember(_ fingerprint: UInt64, of item: Item) { store(Entry(whole: fingerprint, outside: nil, item: item), of: item) }

    /// `item`'s ``ItemCache/fingerprint(_:)``: the one remembered when it is the item loaded
    /// or fingerprinted before, else computed (with the fingerprint outside its body) and
    /// remembered.
    package func fingerprint(_ item: Item) -> UInt64 {
        if let known = known(item) { return known }
        let (whole, outside) = ItemCache.fingerprints(item)
        store(Entry(whole: whole, outside: outside, item: item), of: item)
        return whole
    }

    /// `item`'s ``ItemCache/fingerprintOutsideBody(_:)``, remembered as ``fingerprint(_:)``.
    package func fingerprintOutsideBody(_ item: Item) -> UInt64 {
        if let entry = entry(item) {
            if let outside = entry.outside { return outside }
            let outside = ItemCache.fingerprintOutsideBody(item)
            let id = item.copyIdentity
            shard(id).table.withLock { $0[id]?.outside = outside }
            return outside
        }
        let (whole, outside) = ItemCache.fingerprints(item)
        store(Entry(whole: whole, outside: outside, item: item), of: item)
        return outside
    }

    /// The fingerprint remembered for `item`, when it is the very item loaded, stored or
    /// fingerprinted.
    func known(_ item: Item) -> UInt64? { entry(item)?.whole }

    private func entry(_ item: Item) -> Entry? {
        let id = item.copyIdentity
        guard let entry = shard(id).table.withLock({ $0[id] }), entry.item.isUnchangedCopy(of: item) else { return nil }
        return entry
    }
}
