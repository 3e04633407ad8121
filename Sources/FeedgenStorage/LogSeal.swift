import CFileSystem
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The seal of a build-cache log (`items.log`, `cards.log`): the log's `stat` (size,
/// modification and change times, inode, device) as the build that last wrote it left it, kept
/// in `<log>.seal`. A log whose `stat` still equals its seal holds the bytes that build wrote:
/// any write, truncation, replacement or `touch` changes its size, a time or its inode. Its
/// records' checksums are then not checked again (for a 10,000-card feed page that was hashing
/// 24 MB of cached cards on every build); a log without a matching seal is checked record by
/// record, as before. The same trust as in the item files' `stat` (FeedgenIncremental's
/// `SourceStats`).
///
/// Racy seals (git's "racy clean" rule): a file system stamps times from a clock that moves in
/// ticks (a few ms on Linux; 1 s or 2 s on some), so a change of the log that keeps its size,
/// made within the tick of its last write, would leave its stat as the seal records it. A seal
/// is therefore trusted only when the seal file's own modification time is strictly later than
/// the log's recorded modification and change times: every change after the seal was written
/// then shows in the log's times. A racy seal makes the next build check every record (and seal
/// the log again when they all hold). So that this is rare, a build ends by ``settle()``: it
/// waits (at most ``settleLimit``) for the clock to pass the racy seals' times, checks that
/// their logs are still as sealed, and touches the seals.
///
/// A seal also holds the log's ``Index`` (each record's key and length), written when the log
/// is sealed, so that a build opens a log that still matches its seal without reading every
/// record's header from it (``sealedIndex(_:path:)``).
///
/// File format: `FGLS`, format version (UInt32), then size, mtime, ctime (Int64, ns), inode,
/// device (UInt64), the index's record count (UInt64; all ones: no index), the index's
/// ``StableHasher`` checksum (UInt64), and a checksum (UInt64) of everything before it; then
/// the index: the records' keys (UInt64 each), then their payloads' lengths (UInt32 each);
/// little-endian. Anything else (a torn write, a FIFO or folder of that name) reads as no seal;
/// a seal whose index is short, longer, or fails its checksum, as a seal without an index.
public enum LogSeal {
    static let magic: [UInt8] = Array("FGLS".utf8)
    static let formatVersion: UInt32 = 2
    /// The header's size in bytes (the index follows it).
    static let headerSize = 72
    /// The record count that says the seal holds no index.
    static let noIndex = UInt64.max
    /// The longest ``settle()`` waits for the clock (a Linux tick is 1-10 ms; a file system
    /// with coarser times leaves its seals racy).
    static let settleLimit: Int64 = 20_000_000

    /// The seal's path for the log at `path`.
    public static func path(for log: String) -> String { log + ".seal" }

    /// Whether `file`, mapped from the log at `path`, is as the build that sealed it left it,
    /// and the seal is not racy.
    public static func holds(_ file: MappedFile, path: String) -> Bool {
        recorded(Self.path(for: path)).map { holds($0, file) } ?? false
    }

    /// Whether a seal whose header is `header` seals `file` as it is, and is not racy.
    private static func holds(_ header: Header, _ file: MappedFile) -> Bool {
        header.stamp == file.stamp && !isRacy(header.stamp, sealedAt: header.sealedAt)
    }

    /// The records of a log, in the log's order, superseded ones included: record `i` has the
    /// key `keys[i]` and a payload of `lengths[i]` bytes, and starts where record `i - 1` ends
    /// (the first right after the log's 16-byte header).
    public struct Index: Sendable, Equatable {
        public var keys: [UInt64]
        public var lengths: [UInt32]

        public init(keys: [UInt64] = [], lengths: [UInt32] = []) { (self.keys, self.lengths) = (keys, lengths) }

        /// Adds a record of `key` with a payload of `length` bytes.
        public mutating func add(_ key: UInt64, length: Int) {
            keys.append(key)
            lengths.append(UInt32(length))
        }
    }

