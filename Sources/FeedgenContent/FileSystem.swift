#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import CFileSystem

/// What a file's `stat` says of it (links followed): a file whose stamp changed may hold other
/// bytes (git's index rule; ``SourceStats``).
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

    init(_ info: stat) {
        size = Int64(info.st_size)
        mtime = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        ctime = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        inode = UInt64(info.st_ino)
        device = UInt64(info.st_dev)
    }

    init(_ stamp: feedgen_file_stamp) {
        (size, mtime, ctime) = (Int64(stamp.size), Int64(stamp.mtime_ns), Int64(stamp.ctime_ns))
        (inode, device) = (UInt64(stamp.inode), UInt64(stamp.device))
    }
}

/// The few POSIX file operations the loader needs. Symbolic links are followed.
enum FileSystem {
    struct Entry {
        var name: String
        var isDirectory: Bool
        /// A symbolic link (followed for `isDirectory`).
        var isLink = false
        /// A symbolic link whose target does not exist (`isDirectory` is then false).
        var isBrokenLink = false
        /// Neither a regular file nor a folder (a FIFO, socket or device, or a link to one): it
        /// cannot be read as content, and the caller reports it.
        var isSpecial = false
        /// The name's bytes are not valid UTF-8: `name` shows them repaired (U+FFFD), so it
        /// cannot be opened by that name, and the caller reports it.
        var hasInvalidName = false
        /// The file's stamp, taken while listing (``list(_:stampFiles:)``); nil for a folder or
        /// when not asked for.
        var stamp: FileStamp?
    }

