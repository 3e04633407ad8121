import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The site's sources as watch mode sees them: feedgen.yaml and every file and folder below
/// content/, Templates/ and static/, each with a stamp that changes when the file does; and what
/// changed since the last look, for the whole tree (polling) or for the paths inotify named.
struct SourceTree {
    /// What identifies a version of a file: its size, modification time and inode (a file
    /// replaced by a rename has a new inode). A folder is only its inode: it changes when it is
    /// replaced, not when its entries do (they have stamps of their own).
    struct Stamp: Equatable {
        var isFolder: Bool
        var size: Int64
        /// Modification time, in ns since 1970.
        var modified: Int64
        var inode: UInt64
    }

    /// The names below the site folder that hold sources (content-format §1); the rest of the
    /// site folder (the output, its cache, a `.git`) is not watched.
    static let sourceNames: Set<String> = ["feedgen.yaml", "content", "Templates", "static"]

    /// The site folder, absolute and standardized (no trailing `/`).
    let root: String
    /// Absolute paths never read nor reported (the output folder and its cache, when they lie
    /// below a source folder).
    var excluded: Set<String> = []
    /// Absolute path → stamp, for every source that exists.
    private(set) var stamps: [String: Stamp] = [:]

    init(root: String) {
        self.root = root
    }

    /// The stamp of `path`, following a symbolic link as the build does (a dangling link: its
    /// own stamp); nil when nothing is there.
    static func stamp(_ path: String) -> Stamp? {
        var info = stat()
        guard stat(path, &info) == 0 || lstat(path, &info) == 0 else { return nil }
        let isFolder = (info.st_mode & S_IFMT) == S_IFDIR
        if isFolder { return Stamp(isFolder: true, size: 0, modified: 0, inode: UInt64(info.st_ino)) }
        #if os(Linux)
            let time = info.st_mtim
        #else
            let time = info.st_mtimespec
        #endif
        let modified = Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
        return Stamp(isFolder: false, size: Int64(info.st_size), modified: modified, inode: UInt64(info.st_ino))
    }

    /// Whether `path` (absolute) is a source: feedgen.yaml, one of the source folders or below
    /// one, and not excluded.
    func isSource(_ path: String) -> Bool {
        guard path.hasPrefix(root + "/") else { return false }
        let relative = path.dropFirst(root.count + 1)
        let top = relative.prefix { $0 != "/" }
        guard Self.sourceNames.contains(String(top)) else { return false }
        return !excluded.contains { path == $0 || path.hasPrefix($0 + "/") }
    }

    /// Reads the whole tree again and returns the paths that changed since the last look
    /// (added, removed or with another stamp), files first. `entering` is told each folder before
    /// its entries are listed (where inotify adds its watch, so no entry made meanwhile is missed).
    mutating func rescan(entering: (String) -> Void = { _ in }) -> [String] {
        var fresh: [String: Stamp] = [:]
        var visited: Set<UInt64> = []
        for name in Self.sourceNames.sorted() {
            collect(root + "/" + name, into: &fresh, visited: &visited, entering: entering)
        }
        var changed = Changes()
        for path in stamps.keys where fresh[path] == nil { changed.set(path, nil, in: &stamps) }
        for (path, stamp) in fresh where stamps[path] != stamp { changed.set(path, stamp, in: &stamps) }
        return changed.ordered
    }

    /// Looks again at `paths` only (what inotify named) and returns those that changed, files
    /// first: a folder that appeared or was replaced is read with everything below it, and one
    /// that went away takes everything below it along. A file in `written` (inotify saw it
    /// written) counts as changed even with its old stamp: a write within the clock tick of the
    /// last one keeps the modification time. A path that is not a source is ignored.
    mutating func refresh(
        _ paths: Set<String>, written: Set<String> = [], entering: (String) -> Void = { _ in }
    ) -> [String] {
        var changed = Changes()
        for path in paths.sorted() where isSource(path) {
            let old = stamps[path]
            let new = Self.stamp(path)
            guard old != new else {
                if written.contains(path), new?.isFolder == false { changed.set(path, new, in: &stamps) }
                continue
            }
            guard old?.isFolder == true || new?.isFolder == true else {
                changed.set(path, new, in: &stamps)
                continue
            }
            // A folder came, went or was replaced: its whole subtree is compared.
            var fresh: [String: Stamp] = [:]
            var visited: Set<UInt64> = []
            collect(path, into: &fresh, visited: &visited, entering: entering)
            let below = path + "/"
            for key in stamps.keys where (key == path || key.hasPrefix(below)) && fresh[key] == nil {
                changed.set(key, nil, in: &stamps)
            }
            for (key, stamp) in fresh where stamps[key] != stamp { changed.set(key, stamp, in: &stamps) }
        }
        return changed.ordered
    }

    /// Changed paths, and which of them are or were folders.
    private struct Changes {
        var files = Set<String>()
        var folders = Set<String>()

        /// Records `path`'s new stamp (nil: gone) in `stamps` and the path as changed.
        mutating func set(_ path: String, _ stamp: Stamp?, in stamps: inout [String: Stamp]) {
            if stamps[path]?.isFolder == true || stamp?.isFolder == true { folders.insert(path) } else { files.insert(path) }
            stamps[path] = stamp
        }

        /// Files before folders, each sorted, so that the rebuild's line names the file saved
        /// rather than the folders holding it.
        var ordered: [String] { files.sorted() + folders.sorted() }
    }

    /// Adds the stamps of `path` and of everything below it to `fresh`. A folder reached twice
    /// (through a link loop) is read once.
    private func collect(
        _ path: String, into fresh: inout [String: Stamp], visited: inout Set<UInt64>, entering: (String) -> Void
    ) {
        guard isSource(path), let stamp = Self.stamp(path) else { return }
        fresh[path] = stamp
        guard stamp.isFolder, visited.insert(stamp.inode).inserted else { return }
        entering(path)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        for name in names { collect(path + "/" + name, into: &fresh, visited: &visited, entering: entering) }
    }
}
