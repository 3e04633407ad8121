/// `OutputWriter.Session`: one build's writing into the back buffer and the atomic exchange with the output.
import CFileSystem
import Dispatch
import FeedgenDiagnostics
import FeedgenContent
import FeedgenEmit
import FeedgenStorage
import Foundation

extension OutputWriter {
    /// One build's writing, double-buffered through the build cache (``BuildCache``).
    ///
    /// The cache keeps the previous build's tree as a back buffer (`<cache>/back`). A session
    /// brings the back buffer to the new build — deleting files that are gone, writing only files
    /// whose bytes differ, leaving unchanged files (and their inodes) alone — and then exchanges it
    /// with the output folder in one `renameat2(RENAME_EXCHANGE)`: at every instant the output
    /// is a complete build, the previous one or the new one. The previous output becomes the next
    /// back buffer.
    ///
    /// Nothing in the cache is trusted unless it checks out: the back buffer is used only when
    /// every file's size, modification time and inode are as its manifest records and it holds
    /// nothing else; else it is rebuilt, by hard-linking the output when the output checks out
    /// (files are always replaced by unlinking first, so a shared inode is never written), or
    /// from nothing. `useCache: false` (`feedgen build --clean`) starts from nothing.
    public final class Session: @unchecked Sendable {
        let output: String
        let cacheFolder: String
        let backPath: String
        private let statePath: String
        private let dirtyPath: String
        private let salt = BuildCache.salt
        /// What the back buffer holds now (changed through ``setBack(_:_:)`` only).
        var back: [String: ManifestEntry]
        /// The order of the back buffer's state lines as it was brought up (empty when unknown).
        private var backOrder: [String] = []
        /// The back buffer's entries as it was brought up, in `backOrder`'s order (empty when unknown).
        let backEntries: [ManifestEntry]
        /// The back buffer's state lines as read (one per entry of `backEntries`), if known.
        let backLines: ArraySlice<UInt8>?
        /// The paths whose entry in `back` changed since it was brought up, while there are few
        /// (nil once there are more): ``keepLive(except:)`` reads `backEntries` by position
        /// only when none of them is a file it keeps.
        var backEdits: [String]? = []
        /// The files of ``order`` that ``keepLive(except:)`` kept by position (their entries
        /// are not in `written`; ``entriesInOrder()``), nil when it did not.
        var keptAt: [Bool]?
        var keptCount = 0
        /// The output folder's manifest (keys of the previous build), empty when unknown.
        let live: [String: ManifestEntry]
        private let liveInode: UInt64?
        /// The root names the output's build wrote (the other dot-files and `CNAME` are the
        /// user's); nil when its manifest is unknown (no cache).
        private let ownedByLive: Set<String>?
        var written: [String: ManifestEntry] = [:]
        /// The new tree's files; left empty when they are the back buffer's (``begin(paths:)``).
        private var paths: Set<String> = []
        /// ``paths``, made on another core when only ``commit()`` needs it (nothing is stale in an empty back buffer).
        private var pathsLater: Background<Set<String>>?
        /// Whether the new tree's files are the back buffer's, each once, in the same order.
        private(set) var backPaths = false
        /// The new tree's files in the order the build gave them (its state lines' order).
        private(set) var order: [String] = []
        /// The output's files in the order of its state lines.
        let liveOrder: [String]
        /// The output's entries in `liveOrder`'s order (empty when unknown).
        let liveEntries: [ManifestEntry]
        /// The output's state lines as read: the output is not changed by a build (it becomes
        /// the next back buffer as it is), so its lines are written back as they were.
        let liveLines: ArraySlice<UInt8>?
        let lock = NSLock()
        /// Files written (the others were already right in the back buffer).
        public internal(set) var writes = 0
        /// How the back buffer was obtained: `kept`, `linked` (from the output) or `new`.
        public let start: String

        /// Prepares the back buffer for a build whose output files are `paths` (relative, `/`).
        public convenience init(output: String, paths: [String], useCache: Bool) throws {
            try self.init(output: output, useCache: useCache)
            try begin(paths: paths)
        }

