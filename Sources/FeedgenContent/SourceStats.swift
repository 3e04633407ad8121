#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the last build knew about each item file without reading it: the file's `stat`
/// (size, modification and change times, inode, device) and the hash of the bytes it held. A
/// file whose `stat` is unchanged is not read again: that hash, with the file's current place in
/// the site (``ItemCache/key(path:sectionID:fileName:bytesHash:)``), finds its parsed item in the
/// ``ItemCache`` (the build cache's `sources` file beside `items.log`).
///
/// The rule is git's index rule (git's "racy clean" entries): a file changed within the same
/// timestamp tick as it was read could keep its size and times. So an entry is trusted only when
/// the file's modification and change times are more than ``racyMargin`` older than the start of
/// the build that recorded it; a file touched just before or during a build is read and hashed
/// again by the next one. A rename or a replacement changes the inode or the change time.
///
/// File format: `FGSS`, format version (UInt32), salt (UInt64), the recording build's start
/// (Int64, ns since 1970), record count (UInt32), then records `path length (UInt32) · path ·
/// size · mtime · ctime (Int64, ns) · inode · device · bytes hash (UInt64)`, and a ``StableHasher``
/// checksum (UInt64) of everything before it; little-endian. Anything unexpected reads as empty.
final class SourceStats: @unchecked Sendable {
    static let magic: [UInt8] = Array("FGSS".utf8)
    static let formatVersion: UInt32 = 2
    /// Timestamps within this many nanoseconds of the recording build's start are not trusted
    /// (2 s: FAT's modification-time resolution, the coarsest in common use).
    static let racyMargin: Int64 = 2_000_000_000

    struct Entry: Equatable {
        var size: Int64
        var mtime: Int64
        var ctime: Int64
        var inode: UInt64
        var device: UInt64
        /// ``StableHasher/hash(_:)-([UInt8])`` of the file's bytes.
        var bytesHash: UInt64

        init(_ info: stat, bytesHash: UInt64) {
            size = Int64(info.st_size)
            mtime = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            ctime = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
            inode = UInt64(info.st_ino)
            device = UInt64(info.st_dev)
            self.bytesHash = bytesHash
        }

        init(size: Int64, mtime: Int64, ctime: Int64, inode: UInt64, device: UInt64, bytesHash: UInt64) {
            (self.size, self.mtime, self.ctime, self.inode, self.device, self.bytesHash) = (size, mtime, ctime, inode, device, bytesHash)
        }

        func sameFile(as other: Entry) -> Bool {
            size == other.size && mtime == other.mtime && ctime == other.ctime && inode == other.inode
                && device == other.device
        }
    }

    let path: String
    let salt: UInt64
    /// This build's start (ns since 1970), recorded for the next build.
    let start: Int64
    /// The previous build's entries that may be trusted (old enough; see the type's note).
    private let known: [String: Entry]
    private var seen: [String: Entry] = [:]
    private let lock = NSLockish()

    /// Reads the table at `path` (a missing, foreign or damaged file gives an empty table).
    init(path: String, salt: UInt64) {
        self.path = path
        self.salt = salt
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        start = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
        known = Self.read(path, salt: salt)
    }

    /// The hash of the bytes of the file at `relativePath` (absolute path `absolute`) when its
    /// `stat` is what the previous build recorded and old enough to be trusted; else nil.
    func bytesHash(of relativePath: String, absolute: String) -> UInt64? {
        guard let entry = known[relativePath] else { return nil }
        var info = stat()
        guard stat(absolute, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let now = Entry(info, bytesHash: entry.bytesHash)
        guard now.sameFile(as: entry) else { return nil }
        lock.withLock { seen[relativePath] = entry }
        return entry.bytesHash
    }

    /// Records that the file at `relativePath`, whose `stat` was `info` when it was opened,
    /// held bytes whose hash is `bytesHash`.
    func record(_ relativePath: String, _ info: stat, bytesHash: UInt64) {
        let entry = Entry(info, bytesHash: bytesHash)
        lock.withLock { seen[relativePath] = entry }
    }

    /// Writes the entries of this build (files it did not see are dropped). Failures are ignored
    /// (it is a cache).
    func save() {
        let entries = lock.withLock { seen }
        var out = Self.magic
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) } }
        append(Self.formatVersion)
        append(salt)
        append(start)
        append(UInt32(clamping: entries.count))
        for (file, e) in entries.sorted(by: { $0.key < $1.key }) {
            let bytes = Array(file.utf8)
            append(UInt32(clamping: bytes.count))
            out += bytes
            append(e.size)
            append(e.mtime)
            append(e.ctime)
            append(e.inode)
            append(e.device)
            append(e.bytesHash)
        }
        append(StableHasher.hash(out))
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        let written = out.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        if written == out.count { rename(temporary, path) } else { unlink(temporary) }
    }

    /// The trusted entries of the table at `path`.
    static func read(_ path: String, salt: UInt64) -> [String: Entry] {
        guard let file = MappedFile(path: path) else { return [:] }
        let data = file.bytes
        guard data.count >= 36, Array(data[0..<4]) == magic else { return [:] }
        func load<T: FixedWidthInteger>(_: T.Type, _ offset: Int) -> T {
            T(littleEndian: data.loadUnaligned(fromByteOffset: offset, as: T.self))
        }
        let end = data.count - 8
        guard load(UInt32.self, 4) == formatVersion, load(UInt64.self, 8) == salt,
            load(UInt64.self, end) == StableHasher.hash(bytes: UnsafeRawBufferPointer(rebasing: data[0..<end]))
        else { return [:] }
        let trustedBefore = load(Int64.self, 16) - racyMargin
        let count = Int(load(UInt32.self, 24))
        var entries: [String: Entry] = [:]
        entries.reserveCapacity(count)
        var offset = 28
        for _ in 0..<count {
            guard offset + 4 <= end else { return [:] }
            let length = Int(load(UInt32.self, offset))
            offset += 4
            guard length <= end - offset, end - offset - length >= 48 else { return [:] }
            let file = String(decoding: UnsafeRawBufferPointer(rebasing: data[offset..<(offset + length)]), as: UTF8.self)
            offset += length
            let entry = Entry(
                size: load(Int64.self, offset), mtime: load(Int64.self, offset + 8), ctime: load(Int64.self, offset + 16),
                inode: load(UInt64.self, offset + 24), device: load(UInt64.self, offset + 32),
                bytesHash: load(UInt64.self, offset + 40))
            offset += 48
            if entry.mtime < trustedBefore, entry.ctime < trustedBefore { entries[file] = entry }
        }
        return offset == end ? entries : [:]
    }
}
