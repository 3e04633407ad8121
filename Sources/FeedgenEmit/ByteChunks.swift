import FeedgenContent
import FeedgenStorage

/// A page's UTF-8 bytes as a list of pieces, some of them borrowed: a long feed page is mostly
/// cached cards, whose bytes stay where the card cache mapped them (``CardHTML``). The page is
/// hashed from its pieces (``StableHasher/hash(pieces:)``, the same value as the hash of the
/// joined bytes) and written with `writev`, never joined into one buffer: for 10,000 cards that
/// buffer was 24 MB of fresh memory, and touching it was most of the time spent assembling the
/// page.
///
/// Bytes appended with ``append(_:)`` are copied into the value's own storage; a card's cached
/// bytes (``append(card:)``) are referred to, and their owner (the card cache's mapping) is kept
/// alive by the value.
public final class ByteChunks: @unchecked Sendable, Hashable {
    private enum Piece {
        /// A range of `own`.
        case own(Range<Int>)
        case borrowed(UnsafeRawBufferPointer)
    }

    // Not checked for exclusive access at run time: a value is built by one thread, and a
    // feed page's assembly makes about ten appends per card (each access to a checked class
    // property costs a thread-local look-up).
    /// The copied bytes: `ownCount` of `ownCapacity` bytes, grown by doubling. Plain memory,
    /// not an array: an append of a few bytes (most of a card's wrapping) is then a copy, not
    /// the array's generic append.
    @exclusivity(unchecked) private var own: UnsafeMutableRawPointer?
    @exclusivity(unchecked) private var ownCount = 0
    @exclusivity(unchecked) private var ownCapacity = 0
    @exclusivity(unchecked) private var pieces: [Piece] = []
    @exclusivity(unchecked) private var owners: [any AnyObject & Sendable] = []
    /// The number of bytes.
    @exclusivity(unchecked) public private(set) var count = 0

    public init() {}

    deinit { own?.deallocate() }

    /// Makes room for `minimum` copied bytes in all (at least double the room there was).
    fileprivate func reserveOwn(_ minimum: Int) {
        guard minimum > ownCapacity else { return }
        let capacity = max(minimum, 2 * ownCapacity, 256)
        let grown = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        if let own, ownCount > 0 { grown.copyMemory(from: own, byteCount: ownCount) }
        own?.deallocate()
        own = grown
        ownCapacity = capacity
    }

    /// The pieces in order, for the duration of `body` (empty pieces left out).
    public func withPieces<R>(_ body: ([UnsafeRawBufferPointer]) throws -> R) rethrows -> R {
        var list: [UnsafeRawBufferPointer] = []
        list.reserveCapacity(pieces.count)
        for piece in pieces {
            switch piece {
            case .own(let range): list.append(UnsafeRawBufferPointer(start: own! + range.lowerBound, count: range.count))
            case .borrowed(let bytes): list.append(bytes)
            }
        }
        return try withExtendedLifetime(owners) { try body(list) }
    }

    /// The bytes joined (a copy), each piece copied in place (the array's generic append of
    /// a buffer cost more than the copy of a card).
    public var bytes: [UInt8] {
        withPieces { pieces in
            [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                var at = 0
                for piece in pieces where !piece.isEmpty {
                    UnsafeMutableRawPointer(buffer.baseAddress! + at).copyMemory(from: piece.baseAddress!, byteCount: piece.count)
                    at += piece.count
                }
                initialized = at
            }
        }
    }

    /// The hash of the bytes, as ``StableHasher/hash(_:)-([UInt8])`` of ``bytes``.
    public var stableHash: UInt64 { withPieces { StableHasher.hash(pieces: $0) } }

    /// Appends a copy of `bytes`.
    public func append(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        let start = ownCount
        if ownCapacity - start < bytes.count { reserveOwn(start + bytes.count) }
        (own! + start).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        ownCount = start + bytes.count
        if case .own(let last)? = pieces.last, last.upperBound == start {
            pieces[pieces.count - 1] = .own(last.lowerBound..<ownCount)
        } else {
            pieces.append(.own(start..<ownCount))
        }
        count += bytes.count
    }

    /// Appends a copy of `text`'s UTF-8.
    public func append(_ text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Appends a card's bytes: referred to when the card cache holds them, else copied.
    public func append(card: CardHTML) {
        guard let (bytes, owner) = card.borrowedBytes else {
            card.withUTF8 { append($0) }
            return
        }
        guard !bytes.isEmpty else { return }
        if owners.last.map({ $0 !== owner }) ?? true { owners.append(owner) }
        pieces.append(.borrowed(bytes))
        count += bytes.count
    }

    /// Equal bytes.
    public static func == (a: ByteChunks, b: ByteChunks) -> Bool { a.count == b.count && a.bytes == b.bytes }

    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }
}

/// Where ``SectionHTML`` writes a section's elements: bytes (``ByteChunks``, a feed page) or a
/// byte array (a section's HTML on its own).
protocol HTMLByteSink {
    var count: Int { get }
    mutating func append(_ text: String)
    mutating func append(card: CardHTML)
    /// Appends ``DeferredCards/Estimate/style`` of `estimate`.
    mutating func append(estimate: DeferredCards.Estimate)
    mutating func appendBytes(_ bytes: UnsafeRawBufferPointer)
    /// Makes room for `cards` and their wrapping at once (a 100,000-card section is hundreds of
    /// MB, which doubling would copy again and again).
    mutating func reserveRoom(ids: [String], cards: [CardHTML])
}

extension HTMLByteSink {
    /// Its bytes written in place: a deferred card's style was a String built per card.
    mutating func append(estimate: DeferredCards.Estimate) {
        estimate.withStyle { appendBytes($0) }
    }
}

extension ByteChunks: HTMLByteSink {
    func appendBytes(_ bytes: UnsafeRawBufferPointer) { append(bytes) }

    /// Room for the wrapping and for the cards that are copied (rendered by this build).
    func reserveRoom(ids: [String], cards: [CardHTML]) {
        let copied = cards.reduce(0) { $0 + ($1.borrowedBytes == nil ? $1.utf8Count : 0) }
        reserveOwn(ownCount + copied + ids.reduce(0) { $0 + $1.utf8.count + 192 } + 1024)
    }
}

extension Array: HTMLByteSink where Element == UInt8 {
    mutating func appendBytes(_ bytes: UnsafeRawBufferPointer) { append(contentsOf: bytes) }
    mutating func append(_ text: String) { self += text.utf8 }
    mutating func append(card: CardHTML) { card.withUTF8 { append(contentsOf: $0) } }
    mutating func reserveRoom(ids: [String], cards: [CardHTML]) {
        reserveCapacity(count + SectionHTML.estimatedSize(ids: ids, cards: cards))
    }
}
