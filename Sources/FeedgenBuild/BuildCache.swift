import CFileSystem
import FeedgenContent
import FeedgenStorage
import Foundation

/// The hidden folder beside the output that holds feedgen's build cache: for `public` it is `.public.feedgen-cache` in the same parent folder. Never inside the output (it would be deployed).
///
/// What it holds (docs/content-format.md, "Incremental builds and the build cache"):
/// - `back/`: the previous build's output tree (the back buffer), brought up to date by the next
///   build and then exchanged with the output (``OutputWriter/Session``);
/// - `state`: the manifest of every tree feedgen knows (by the inode of its folder): each
///   file's path, content hash, render key, size, modification time and inode; `dirty` names a
///   tree being changed;
/// - `items.log`: parsed items by the hash of their file (FeedgenIncremental's `ItemCache`);
/// - `sources`: each item file's `stat` and the hash of its bytes, so that an unchanged file is
///   not read (`SourceStats`);
/// - `cards.log`: rendered cards and their height estimates by their card key (`CardCache`);
/// - `items.log.seal`, `cards.log.seal`: each log's `stat` as the build that wrote it left it
///   (``LogSeal``): a log that still matches is not checked record by record;
/// - `images/`: image variants (``ImageVariants``; the session leaves it alone);
/// - `lock`: held by the build using the cache (``BuildLock``).
///
/// Its files are read only when they are regular files, without waiting or following a link, and
/// anything else of their names is replaced when written (`CacheFile`); a mapped log that another
/// process truncates ends the build with a clear error (`MappedFile`), not SIGBUS.
///
/// `OutputWriter`'s clean-up of killed builds removes only `.<name>.feedgen-tmp-<pid>` and
/// `.<name>.feedgen-old-<pid>` beside the output and `*.tmp-<pid>` files of dead processes at the
/// top of this folder; deleting the whole folder only makes the next build slower.
public enum BuildCache {
    /// Whether every entry of the cache folder is what a build leaves there: its files
    /// (`state`, `sources`, the logs and their seals, `snapshot`, `lock`, `dirty`) regular files,
    /// `back` and `images` folders, and no temporary file of a killed build. A build that writes
    /// little (a patch) uses the cache only when it is; the usual build repairs anything else.
    package static func isHealthy(cacheFolder folder: String) -> Bool {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return false }
        for name in names {
            var info = stat()
            guard lstat(folder + "/" + name, &info) == 0, !name.contains(".tmp-") else { return false }
            let kind = info.st_mode & S_IFMT
            if kind != (name == "back" || name == "images" ? S_IFDIR : S_IFREG) { return false }
        }
        return true
    }

    /// - Parameter output: the output folder (absolute, or relative to the working directory).
    /// - Returns: the cache folder's absolute path (it may not exist yet).
    public static func folder(forOutput output: String) -> String {
        let url = URL(fileURLWithPath: output).standardizedFileURL
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).feedgen-cache").path
    }

    /// Changes whenever the cache's meaning may change: the format, and the feedgen binary
    /// itself (its size and modification time), so a rebuilt feedgen never trusts old keys.
    package static let salt: UInt64 = {
        var h = StableHasher()
        h.combine("feedgen-cache 1")
        h.combine(FeedgenVersion.string)
        var size: Int64 = 0, mtime: Int64 = 0
        var inode: UInt64 = 0
        if feedgen_file_identity("/proc/self/exe", &size, &mtime, &inode) == 0 {
            // /proc/self/exe is a link: identify its target.
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
                feedgen_file_identity(target, &size, &mtime, &inode) == 0
            {
                h.combine(Int(size))
                h.combine(Int(mtime))
                h.combine(UInt64(inode))
            }
        } else if let path = Bundle.main.executablePath, feedgen_file_identity(path, &size, &mtime, &inode) == 0 {
            h.combine(Int(size))
            h.combine(Int(mtime))
        }
        return h.value
    }()
}

