/// An ordered, string-keyed map: the object type of ``MustacheValue``.
///
/// Keys keep their insertion order (for iteration and debugging output). A lookup in an
/// object of up to 16 keys compares keys in order (a fingerprint of each
/// key first, its length and first bytes, so a mismatch costs one integer comparison), which
/// for the small objects of template contexts is several times cheaper than hashing; larger objects
/// keep a dictionary index, so a lookup costs one hash regardless of size. Setting an existing
/// key replaces its value in place.
public struct MustacheObject: Sendable, Sequence {
    public typealias Element = (key: String, value: MustacheValue)

    /// Objects with more keys than this get a hash index.
    static let linearSearchLimit = 16

    /// The pairs, unlabeled: the type of the array a literal and a context pass in, so that
    /// ``init(_:)-([(String,MustacheValue)])`` keeps that array rather than copying it.
    private var pairs: [(String, MustacheValue)] = []
    /// ``fingerprint(_:)`` of each key, in the order of `pairs`.
    private var fingerprints: [UInt64] = []
    /// Position of each key; only for objects of more than ``linearSearchLimit`` keys.
    private var index: [String: Int]? = nil

    public init() {}

    /// An object from key/value pairs, in order; a repeated key keeps its first position and
    /// takes its last value (``MustacheValue/init(json:name:numbers:)`` reports repeated keys
    /// instead).
    public init<S: Sequence>(_ elements: S) where S.Element == (String, MustacheValue) {
        let expected = elements.underestimatedCount
        pairs.reserveCapacity(expected)
        fingerprints.reserveCapacity(expected)
        for (key, value) in elements { set(key, value, fingerprint: Self.fingerprint(key)) }
    }

    /// The generic initializer of an array (what template contexts pass): a loop over its elements, not
    /// an unspecialized generic iterator from another module.
    ///
    /// Keys without repeats (the common case) keep `elements` as the pairs: each key is only
    /// fingerprinted and, in a small object, compared with the earlier keys of equal
    /// fingerprint (a larger one finds repeats as it builds its index).
    public init(_ elements: [(String, MustacheValue)]) {
        var prints: [UInt64] = []
        prints.reserveCapacity(elements.count)
        var built: [String: Int]? = nil
        let repeated = elements.withUnsafeBufferPointer { elements in
            if elements.count > Self.linearSearchLimit {
                var positions: [String: Int] = [:]
                positions.reserveCapacity(elements.count)
                for i in elements.indices {
                    if positions.updateValue(i, forKey: elements[i].0) != nil { return true }
                    prints.append(Self.fingerprint(elements[i].0))
                }
                built = positions
                return false
            }
            // A bit per fingerprint seen (64 buckets): a key whose bit is clear repeats no
            // earlier key, so only a key sharing a bucket is compared with the earlier ones.
            var seen: UInt64 = 0
            for i in elements.indices {
                let print = Self.fingerprint(elements[i].0)
                let bit: UInt64 = 1 &<< ((print ^ (print >> 29) ^ (print >> 56)) & 63)
                if seen & bit != 0 {
                    for j in 0..<i where prints[j] == print && elements[j].0 == elements[i].0 { return true }
                }
                seen |= bit
                prints.append(print)
            }
            return false
        }
        guard !repeated else {
            fingerprints.reserveCapacity(elements.count)
            pairs.reserveCapacity(elements.count)
            elements.withUnsafeBufferPointer { elements in
                for i in elements.indices { set(elements[i].0, elements[i].1, fingerprint: Self.fingerprint(elements[i].0)) }
            }
            return
        }
        pairs = elements
        fingerprints = prints
        index = built
    }

    public var count: Int { pairs.count }
    public var isEmpty: Bool { pairs.isEmpty }
    /// The keys in insertion order.
    public var keys: [String] { pairs.map(\.0) }

