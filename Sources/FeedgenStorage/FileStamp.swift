/// `FileStamp`: what a file's `stat` says of it, the build cache's test of "unchanged".
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import CFileSystem

/// What a file's `stat` says of it (links followed): a file whose stamp changed may hold other
/// bytes (git's index rule; FeedgenIncremental's `SourceStats`).
public struct FileStamp: Hashable, Sendable {
    public var size: Int64
    /// Modification and status-change times, ns since 1970.
    public var mtime: Int64
    public var ctime: Int64
    public var inode: UInt64
    public var device: UInt64

    public init(size: Int64, mtime: Int64, ctime: Int64, inode: UInt64, device: UInt64) {
        (self.size, self.mtime, self.ctime, self.inode, self.device) = (size, mtime, ctime, inode, device)
    }

    /// The stamp of the file at `path` (links followed), or nil when it cannot be taken.
    public static func of(_ path: String) -> FileStamp? {
        var info = stat()
        return stat(path, &info) == 0 ? FileStamp(info) : nil
    }

    public init(_ info: stat) {
        size = Int64(info.st_size)
        mtime = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        ctime = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        inode = UInt64(info.st_ino)
        device = UInt64(info.st_dev)
    }

    public init(_ stamp: feedgen_file_stamp) {
        (size, mtime, ctime) = (Int64(stamp.size), Int64(stamp.mtime_ns), Int64(stamp.ctime_ns))
        (inode, device) = (UInt64(stamp.inode), UInt64(stamp.device))
    }
}

extension ByteWriter {
    /// size, mtime, ctime (Int64, ns), inode, device (UInt64).
    @inlinable public mutating func stamp(_ s: FileStamp) {
        int(s.size)
        int(s.mtime)
        int(s.ctime)
        u64(s.inode)
        u64(s.device)
    }
}

extension ByteReader {
    /// A stamp written by ``ByteWriter/stamp(_:)``.
    @inlinable public mutating func stamp() -> FileStamp? {
        guard let size = int64(), let mtime = int64(), let ctime = int64(), let inode = u64(), let device = u64() else { return nil }
        return FileStamp(size: size, mtime: mtime, ctime: ctime, inode: inode, device: device)
    }
}
