/// `Diagnostics`: the list of problems a build reports, in the order found or sorted for
/// printing; it may hold a packed, sorted part (``PackedDiagnostics``: the last build's, read from
/// its snapshot) whose diagnostics are made only when read, and the count of each kind of problem
/// (``KindTally``) when it is known.
import FeedgenStorage

/// Diagnostics kept packed (a build snapshot's bytes), in ``Diagnostics/sorted`` order: only those
/// read are made into values (a large site's report holds tens of thousands, of which 200 are
/// printed).
public protocol PackedDiagnostics: AnyObject, Sendable {
    var count: Int { get }
    /// Each one's severity, in order.
    var severities: [Severity] { get }
    /// The location of the one at `index` (0..<count).
    func location(at index: Int) -> SourceLocation
    /// The ones at `range`, made.
    func diagnostics(in range: Range<Int>) -> [Diagnostic]
    /// All of them, made once and kept.
    var all: [Diagnostic] { get }
}

/// A list of diagnostics that a stage fills and the build reads. Not thread-safe: each worker
/// keeps its own and the build merges them in a deterministic order.
public struct Diagnostics: Sendable, Equatable, ExpressibleByArrayLiteral {
    /// The diagnostics appended (after the packed ones, when there are).
    private var list: [Diagnostic] = []
    /// A sorted part before `list`. A list with one is always in ``sorted`` order: those
    /// appended are merged in wherever they are read.
    private var packed: (any PackedDiagnostics)?
    /// How many leading ``items`` are known to be in ``sorted`` order (``sort()`` sorted them;
    /// later ones were appended since). Without a packed part.
    private var sortedPrefix = 0
    /// How many problems of each kind the list holds, when known (nil: counted when printed).
    public private(set) var kinds: KindTally?

    public init() {}

    public init(arrayLiteral elements: Diagnostic...) { list = elements }

    /// The diagnostics of `packed`, whose kinds are counted in `kinds` (when known).
    public init(packed: any PackedDiagnostics, kinds: KindTally?) {
        self.packed = packed
        self.kinds = kinds
    }

    /// The diagnostics, in the order found (with a packed part: in ``sorted`` order).
    public var items: [Diagnostic] {
        guard let packed else { return list }
        return list.isEmpty ? packed.all : Self.merge(packed.all, sortedTail)
    }

    public var count: Int { (packed?.count ?? 0) + list.count }

    /// The packed diagnostics, when they are all of the list.
    public var packedOnly: (any PackedDiagnostics)? { list.isEmpty ? packed : nil }

    public static func == (a: Diagnostics, b: Diagnostics) -> Bool { a.items == b.items }

    public mutating func append(_ d: Diagnostic) {
        list.append(d)
        kinds?.add(d)
    }

    public mutating func append(contentsOf other: Diagnostics) { append(contentsOf: other.items) }

    public mutating func append(contentsOf list: [Diagnostic]) {
        self.list.append(contentsOf: list)
        if kinds != nil { for d in list { kinds!.add(d) } }
    }

    /// ``append(contentsOf:)-([Diagnostic])`` that takes `other`'s storage when it holds more
    /// than the list: the list's diagnostics are copied before `other`'s, which are moved, not
    /// copied one by one (a site's links may give tens of thousands).
    public mutating func append(moving other: consuming [Diagnostic]) {
        if kinds != nil { for i in other.indices { kinds!.add(other[i]) } }
        if other.count > list.count {
            other.insert(contentsOf: list, at: 0)
            list = other
        } else {
            list.append(contentsOf: other)
        }
    }

    public mutating func error(_ location: SourceLocation, _ message: String) { append(.error(location, message)) }

    public mutating func warning(_ location: SourceLocation, _ message: String) { append(.warning(location, message)) }

    /// Sets ``kinds``, which must be the tally of this list (nil: not known).
    public mutating func set(kinds: KindTally?) { self.kinds = kinds }