    /// ``holds(_:path:)``, and when the seal holds, the index it holds (nil: none, or one that
    /// is short, longer or fails its checksum).
    public static func sealedIndex(_ file: MappedFile, path: String) -> (holds: Bool, index: Index?) {
        let seal = Self.path(for: path)
        guard let (fd, sealStamp) = CacheFile.open(seal) else { return (false, nil) }
        defer { close(fd) }
        guard let header = header(fd, sealStamp), holds(header, file) else { return (false, nil) }
        guard header.entries != noIndex, header.entries <= UInt64(Int32.max), sealStamp.size == Int64(headerSize) + 12 * Int64(header.entries)
        else { return (true, nil) }
        let n = Int(header.entries)
        guard let keys = read(UInt64.self, n, fd, at: headerSize), let lengths = read(UInt32.self, n, fd, at: headerSize + 8 * n)
        else { return (true, nil) }
        let index = Index(keys: keys, lengths: lengths)
        return (true, checksum(index) == header.indexChecksum ? index : nil)
    }

    /// `count` little-endian integers read from `fd` at `offset`, straight into the array; nil
    /// when the file ends first.
    private static func read<T: FixedWidthInteger>(_: T.Type, _ count: Int, _ fd: Int32, at offset: Int) -> [T]? {
        var whole = false
        let values = [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            let bytes = UnsafeMutableRawBufferPointer(buffer)
            var done = 0
            while done < bytes.count {
                let got = pread(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
                if got < 0, errno == EINTR { continue }
                guard got > 0 else { break }
                done += got
            }
            whole = done == bytes.count
            guard whole else { return }
            for i in 0..<count { buffer[i] = T(littleEndian: buffer[i]) }
            initialized = count
        }
        return whole ? values : nil
    }

    /// The checksum of `index` as written (its keys' bytes, then its lengths').
    static func checksum(_ index: Index) -> UInt64 {
        #if _endian(little)
            // The arrays' bytes are the bytes written.
            return index.keys.withUnsafeBytes { keys in index.lengths.withUnsafeBytes { StableHasher.hash(pieces: [keys, $0]) } }
        #else
            var out = ByteWriter()
            append(index, to: &out)
            return StableHasher.hash(out.bytes)
        #endif
    }

    /// The index's bytes as written: its keys, then its lengths (little-endian).
    static func append(_ index: Index, to out: inout ByteWriter) {
        #if _endian(little)
            index.keys.withUnsafeBytes { out.bytes.append(contentsOf: $0) }
            index.lengths.withUnsafeBytes { out.bytes.append(contentsOf: $0) }
        #else
            for key in index.keys { out.u64(key) }
            for length in index.lengths { out.u32(length) }
        #endif
    }

    /// Whether a seal written at `sealedAt` (the seal file's modification time, ns) of a log
    /// whose stat was `stamp` cannot be trusted: a time of the log is not strictly earlier.
    static func isRacy(_ stamp: FileStamp, sealedAt: Int64) -> Bool {
        stamp.ctime >= sealedAt || stamp.mtime >= sealedAt
    }

    /// Seals written by this process that were racy when written, by seal path, with the
    /// stamp they record (``settle()``).
    private static let racy = Mutex<[String: FileStamp]>([:])

    /// Seals the log at `path` as it is now (after this build's last write to it), with the
    /// index `index` gives for the log as its stat is (nil: none). Failures are ignored: an
    /// unsealed log is checked record by record. A racy seal is settled by the next
    /// ``settle()`` unless `settling` is false (for tests). A seal that records the log's stat
    /// already is kept as it is (unless it has no index and `index` may give one).
    public static func seal(_ path: String, settling: Bool = true, index: ((FileStamp) -> Index?)? = nil) {
        var info = stat()
        let seal = Self.path(for: path)
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            CacheFile.remove(seal)
            return
        }
        let stamp = FileStamp(info)
        if let header = recorded(seal), header.stamp == stamp, index == nil || header.entries != noIndex {
            if settling, isRacy(stamp, sealedAt: header.sealedAt) { racy.withLock { $0[seal] = stamp } }
            return
        }
        let made = index?(stamp)
        var writer = ByteWriter()
        writer.bytes.reserveCapacity(headerSize + 12 * (made?.keys.count ?? 0))
        writer.raw(magic)
        writer.u32(formatVersion)
        writer.stamp(stamp)
        writer.u64(made.map { UInt64($0.keys.count) } ?? noIndex)
        writer.u64(made.map(checksum) ?? 0)
        writer.u64(StableHasher.hash(writer.bytes))
        if let made { append(made, to: &writer) }
        let out = writer.bytes
        let fd = CacheFile.create(seal)
        guard fd >= 0 else { return }
        let written = out.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        var sealInfo = stat()
        let sealStat = fstat(fd, &sealInfo)
        close(fd)
        if written != out.count {
            unlink(seal)
        } else if settling, sealStat != 0 || isRacy(stamp, sealedAt: FileStamp(sealInfo).mtime) {
            racy.withLock { $0[seal] = stamp }
        }
    }

