import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Waits for the site's sources to change, for `feedgen build --watch`: with Linux's inotify
/// (what Hugo's fsnotify and Zola's notify use), one watch per source folder, added as folders
/// appear; or, where inotify is unavailable (another system, `inotify_init1` failing, a watch
/// refused: `ENOSPC` when `fs.inotify.max_user_watches` is reached), by reading the whole tree
/// every ``pollInterval`` seconds, said once on stderr.
final class SourceWatch: @unchecked Sendable {
    /// How long a burst of events must have been quiet before it counts as one change, in
    /// seconds: an editor's save is several events (a temporary file, a rename, a chmod).
    static let settle = 0.025
    /// The longest a burst is waited out, in seconds, so that a file written without a pause
    /// still triggers rebuilds.
    static let longestBurst = 1.0

    /// Seconds between two reads of the tree when polling.
    let pollInterval: Double
    /// True when polling (no inotify).
    private(set) var polling: Bool

    private var tree: SourceTree
    private let say: (String) -> Void
    /// The inotify instance (-1: none) and its watches: descriptor → folder.
    private var inotify: Int32 = -1
    private var folders: [Int32: String] = [:]
    /// Why the last watch could not be added (the switch to polling says it).
    private var watchFailure: String?
    private let watchLimit: Int
    /// A pipe whose write end ``stop()`` writes to: it wakes a waiting ``next(timeout:)``.
    private var wake: [Int32] = [-1, -1]
    private let stopped = NSLock()
    private var isStopped = false

    /// Reads the sources below `root` (absolute) and starts watching them.
    ///
    /// - Parameters:
    ///   - polling: poll even where inotify works (tests of the fallback).
    ///   - watchLimit: the most watches to add, as if `fs.inotify.max_user_watches` allowed
    ///     no more (tests of the fallback).
    ///   - say: where the one line about falling back to polling goes (stderr).
    init(
        root: String, polling: Bool = false, pollInterval: Double = 0.3, watchLimit: Int = .max,
        say: @escaping (String) -> Void
    ) {
        tree = SourceTree(root: root)
        self.watchLimit = watchLimit
        self.pollInterval = pollInterval
        self.polling = true
        self.say = say
        if pipe(&wake) == 0 {
            for fd in wake {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            }
        }
        #if os(Linux)
            if !polling {
                inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
                if inotify < 0 {
                    watchFailure = "inotify_init1: \(String(cString: strerror(errno)))"
                } else {
                    self.polling = false
                    watch(root)
                }
            }
        #endif
        _ = tree.rescan(entering: watch)
        fallBackIfAWatchFailed()
    }

    deinit {
        if inotify >= 0 { close(inotify) }
        for fd in wake where fd >= 0 { close(fd) }
    }

