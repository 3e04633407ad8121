/// `OutputWriter.Session`'s view of the live output (the previous build): its files, their
/// hashes, whether it is as written, which pages the two buffers already hold (`current`), and
/// carrying its unchanged files into the new build.

import FeedgenStorage
import Foundation
import CFileSystem

extension OutputWriter.Session {
    /// For each file (`path`, rendered from inputs whose hash is `key`; 0 for none): when it
    /// is already in the back buffer (so it need not be rendered), its content hash, and the
    /// file is recorded as kept; else nil. The back buffer's own key, or the output's key for
    /// the same bytes, must match; a file whose key only the output's manifest has (the
    /// back buffer holding the bytes of the build before) is linked from the output
    /// (``adoptLive(_:)``). One acquisition of the lock for all of them.
    public func current(_ files: [(path: String, key: UInt64)]) -> [UInt64?] {
        var fromLive: [(index: Int, path: String, entry: ManifestEntry)] = []
        var found: [UInt64?] = lock.withLock {
            files.indices.map { i in
                let (path, key) = files[i]
                guard key != 0 else { return nil }
                guard let b = back[path], b.key == key || (live[path].map { $0.key == key && $0.hash == b.hash } ?? false) else {
                    if let l = live[path], l.key == key { fromLive.append((i, path, l)) }
                    return nil
                }
                var entry = b
                entry.key = key
                written[path] = entry
                return b.hash
            }
        }
        for file in fromLive where adoptLive(file.path, file.entry) { found[file.index] = file.entry.hash }
        return found
    }

    /// The output's files (the previous build's), in the order of its state lines, without
    /// the marker; empty when the output's manifest is unknown.
    public var livePaths: [String] { live.isEmpty ? [] : liveOrder.filter { $0 != OutputWriter.markerName } }

    /// The content hash the output's manifest records for `path`, if any.
    public func liveHash(_ path: String) -> UInt64? { live[path]?.hash }

    /// Whether the output is as its last build wrote it: every file of its manifest there
    /// with the recorded stamp, no other file but the user's root entries. False when the
    /// manifest is unknown. A build that would write nothing checks it, so that a page
    /// deleted or edited by hand is written again (content-format §build cache).
    public func outputIsAsWritten() -> Bool {
        !live.isEmpty && CacheState.matches(output, live, lines: liveLines, ignoringUserEntries: true)
    }

    /// The output's file at `path`, mapped, when it is as the output's manifest records it
    /// (same size, modification time and inode), so that its bytes hash to
    /// ``liveHash(_:)``; else nil.
    public func mapLive(_ path: String) -> MappedFile? {
        guard let entry = live[path], let file = MappedFile(path: output + "/" + path) else { return nil }
        let stamp = file.stamp
        guard stamp.size == entry.size, stamp.mtime == entry.mtime, stamp.inode == entry.inode else { return nil }
        return file
    }

    /// Puts the output's file at `path` (the previous build's, `entry` in its manifest) into the
    /// new build, hard-linked into the back buffer (as ``keepLive(except:)`` does), when it is
    /// as the manifest records it. - Returns: whether it did; else the back buffer has no file
    /// at `path` that the build could take for the right one (it renders and writes it).
    func adoptLive(_ path: String, _ entry: ManifestEntry) -> Bool {
        guard Self.isFile(output + "/" + path, as: entry) else { return false }
        let target = backPath + "/" + path
        guard unlink(target) == 0 || errno == ENOENT else { return false }
        guard link(output + "/" + path, target) == 0 else {
            lock.withLock { setBack(path, nil) }  // unlinked: nothing there now
            return false
        }
        lock.withLock {
            setBack(path, entry)
            written[path] = entry
            writes += 1
        }
        return true
    }

    /// Whether the file at `path` has the size, modification time and inode of `entry`.
    fileprivate static func isFile(_ path: String, as entry: ManifestEntry) -> Bool {
        var size: Int64 = 0, mtime: Int64 = 0
        var inode: UInt64 = 0
        guard feedgen_file_identity(path, &size, &mtime, &inode) == 0 else { return false }
        return size == entry.size && mtime == entry.mtime && inode == entry.inode
    }

    /// Puts every file of the output (the previous build) but `except` into the new build
    /// unchanged, with its key: kept where the back buffer has the same bytes, else
    /// hard-linked from the output (files are replaced by unlinking first, so the shared
    /// inode is never written). ``begin(paths:)`` must have been given the output's paths.
    ///
    /// - Returns: false, having put nothing more, when an output file to link is not as the
    ///   output's manifest records it (changed by hand: its bytes are unknown).
    public func keepLive(except: Set<String>) throws -> Bool {
        // One pass under the lock: the files whose bytes the back buffer has are recorded
        // with the output's keys; the others are linked after it.
        var linked: [(String, ManifestEntry)] = []
        let complete = lock.withLock { () -> Bool in
            written.reserveCapacity(liveOrder.count)
            func keep(_ path: String, _ entry: ManifestEntry) {
                if var b = back[path], b.hash == entry.hash {
                    b.key = entry.key
                    written[path] = b
                } else {
                    linked.append((path, entry))
                }
            }
            if let kept = keepByPosition(except: except, keep) { return kept }
            // The order lists the manifest's paths (read from the same lines) when it has as
            // many: the manifest is walked then, saving a look-up a file. (Which order the
            // files are kept in changes nothing.)
            if live.count == liveOrder.count {
                for (path, entry) in live where path != OutputWriter.markerName && !except.contains(path) { keep(path, entry) }
                return true
            }
            for path in liveOrder where path != OutputWriter.markerName && !except.contains(path) {
                guard let entry = live[path] else { return false }
                keep(path, entry)
            }
            return true
        }
        guard complete, linked.allSatisfy({ Self.isFile(output + "/" + $0.0, as: $0.1) }) else { return false }
        for (path, entry) in linked {
            let target = backPath + "/" + path
            if unlink(target) != 0, errno != ENOENT { throw OutputWriter.WriteError(path: path, message: String(cString: strerror(errno))) }
            guard link(output + "/" + path, target) == 0 else {
                throw OutputWriter.WriteError(path: path, message: String(cString: strerror(errno)))
            }
            lock.withLock {
                setBack(path, entry)
                written[path] = entry
                writes += 1
            }
        }
        return true
    }

