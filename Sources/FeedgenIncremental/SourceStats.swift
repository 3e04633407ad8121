import FeedgenContent
import FeedgenStorage
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the last build knew about each item file without reading it: the file's `stat`
/// (size, modification and change times, inode, device) and the hash of the bytes it held. A
/// file whose `stat` is unchanged is not read again: that hash, with the file's current place in
/// the site (the load's key of the file), finds its parsed item in
/// the ``ItemCache`` (the build cache's `sources` file beside `items.log`).
///
/// The stats compared are the ones the content scanner took while listing each folder
/// (``FileStamp``, stat'ed relative to the open folder), so an unchanged file costs no path
/// lookup. Records are kept in the order of the content plan's item files, and the next build
/// meets them in the same order: each file is matched to the record at its own position by
/// comparing the path's bytes, and only a file added, removed or moved makes the table look the
/// others up by path (``match(_:)``).
///
/// The rule is git's index rule (git's "racy clean" entries): a file changed within the same
/// timestamp tick as it was read could keep its size and times. So an entry is trusted only when
/// the file's modification and change times are more than ``racyMargin`` older than the start of
/// the build that recorded it; a file touched just before or during a build is read and hashed
/// again by the next one. A rename or a replacement changes the inode or the change time.
///
/// File format: `FGSS`, format version (UInt32), salt (UInt64), the recording build's start
/// (Int64, ns since 1970), record count (UInt32), then records `path length (UInt32) · path ·
/// size · mtime · ctime (Int64, ns) · inode · device · bytes hash (UInt64)` in content-plan order,
/// and a ``StableHasher`` checksum (UInt64) of everything before it; little-endian. Anything
/// unexpected reads as empty.
final class SourceStats: @unchecked Sendable {
    static let magic: [UInt8] = Array("FGSS".utf8)
    static let formatVersion: UInt32 = 3
    /// Timestamps within this many nanoseconds of the recording build's start are not trusted
    /// (2 s: FAT's modification-time resolution, the coarsest in common use).
    static let racyMargin: Int64 = 2_000_000_000

    struct Entry: Equatable {
        var stamp: FileStamp
        /// ``StableHasher/hash(_:)-([UInt8])`` of the file's bytes.
        var bytesHash: UInt64
    }

    /// An item file of this build: its section folder (site-relative) and its name below it.
    typealias File = ParsedItemFile

    /// A record of the previous build's table.
    private struct Record {
        /// The path's bytes in ``table``.
        var pathOffset: Int
        var pathLength: Int
        var entry: Entry
        /// Old enough to be trusted (see the type's note).
        var trusted: Bool
    }

    let path: String
    let salt: UInt64
    /// This build's start (ns since 1970), recorded for the next build.
    let start: Int64
    /// The previous build's table (mapped) and its records, in its order.
    private let table: MappedFile?
    private let records: [Record]
    /// Whether some record may be trusted: only then is it worth stamping files while listing.
    let hasTrustedEntries: Bool

    /// This build's item files (``match(_:)``), the index of each one's record (-1: none) and
    /// what this build learnt of it. Each slot of `seen` is written by the one job that handles
    /// its file, so the parallel jobs need no lock.
    private var files: [File] = []
    private var matched: [Int32] = []
    private var seen: UnsafeMutableBufferPointer<Entry?> = .init(start: nil, count: 0)

    /// Reads the table at `path` (a missing, foreign or damaged file gives an empty table).
    init(path: String, salt: UInt64) {
        self.path = path
        self.salt = salt
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        start = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
        let table = MappedFile(path: path)
        self.table = table
        records = table.map { Self.read($0.bytes, salt: salt) } ?? []
        hasTrustedEntries = records.contains { $0.trusted }
    }

    deinit { seen.deallocate() }

    /// Meets this build's item files, in content-plan order, with the previous build's records:
    /// a file's record is expected at the file's own position (shifted by the files added or
    /// removed before it); anywhere else it is found by the hash of its path. Call before
    /// ``bytesHash(file:stamp:)`` and ``record(file:_:bytesHash:)``, from one thread.
    func match(_ files: [File]) {
        self.files = files
        seen.deallocate()
        seen = .allocate(capacity: files.count)
        seen.initialize(repeating: nil)
        matched = [Int32](repeating: -1, count: files.count)
        guard !records.isEmpty, let bytes = table?.bytes else { return }
        var byPath: [UInt64: Int32]?
        var shift = 0
        for (k, file) in files.enumerated() {
            let guess = k + shift
            if guess < records.count, Self.path(of: records[guess], in: bytes, is: file) {
                matched[k] = Int32(guess)
                continue
            }
            if byPath == nil {
                var index: [UInt64: Int32] = [:]
                index.reserveCapacity(records.count)
                for (r, record) in records.enumerated() {
                    let hash = StableHasher.hash(bytes: Self.pathBytes(of: record, in: bytes))
                    if index[hash] == nil { index[hash] = Int32(r) }
                }
                byPath = index
            }
            var joined = file.folder + "/" + file.name
            let hash = joined.withUTF8 { StableHasher.hash(bytes: UnsafeRawBufferPointer($0)) }
            if let r = byPath?[hash], Self.path(of: records[Int(r)], in: bytes, is: file) {
                matched[k] = r
                shift = Int(r) - k
            }
        }
    }

