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
/// File format: `FGLS`, format version (UInt32), then size, mtime, ctime (Int64, ns), inode,
/// device (UInt64), and a ``StableHasher`` checksum (UInt64) of everything before it;
/// little-endian. Anything else (a torn write, a FIFO or folder of that name) reads as no seal.
public enum LogSeal {
    static let magic: [UInt8] = Array("FGLS".utf8)
    static let formatVersion: UInt32 = 1
    /// The longest ``settle()`` waits for the clock (a Linux tick is 1-10 ms; a file system
    /// with coarser times leaves its seals racy).
    static let settleLimit: Int64 = 20_000_000

    /// The seal's path for the log at `path`.
    public static func path(for log: String) -> String { log + ".seal" }

    /// Whether `file`, mapped from the log at `path`, is as the build that sealed it left it,
    /// and the seal is not racy.
    public static func holds(_ file: MappedFile, path: String) -> Bool {
        guard let (expected, sealed) = recorded(Self.path(for: path)) else { return false }
        return expected == file.stamp && !isRacy(expected, sealedAt: sealed)
    }

    /// Whether a seal written at `sealedAt` (the seal file's modification time, ns) of a log
    /// whose stat was `stamp` cannot be trusted: a time of the log is not strictly earlier.
    static func isRacy(_ stamp: FileStamp, sealedAt: Int64) -> Bool {
        stamp.ctime >= sealedAt || stamp.mtime >= sealedAt
    }

    /// Seals written by this process that were racy when written, by seal path, with the
    /// stamp they record (``settle()``).
    private static let racy = Mutex<[String: FileStamp]>([:])

    /// Seals the log at `path` as it is now (after this build's last write to it). Failures
    /// are ignored: an unsealed log is checked record by record. A racy seal is settled by the
    /// next ``settle()`` unless `settling` is false (for tests).
    public static func seal(_ path: String, settling: Bool = true) {
        var info = stat()
        let seal = Self.path(for: path)
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            CacheFile.remove(seal)
            return
        }
        let stamp = FileStamp(info)
        if let (recordedStamp, sealedAt) = recorded(seal), recordedStamp == stamp {
            if settling, isRacy(stamp, sealedAt: sealedAt) { racy.withLock { $0[seal] = stamp } }
            return
        }
        var writer = ByteWriter()
        writer.raw(magic)
        writer.u32(formatVersion)
        writer.stamp(stamp)
        writer.u64(StableHasher.hash(writer.bytes))
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
                guard utimensat(AT_FDCWD, seal, nil, AT_SYMLINK_NOFOLLOW) == 0, let (_, sealedAt) = recorded(seal) else { break }
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

    /// The stamp a seal file records and the seal file's modification time (ns), or nil.
    static func recorded(_ seal: String) -> (FileStamp, sealedAt: Int64)? {
        guard let (fd, sealStamp) = CacheFile.open(seal) else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 57)  // one more: a longer file is not a seal
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count == 56, Array(bytes[0..<4]) == magic else { return nil }
        return bytes.withUnsafeBytes { buffer in
            var reader = ByteReader(bytes: buffer, offset: 4, end: 56)
            guard reader.u32() == formatVersion, let stamp = reader.stamp(), reader.u64() == StableHasher.hash(Array(bytes[0..<48]))
            else { return nil }
            return (stamp, sealStamp.mtime)
        }
    }
}
