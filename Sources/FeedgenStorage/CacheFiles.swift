/// `MappedFile` (a file mapped read-only) and `CacheFile` (the build cache's small files).
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import CFileSystem


/// A whole file mapped read-only into memory (`mmap`), for the build cache's logs: no copy and
/// no zero-filled buffer, pages come from the page cache as they are touched. feedgen never
/// truncates or rewrites a mapped log in place (it appends, or renames a new file over it), so
/// the mapping stays valid while it is held. Only a regular file is mapped (``CacheFile/open(_:)``:
/// a FIFO, folder or link of that name reads as no file). Another process that truncates the
/// file while it is mapped makes reading it fault (SIGBUS): the mapping is watched
/// (`feedgen_watch_mapping`), and the process then ends with a clear error (exit 1) instead of a
/// crash.
public final class MappedFile: @unchecked Sendable {
    /// The file's bytes (empty for an empty file).
    public let bytes: UnsafeRawBufferPointer
    /// The file's `stat` when it was mapped.
    public let stamp: FileStamp
    /// The SIGBUS watch's slot (-1: none).
    private let watch: Int32

    /// Maps the regular file at `path`; nil when it cannot be opened or mapped, or is not a
    /// regular file.
    public init?(path: String) {
        var info = feedgen_file_stamp()
        let fd = feedgen_open_regular(path, &info)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        stamp = FileStamp(info)
        let size = Int(info.size)
        if size == 0 {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            watch = -1
            return
        }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else { return nil }
        bytes = UnsafeRawBufferPointer(start: address, count: size)
        watch = feedgen_watch_mapping(address, size, path)
    }

    deinit {
        feedgen_unwatch_mapping(watch)
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }
}

/// The build cache's small files (`state`, `dirty`, `sources`, the logs' seals and temporary
/// files), opened so that something else put in place of one of them — a FIFO, a socket, a
/// folder, a symbolic link — never blocks a build nor is written through: it reads as no file,
/// and writing replaces it by a regular file (docs/content-format.md, "Incremental builds and
/// the build cache").
public enum CacheFile {
    /// The regular file at `path` opened for reading (a descriptor, -1 for anything else), and
    /// its stat.
    public static func open(_ path: String) -> (fd: Int32, stamp: FileStamp)? {
        var info = feedgen_file_stamp()
        let fd = feedgen_open_regular(path, &info)
        return fd >= 0 ? (fd, FileStamp(info)) : nil
    }

    /// The bytes of the regular file at `path`; nil when there is none (or it cannot be read).
    public static func read(_ path: String) -> [UInt8]? { readStamped(path)?.bytes }

    /// ``read(_:)``, with the stat of the file read (taken when it was opened).
    public static func readStamped(_ path: String) -> (bytes: [UInt8], stamp: FileStamp)? {
        guard let (fd, stamp) = open(path) else { return nil }
        defer { close(fd) }
        // Read straight into the array, one byte more than its size to see it end: a copy from
        // a second buffer would touch (and fault in) every page of a snapshot twice.
        var failed = false
        func readInto(_ buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
            var count = 0
            while count < buffer.count {
                #if canImport(Glibc)
                    let n = Glibc.read(fd, buffer.baseAddress! + count, buffer.count - count)
                #else
                    let n = Darwin.read(fd, buffer.baseAddress! + count, buffer.count - count)
                #endif
                if n < 0 {
                    if errno == EINTR { continue }
                    failed = true
                    return count
                }
                if n == 0 { break }
                count += n
            }
            return count
        }
        let capacity = max(0, Int(stamp.size)) + 1
        var bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in count = readInto(buffer) }
        // A file that grew since its stat: the rest, in pieces (a short piece is its end).
        if !failed, bytes.count == capacity {
            while true {
                let more = [UInt8](unsafeUninitializedCapacity: 65536) { buffer, count in count = readInto(buffer) }
                bytes += more
                if failed || more.count < 65536 { break }
            }
        }
        return failed ? nil : (bytes, stamp)
    }

    /// A new, empty regular file at `path` opened for writing, whatever was there removed first;
    /// -1 on failure (errno set).
    public static func create(_ path: String) -> Int32 { feedgen_create_regular(path) }

    /// Writes `bytes` as a new regular file at `path` (whatever was there is removed first).
    /// - Returns: whether it was written whole (errno set when not).
    @discardableResult
    public static func write(_ bytes: [UInt8], to path: String) -> Bool {
        bytes.withUnsafeBytes { feedgen_write_regular(path, $0.baseAddress, $0.count) } == 0
    }

    /// Writes `pieces`, one after another, as a new regular file at `path`, as ``write(_:to:)``
    /// (no joined copy of them made).
    /// - Returns: whether it was written whole (errno set when not).
    @discardableResult
    public static func write(_ pieces: [ArraySlice<UInt8>], to path: String) -> Bool {
        let fd = create(path)
        guard fd >= 0 else { return false }
        var written = true
        for piece in pieces where written {
            written = piece.withUnsafeBytes { feedgen_write_all(fd, $0.baseAddress?.assumingMemoryBound(to: CChar.self), $0.count) } == 0
        }
        let saved = errno
        if close(fd) != 0, written { return false }
        errno = saved
        return written
    }

    /// Renames `from` over `to`, removing a folder in the way. - Returns: whether it was renamed.
    @discardableResult
    public static func rename(_ from: String, over to: String) -> Bool { feedgen_rename_over(from, to) == 0 }

    /// Whether anything is at `path` (a link is not followed; true when it cannot be told).
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 || errno != ENOENT
    }

    /// Removes whatever is at `path` (a folder with its contents). - Returns: whether nothing is
    /// there now.
    @discardableResult
    public static func remove(_ path: String) -> Bool { feedgen_remove_any(path) == 0 }
}