    private static func pathBytes(of record: Record, in bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[record.pathOffset..<(record.pathOffset + record.pathLength)])
    }

    /// Whether the record's path is `folder/name`.
    private static func path(of record: Record, in bytes: UnsafeRawBufferPointer, is file: File) -> Bool {
        var folder = file.folder
        var name = file.name
        return folder.withUTF8 { folder in
            name.withUTF8 { name in
                guard record.pathLength == folder.count + 1 + name.count else { return false }
                let path = pathBytes(of: record, in: bytes)
                return memcmp(path.baseAddress!, folder.baseAddress!, folder.count) == 0
                    && path[folder.count] == UInt8(ascii: "/")
                    && (name.isEmpty || memcmp(path.baseAddress! + folder.count + 1, name.baseAddress!, name.count) == 0)
            }
        }
    }

    /// The hash of the bytes of item file number `file` (of ``match(_:)``) when `stamp`, its
    /// stat as listed, is what the previous build recorded and old enough to be trusted; else nil.
    func bytesHash(file: Int, stamp: FileStamp?) -> UInt64? {
        guard let stamp, file < matched.count, matched[file] >= 0 else { return nil }
        let record = records[Int(matched[file])]
        guard record.trusted, record.entry.stamp == stamp else { return nil }
        seen[file] = record.entry
        return record.entry.bytesHash
    }

    /// Records that item file number `file`, whose `stat` was `stamp` when it was opened, held
    /// bytes whose hash is `bytesHash`.
    func record(file: Int, stamp: FileStamp, bytesHash: UInt64) {
        guard file < seen.count else { return }
        seen[file] = Entry(stamp: stamp, bytesHash: bytesHash)
    }

    /// Writes the entries of this build, in content-plan order (files it did not see are
    /// dropped). Failures are ignored (it is a cache).
    func save() {
        var count = 0
        for case .some in seen { count += 1 }
        var out = ByteWriter()
        out.bytes.reserveCapacity(48 + count * 96)
        out.raw(Self.magic)
        out.u32(Self.formatVersion)
        out.u64(salt)
        out.int(start)
        out.u32(UInt32(clamping: count))
        for (k, file) in files.enumerated() {
            guard let e = seen[k] else { continue }
            let folder = file.folder.utf8
            let name = file.name.utf8
            out.u32(UInt32(clamping: folder.count + 1 + name.count))
            out.raw(folder)
            out.byte(UInt8(ascii: "/"))
            out.raw(name)
            out.stamp(e.stamp)
            out.u64(e.bytesHash)
        }
        out.u64(StableHasher.hash(out.bytes))
        let temporary = path + ".tmp-\(getpid())"
        if !CacheFile.write(out.bytes, to: temporary) || !CacheFile.rename(temporary, over: path) { unlink(temporary) }
    }

    /// The records of a table, in its order (none when anything is unexpected).
    private static func read(_ data: UnsafeRawBufferPointer, salt: UInt64) -> [Record] {
        guard data.count >= 36, Array(data[0..<4]) == magic else { return [] }
        let end = data.count - 8
        var reader = ByteReader(bytes: data, offset: 4, end: end)
        var tail = ByteReader(bytes: data, offset: end)
        guard reader.u32() == formatVersion, reader.u64() == salt,
            tail.u64() == StableHasher.hash(bytes: UnsafeRawBufferPointer(rebasing: data[0..<end])),
            let recordedStart = reader.int64(), let count = reader.u32().map(Int.init)
        else { return [] }
        let trustedBefore = recordedStart - racyMargin
        var records: [Record] = []
        records.reserveCapacity(min(count, end / 52))
        for _ in 0..<count {
            guard let length = reader.u32().map(Int.init) else { return [] }
            let pathOffset = reader.offset
            guard reader.raw(length) != nil, let stamp = reader.stamp(), let bytesHash = reader.u64() else { return [] }
            records.append(
                Record(
                    pathOffset: pathOffset, pathLength: length, entry: Entry(stamp: stamp, bytesHash: bytesHash),
                    trusted: stamp.mtime < trustedBefore && stamp.ctime < trustedBefore))
        }
        return reader.offset == end ? records : []
    }
}
