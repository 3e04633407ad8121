import CFileSystem
import Dispatch
import FeedgenDiagnostics
import FeedgenContent
import FeedgenEmit
import FeedgenStorage
import Foundation

/// Writes the built site so that a failed or killed build never damages the previous output:
/// everything goes into a temporary folder beside the output, which is swapped in at the end.
///
/// The output folder carries a marker file (`.feedgen-output`); a non-empty folder without it is
/// never replaced, and nothing outside the output folder is deleted.
public enum OutputWriter {
    public static let markerName = ".feedgen-output"

    /// The part of ``check(output:siteRoot:)`` that depends on the paths only (not on what the
    /// folder holds): the site folder, a folder holding it, its source folders or a folder inside
    /// one, `/`, the home folder. `feedgen check`, which writes nothing, reports it too.
    public static func checkLocation(output: String, siteRoot: String) -> String? {
        let out = URL(fileURLWithPath: output).standardizedFileURL.path
        let site = URL(fileURLWithPath: siteRoot).standardizedFileURL.path
        let home = FileManager.default.homeDirectoryForCurrentUser.standardizedFileURL.path
        let forbidden = ["/", home, site, site + "/content", site + "/Templates", site + "/static"]
        if forbidden.contains(out) || site.hasPrefix(out + "/") {
            let what =
                out == "/" ? "the file system root" : out == home ? "the home folder"
                : site.hasPrefix(out + "/") ? "a folder holding the site" : "the site or one of its source folders"
            return "refusing to write the site into '\(output)': it is \(what); choose another --output folder"
        }
        for source in ["/content", "/Templates", "/static"] where out.hasPrefix(site + source + "/") {
            return "refusing to write the site into '\(output)', inside the site's \(source.dropFirst())/ folder; choose another --output folder"
        }
        return nil
    }

    /// Refuses output folders that would destroy something: the site folder itself, its content
    /// or Templates folders, `/`, the home folder, or a non-empty folder feedgen did not write;
    /// and outputs whose build cache folder (``BuildCache/folder(forOutput:)``) is something
    /// other than a folder or a link to one, which feedgen does not remove.
    ///
    /// - Returns: the problem, to be reported as an error, or nil when the output may be written.
    public static func check(output: String, siteRoot: String) -> String? {
        if let problem = checkLocation(output: output, siteRoot: siteRoot) { return problem }
        let out = URL(fileURLWithPath: output).standardizedFileURL.path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: out, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                return "'\(output)' exists and is not a folder; remove it or choose another --output folder"
            }
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []
            if !entries.isEmpty, !entries.contains(markerName) {
                return "'\(output)' is not empty and was not written by feedgen (it has no \(markerName) file); empty it, remove it, or choose another --output folder"
            }
        }
        return checkCacheFolder(BuildCache.folder(forOutput: out))
    }

    /// Why the build cache folder at `path` cannot be used, or nil when it is a folder (or a
    /// link to one) or does not exist yet.
    static func checkCacheFolder(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }  // absent: made by the build
        if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return nil }
        let what =
            switch info.st_mode & S_IFMT {
            case S_IFLNK: "a link that leads nowhere (its target is missing, or a loop of links), not a folder"
            case S_IFREG: "a file, not a folder"
            default: "not a folder (a FIFO, socket or device)"
            }
        return "'\(path)', the build cache folder of this output, is \(what); remove it (feedgen makes the folder again) or choose another --output folder"
    }

    /// Writes `files` into `output` atomically (see ``Session``): the whole list at once.
    public static func write(_ files: [OutputFile], to output: String, useCache: Bool = true) throws {
        let session = try Session(output: output, paths: files.map(\.path), useCache: useCache)
        for file in files {
            let hash: UInt64
            switch file.contents {
            case .text(let text): hash = StableHasher.hash(text)
            case .utf8(let bytes): hash = StableHasher.hash(bytes)
            case .chunks(let chunks): hash = chunks.stableHash
            case .copy(let source): hash = Session.copyHash(source)
            }
            try session.put(file, hash: hash, key: 0)
        }
        try session.commit()
    }

    struct WriteError: Error, CustomStringConvertible {
        var path: String
        var message: String
        /// The bytes to write could not be read (EFAULT): they were in a build-cache log that
        /// another process cut short (a mapped card's HTML); not a problem of the output folder.
        var cacheCutShort = false
        var description: String { "cannot write \(path): \(message)" }
    }

    /// The first failure recorded by concurrent writers.
    final class ResultBox: @unchecked Sendable {
        private let lock = NSLock()
        private var failure: WriteError?

        func record(_ error: WriteError) {
            lock.lock()
            if failure == nil || error.path < failure!.path { failure = error }
            lock.unlock()
        }

        var first: WriteError? { lock.lock(); defer { lock.unlock() }; return failure }
    }

    /// Removes temporary folders left by killed builds (whose process is gone) and restores a
    /// previous output left aside by a build killed between its two renames.
    static func recoverAndClean(parent: String, name: String) {
        let fm = FileManager.default
        guard let entries = try? fm.contentsOfDirectory(atPath: parent) else { return }
        for entry in entries.sorted() {
            for kind in ["tmp", "old"] {
                let prefix = ".\(name).feedgen-\(kind)-"
                guard entry.hasPrefix(prefix), let pid = Int32(entry.dropFirst(prefix.count)) else { continue }
                if kill(pid, 0) == 0, pid != ProcessInfo.processInfo.processIdentifier { continue }  // still running
                let path = parent + "/" + entry
                if kind == "old", !fm.fileExists(atPath: parent + "/" + name) {
                    try? fm.moveItem(atPath: path, toPath: parent + "/" + name)
                } else {
                    _ = feedgen_remove_tree(path)
                }
            }
        }
    }
}