/// The build cache's lock: one build at a time writes a cache and its output. A second build
/// into the same output (two terminals, a watch process and a CI step) waits for the first one
/// instead of failing halfway through the back buffer. An advisory `flock` on `<cache>/lock`,
/// released when the build ends or its process dies (the file itself stays; it is empty).
final class BuildLock: @unchecked Sendable {
    private var fd: Int32 = -1
    private let mutex = NSLock()

    /// Takes the lock of the cache folder `cacheFolder` (created if missing), once per build:
    /// a second call does nothing. When another build holds it, calls `waiting` with a message,
    /// then waits. A cache folder that cannot be created or locked is not locked (the build
    /// then fails or succeeds on its own, as without a lock).
    func acquire(cacheFolder: String, output: String, waiting: ((String) -> Void)?) {
        mutex.withLock {
            guard fd < 0 else { return }
            try? FileManager.default.createDirectory(atPath: cacheFolder, withIntermediateDirectories: true)
            let file = feedgen_open_lock_file(cacheFolder + "/lock")  // a FIFO, folder or link there is replaced
            guard file >= 0 else { return }
            if flock(file, LOCK_EX | LOCK_NB) != 0 {
                guard errno == EWOULDBLOCK else {
                    close(file)
                    return
                }
                waiting?("feedgen: waiting for another feedgen build writing to \(output) to finish\n")
                while flock(file, LOCK_EX) != 0 {
                    guard errno == EINTR else {
                        close(file)
                        return
                    }
                }
            }
            fd = file
        }
    }

    /// Releases the lock (nothing when it is not held).
    func release() {
        mutex.withLock {
            guard fd >= 0 else { return }
            close(fd)  // closing the descriptor releases its flock
            fd = -1
        }
    }

    deinit { release() }
}

/// One file of a tree the cache knows.
struct ManifestEntry: Equatable, Sendable {
    /// Hash of the file's bytes (``StableHasher``).
    var hash: UInt64
    /// Hash of everything the file was rendered from (0: always rendered).
    var key: UInt64
    var size: Int64
    var mtime: Int64
    var inode: UInt64
}

/// The cache's `state` file: a manifest for each tree feedgen wrote, by the inode of the tree's
/// folder (so it stays right whichever name the tree has after an exchange). Written to a
/// temporary file and renamed, ends with a checksum; anything unexpected reads as empty.
struct CacheState {
    var trees: [UInt64: [String: ManifestEntry]] = [:]
    /// The order a tree's lines are written in (the order they were read in, or the build's
    /// files in site order): deterministic without sorting 10,000 paths per tree per build. A
    /// tree without one, or whose order does not list exactly its files, is written in
    /// ``bytewise(_:_:)`` order.
    var orders: [UInt64: [String]] = [:]
    /// A tree's lines as read (every line after its `tree` line, each ending in a line feed):
    /// ``write(_:salt:)`` copies them instead of formatting the tree again. Whoever changes a
    /// tree's manifest or order must drop its lines.
    var lines: [UInt64: ArraySlice<UInt8>] = [:]
    /// A tree's entries in the order of its lines (``orders``), as read: a patch build walks
    /// them by position instead of looking each path up. Whoever changes a tree's manifest or
    /// order must drop them. A tree may also be given by its order and entries alone (no
    /// manifest in ``trees``): ``write(_:salt:)`` writes them as they are.
    var entries: [UInt64: [ManifestEntry]] = [:]