    /// ``keepLive(except:)``'s pass when the output's, the back buffer's and the new tree's
    /// files are the same paths in the same order (a patch build's), each once, and `back`
    /// changed only at `except` since it was brought up: the two manifests' entries are then
    /// compared by position, without looking a path up, and the files whose bytes the back
    /// buffer has are marked in ``keptAt`` (not put in `written`). Calls `keep` for the other
    /// files; nil (having done nothing) when the trees are not so. With the lock held.
    private func keepByPosition(except: Set<String>, _ keep: (String, ManifestEntry) -> Void) -> Bool? {
        let order = self.order
        guard keptAt == nil, let edits = backEdits, edits.allSatisfy({ except.contains($0) }), order.last == OutputWriter.markerName,
            liveEntries.count == order.count, backEntries.count == order.count, live.count == order.count,
            back.count == order.count, backPaths, liveOrder == order
        else { return nil }
        // Only a file with the content hash of one of `except` can be one of them (each is in
        // the output's manifest, else at no position).
        let exceptHashes = except.compactMap { live[$0]?.hash }
        var kept = [Bool](repeating: false, count: order.count)
        var count = 0
        // The marker (last) is the build's own.
        for i in 0..<(order.count - 1) {
            let (l, b) = (liveEntries[i], backEntries[i])
            if exceptHashes.contains(l.hash), except.contains(order[i]) { continue }
            if b.hash == l.hash {
                kept[i] = true
                count += 1
            } else {
                keep(order[i], l)
            }
        }
        (keptAt, keptCount) = (kept, count)
        return true
    }

    /// The new tree's entries in ``order`` when ``keepByPosition(except:_:)`` kept files: a
    /// kept file's is the back buffer's with the output's key, any other's is in `written`;
    /// and which files were kept. Nil when not so; then the kept files are put in `written`
    /// (where nothing was put for them since), as ``keepLive(except:)`` puts them otherwise.
    /// With the lock held.
    func entriesInOrder() -> (entries: [ManifestEntry], kept: [Bool])? {
        guard let kept = keptAt else { return nil }
        keptAt = nil
        // Each file is kept or in `written`, not both, when their counts add up (each of
        // `order`'s paths once; `written` holds only its paths).
        if keptCount + written.count == order.count {
            var list: [ManifestEntry] = []
            list.reserveCapacity(order.count)
            for i in order.indices {
                if kept[i] {
                    var entry = backEntries[i]
                    entry.key = liveEntries[i].key
                    list.append(entry)
                } else if let entry = written[order[i]] {
                    list.append(entry)
                } else {
                    break
                }
            }
            if list.count == order.count { return (list, kept) }
        }
        for i in order.indices where kept[i] && written[order[i]] == nil {
            var entry = backEntries[i]
            entry.key = liveEntries[i].key
            written[order[i]] = entry
        }
        return nil
    }

    /// Whether ``current(_:)`` can find no file to keep: the back buffer and the output's
    /// manifest are empty (a clean build's; asked before this build puts anything).
    var keepsNothing: Bool { lock.withLock { back.isEmpty && live.isEmpty } }

    /// Records the new tree (the back buffer, `ino`) in `state`: by its entries in order when
    /// ``entriesInOrder()`` gave them (`inOrder`), else by `written`.
    func recordNewTree(_ ino: UInt64, _ inOrder: (entries: [ManifestEntry], kept: [Bool])?, in state: inout CacheState) {
        state.orders[ino] = order
        guard let (entries, kept) = inOrder else {
            state.trees[ino] = written
            return
        }
        state.entries[ino] = entries
        // A file kept with the back buffer's key has its line there.
        if let backLines,
            let lines = CacheState.lines(of: order, entries, reusing: backLines, where: { kept[$0] && backEntries[$0].key == liveEntries[$0].key })
        {
            state.lines[ino] = lines[...]
        }
    }

    /// `back[path] = entry`, noted in ``backEdits`` (with the lock held, or before the
    /// session is shared).
    func setBack(_ path: String, _ entry: ManifestEntry?) {
        back[path] = entry
        if backEdits != nil {
            if backEdits!.count < 64 { backEdits!.append(path) } else { backEdits = nil }
        }
    }
}
