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
/// record, as before. The same trust as in the item files' `stat` (``SourceStats``).
///
/// File format: `FGLS`, format version (UInt32), then size, mtime, ctime (Int64, ns), inode,
/// device (UInt64), and a ``StableHasher`` checksum (UInt64) of everything before it;
/// little-endian. Anything else (a torn write) reads as no seal.
public enum LogSeal {
    static let magic: [UInt8] = Array("FGLS".utf8)
    static let formatVersion: UInt32 = 1

    /// The seal's path for the log at `path`.
    public static func path(for log: String) -> String { log + ".seal" }

    /// Whether `file`, mapped from the log at `path`, is as the build that sealed it left it.
    public static func holds(_ file: MappedFile, path: String) -> Bool {
        guard let expected = recorded(Self.path(for: path)) else { return false }
        return expected == file.stamp
    }

    /// Seals the log at `path` as it is now (after this build's last write to it). Failures
    /// are ignored: an unsealed log is checked record by record.
    public static func seal(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            unlink(Self.path(for: path))
            return
        }
        let stamp = FileStamp(info)
        let seal = Self.path(for: path)
        if recorded(seal) == stamp { return }
        var out = magic
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) } }
        append(formatVersion)
        append(stamp.size)
        append(stamp.mtime)
        append(stamp.ctime)
        append(stamp.inode)
        append(stamp.device)
        append(StableHasher.hash(out))
        let fd = open(seal, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        let written = out.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        if written != out.count { unlink(seal) }
    }

    /// The stamp a seal file records, or nil.
    static func recorded(_ seal: String) -> FileStamp? {
        let fd = open(seal, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 57)  // one more: a longer file is not a seal
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count == 56, Array(bytes[0..<4]) == magic else { return nil }
        func load<T: FixedWidthInteger>(_: T.Type, _ offset: Int) -> T {
            bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
        }
        guard load(UInt32.self, 4) == formatVersion, load(UInt64.self, 48) == StableHasher.hash(Array(bytes[0..<48])) else {
            return nil
        }
        return FileStamp(
            size: load(Int64.self, 8), mtime: load(Int64.self, 16), ctime: load(Int64.self, 24),
            inode: load(UInt64.self, 32), device: load(UInt64.self, 40))
    }
}