    /// The state file's bytes and where its trees' lines are (between its header and its `end`
    /// line), and its stat when it was opened; nil when it is not one of this salt with its
    /// checksum right.
    static func verified(_ path: String, salt: UInt64) -> (bytes: [UInt8], body: Range<Int>, stamp: FileStamp)? {
        guard let (bytes, stamp) = CacheFile.readStamped(path) else { return nil }
        // The last line is `end <checksum of everything before it>`.
        guard let lastNewline = bytes.dropLast().lastIndex(of: 10) else { return nil }
        let bodyEnd = lastNewline + 1
        let last = String(decoding: bytes[bodyEnd...], as: UTF8.self).trimmingCharacters(in: .newlines)
        let checksum = bytes.withUnsafeBytes { StableHasher.hash(bytes: UnsafeRawBufferPointer(rebasing: $0[..<bodyEnd])) }
        guard last == "end \(checksum)" else { return nil }
        let header = Array("feedgen-cache-state \(salt)\n".utf8)
        guard bytes[..<bodyEnd].starts(with: header) else { return nil }
        return (bytes, header.count..<bodyEnd, stamp)
    }

    /// The state file at `path`. `reusing`: the state's bytes as verified when the output was
    /// examined, parsed instead of reading the file again while it is still that file (the
    /// same stat: a build writes a new state and renames it over the old one).
    static func read(_ path: String, salt: UInt64, reusing known: OutputWriter.VerifiedTree? = nil) -> CacheState {
        // One copy of the file, shared by the parse and by every tree's `lines` (slices of it).
        var info = stat()
        let same = known.map { lstat(path, &info) == 0 && FileStamp(info) == $0.stamp && $0.statePath == path } ?? false
        guard let (bytes, body, _) = same ? known.map({ ($0.state, $0.body, $0.stamp) }) : verified(path, salt: salt) else {
            return CacheState()
        }
        let bodyEnd = body.upperBound
        var state = CacheState()
        let parsed = bytes.withUnsafeBufferPointer { buffer -> Bool in
            var p = body.lowerBound
            let end = bodyEnd
            func number() -> UInt64? {
                var value: UInt64 = 0
                let start = p
                while p < end, buffer[p] >= 48, buffer[p] <= 57 {
                    let (m, o1) = value.multipliedReportingOverflow(by: 10)
                    let (a, o2) = m.addingReportingOverflow(UInt64(buffer[p] - 48))
                    guard !o1, !o2 else { return nil }
                    value = a
                    p += 1
                }
                guard p > start, p < end, buffer[p] == 32 || buffer[p] == 10 else { return nil }
                p += 1
                return value
            }
            var tree: UInt64?
            var order: [String] = []
            var list: [ManifestEntry] = []  // the tree's entries, in order
            var before: [String] = []  // the tree before's paths (``CacheState/path(_:after:_:)``)
            var alignment = Alignment()  // the tree's paths so far against the tree before's
            var beforeIndex: [String: Int] = [:]  // where each path of the tree before is
            var previous: (manifest: [String: ManifestEntry], list: [ManifestEntry])?  // the tree before's
            var linesStart = 0
            func finishTree() {
                guard let tree else { return }
                let sameAsBefore = alignment.inPlace && order.count == before.count && beforeIndex.count != 0
                if !sameAsBefore, let previous,
                    let manifest = Self.manifest(
                        order: order, list: list, alignment: alignment, before: previous.manifest, beforeOrder: before,
                        beforeList: previous.list, beforeIndex: beforeIndex)
                {
                    state.trees[tree] = manifest
                    beforeIndex = [:]  // not this tree's
                } else {
                    // Where each path is (the last line of a path twice), hashed once for two
                    // trees of the same paths: the manifest maps it (keeping its hash table).
                    if !sameAsBefore {
                        beforeIndex = Dictionary(minimumCapacity: order.count)
                        for (i, path) in order.enumerated() { beforeIndex[path] = i }
                    }
                    state.trees[tree] = beforeIndex.mapValues { list[$0] }
                }
                before = order
                previous = (state.trees[tree]!, list)
                state.entries[tree] = list
                state.orders[tree] = order
                state.lines[tree] = bytes[linesStart..<p]
            }
            while p < end {
                if buffer[p] == UInt8(ascii: "t") {  // tree <inode>
                    finishTree()
                    order = []
                    p += 5
                    guard p < end, let ino = number() else { return false }
                    tree = ino
                    // Room for the tree's lines up front.
                    var lines = 0
                    var q = p
                    while q < end, buffer[q] != UInt8(ascii: "t") {
                        guard let newline = memchr(buffer.baseAddress! + q, 10, end - q) else { break }
                        q = buffer.baseAddress!.distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1
                        lines += 1
                    }
                    alignment = Alignment()
                    alignment.matches.reserveCapacity(lines)
                    list = []
                    list.reserveCapacity(lines)
                    order.reserveCapacity(lines)
                    linesStart = p
                    continue
                }
                // hash key size mtime inode path
                guard tree != nil else { return false }
                var numbers: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
                let read = withUnsafeMutableBytes(of: &numbers) {
                    feedgen_state_numbers(buffer.baseAddress! + p, end - p, $0.baseAddress!.assumingMemoryBound(to: UInt64.self), 5)
                }
                guard read > 0 else { return false }
                p += read
                let (hash, key, size, mtime, inode) = numbers
                let start = p
                guard p < end, let newline = memchr(buffer.baseAddress! + p, 10, end - p) else { return false }
                p = buffer.baseAddress!.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                let path = Self.path(UnsafeBufferPointer(rebasing: buffer[start..<p]), after: before, &alignment)
                p += 1
                let entry = ManifestEntry(hash: hash, key: key, size: Int64(size), mtime: Int64(bitPattern: mtime), inode: inode)
                list.append(entry)
                order.append(path)
            }
            finishTree()
            return true
        }
        return parsed ? state : CacheState()
    }