    /// Identity of a directory, to notice a symbolic-link loop.
    struct NodeID: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// Kind of what is at `path`, following links; nil when nothing is there.
    static func isDirectory(_ path: String) -> Bool? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (info.st_mode & S_IFMT) == S_IFDIR
    }

    static func exists(_ path: String) -> Bool { isDirectory(path) != nil }

    static func isFile(_ path: String) -> Bool { isDirectory(path) == false }

    static func nodeID(_ path: String) -> NodeID? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return NodeID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// The entries of a directory (without `.` and `..`), sorted by name byte-wise; nil when
    /// it cannot be read. Entries that are neither files nor directories are left out; broken
    /// symbolic links are kept, marked `isBrokenLink`, so that the caller can say so.
    static func list(_ path: String) -> [Entry]? { list(path, stampFiles: false)?.entries }

    /// ``list(_:)``, with the folder's own identity and, with `stampFiles`, each file's
    /// ``FileStamp`` (stat'ed relative to the open folder: no file's path is looked up again).
    static func list(_ path: String, stampFiles: Bool) -> (entries: [Entry], folder: NodeID)? {
        var folder = feedgen_file_stamp()
        var list: UnsafeMutablePointer<feedgen_folder_entry>?
        var count = 0
        var names: UnsafeMutablePointer<CChar>?
        guard feedgen_list_folder(path, stampFiles ? 1 : 0, &folder, &list, &count, &names) == 0 else { return nil }
        defer {
            free(list)
            free(names)
        }
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        for k in 0..<count {
            let e = list![k]
            let bytes = UnsafeRawBufferPointer(start: UnsafeRawPointer(e.name), count: e.name_length)
            let name = String(decoding: bytes, as: UTF8.self)
            let isLink = e.is_link != 0
            var entry: Entry
            switch UInt8(bitPattern: e.kind) {
            case UInt8(ascii: "d"): entry = Entry(name: name, isDirectory: true, isLink: isLink)
            case UInt8(ascii: "b"): entry = Entry(name: name, isDirectory: false, isLink: true, isBrokenLink: true)
            case UInt8(ascii: "o"): entry = Entry(name: name, isDirectory: false, isLink: isLink, isSpecial: true)
            default:
                entry = Entry(name: name, isDirectory: false, isLink: isLink, stamp: e.has_stamp != 0 ? FileStamp(e.stamp) : nil)
            }
            entry.hasInvalidName = !name.utf8.elementsEqual(bytes)
            entries.append(entry)
        }
        return (entries, NodeID(device: UInt64(folder.device), inode: UInt64(folder.inode)))
    }

    /// The text of a symbolic link (its target as written), or nil.
    static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Why the process may not read the file at `path` (the `strerror` text of `access(R_OK)`,
    /// e.g. "Permission denied"), or nil when it may.
    static func unreadable(_ path: String) -> String? {
        access(path, R_OK) == 0 ? nil : String(cString: strerror(errno))
    }

    /// The whole file, or the `strerror` text of the failure.
    static func readFile(_ path: String, limit: Int = Limits.maxFileSize, regularOnly: Bool = true) -> Result<[UInt8], ReadError> {
        var info = stat()
        return readFile(path, limit: limit, regularOnly: regularOnly, info: &info)
    }

    /// Reads the file at `path`; `info` receives its `fstat` as opened (before reading).
    ///
    /// With `regularOnly` (a site's own files), anything but a regular file is a failure, found
    /// without waiting: opening a FIFO for reading would block until a writer came (a FIFO named
    /// `feedgen.yaml` or `Templates/cards/card.mustache` hung the build). Without it (files named
    /// on the command line, such as `--data <(…)`), pipes are read to their end.
    static func readFile(
        _ path: String, limit: Int = Limits.maxFileSize, regularOnly: Bool = true, info: inout stat
    ) -> Result<[UInt8], ReadError> {
        let fd = open(path, O_RDONLY | O_CLOEXEC | (regularOnly ? O_NONBLOCK : 0))
        guard fd >= 0 else { return .failure(ReadError(message: String(cString: strerror(errno)))) }
        defer { close(fd) }
        var capacity = 4096
        let described = fstat(fd, &info) == 0
        if regularOnly, !described || (info.st_mode & S_IFMT) != S_IFREG {
            return .failure(ReadError(message: "not a regular file (a FIFO, socket or device)"))
        }
        if described, info.st_size > 0 { capacity = Int(info.st_size) + 1 }
        if Int(info.st_size) > limit {
            return .failure(
                ReadError(message: "the file is \(Int(info.st_size)) bytes, over the limit of \(Limits.maxFileSize >> 20) MiB"))
        }
        var bytes = [UInt8](repeating: 0, count: capacity)
        var count = 0
        while true {
            if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: bytes.count)) }
            let n = bytes.withUnsafeMutableBytes { buffer in
                read(fd, buffer.baseAddress! + count, buffer.count - count)
            }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(ReadError(message: String(cString: strerror(errno))))
            }
            if n == 0 { break }
            count += n
            if count > limit {
                return .failure(ReadError(message: "the file is over the limit of \(limit >> 20) MiB"))
            }
        }
        bytes.removeSubrange(count...)
        return .success(bytes)
    }

    struct ReadError: Error {
        var message: String
    }

    /// The canonical path (symbolic links resolved), or nil.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The current directory (for a relative site root).
    static func currentDirectory() -> String {
        guard let cwd = getcwd(nil, 0) else { return "." }
        defer { free(cwd) }
        return String(cString: cwd)
    }

    /// `path` made absolute and normalised (no `.`/`..` segments, no trailing `/`), without
    /// resolving symbolic links.
    static func absolute(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : currentDirectory() + "/" + path
        var parts: [Substring] = []
        for part in full.split(separator: "/") {
            if part == "." { continue }
            if part == ".." {
                _ = parts.popLast()
                continue
            }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }
}

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
    static func open(_ path: String) -> (fd: Int32, stamp: FileStamp)? {
        var info = feedgen_file_stamp()
        let fd = feedgen_open_regular(path, &info)
        return fd >= 0 ? (fd, FileStamp(info)) : nil
    }

    /// The bytes of the regular file at `path`; nil when there is none (or it cannot be read).
    public static func read(_ path: String) -> [UInt8]? {
        var buffer: UnsafeMutablePointer<CChar>?
        var length = 0
        guard feedgen_read_regular(path, &buffer, &length) == 0, let buffer else { return nil }
        defer { free(buffer) }
        return [UInt8](UnsafeRawBufferPointer(start: buffer, count: length))
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
