import Dispatch
import FeedgenBuild
import FeedgenDiagnostics
import Foundation

/// `feedgen build --watch`: builds, then polls the site's sources (content/, Templates/, static/,
/// feedgen.yaml) and rebuilds when a file is added, removed or changed. Each rebuild prints one
/// line with its duration and problems; pages reload themselves (see `LiveReload`).
/// Polling keeps it portable and dependency-free; an interval of 0.3 s makes a page reload well
/// within 2 s of a save.
struct Watcher {
    var options: BuildOptions
    var interval: Double = 0.3
    /// Stops after this many rebuilds (tests); nil: until interrupted.
    var maxRebuilds: Int?

    /// A snapshot of every source file: path → (modification time, size).
    static func snapshot(_ root: String) -> [String: [Double]] {
        var result: [String: [Double]] = [:]
        let fm = FileManager.default
        func add(_ path: String) {
            if let a = try? fm.attributesOfItem(atPath: path) {
                let time = (a[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
                let size = (a[.size] as? NSNumber)?.doubleValue ?? 0
                result[path] = [time, size]
            }
        }
        add(root + "/feedgen.yaml")
        for folder in ["content", "Templates", "static"] {
            let base = root + "/" + folder
            guard let walker = fm.enumerator(atPath: base) else { continue }
            for case let relative as String in walker { add(base + "/" + relative) }
        }
        return result
    }

    func run(terminal: Terminal) -> Int32 {
        let root = URL(fileURLWithPath: options.siteRoot).standardizedFileURL.path
        var options = self.options
        options.liveReload = true
        options.progress = BuildProgress.forBuild(on: terminal)
        var report = SiteBuilder.build(options)
        terminal.print(report.diagnostics, strict: options.strict)
        // Notes (advice such as the missing baseURL) are said once, not on every rebuild:
        // warnings and errors are, as long as they last.
        var saidNotes = Set(report.diagnostics.items.filter { $0.severity == .note }.map(\.description))
        terminal.err(BuildCommand.summary(report, write: true) + "\n")
        if report.exitStatus == 2 { return 2 }
        terminal.err("feedgen: watching \(options.siteRoot) for changes (Ctrl-C to stop); open the pages from the output folder\n")
        var last = Self.snapshot(root)
        var rebuilds = 0
        while maxRebuilds.map({ rebuilds < $0 }) ?? true {
            Thread.sleep(forTimeInterval: interval)
            let now = Self.snapshot(root)
            guard now != last else { continue }
            let changed = Set(now.keys).union(last.keys).filter { now[$0] != last[$0] }.sorted()
            last = now
            options.now = Int64(Date().timeIntervalSince1970)
            options.progress = BuildProgress.forBuild(on: terminal)
            report = SiteBuilder.build(options)
            rebuilds += 1
            var fresh = Diagnostics()
            for d in report.diagnostics.items where d.severity != .note || saidNotes.insert(d.description).inserted {
                fresh.append(d)
            }
            terminal.print(fresh, strict: options.strict)
            let first = changed.first.map { String($0.dropFirst(root.count + 1)) } ?? ""
            let more = changed.count > 1 ? " and \(changed.count - 1) more" : ""
            let outcome = report.exitStatus == 0
                ? "rebuilt in \(String(format: "%.2f", report.seconds)) s"
                : "rebuild failed in \(String(format: "%.2f", report.seconds)) s (previous output kept)"
            terminal.err(
                "feedgen: \(first)\(more) changed; \(outcome): \(report.pages) pages, \(Terminal.count(report.diagnostics.warningCount, "warning")), \(Terminal.count(report.diagnostics.errorCount, "error"))\n")
        }
        return report.exitStatus
    }
}