    /// Counts the list's problems by kind (``kinds``), unless they are counted.
    public mutating func countKinds() {
        if kinds == nil { kinds = KindTally.counting(items) }
    }

    public var hasErrors: Bool { count(of: .error) > 0 }
    public var errorCount: Int { count(of: .error) }
    public var warningCount: Int { count(of: .warning) }

    private func count(of severity: Severity) -> Int {
        let inList = list.count { $0.severity == severity }
        guard let packed else { return inList }
        return inList + packed.severities.count { $0 == severity }
    }

    /// Sorted by path, line, column, then the order they were found in: the order in which they
    /// are printed.
    public var sorted: [Diagnostic] {
        if packed != nil { return items }
        // A build's report is kept in this order (``sort()``), and a few are appended to it: the
        // items after the part in order are sorted alone and merged in (equal locations keep
        // the earlier item first, as a stable sort of all would).
        var inOrder = sortedPrefix
        while inOrder < list.count, inOrder == 0 || !(list[inOrder].location < list[inOrder - 1].location) { inOrder += 1 }
        if inOrder == list.count { return list }
        // (Most out of order: all sorted at once, a stable sort.)
        if inOrder < list.count / 2 { return Self.stablySorted(list[...]) }
        return Self.merge(list[..<inOrder], Self.stablySorted(list[inOrder...]))
    }

    /// `items`, sorted by location and then by their order.
    private static func stablySorted(_ items: ArraySlice<Diagnostic>) -> [Diagnostic] {
        // The distinct paths are sorted alone (a file's diagnostics are mostly together, its
        // path told by one look at the last; others found by a digest of their bytes, which
        // hashes faster than a String), then the diagnostics by the path's rank, line, column
        // and place: integers.
        var idOf: [UInt64: Int] = [:]
        var others: [String: Int] = [:]
        var paths: [String] = []
        var ids: [Int] = []
        ids.reserveCapacity(items.count)
        for d in items {
            let path = d.location.path
            if let last = ids.last, paths[last] == path {
                ids.append(last)
                continue
            }
            let digest = StableHasher.digest(path)
            if let id = idOf[digest], paths[id].sameBytes(as: path) {
                ids.append(id)
            } else if let id = others[path] {
                ids.append(id)
            } else {
                if idOf[digest] == nil { idOf[digest] = paths.count } else { others[path] = paths.count }
                ids.append(paths.count)
                paths.append(path)
            }
        }
        // Paths equal as Strings (canonically equivalent) sort together and share a rank.
        var rank = [Int](repeating: 0, count: paths.count)
        var r = 0
        let byPath = paths.indices.sorted { paths[$0] < paths[$1] }
        for (k, id) in byPath.enumerated() {
            if k > 0, paths[id] != paths[byPath[k - 1]] { r += 1 }
            rank[id] = r
        }
        struct Key {
            let rank: Int
            let line: Int
            let column: Int
            let place: Int
        }
        let base = items.startIndex
        var keys: [Key] = []
        keys.reserveCapacity(items.count)
        for (k, d) in items.enumerated() { keys.append(Key(rank: rank[ids[k]], line: d.location.line, column: d.location.column, place: k)) }
        keys.sort { a, b in
            if a.rank != b.rank { return a.rank < b.rank }
            if a.line != b.line { return a.line < b.line }
            if a.column != b.column { return a.column < b.column }
            return a.place < b.place
        }
        return keys.map { items[base + $0.place] }
    }

