#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The orders of `sort` (content-format §4). All comparisons are on UTF-8 bytes (titles
/// case-folded first), so the result does not depend on the locale.
package enum ItemOrdering {
    /// Sorts `items` by `order`; ties end on `fileName`, which is unique within a section.
    /// - Complexity: O(n log n) comparisons of precomputed keys; then the items are permuted in
    ///   place by swaps (no item is copied).
    package static func sort(_ items: inout [Item], by order: SortOrder) {
        let keys = items.map(Key.init)
        let source = keys.indices.sorted { a, b in compare(keys[a], keys[b], order) < 0 }
        // Apply "new[k] = old[source[k]]" cycle by cycle.
        var placed = [Bool](repeating: false, count: items.count)
        for start in items.indices where !placed[start] {
            var k = start
            while true {
                placed[k] = true
                let from = source[k]
                if from == start { break }
                items.swapAt(k, from)
                k = from
            }
        }
    }

    /// `items` sorted by `order` (see ``sort(_:by:)``).
    package static func sorted(_ items: [Item], by order: SortOrder) -> [Item] {
        var copy = items
        sort(&copy, by: order)
        return copy
    }

    /// The fields the orders look at, copied out of the (large) item once.
    private struct Key {
        var weight: Int?
        var date: ContentDate?
        var foldedTitle: String
        var title: String
        var fileName: String

        init(_ item: Item) {
            weight = item.weight
            date = item.date
            foldedTitle = item.title.lowercased()
            title = item.title
            fileName = item.fileName
        }
    }

    private static func compare(_ a: Key, _ b: Key, _ order: SortOrder) -> Int {
        var result = 0
        switch order {
        case .weight:
            result = compareWeights(a.weight, b.weight)
            if result == 0 { result = compareDatesNewestFirst(a.date, b.date) }
            if result == 0 { result = compareTitles(a, b) }
        case .date:
            result = compareDatesNewestFirst(a.date, b.date)
            if result == 0 { result = compareTitles(a, b) }
        case .title:
            result = compareTitles(a, b)
        case .file:
            break
        }
        return result != 0 ? result : byteOrder(a.fileName, b.fileName)
    }

    /// Lower weight first; items without a weight after those with one.
    private static func compareWeights(_ a: Int?, _ b: Int?) -> Int {
        switch (a, b) {
        case (nil, nil): 0
        case (nil, _): 1
        case (_, nil): -1
        case (let x?, let y?): x == y ? 0 : (x < y ? -1 : 1)
        }
    }

    /// Newest first; items without a date after those with one.
    private static func compareDatesNewestFirst(_ a: ContentDate?, _ b: ContentDate?) -> Int {
        switch (a, b) {
        case (nil, nil): 0
        case (nil, _): 1
        case (_, nil): -1
        case (let x?, let y?): x == y ? 0 : (y < x ? -1 : 1)
        }
    }

    /// Case-folded title, then the exact title bytes.
    private static func compareTitles(_ a: Key, _ b: Key) -> Int {
        let folded = byteOrder(a.foldedTitle, b.foldedTitle)
        return folded != 0 ? folded : byteOrder(a.title, b.title)
    }

    /// -1, 0 or 1 comparing UTF-8 bytes (not Swift's canonical-equivalence `<`).
    package static func byteOrder(_ a: String, _ b: String) -> Int {
        // Native strings are contiguous UTF-8: compare with memcmp.
        let fast = a.utf8.withContiguousStorageIfAvailable { pa in
            b.utf8.withContiguousStorageIfAvailable { pb -> Int in
                let n = min(pa.count, pb.count)
                if n > 0, let x = pa.baseAddress, let y = pb.baseAddress {
                    let c = memcmp(x, y, n)
                    if c != 0 { return c < 0 ? -1 : 1 }
                }
                return pa.count == pb.count ? 0 : (pa.count < pb.count ? -1 : 1)
            }
        }
        if let result = fast ?? nil { return result }
        var ia = a.utf8.makeIterator()
        var ib = b.utf8.makeIterator()
        while true {
            switch (ia.next(), ib.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?): if x != y { return x < y ? -1 : 1 }
            }
        }
    }
}