    /// A key's fingerprint: equal keys (Swift `String` equality, which is Unicode canonical
    /// equivalence) have equal fingerprints, so a mismatch rules a key out. An ASCII key's is its
    /// length and first seven bytes. A key with a character outside ASCII gets the fingerprint of
    /// the ASCII text it is canonically equivalent to, when there is one (``asciiTwins``: `K`
    /// written as KELVIN SIGN U+212A); every other one shares one fingerprint (the top bit set),
    /// because two spellings of one text in different normalization forms (NFC `é`, NFD `e` +
    /// U+0301) differ in length and bytes, and only `String` equality tells them apart.
    static func fingerprint(_ key: String) -> UInt64 {
        // Keys are short (small strings, stored inline): read their bytes in place.
        let fast = key.utf8.withContiguousStorageIfAvailable { bytes -> UInt64? in
            guard let p = bytes.baseAddress else { return 0 }
            let n = bytes.count
            // One pass that only ORs the bytes (ASCII: no high bit), one over the first seven.
            var high: UInt8 = 0
            var i = 0
            while i < n {
                high |= p[i]
                i &+= 1
            }
            if high >= 0x80 { return nil }
            var f = UInt64(truncatingIfNeeded: n) << 56
            i = 0
            while i < Swift.min(n, 7) {
                f |= UInt64(p[i]) &<< (8 &* UInt64(truncatingIfNeeded: i))
                i &+= 1
            }
            return f
        }
        if let fast, let fast { return fast }
        var ascii: [UInt8] = []
        for scalar in key.unicodeScalars {
            if scalar.isASCII {
                ascii.append(UInt8(scalar.value))
            } else if let twin = asciiTwins[scalar.value] {
                ascii.append(twin)
            } else {
                return 1 << 63
            }
        }
        var f = UInt64(truncatingIfNeeded: ascii.count) << 56
        for (i, b) in ascii.prefix(7).enumerated() { f |= UInt64(b) << (8 * UInt64(i)) }
        return f
    }

    /// The characters whose canonical decomposition is one ASCII character (Unicode singleton
    /// decompositions, UnicodeData.txt): KELVIN SIGN, GREEK QUESTION MARK, GREEK VARIA. An
    /// ASCII character never composes with another, so a text of ASCII and these is equal only
    /// to its ASCII spelling.
    static let asciiTwins: [UInt32: UInt8] = [0x212A: 0x4B, 0x037E: 0x3B, 0x1FEF: 0x60]

    private func position(of key: String) -> Int? {
        position(of: key, fingerprint: Self.fingerprint(key))
    }

    private func position(of key: String, fingerprint: UInt64) -> Int? {
        if let index { return index[key] }
        // Both read in place: a key compared is not copied out of its pair (a retain each).
        return fingerprints.withUnsafeBufferPointer { prints in
            pairs.withUnsafeBufferPointer { pairs in
                var i = 0
                while i < prints.count {
                    if prints[i] == fingerprint && pairs[i].0 == key { return i }
                    i += 1
                }
                return nil
            }
        }
    }

    /// The value for `key`, whose ``fingerprint(_:)`` the caller computed once (names of a
    /// compiled template carry theirs).
    func value(forKey key: String, fingerprint: UInt64) -> MustacheValue? {
        guard let i = position(of: key, fingerprint: fingerprint) else { return nil }
        return pairs[i].1
    }

    /// The value for `key`, or `nil` when absent. Setting `nil` removes the key (O(n)).
    public subscript(key: String) -> MustacheValue? {
        get {
            guard let i = position(of: key) else { return nil }
            return pairs[i].1
        }
        set { set(key, newValue, fingerprint: Self.fingerprint(key)) }
    }

    private mutating func set(_ key: String, _ newValue: MustacheValue?, fingerprint: UInt64) {
        if let i = position(of: key, fingerprint: fingerprint) {
            if let newValue {
                pairs[i].1 = newValue
            } else {
                pairs.remove(at: i)
                fingerprints.remove(at: i)
                if index != nil { rebuildIndex() }
            }
        } else if let newValue {
            pairs.append((key, newValue))
            fingerprints.append(fingerprint)
            if index != nil {
                index![key] = pairs.count - 1
            } else if pairs.count > Self.linearSearchLimit {
                rebuildIndex()
            }
        }
    }

    private mutating func rebuildIndex() {
        guard pairs.count > Self.linearSearchLimit else {
            index = nil
            return
        }
        var built: [String: Int] = [:]
        built.reserveCapacity(pairs.count)
        for (i, pair) in pairs.enumerated() { built[pair.0] = i }
        index = built
    }

    public func makeIterator() -> Iterator { Iterator(base: pairs.makeIterator()) }

    /// The pairs in order, labeled.
    public struct Iterator: IteratorProtocol {
        var base: IndexingIterator<[(String, MustacheValue)]>
        public mutating func next() -> Element? { base.next().map { (key: $0.0, value: $0.1) } }
    }
}

extension MustacheObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, MustacheValue)...) { self.init(elements) }
}
