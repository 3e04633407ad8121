import CFileSystem
import Dispatch
import FeedgenDiagnostics
import FeedgenEmit
import Foundation

/// Writes the built site so that a failed or killed build never damages the previous output:
/// everything goes into a temporary folder beside the output, which is swapped in at the end.
///
/// The output folder carries a marker file (`.feedgen-output`); a non-empty folder without it is
/// never replaced, and nothing outside the output folder is deleted.
public enum OutputWriter {
    public static let markerName = ".feedgen-output"

    /// Refuses output folders that would destroy something: the site folder itself, its content
    /// or Templates folders, `/`, the home folder, or a non-empty folder feedgen did not write.
    public static func check(output: String, siteRoot: String) -> String? {
        let out = URL(fileURLWithPath: output).standardizedFileURL.path
        let site = URL(fileURLWithPath: siteRoot).standardizedFileURL.path
        let home = FileManager.default.homeDirectoryForCurrentUser.standardizedFileURL.path
        let forbidden = ["/", home, site, site + "/content", site + "/Templates", site + "/static"]
        if forbidden.contains(out) || site.hasPrefix(out + "/") {
            return "refusing to write the site into '\(output)': it is \(out == "/" ? "the file system root" : out == home ? "the home folder" : "the site or one of its source folders"); choose another --output folder"
        }
        for source in ["/content", "/Templates", "/static"] where out.hasPrefix(site + source + "/") {
            return "refusing to write the site into '\(output)', inside the site's \(source.dropFirst())/ folder; choose another --output folder"
        }
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
        return nil
    }

    /// Writes `files` into `output` atomically: everything is written into a temporary folder
    /// beside the output, which is then exchanged with the output in one `renameat2`
    /// (`RENAME_EXCHANGE`), so that at every instant the output folder is either the previous
    /// build or the new one, even if the process is killed. Where the file system cannot exchange,
    /// two renames are used and a kill between them leaves the previous output in
    /// `.<name>.feedgen-old-<pid>`, which the next build restores.
    public static func write(_ files: [OutputFile], to output: String) throws {
        let fm = FileManager.default
        let outURL = URL(fileURLWithPath: output).standardizedFileURL
        let parent = outURL.deletingLastPathComponent()
        let name = outURL.lastPathComponent
        try fm.createDirectory(at: parent, withIntermediateDirectories: true)
        recoverAndClean(parent: parent.path, name: name)
        let pid = ProcessInfo.processInfo.processIdentifier
        let temp = parent.appendingPathComponent(".\(name).feedgen-tmp-\(pid)")
        let old = parent.appendingPathComponent(".\(name).feedgen-old-\(pid)")
        _ = feedgen_remove_tree(temp.path)
        try fm.createDirectory(at: temp, withIntermediateDirectories: true)
        do {
            try writeFiles(files, into: temp.path)
            try Data("This folder is written by feedgen; it is replaced on every build.\n".utf8)
                .write(to: temp.appendingPathComponent(markerName))
            if fm.fileExists(atPath: outURL.path) {
                if feedgen_rename_exchange(temp.path, outURL.path) == 0 {
                    _ = feedgen_remove_tree(temp.path)  // now holds the previous output
                    return
                }
                try fm.moveItem(at: outURL, to: old)
                do {
                    try fm.moveItem(at: temp, to: outURL)
                } catch {
                    try? fm.moveItem(at: old, to: outURL)
                    throw error
                }
                _ = feedgen_remove_tree(old.path)
            } else {
                try fm.moveItem(at: temp, to: outURL)
            }
        } catch {
            _ = feedgen_remove_tree(temp.path)
            throw error
        }
    }

    /// Writes every file below `root` with plain POSIX calls, creating folders once each; the
    /// files are written from both cores (each to its own path).
    static func writeFiles(_ files: [OutputFile], into root: String) throws {
        var folders = Set<String>()
        for file in files {
            var parts = file.path.split(separator: "/").dropLast()
            while !parts.isEmpty {
                folders.insert(parts.joined(separator: "/"))
                parts = parts.dropLast()
            }
        }
        for folder in folders.sorted(by: { $0.count < $1.count }) {
            if mkdir(root + "/" + folder, 0o755) != 0, errno != EEXIST {
                throw WriteError(path: folder, message: String(cString: strerror(errno)))
            }
        }
        let failures = ResultBox()
        DispatchQueue.concurrentPerform(iterations: files.count) { i in
            let file = files[i]
            let path = root + "/" + file.path
            let status: Int32
            switch file.contents {
            case .text(let text):
                var text = text
                status = text.withUTF8 { feedgen_write_file(path, $0.baseAddress, $0.count) }
            case .copy(let source):
                status = feedgen_copy_file(source, path)
            }
            if status != 0 { failures.record(WriteError(path: file.path, message: String(cString: strerror(errno)))) }
        }
        if let first = failures.first { throw first }
    }

    struct WriteError: Error, CustomStringConvertible {
        var path: String
        var message: String
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
