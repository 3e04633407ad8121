/// An ordered, string-keyed map: the object type of ``MustacheValue``.
///
/// Keys keep their insertion order (for iteration and debugging output); lookups go through a
/// dictionary index, so they cost one hash regardless of size. Setting an existing key replaces
/// its value in place.
public struct MustacheObject: Sendable, Sequence {
    public typealias Element = (key: String, value: MustacheValue)

    private var pairs: [Element] = []
    private var index: [String: Int] = [:]

    public init() {}

    /// An object from key/value pairs, in order; a repeated key keeps its first position and
    /// takes its last value.
    public init<S: Sequence>(_ elements: S) where S.Element == (String, MustacheValue) {
        for (key, value) in elements { self[key] = value }
    }

    public var count: Int { pairs.count }
    public var isEmpty: Bool { pairs.isEmpty }
    /// The keys in insertion order.
    public var keys: [String] { pairs.map(\.key) }

    /// The value for `key`, or `nil` when absent. Setting `nil` removes the key (O(n)).
    public subscript(key: String) -> MustacheValue? {
        get {
            guard let i = index[key] else { return nil }
            return pairs[i].value
        }
        set {
            if let i = index[key] {
                if let newValue {
                    pairs[i].value = newValue
                } else {
                    pairs.remove(at: i)
                    index[key] = nil
                    for j in i..<pairs.count { index[pairs[j].key] = j }
                }
            } else if let newValue {
                index[key] = pairs.count
                pairs.append((key, newValue))
            }
        }
    }

    public func makeIterator() -> IndexingIterator<[Element]> { pairs.makeIterator() }
}

extension MustacheObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, MustacheValue)...) { self.init(elements) }
}