        /// Opens the cache and brings up a back buffer that checks out against its manifest (the
        /// kept one; else one hard-linked from the output, or an empty one), without applying
        /// the new build's changes yet: this part does not depend on the new build's files, so a
        /// build starts it while it loads its content. ``begin(paths:)`` must follow before any
        /// other use. `verified`: the output as ``OutputWriter/examine(output:)`` found it, if it
        /// was as written: the back buffer's files that are hard links of its files are checked
        /// without a stat.
        public init(output: String, useCache: Bool, verified: VerifiedTree? = nil) throws {
            let fm = FileManager.default
            let outURL = URL(fileURLWithPath: output).standardizedFileURL
            self.output = outURL.path
            let parent = outURL.deletingLastPathComponent().path
            try fm.createDirectory(atPath: parent, withIntermediateDirectories: true)
            recoverAndClean(parent: parent, name: outURL.lastPathComponent)
            cacheFolder = BuildCache.folder(forOutput: output)
            feedgen_set_output_committed(0)
            try fm.createDirectory(atPath: cacheFolder, withIntermediateDirectories: true)
            // Temporary files of killed builds (`state.tmp-<pid>`, `items.log.tmp-<pid>`).
            for entry in (try? fm.contentsOfDirectory(atPath: cacheFolder)) ?? [] {
                guard let range = entry.range(of: ".tmp-"), let pid = Int32(entry[range.upperBound...]) else { continue }
                if kill(pid, 0) != 0 { CacheFile.remove(cacheFolder + "/" + entry) }  // not this build's items.log.tmp
            }
            backPath = cacheFolder + "/back"
            statePath = cacheFolder + "/state"

            dirtyPath = cacheFolder + "/dirty"
            // Read even for `--clean`: which root entries the trees' builds wrote (the others are the user's).
            let known = CacheState.read(statePath, salt: salt, reusing: verified)
            var state = useCache ? known : CacheState()
            // A tree whose changing was interrupted (see below) is not what its manifest says.
            if let bytes = CacheFile.read(dirtyPath) {
                let text = String(decoding: bytes, as: UTF8.self)
                let dirty = UInt64(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
                state.trees[dirty] = nil
                state.lines[dirty] = nil
                state.entries[dirty] = nil
            } else if CacheFile.exists(dirtyPath) {
                state = CacheState()  // something unreadable named `dirty` (a FIFO, a folder): no tree is trusted
            }
            liveInode = Self.inode(self.output)
            let liveManifest = liveInode.flatMap { state.trees[$0] } ?? [:]
            // The user's entries left in the back buffer (by a build killed after its exchange)
            // go back into the output before anything of the back buffer is removed.
            // (A tree's order lists its manifest's paths; the two trees' are usually the same.)
            var backNames: (order: [String], names: Set<String>)?
            if let backInode = Self.inode(backPath), fm.fileExists(atPath: self.output) {
                let order = known.orders[backInode] ?? []
                backNames = (order, OutputWriter.rootNames(of: order))
                OutputWriter.carryUserEntries(from: backPath, owned: backNames!.names, to: self.output)
            }
            self.ownedByLive = liveInode.flatMap { known.orders[$0] }.map { order in
                if let backNames, backNames.order == order { return backNames.names }
                return OutputWriter.rootNames(of: order)
            }
            var back: [String: ManifestEntry]?
            var backEntries: [ManifestEntry] = []
            var backLines: ArraySlice<UInt8>?
            var start = "new"
            // The output's own verification vouches only for this very folder.
            var vouching: VerifiedTree?
            if let verified, verified.root == outURL.path, verified.inode == liveInode { vouching = verified }
            if let ino = Self.inode(backPath), let manifest = state.trees[ino],
                CacheState.matches(backPath, manifest, lines: state.lines[ino], vouchedBy: vouching)
            {
                back = manifest
                backOrder = state.orders[ino] ?? []
                backEntries = state.entries[ino] ?? []
                backLines = state.lines[ino]
                start = "kept"
            } else {
                _ = feedgen_remove_tree(backPath)
                if !liveManifest.isEmpty,
                    CacheState.matches(self.output, liveManifest, lines: liveInode.flatMap { state.lines[$0] }, ignoringUserEntries: true)
                {
                    if feedgen_link_tree(self.output, backPath) == 0 {
                        // Links of the user's entries are not the build's: they stay in the output only.
                        for name in OutputWriter.userEntries(in: backPath, owned: ownedByLive ?? []) {
                            _ = feedgen_remove_tree(backPath + "/" + name)
                        }
                        back = liveManifest
                        backOrder = liveInode.flatMap { state.orders[$0] } ?? []
                        backEntries = liveInode.flatMap { state.entries[$0] } ?? []
                        backLines = liveInode.flatMap { state.lines[$0] }
                        start = "linked"
                        // Recorded at once: a build that writes nothing (a patch build with no
                        // change, a failed build) leaves it for the next build, which keeps it
                        // instead of linking 10,000 files again.
                        if let backInode = Self.inode(backPath), let liveInode {
                            var linked = CacheState()
                            for ino in [liveInode, backInode] {
                                linked.trees[ino] = liveManifest
                                linked.orders[ino] = state.orders[liveInode]
                                linked.lines[ino] = state.lines[liveInode]
                            }
                            try? linked.write(statePath, salt: salt)
                        }
                    } else {
                        _ = feedgen_remove_tree(backPath)
                    }
                }
            }
            if back == nil {
                guard mkdir(backPath, 0o755) == 0 else { throw WriteError(path: backPath, message: String(cString: strerror(errno))) }
            }
            self.back = back ?? [:]
            self.backEntries = backEntries
            self.backLines = backLines
            self.live = liveManifest
            self.liveOrder = liveInode.flatMap { state.orders[$0] } ?? []
            self.liveEntries = liveInode.flatMap { state.entries[$0] } ?? []
            self.liveLines = liveInode.flatMap { state.lines[$0] }
            self.start = start
        }

        /// Starts changing the back buffer for a build whose output files are `paths` (relative,
        /// `/`): deletes what the build does not have and creates the folders it needs.
        public func begin(paths: [String]) throws {
            order = paths + [markerName]
            // The back buffer's files in the same order (a patch build's, usually; its manifest
            // has as many files as its order, so each is there once): nothing of the back buffer
            // is stale, and no Set of 10,000 paths is made.
            backPaths = back.count == backOrder.count && backOrder == order
            if !backPaths {
                let order = order
                if back.isEmpty { pathsLater = Background { Set(order) } } else { self.paths = Set(order) }
            }
            // A file of the build (from static/) named as one of the user's root entries would
            // push that entry out of the output: refused, naming it.
            if let owned = ownedByLive { try OutputWriter.refuseCollision(output: output, owned: owned, paths: order) }
            written.reserveCapacity(order.count)
            // From here until `commit` the back buffer is being changed: `dirty` names it, and a
            // build killed meanwhile leaves it untrusted.
            guard CacheFile.write(Array("\(Self.inode(backPath) ?? 0)\n".utf8), to: dirtyPath) else {
                throw WriteError(path: dirtyPath, message: String(cString: strerror(errno)))
            }
            try removeStale()
        }

        static func inode(_ path: String) -> UInt64? {
            var size: Int64 = 0, mtime: Int64 = 0
            var inode: UInt64 = 0
            return feedgen_file_identity(path, &size, &mtime, &inode) == 0 ? inode : nil
        }

        /// The hash standing for a copied file's bytes: its path, size, time and inode.
        public static func copyHash(_ source: String) -> UInt64 {
            var size: Int64 = 0, mtime: Int64 = 0
            var inode: UInt64 = 0
            var h = StableHasher()
            h.combine(source)
            if feedgen_file_identity(source, &size, &mtime, &inode) == 0 {
                h.combine(Int(size))
                h.combine(Int(mtime))
                h.combine(inode)
            }
            return h.value
        }

        /// Deletes what the new build does not have, then creates the folders it needs.
        private func removeStale() throws {
            var emptied = Set<String>()
            for path in back.keys where !backPaths && !paths.contains(path) {
                if unlink(backPath + "/" + path) != 0, errno != ENOENT {
                    throw WriteError(path: path, message: String(cString: strerror(errno)))
                }
                setBack(path, nil)
                var parts = path.split(separator: "/").dropLast()
                while !parts.isEmpty {
                    emptied.insert(parts.joined(separator: "/"))
                    parts = parts.dropLast()
                }
            }
            for folder in emptied.sorted(by: { $0.count > $1.count }) { rmdir(backPath + "/" + folder) }
            let folders = CacheState.folders(of: order)  // in the build's order: runs of one folder
            for folder in folders.sorted(by: { $0.count < $1.count }) {
                if mkdir(backPath + "/" + folder, 0o755) != 0, errno != EEXIST {
                    throw WriteError(path: folder, message: String(cString: strerror(errno)))
                }
            }
        }

        /// Puts one file of the new build into the back buffer (written only when its bytes,
        /// `hash`, differ from what is there). Safe to call from several threads.
        public func put(_ file: OutputFile, hash: UInt64, key: UInt64) throws {
            let current: ManifestEntry? = lock.withLock { back[file.path] }
            if let current, current.hash == hash {
                var entry = current
                entry.key = key
                lock.withLock { written[file.path] = entry }
                return
            }
            record(file.path, hash: hash, key: key, identity: try write(file))
        }

        /// ``put(_:hash:key:)`` for a file of `size` bytes whose hash `hashing` computes: when
        /// the back buffer has no such file, or one of another size (so other bytes), the file
        /// is written while it is hashed on another thread (a 24 MB feed page: 5-6 ms of
        /// hashing and as much of writing, both on the build's serial tail). - Returns: the hash.
        public func put(_ file: OutputFile, size: Int, key: UInt64, hashing: @escaping @Sendable () -> UInt64) throws -> UInt64 {
            let current: ManifestEntry? = lock.withLock { back[file.path] }
            if let current, current.size == Int64(size) {
                let hash = hashing()
                try put(file, hash: hash, key: key)
                return hash
            }
            let hash = Background(hashing)
            let identity = Result { try write(file) }
            record(file.path, hash: hash.value, key: key, identity: try identity.get())
            return hash.value
        }

        /// Writes `file` into the back buffer. - Throws: ``WriteError``.
        private func write(_ file: OutputFile) throws -> feedgen_identity {
            let path = backPath + "/" + file.path
            var identity = feedgen_identity()
            let status: Int32
            switch file.contents {
            case .text(let text):
                var text = text
                status = text.withUTF8 { feedgen_replace_file(path, $0.baseAddress, $0.count, &identity) }
            case .utf8(let bytes):
                status = bytes.withUnsafeBufferPointer { feedgen_replace_file(path, $0.baseAddress, $0.count, &identity) }
            case .chunks(let chunks):
                status = chunks.withPieces { pieces in
                    var parts = pieces.map { iovec(iov_base: UnsafeMutableRawPointer(mutating: $0.baseAddress), iov_len: $0.count) }
                    return feedgen_replace_file_parts(path, &parts, parts.count, &identity)
                }
            case .copy(let source):
                status =
                    feedgen_replace_with_copy(source, path) == 0
                    ? feedgen_file_identity(path, &identity.size, &identity.mtime_ns, &identity.inode) : -1
            }
            guard status == 0 else {
                throw WriteError(path: file.path, message: String(cString: strerror(errno)), cacheCutShort: errno == EFAULT)
            }
            return identity
        }

        /// Records a file written into the back buffer.
        private func record(_ path: String, hash: UInt64, key: UInt64, identity: feedgen_identity) {
            let entry = ManifestEntry(
                hash: hash, key: key, size: identity.size, mtime: identity.mtime_ns, inode: identity.inode)
            lock.withLock {
                setBack(path, entry)
                written[path] = entry
                writes += 1
            }
        }

        /// Writes the marker, records the new tree's manifest, and exchanges the back buffer with
        /// the output folder. The previous output stays in the cache as the next back buffer.
        public func commit() throws {
            let marker = "This folder is written by feedgen; it is replaced on every build.\n"
            try put(OutputFile(path: markerName, contents: .text(marker)), hash: StableHasher.hash(marker), key: 0)
            let inOrder = lock.withLock { entriesInOrder() }
            if let later = pathsLater { (paths, pathsLater) = (later.value, nil) }
            guard inOrder != nil || written.count == (backPaths ? order.count : paths.count) else {
                let missing = (backPaths ? Set(order) : paths).subtracting(written.keys).sorted().first ?? ""
                throw WriteError(path: missing, message: "not written")
            }
            var state = CacheState()
            if let ino = Self.inode(backPath) { recordNewTree(ino, inOrder, in: &state) }
            if let liveInode, !live.isEmpty {
                state.trees[liveInode] = live
                state.orders[liveInode] = liveOrder
                state.lines[liveInode] = liveLines
            }
            try state.write(statePath, salt: salt)
            CacheFile.remove(dirtyPath)
            let fm = FileManager.default
            // From the exchange on, a log cut short by another process (SIGBUS) no longer stops
            // this build before its output is in place (`feedgen_watch_mapping`).
            guard fm.fileExists(atPath: output) else {
                guard rename(backPath, output) == 0 else { throw WriteError(path: output, message: String(cString: strerror(errno))) }
                feedgen_set_output_committed(1)
                return
            }
            if feedgen_rename_exchange(backPath, output) == 0 {
                feedgen_set_output_committed(1)
                // The previous output is now the back buffer: the user's entries come back.
                OutputWriter.carryUserEntries(from: backPath, owned: ownedByLive ?? [], to: output)
                return
            }
            // No exchange on this file system: two renames; a kill between them leaves the
            // previous output in `.<name>.feedgen-old-<pid>`, which the next build restores.
            let outURL = URL(fileURLWithPath: output)
            let old = outURL.deletingLastPathComponent().appendingPathComponent(
                ".\(outURL.lastPathComponent).feedgen-old-\(ProcessInfo.processInfo.processIdentifier)").path
            guard rename(output, old) == 0 else { throw WriteError(path: output, message: String(cString: strerror(errno))) }
            guard rename(backPath, output) == 0 else {
                let error = WriteError(path: output, message: String(cString: strerror(errno)))
                rename(old, output)
                throw error
            }
            feedgen_set_output_committed(1)
            OutputWriter.carryUserEntries(from: old, owned: ownedByLive ?? [], to: output)
            if rename(old, backPath) != 0 { _ = feedgen_remove_tree(old) }
        }
    }
}