    /// Makes this process's racy seals trustworthy when it can: waits (at most ``settleLimit``)
    /// until touching a seal gives it a modification time strictly later than its log's
    /// times, then keeps the seal only if the log's stat is still the one sealed (a change
    /// after that check would show in the log's times). A seal that stays racy is left as it
    /// is (the next build checks its log). Call at the end of a build, after its last seal.
    /// - Returns: how many seals were racy, and how long this waited (ns; `FEEDGEN_TIMING`).
    @discardableResult
    public static func settle() -> (racy: Int, waited: Int64) {
        let pending = racy.withLock { racy in
            defer { racy = [:] }
            return racy
        }
        guard !pending.isEmpty else { return (0, 0) }
        let started = now()
        let deadline = started + settleLimit
        for (seal, stamp) in pending.sorted(by: { $0.key < $1.key }) {
            while true {
                guard utimensat(AT_FDCWD, seal, nil, AT_SYMLINK_NOFOLLOW) == 0, let sealedAt = recorded(seal)?.sealedAt else { break }
                if !isRacy(stamp, sealedAt: sealedAt) {
                    // The clock is past the log's times: the log must still be as sealed.
                    var info = stat()
                    let log = String(seal.dropLast(".seal".count))
                    if lstat(log, &info) != 0 || FileStamp(info) != stamp { unlink(seal) }
                    break
                }
                guard now() < deadline else { break }
                usleep(500)
            }
        }
        return (pending.count, now() - started)
    }

    private static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// What a seal file's header records, and the seal file's modification time (ns).
    struct Header {
        var stamp: FileStamp
        /// The index's record count (``noIndex``: none) and checksum.
        var entries: UInt64
        var indexChecksum: UInt64
        var sealedAt: Int64
    }

    /// The header of the seal file at `seal`, or nil.
    static func recorded(_ seal: String) -> Header? {
        guard let (fd, sealStamp) = CacheFile.open(seal) else { return nil }
        defer { close(fd) }
        return header(fd, sealStamp)
    }

    /// The header of the seal file open at `fd` whose stat is `sealStamp`, or nil.
    private static func header(_ fd: Int32, _ sealStamp: FileStamp) -> Header? {
        var bytes = [UInt8](repeating: 0, count: headerSize)
        let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count == headerSize, sealStamp.size >= Int64(headerSize), Array(bytes[0..<4]) == magic else { return nil }
        return bytes.withUnsafeBytes { buffer in
            var reader = ByteReader(bytes: buffer, offset: 4, end: headerSize)
            guard reader.u32() == formatVersion, let stamp = reader.stamp(), let entries = reader.u64(), let indexChecksum = reader.u64(),
                reader.u64() == StableHasher.hash(Array(bytes[0..<(headerSize - 8)]))
            else { return nil }
            return Header(stamp: stamp, entries: entries, indexChecksum: indexChecksum, sealedAt: sealStamp.mtime)
        }
    }
}