    /// Paths (absolute) never read nor reported: the output folder and its build cache.
    func exclude(_ paths: [String]) {
        tree.excluded.formUnion(paths.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
    }

    /// Makes a waiting or later ``next(timeout:)`` return nil. Any thread may call it.
    func stop() {
        stopped.withLock { isStopped = true }
        var byte: UInt8 = 1
        _ = write(wake[1], &byte, 1)
    }

    /// Waits until sources changed and returns the changed paths (absolute, sorted): files
    /// added, removed or written, then folders added or removed. Nil after ``stop()``, or when
    /// `timeout` seconds passed without a change (nil: no limit).
    func next(timeout: Double? = nil) -> [String]? {
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        while !stopped.withLock({ isStopped }) {
            let changed: [String]
            if polling {
                guard wait(events: false, seconds: min(pollInterval, remaining(deadline))) != .stopped else { return nil }
                changed = tree.rescan()
            } else {
                switch wait(events: true, seconds: remaining(deadline)) {
                case .stopped: return nil
                case .timedOut: changed = []
                case .ready: changed = readBurst()
                }
            }
            if !changed.isEmpty { return changed }
            if let deadline, Date() >= deadline { return nil }
        }
        return nil
    }

    private func remaining(_ deadline: Date?) -> Double {
        deadline.map { max(0, $0.timeIntervalSinceNow) } ?? .infinity
    }

    private enum Wait { case ready, timedOut, stopped }

    /// Waits up to `seconds` for ``stop()`` or (when `events`) an inotify event.
    private func wait(events watchEvents: Bool, seconds: Double) -> Wait {
        var fds = [pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0)]
        if watchEvents { fds.append(pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)) }
        let end = Date().addingTimeInterval(min(seconds, 86_400))
        while true {
            let milliseconds = Int32(max(0, (end.timeIntervalSinceNow * 1000).rounded(.up)))
            let n = poll(&fds, nfds_t(fds.count), seconds.isInfinite ? -1 : milliseconds)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return .timedOut }
            if fds[0].revents != 0 { return .stopped }
            return .ready
        }
    }

    /// Reads events until the burst has been quiet for ``settle`` seconds, then looks at the
    /// paths they named (at the whole tree after the kernel's queue overflowed).
    private func readBurst() -> [String] {
        var paths = Set<String>()
        var written = Set<String>()
        var overflowed = false
        let end = Date().addingTimeInterval(Self.longestBurst)
        repeat {
            overflowed = readEvents(into: &paths, written: &written) || overflowed
        } while Date() < end && wait(events: true, seconds: Self.settle) == .ready
        let changed = overflowed ? tree.rescan(entering: watch) : tree.refresh(paths, written: written, entering: watch)
        // Watches of folders that are gone (moved out of the site) are dropped.
        for (descriptor, folder) in folders where tree.stamps[folder] == nil && folder != tree.root {
            inotify_rm_watch(inotify, descriptor)
            folders[descriptor] = nil
        }
        fallBackIfAWatchFailed()
        return changed
    }

    /// Reads the queued events, adding the paths they name to `paths`, and those of files
    /// written to `written`. Returns true when the kernel's queue overflowed (events were lost).
    private func readEvents(into paths: inout Set<String>, written: inout Set<String>) -> Bool {
        var overflowed = false
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return overflowed }
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                // struct inotify_event: wd, mask, cookie, len, then len bytes of NUL-padded name.
                while offset + 16 <= count {
                    let descriptor = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                    let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameBytes = bytes[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                    offset += 16 + length
                    if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                        overflowed = true
                    } else if mask & UInt32(IN_IGNORED) != 0 {
                        folders[descriptor] = nil
                    } else if let folder = folders[descriptor] {
                        let path = nameBytes.isEmpty ? folder : folder + "/" + String(decoding: nameBytes, as: UTF8.self)
                        paths.insert(path)
                        if mask & UInt32(IN_MODIFY | IN_CLOSE_WRITE) != 0 { written.insert(path) }
                    }
                }
            }
        }
    }

    /// Watches the folder `path` (the same folder again keeps its descriptor, with the new path).
    private func watch(_ path: String) {
        guard !polling, watchFailure == nil else { return }
        let events =
            IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_ATTRIB | IN_MOVED_FROM | IN_MOVED_TO
            | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_EXCL_UNLINK
        let descriptor = folders.count < watchLimit ? inotify_add_watch(inotify, path, UInt32(events)) : -1
        if descriptor < 0 {
            let error = folders.count < watchLimit ? errno : ENOSPC
            let reason = error == ENOSPC ? "the limit of watches is reached; raise fs.inotify.max_user_watches" : String(cString: strerror(error))
            // A folder removed meanwhile is no failure (its parent's event says so), nor one
            // that cannot be read (the build says so; polling could not read it either).
            if ![ENOENT, ENOTDIR, EACCES].contains(error) { watchFailure = "cannot watch \(path): \(reason)" }
            return
        }
        folders[descriptor] = path
    }

    /// After a failed watch: closes inotify and polls from now on, saying so once.
    private func fallBackIfAWatchFailed() {
        // "" once said: later watches are not tried.
        guard let failure = watchFailure, !failure.isEmpty else { return }
        watchFailure = ""
        if inotify >= 0 {
            close(inotify)
            inotify = -1
        }
        folders = [:]
        polling = true
        let seconds = String(format: "%g", pollInterval)
        say("feedgen: note: watching without inotify (\(failure)); looking for changes every \(seconds) s instead\n")
    }
}
