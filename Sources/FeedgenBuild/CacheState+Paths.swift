/// `CacheState`'s paths and lines: a path of the state file read as the String of the tree
/// before when it is the same, a tree's manifest made from the tree before's, the folders of paths, their byte order, and a tree's lines made
/// from another tree's where they are the same.
import CFileSystem
import FeedgenStorage
import Foundation

extension CacheState {
    /// Where the tree being read stands against the tree before it in the state: the live and
    /// back trees are mostly the same files in the same order (a few added, removed or changed).
    struct Alignment {
        /// The index in the tree before where this tree's next path is looked for first.
        var cursor = 0
        /// For each line so far: the index of its path in the tree before, or -1.
        var matches: [Int] = []
        /// Whether every line so far is the tree before's line of the same index.
        var inPlace = true
        /// Lines whose path was not found.
        var unmatched = 0
    }

    /// The next line's path, `text`: the tree before's String (`list`) when it is one of its next
    /// few paths (10,000 Strings fewer to make and free), else a new String; `a` records which.
    static func path(_ text: UnsafeBufferPointer<UInt8>, after list: [String], _ a: inout Alignment) -> String {
        let line = a.matches.count
        for k in a.cursor..<min(list.count, a.cursor + 8) {
            guard list[k].utf8.count == text.count,
                list[k].utf8.withContiguousStorageIfAvailable({ text.isEmpty || memcmp($0.baseAddress!, text.baseAddress!, text.count) == 0 })
                    ?? false
            else { continue }
            a.matches.append(k)
            a.inPlace = a.inPlace && k == line
            a.cursor = k + 1
            return list[k]
        }
        a.matches.append(-1)
        a.inPlace = false
        a.unmatched += 1
        return String(decoding: text, as: UTF8.self)
    }

    /// The manifest of a tree (`order`, `list`, aligned as `a` says) read after the tree
    /// `before` (its paths `beforeOrder`, each once, at the indexes `beforeIndex` gives, and its
    /// entries `beforeList`): `before` with the lines that differ applied, rather than 10,000
    /// paths hashed again. Nil when many lines are not the tree before's or a path is here twice
    /// (then the manifest is made from the lines).
    static func manifest(
        order: [String], list: [ManifestEntry], alignment a: Alignment, before: [String: ManifestEntry], beforeOrder: [String],
        beforeList: [ManifestEntry], beforeIndex: [String: Int]
    ) -> [String: ManifestEntry]? {
        guard a.unmatched <= 256, beforeIndex.count == beforeOrder.count, before.count == beforeOrder.count,
            beforeList.count == beforeOrder.count
        else { return nil }
        // Matched lines have distinct paths (their indexes increase); an unmatched one must be
        // neither one of them nor another unmatched one.
        var matched = [Bool](repeating: false, count: beforeOrder.count)
        for m in a.matches where m >= 0 { matched[m] = true }
        var added = Set<String>()
        for (i, m) in a.matches.enumerated() where m < 0 {
            if let j = beforeIndex[order[i]], matched[j] { return nil }
            if !added.insert(order[i]).inserted { return nil }
        }
        var manifest = before
        for j in beforeOrder.indices where !matched[j] { manifest[beforeOrder[j]] = nil }
        for (i, m) in a.matches.enumerated() where m < 0 || list[i] != beforeList[m] { manifest[order[i]] = list[i] }
        return manifest
    }

    /// Appends the state line of `file` with `e` to `out` (`scratch`: room for 5 × 21 bytes).
    static func appendLine(_ out: inout [UInt8], _ file: String, _ e: ManifestEntry, scratch: UnsafeMutablePointer<UInt8>) {
        // The numbers of a line formatted in C (five per line, 10,000 lines a tree).
        var numbers = (e.hash, e.key, UInt64(clamping: e.size), UInt64(bitPattern: e.mtime), e.inode)
        let count = withUnsafeBytes(of: &numbers) { feedgen_format_numbers($0.baseAddress!.assumingMemoryBound(to: UInt64.self), 5, scratch) }
        out.append(contentsOf: UnsafeBufferPointer(start: scratch, count: count))
        out.append(contentsOf: file.utf8)
        out.append(10)
    }

