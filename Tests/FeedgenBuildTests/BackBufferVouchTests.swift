import CFileSystem
import Foundation
import Testing

@testable import FeedgenBuild

/// The back buffer's check when the output was just verified: its files that are hard links of
/// the output's are not stat'ed (`feedgen_tree_matches_state_vouched`), yet every change to a
/// back-buffer file that a stat would see is still seen.
@Suite struct BackBufferVouchTests {
    typealias Incremental = IncrementalBuildTests

    /// A site built twice (both buffers filled, sharing their unchanged files): the site, the
    /// output, and the back buffer.
    static func builtTwice() throws -> (site: String, out: String, back: String) {
        let site = try Incremental.makeSite()
        let out = URL(fileURLWithPath: site + "/../public").standardizedFileURL.path
        #expect(Incremental.build(site, out).exitStatus == 0)
        #expect(Incremental.build(site, out).exitStatus == 0)
        return (site, out, BuildCache.folder(forOutput: out) + "/back")
    }

    /// Whether the back buffer checks out against its manifest, with the output verified first
    /// (as a build does) vouching for its files; `exact`: the same check, every file stat'ed.
    static func backMatches(_ out: String, _ back: String) throws -> (vouched: Bool, exact: Bool) {
        let verified = try #require(OutputWriter.examine(output: out).verified)
        let state = CacheState.read(BuildCache.folder(forOutput: out) + "/state", salt: BuildCache.salt)
        let ino = try #require(OutputWriter.Session.inode(back))
        let manifest = try #require(state.trees[ino])
        return (
            CacheState.matches(back, manifest, lines: state.lines[ino], vouchedBy: verified),
            CacheState.matches(back, manifest)
        )
    }

    static func inode(_ path: String) -> UInt64 { OutputWriter.Session.inode(path) ?? 0 }

    @Test func untouchedBackBufferIsKept() throws {
        let (_, out, back) = try Self.builtTwice()
        #expect(Self.inode(back + "/news/item-01.html") == Self.inode(out + "/news/item-01.html"))
        #expect(try Self.backMatches(out, back) == (true, true))
    }

    /// The last build changed a page: the back buffer's copy is its own inode (the output's is
    /// another), so no verified file vouches for it and an edit in place is seen.
    @Test func backFileOfItsOwnInodeChangedInPlaceIsSeen() throws {
        let (site, out, back) = try Self.builtTwice()
        try Incremental.replace(site, "content/news/item-04.md", "Body of item 4", "Changed")
        #expect(Incremental.build(site, out).exitStatus == 0)
        let page = back + "/news/item-04.html"
        #expect(Self.inode(page) != Self.inode(out + "/news/item-04.html"))
        #expect(try Self.backMatches(out, back) == (true, true))
        // Same size, other bytes; the source goes back to what the back buffer's page was made
        // from, so a back buffer wrongly kept would keep the edited bytes.
        let text = try String(contentsOfFile: page, encoding: .utf8)
        try text.replacingOccurrences(of: "Item 4", with: "Item X").write(toFile: page, atomically: false, encoding: .utf8)
        #expect(try Self.backMatches(out, back) == (false, false))
        try Incremental.replace(site, "content/news/item-04.md", "Changed", "Body of item 4")
        #expect(Incremental.build(site, out).exitStatus == 0)
        let clean = site + "/../clean"
        #expect(Incremental.build(site, clean, useCache: false).exitStatus == 0)
        #expect(Incremental.tree(out) == Incremental.tree(clean))
    }

    /// A back-buffer file replaced by another inode (the same bytes copied, or a hard link of
    /// another file of the output, which the output's verification vouches for) is seen.
    @Test func backFileReplacedByAnotherInodeIsSeen() throws {
        let (_, out, back) = try Self.builtTwice()
        let page = back + "/news/item-01.html"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: page))
        try FileManager.default.removeItem(atPath: page)
        try bytes.write(to: URL(fileURLWithPath: page))
        #expect(try Self.backMatches(out, back) == (false, false))

        let (_, out2, back2) = try Self.builtTwice()
        let page2 = back2 + "/news/item-01.html"
        try FileManager.default.removeItem(atPath: page2)
        #expect(link(out2 + "/news/item-02.html", page2) == 0)
        #expect(try Self.backMatches(out2, back2) == (false, false))
    }

    /// The session parses the state's bytes the examination read while the state file is still
    /// that file, and reads it again once a build has replaced it.
    @Test func examinedStateIsReusedOnlyWhileUnchanged() throws {
        let (site, out, _) = try Self.builtTwice()
        let statePath = BuildCache.folder(forOutput: out) + "/state"
        let verified = try #require(OutputWriter.examine(output: out).verified)
        let before = CacheState.read(statePath, salt: BuildCache.salt)
        #expect(CacheState.read(statePath, salt: BuildCache.salt, reusing: verified).trees == before.trees)
        try Incremental.replace(site, "content/news/item-04.md", "Body of item 4", "Changed")
        #expect(Incremental.build(site, out).exitStatus == 0)
        let after = CacheState.read(statePath, salt: BuildCache.salt)
        #expect(after.trees != before.trees)
        #expect(CacheState.read(statePath, salt: BuildCache.salt, reusing: verified).trees == after.trees)
    }
}
