// The user's entries at the output root (a deploy repository's `.git/`, `CNAME`, `.nojekyll`),
// which survive every build, and the check that stops a build on any other file it did not write.
import CFileSystem
import FeedgenStorage
import Foundation

extension OutputWriter {
    /// Whether a root entry named `name` is the user's when feedgen's manifest does not list it:
    /// a name starting with `.` (but the marker) or `CNAME` (GitHub Pages). Rule: docs/content-format.md.
    static func isUserName(_ name: String) -> Bool {
        (name.hasPrefix(".") && name != markerName) || name == "CNAME"
    }

    /// The root names a manifest's paths use (files and first folders).
    static func rootNames<S: Sequence<String>>(of paths: S) -> Set<String> {
        var names = Set<String>()
        // Most paths share their root name with the one before (`docs/…`): inserted once per run.
        var last: [UInt8]?
        for path in paths {
            var path = path
            let inserted = path.withUTF8 { bytes -> Bool in
                // The bytes before the first `/`, when they and the byte after it are ASCII: then
                // that `/` is a Character of its own (nothing combines with it), where `prefix`
                // stops. Other paths are cut by Character.
                let slash = bytes.firstIndex(of: UInt8(ascii: "/")) ?? bytes.count
                guard bytes[..<min(slash + 2, bytes.count)].allSatisfy({ $0 < 0x80 }) else { return false }
                let name = UnsafeBufferPointer(rebasing: bytes[..<slash])
                if last.map({ !name.elementsEqual($0) }) ?? true {
                    last = Array(name)
                    names.insert(String(decoding: name, as: UTF8.self))
                }
                return true
            }
            if !inserted {
                names.insert(String(path.prefix { $0 != "/" }))
                last = nil
            }
        }
        return names
    }

    /// The user's root entries of the tree at `root`, whose manifest's root names are `owned`.
    static func userEntries(in root: String, owned: Set<String>) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return names.filter { isUserName($0) && !owned.contains($0) }.sorted()
    }

    /// Moves the user's root entries of the tree at `from` (whose manifest's root names are
    /// `owned`) into the tree at `to`, by rename(2), unless `to` has an entry of that name (a
    /// file feedgen writes there wins). Called before anything of `from` is removed.
    static func carryUserEntries(from: String, owned: Set<String>, to: String) {
        for name in userEntries(in: from, owned: owned) {
            var info = stat()
            if lstat(to + "/" + name, &info) == 0 { continue }
            rename(from + "/" + name, to + "/" + name)
        }
    }

    /// The first file or folder (relative path) in `output` that the build which wrote it did
    /// not write (not in its manifest in the build cache), apart from the user's root entries;
    /// nil when there is none or when that manifest is unknown (no cache beside the output).
    public static func strayEntry(output: String) -> String? { examine(output: output).stray }

    /// A tree found exactly as its manifest in the state says (every file's size, modification
    /// time and inode): the files of the other buffer that are hard links of its files need no
    /// stat to be checked (``CacheState/matches(_:_:lines:ignoringUserEntries:vouchedBy:)``).
    public struct VerifiedTree: Sendable {
        /// The tree's folder (standardized) and its inode.
        let root: String
        let inode: UInt64
        /// The state file, its bytes, its trees' lines in them and its stat when it was read
        /// (``CacheState/verified(_:salt:)``).
        let statePath: String
        let state: [UInt8]
        let body: Range<Int>
        let stamp: FileStamp
    }

    /// What one listing of `output` says against the manifest of the build that wrote it:
    /// ``strayEntry(output:)``, and whether the output is exactly as written (every file of the
    /// manifest there with its recorded size, modification time and inode, no other file or
    /// folder but the user's root entries; false when the manifest is unknown), which
    /// ``Session/outputIsAsWritten()`` tells with a listing of its own; `verified`: when it is
    /// and the state's bytes told it, the output as verified.
    public static func examine(output: String) -> (stray: String?, asWritten: Bool, verified: VerifiedTree?) {
        let out = URL(fileURLWithPath: output).standardizedFileURL.path
        guard let ino = Session.inode(out) else { return (nil, false, nil) }
        let statePath = BuildCache.folder(forOutput: out) + "/state"
        // The usual case, the output as written, is told from the state's bytes; any other
        // answer is found the exact way below.
        if let (bytes, body, stamp) = CacheState.verified(statePath, salt: BuildCache.salt),
            bytes[body].withUnsafeBufferPointer({
                feedgen_tree_matches_state(out, $0.baseAddress, $0.count, 1, ino, 1, markerName)
            }) == 1
        {
            // Debug builds (the tests) check the byte comparison's yes against the exact one.
            assert(examineExactly(out, inode: ino, statePath: statePath) == (nil, true), "feedgen_tree_matches_state: \(out)")
            return (nil, true, VerifiedTree(root: out, inode: ino, statePath: statePath, state: bytes, body: body, stamp: stamp))
        }
        let exact = examineExactly(out, inode: ino, statePath: statePath)
        return (exact.stray, exact.asWritten, nil)
    }

    /// ``examine(output:)`` with the manifest read into a dictionary and every listed path
    /// looked up in it (`out`: standardized; `inode`: its inode; `statePath`: the state file).
    private static func examineExactly(_ out: String, inode ino: UInt64, statePath: String) -> (stray: String?, asWritten: Bool) {
        let state = CacheState.read(statePath, salt: BuildCache.salt)
        guard let manifest = state.trees[ino], !manifest.isEmpty else { return (nil, false) }
        var entries: UnsafeMutablePointer<feedgen_tree_entry>?
        var count = 0
        var names: UnsafeMutablePointer<CChar>?
        guard feedgen_list_tree(out, &entries, &count, &names) == 0, let entries, let names else { return (nil, false) }
        defer {
            free(entries)
            free(names)
        }
        let folders = CacheState.folders(of: manifest.keys)
        let owned = rootNames(of: manifest.keys)
        var stray: [String] = []
        var matching = 0
        var differs = false
        for entry in UnsafeBufferPointer(start: entries, count: count) {
            let path = String(
                decoding: UnsafeRawBufferPointer(start: UnsafeRawPointer(names) + entry.path_offset, count: entry.path_length),
                as: UTF8.self)
            let first = String(path.prefix { $0 != "/" })
            if isUserName(first), !owned.contains(first) { continue }
            switch UInt8(bitPattern: entry.type) {
            case UInt8(ascii: "d"):
                if !folders.contains(path) { stray.append(path) }
            case UInt8(ascii: "f"):
                guard let e = manifest[path] else {
                    stray.append(path)
                    continue
                }
                if entry.size == e.size, entry.mtime_ns == e.mtime, entry.inode == e.inode { matching += 1 } else { differs = true }
            default:
                // A link, FIFO or socket, which no build writes.
                differs = true
                if manifest[path] == nil { stray.append(path) }
            }
        }
        return (stray.min(), stray.isEmpty && !differs && matching == manifest.count)
    }

    /// - Throws: ``WriteError`` naming the first user's root entry of `output` (whose build's
    ///   root names are `owned`) that a file of the new build (`paths`) has the name of or is in.
    static func refuseCollision(output: String, owned: Set<String>, paths: [String]) throws {
        let entries = userEntries(in: output, owned: owned)
        guard !entries.isEmpty, let name = entries.first(where: { name in
            paths.contains(name) || paths.contains { $0.hasPrefix(name + "/") }
        }) else { return }
        throw WriteError(
            path: name, message: "this entry of the output folder is not feedgen's, and static/ has a file of that name; move one of them away")
    }
}
