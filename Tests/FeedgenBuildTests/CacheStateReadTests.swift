import Foundation
import Testing

@testable import FeedgenBuild

/// The state file's second tree, read against the first one (its manifest made from the first
/// tree's with the lines that differ): the same manifest as one made from its own lines.
@Suite struct CacheStateReadTests {
    static func entry(_ n: Int, _ inode: UInt64? = nil) -> ManifestEntry {
        ManifestEntry(hash: UInt64(n) * 7919, key: UInt64(n), size: Int64(n), mtime: 1_700_000_000_000_000_000 + Int64(n), inode: inode ?? UInt64(1000 + n))
    }

    /// Writes two trees (first and second, each an order with its entries, paths maybe twice),
    /// reads them back and checks each manifest against its lines (the last line of a path wins).
    static func expectRead(_ first: [(String, ManifestEntry)], _ second: [(String, ManifestEntry)], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        var state = CacheState()
        for (ino, tree) in [(UInt64(10), first), (UInt64(20), second)] {
            state.orders[ino] = tree.map(\.0)
            state.entries[ino] = tree.map(\.1)
        }
        let path = temporaryFolder("cache-state") + "/state"
        try state.write(path, salt: 42)
        let read = CacheState.read(path, salt: 42)
        for (ino, tree) in [(UInt64(10), first), (UInt64(20), second)] {
            let expected = Dictionary(tree, uniquingKeysWith: { $1 })
            #expect(read.trees[ino] == expected, sourceLocation: sourceLocation)
            #expect(read.orders[ino] == tree.map(\.0), sourceLocation: sourceLocation)
        }
    }

    static let base: [(String, ManifestEntry)] = (0..<200).map { (String(format: "docs/page-%04d/index.html", $0), entry($0)) }

    @Test func samePaths() throws {
        var second = Self.base
        second[17].1 = Self.entry(5000)
        try Self.expectRead(Self.base, Self.base)
        try Self.expectRead(Self.base, second)
    }

    @Test func linesAddedRemovedChangedAndMoved() throws {
        var second = Self.base
        second.insert(("docs/added/index.html", Self.entry(9000)), at: 50)
        second.remove(at: 120)
        second[60].1 = Self.entry(60, 77)  // another inode
        second.append(second.remove(at: 3))  // moved far: not found near its place
        second.insert(("docs/page-0199/index.html", Self.entry(199)), at: 0)  // a path of the first tree, early
        second.removeLast(2)
        try Self.expectRead(Self.base, second)
        try Self.expectRead(second, Self.base)
    }

    @Test func pathTwice() throws {
        var second = Self.base
        second.insert((Self.base[30].0, Self.entry(31)), at: 10)  // also matched later: the later line wins
        try Self.expectRead(Self.base, second)
        var third = Self.base
        third.insert(("docs/new.html", Self.entry(1)), at: 5)
        third.insert(("docs/new.html", Self.entry(2)), at: 90)
        try Self.expectRead(Self.base, third)
        // The first tree with a path twice: the second is made from its own lines.
        try Self.expectRead(second, Self.base)
    }

    @Test func manyLinesDiffer() throws {
        let second = Self.base.enumerated().map { i, line in i % 2 == 0 ? ("other/" + line.0, line.1) : line }
        try Self.expectRead(Self.base, second)
    }
}