    func write(_ path: String, salt: UInt64) throws {
        var out: [UInt8] = []
        out.reserveCapacity(trees.values.reduce(64) { $0 + $1.count * 96 } + entries.values.reduce(0) { $0 + $1.count * 96 })
        func append(_ text: String) { out.append(contentsOf: text.utf8) }
        func append(_ n: UInt64, _ separator: UInt8 = 32) {
            var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            var count = 0
            var v = n
            withUnsafeMutableBytes(of: &digits) { buffer in
                repeat {
                    buffer[19 - count] = UInt8(48 + v % 10)
                    v /= 10
                    count += 1
                } while v > 0
                out.append(contentsOf: buffer[(20 - count)...])
            }
            out.append(separator)
        }
        append("feedgen-cache-state \(salt)\n")
        for ino in Set(trees.keys).union(entries.keys).sorted() {
            append("tree ")
            append(ino, 10)
            if let raw = self.lines[ino] {
                out.append(contentsOf: raw)
                continue
            }
            let manifest = trees[ino] ?? [:]
            if trees[ino] != nil, let order = orders[ino], order.count == manifest.count, order.count >= 1024,
                let runs = Self.lines(of: order, in: manifest)
            {
                for run in runs { out.append(contentsOf: run) }
                continue
            }
            var lines: [(String, ManifestEntry)] = []
            if trees[ino] == nil, let order = orders[ino], let list = entries[ino], order.count == list.count {
                lines = Array(zip(order, list))
            } else if let order = orders[ino], order.count == manifest.count {
                lines.reserveCapacity(order.count)
                for file in order {
                    guard let e = manifest[file] else { break }
                    lines.append((file, e))
                }
            }
            if trees[ino] != nil, lines.count != manifest.count {
                lines = manifest.sorted(by: { Self.bytewise($0.key, $1.key) })
            }
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 5 * 21) { scratch in
                for (file, e) in lines { Self.appendLine(&out, file, e, scratch: scratch.baseAddress!) }
            }
        }
        append("end \(StableHasher.hash(out))\n")
        let temp = path + ".tmp-\(getpid())"
        guard CacheFile.write(out, to: temp) else {
            let error = OutputWriter.WriteError(path: temp, message: String(cString: strerror(errno)))
            unlink(temp)
            throw error
        }
        guard CacheFile.rename(temp, over: path) else {
            unlink(temp)
            throw OutputWriter.WriteError(path: path, message: String(cString: strerror(errno)))
        }
    }
}
