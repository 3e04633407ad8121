/// `PageTable`: ``ContentLinks/pages`` looked up by the bytes of a marker's path in a page,
/// without making a String of them and hashing it with SipHash (a site whose body paths name
/// nothing has thousands of markers, each rewritten in its detail page and its feed page).
import Foundation

/// The keys and values of a pages table, the keys found by their bytes (``ByteKeys``). Only for
/// a table whose keys are all ASCII.
final class PageTable: Sendable {
    /// The keys, by index.
    private let keys: ByteKeys
    /// Each key's value.
    let values: [String]
    /// For a value that keeps a path as written (``BodyPaths/verbatim(_:)``): that path.
    let verbatim: [String?]

    /// Nil when a key of `pages` is not ASCII.
    init?(_ pages: [String: String]) {
        var keys = ByteKeys(capacity: pages.count)
        var values: [String] = []
        var verbatim: [String?] = []
        values.reserveCapacity(pages.count)
        verbatim.reserveCapacity(pages.count)
        for (key, value) in pages {
            // From the key's contiguous bytes: through the UTF-8 view, testing and copying each
            // key took most of the table's making. Distinct ASCII keys have distinct bytes: each
            // is a new index, the value's.
            var key = key
            let ascii = key.withUTF8 { utf8 in
                guard !utf8.contains(where: { $0 >= 0x80 }) else { return false }
                _ = keys.insert(UnsafeRawBufferPointer(utf8))
                return true
            }
            guard ascii else { return nil }
            values.append(value)
            verbatim.append(value.utf8.first == 1 ? String(BodyPaths.parse(value).path) : nil)
        }
        (self.keys, self.values, self.verbatim) = (keys, values, verbatim)
    }

    /// The index of the key whose bytes are `key`, if any.
    func index(of key: UnsafeRawBufferPointer) -> Int? { keys.index(of: key) }
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
