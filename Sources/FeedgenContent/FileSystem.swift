/// `FileSystem`: the POSIX listing and reading the content loader needs (links followed).
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import CFileSystem
import FeedgenStorage

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
            var decoded = name
            entry.hasInvalidName = decoded.withUTF8 {
                $0.count != bytes.count || ($0.count > 0 && memcmp($0.baseAddress!, bytes.baseAddress!, $0.count) != 0)
            }
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