    /// Two sorted lists as one, those of `head` first at equal locations.
    private static func merge<A: RandomAccessCollection<Diagnostic>>(_ head: A, _ tail: [Diagnostic]) -> [Diagnostic] where A.Index == Int {
        var merged: [Diagnostic] = []
        merged.reserveCapacity(head.count + tail.count)
        if tail.count * 16 < head.count {
            // A few into many: each put after the head's ones at its location or before, found
            // by halving; the head copied in runs between.
            var next = head.startIndex
            for d in tail {
                var (low, high) = (next, head.endIndex)
                while low < high {
                    let mid = (low + high) / 2
                    if d.location < head[mid].location { high = mid } else { low = mid + 1 }
                }
                merged += head[next..<low]
                merged.append(d)
                next = low
            }
            merged += head[next...]
            return merged
        }
        var (i, j) = (head.startIndex, 0)
        while i < head.endIndex, j < tail.count {
            if tail[j].location < head[i].location {
                merged.append(tail[j])
                j += 1
            } else {
                merged.append(head[i])
                i += 1
            }
        }
        merged += head[i...]
        merged += tail[j...]
        return merged
    }

    /// The appended diagnostics (after a packed part), sorted.
    private var sortedTail: [Diagnostic] { Self.stablySorted(list[...]) }

    /// Puts the list in ``sorted`` order. A build's report is kept so, whichever way it was
    /// built (a patch build merges the diagnostics of the items it read into the last build's).
    public mutating func sort() {
        guard packed == nil else { return }
        list = sorted
        sortedPrefix = list.count
    }

    /// ``sort()``, given the first `prefix.count` items already in ``sorted`` order (sorted on
    /// another thread while more were appended): those after them are sorted and merged in.
    public mutating func sort(sortedPrefix prefix: [Diagnostic]) {
        precondition(prefix.count <= count, "a sorted prefix longer than the list")
        guard packed == nil else { return }
        if prefix.count == list.count { list = prefix } else { list.replaceSubrange(0..<prefix.count, with: prefix) }
        sortedPrefix = prefix.count
        sort()
    }

    /// The list in ``sorted`` order without making its packed diagnostics: each one's severity,
    /// and a function that makes those at given places.
    func inOrder() -> (severities: [Severity], make: ([Int]) -> [Diagnostic]) {
        guard let packed else {
            let all = sorted
            return (all.map(\.severity), { $0.map { all[$0] } })
        }
        let packedSeverities = packed.severities
        guard !list.isEmpty else { return (packedSeverities, { packed.diagnostics(at: $0) }) }
        // Where each appended one goes: before the first packed one at a later location; in
        // the merged list, appended one `k` is at `places[k] + k`.
        let tail = sortedTail
        var places: [Int] = []
        places.reserveCapacity(tail.count)
        for d in tail {
            var (low, high) = (places.last ?? 0, packed.count)
            while low < high {
                let mid = (low + high) / 2
                if d.location < packed.location(at: mid) { high = mid } else { low = mid + 1 }
            }
            places.append(low)
        }
        var severities: [Severity] = []
        severities.reserveCapacity(count)
        var next = 0
        for (k, place) in places.enumerated() {
            severities += packedSeverities[next..<place]
            severities.append(tail[k].severity)
            next = place
        }
        severities += packedSeverities[next...]
        return (severities, { positions in
            positions.map { p in
                // The appended ones before place `p` (or at it).
                var (low, high) = (0, places.count)
                while low < high {
                    let mid = (low + high) / 2
                    if places[mid] + mid < p { low = mid + 1 } else { high = mid }
                }
                if low < places.count, places[low] + low == p { return tail[low] }
                return packed.diagnostics(at: [p - low])[0]
            }
        })
    }
}

extension PackedDiagnostics {
    /// The ones at `indexes`, made (a run of consecutive ones at once).
    public func diagnostics(at indexes: [Int]) -> [Diagnostic] {
        var made: [Diagnostic] = []
        made.reserveCapacity(indexes.count)
        var k = 0
        while k < indexes.count {
            var end = k + 1
            while end < indexes.count, indexes[end] == indexes[end - 1] + 1 { end += 1 }
            made += diagnostics(in: indexes[k]..<indexes[end - 1] + 1)
            k = end
        }
        return made
    }
}
