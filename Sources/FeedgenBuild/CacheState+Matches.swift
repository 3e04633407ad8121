/// Whether a tree on disk is exactly what its manifest in the build cache's state says
/// (`CacheState.matches`): on the state's bytes in C first, then path by path.
import CFileSystem
import Foundation

extension CacheState {
    /// Whether the tree at `root` is exactly what `manifest` describes: the same regular files
    /// with the same sizes, modification times and inodes, and no other files or folders.
    /// `ignoringUserEntries`: the user's root entries (``OutputWriter/isUserName(_:)``) do not count.
    /// `lines`: the manifest's state lines, if known (``lines``): compared first, as bytes.
    /// `verified`: a tree just found as its manifest says (the other buffer), whose files vouch
    /// for their hard links in this one (`feedgen_tree_matches_state_vouched`): those are not
    /// stat'ed, where the file system allows it. The answer is the same.
    static func matches(
        _ root: String, _ manifest: [String: ManifestEntry], lines: ArraySlice<UInt8>? = nil, ignoringUserEntries: Bool = false,
        vouchedBy verified: OutputWriter.VerifiedTree? = nil
    ) -> Bool {
        if let lines, !lines.isEmpty,
            lines.withUnsafeBufferPointer({ own in
                let user: Int32 = ignoringUserEntries ? 1 : 0
                guard let verified else {
                    return feedgen_tree_matches_state(root, own.baseAddress, own.count, 0, 0, user, OutputWriter.markerName)
                }
                return verified.state[verified.body].withUnsafeBufferPointer { trusted in
                    feedgen_tree_matches_state_vouched(
                        root, own.baseAddress, own.count, 0, 0, user, OutputWriter.markerName, verified.root, trusted.baseAddress,
                        trusted.count, verified.inode)
                }
            }) == 1
        {
            // Debug builds (the tests) check the byte comparison's yes against the exact one.
            assert(matches(root, manifest, ignoringUserEntries: ignoringUserEntries), "feedgen_tree_matches_state: \(root)")
            return true
        }
        var entries: UnsafeMutablePointer<feedgen_tree_entry>?
        var count = 0
        var names: UnsafeMutablePointer<CChar>?
        guard feedgen_list_tree(root, &entries, &count, &names) == 0, let entries, let names else { return false }
        defer {
            free(entries)
            free(names)
        }
        let folders = Self.folders(of: manifest.keys)
        let owned = ignoringUserEntries ? OutputWriter.rootNames(of: manifest.keys) : []
        var files = 0
        for entry in UnsafeBufferPointer(start: entries, count: count) {
            let path = String(
                decoding: UnsafeRawBufferPointer(start: UnsafeRawPointer(names) + entry.path_offset, count: entry.path_length),
                as: UTF8.self)
            if ignoringUserEntries {
                let first = String(path.prefix { $0 != "/" })
                if OutputWriter.isUserName(first), !owned.contains(first) { continue }
            }
            switch UInt8(bitPattern: entry.type) {
            case UInt8(ascii: "d"):
                guard folders.contains(path) else { return false }
            case UInt8(ascii: "f"):
                guard let e = manifest[path], entry.size == e.size, entry.mtime_ns == e.mtime, entry.inode == e.inode
                else { return false }
                files += 1
            default: return false
            }
        }
        return files == manifest.count
    }
}