    /// The state lines of `order`'s files with their entries in `manifest` (``appendLine``'s,
    /// in order), made on every core in runs (a new build's tree: 100,000 lines of numbers);
    /// nil when a file has no entry.
    static func lines(of order: [String], in manifest: [String: ManifestEntry]) -> [[UInt8]]? {
        let runs = min(order.count, 16)
        let made: [[UInt8]?] = parallelMap(runs) { run in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 5 * 21) { scratch in
                var out: [UInt8] = []
                out.reserveCapacity((order.count / runs + 1) * 96)
                for i in (order.count * run / runs)..<(order.count * (run + 1) / runs) {
                    guard let e = manifest[order[i]] else { return nil }
                    appendLine(&out, order[i], e, scratch: scratch.baseAddress!)
                }
                return out
            }
        }
        return made.contains { $0 == nil } ? nil : made.map { $0! }
    }

    /// The state lines of a tree whose files are `order` with `entries`: line `i` of `source`
    /// (the lines of a tree with a file of the same name at each position) copied where
    /// `reuse(i)` says its entry is `entries[i]` and its path's bytes are `order[i]`'s, the
    /// others formatted. Nil when `source` has fewer lines.
    static func lines(
        of order: [String], _ entries: [ManifestEntry], reusing source: ArraySlice<UInt8>, where reuse: (Int) -> Bool
    ) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(source.count + 4096)
        return source.withUnsafeBufferPointer { lines -> [UInt8]? in
            guard let base = lines.baseAddress else { return order.isEmpty ? [] : nil }
            var p = 0
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 5 * 21) { scratch -> [UInt8]? in
                for i in order.indices {
                    guard p < lines.count, let newline = memchr(base + p, 10, lines.count - p) else { return nil }
                    let next = base.distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1
                    // The line ends with the path after a space (numbers hold none); a path with
                    // the same name but other bytes (another normalization) is formatted.
                    var copied = false
                    if reuse(i) {
                        var path = order[i]
                        copied = path.withUTF8 { bytes in
                            let n = bytes.count
                            let start = next - 1 - n
                            guard start > p, lines[start - 1] == 32 else { return false }
                            return n == 0 || memcmp(base + start, bytes.baseAddress!, n) == 0
                        }
                    }
                    if copied {
                        out.append(contentsOf: UnsafeBufferPointer(rebasing: lines[p..<next]))
                    } else {
                        appendLine(&out, order[i], entries[i], scratch: scratch.baseAddress!)
                    }
                    p = next
                }
                return out
            }
        }
    }

    /// Every folder that holds one of `paths` (relative, `/`-separated), with its ancestors
    /// (each file's folder is split only the first time it is seen: most files share one).
    static func folders<S: Sequence<String>>(of paths: S) -> Set<String> {
        var parents = Set<String>()
        // Paths come in runs of one folder: each run is inserted once. Found and compared as
        // bytes (a String's generic `lastIndex` and `!=` cost hundreds of instructions a path).
        var last: [UInt8] = []
        for var path in paths {
            path.withUTF8 { bytes in
                guard let base = bytes.baseAddress, let length = bytes.lastIndex(of: UInt8(ascii: "/")) else { return }
                let same = length == last.count && last.withUnsafeBufferPointer { length == 0 || memcmp($0.baseAddress!, base, length) == 0 }
                guard !same else { return }
                let parent = UnsafeBufferPointer(rebasing: bytes[..<length])
                parents.insert(String(decoding: parent, as: UTF8.self))
                last = Array(parent)
            }
        }
        var folders = Set<String>()
        for parent in parents {
            var folder = Substring(parent)
            while folders.insert(String(folder)).inserted, let slash = folder.lastIndex(of: "/") {
                folder = folder[..<slash]
            }
        }
        return folders
    }

    /// Whether `a` comes before `b` in the order of their UTF-8 bytes: a deterministic order
    /// for the file's lines, cheaper than String's Unicode-aware `<` for 100,000 paths.
    static func bytewise(_ a: String, _ b: String) -> Bool {
        var a = a
        var b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let common = min(x.count, y.count)
                let order = common == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, common)
                return order != 0 ? order < 0 : x.count < y.count
            }
        }
    }
}
