import CFileSystem
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
        try? fm.removeItem(at: temp)
        try fm.createDirectory(at: temp, withIntermediateDirectories: true)
        do {
            var made = Set<String>()
            for file in files {
                let target = temp.appendingPathComponent(file.path)
                let dir = target.deletingLastPathComponent().path
                if made.insert(dir).inserted {
                    try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
                }
                switch file.contents {
                case .text(let text):
                    try Data(text.utf8).write(to: target)
                case .copy(let source):
                    try fm.copyItem(atPath: source, toPath: target.path)
                }
            }
            try Data("This folder is written by feedgen; it is replaced on every build.\n".utf8)
                .write(to: temp.appendingPathComponent(markerName))
            if fm.fileExists(atPath: outURL.path) {
                if feedgen_rename_exchange(temp.path, outURL.path) == 0 {
                    try? fm.removeItem(at: temp)  // now holds the previous output
                    return
                }
                try fm.moveItem(at: outURL, to: old)
                do {
                    try fm.moveItem(at: temp, to: outURL)
                } catch {
                    try? fm.moveItem(at: old, to: outURL)
                    throw error
                }
                try? fm.removeItem(at: old)
            } else {
                try fm.moveItem(at: temp, to: outURL)
            }
        } catch {
            try? fm.removeItem(at: temp)
            throw error
        }
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
                    try? fm.removeItem(atPath: path)
                }
            }
        }
    }
}
