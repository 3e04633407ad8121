import Dispatch
import FeedgenBuild
import FeedgenIncremental
import FeedgenDiagnostics
import Foundation

/// `feedgen build --watch`: builds, then waits for the site's sources (content/, Templates/,
/// static/, feedgen.yaml) to change (``SourceWatch``: inotify, polling where it is unavailable)
/// and rebuilds. Each rebuild prints one line with its duration and problems; pages reload
/// themselves (see `LiveReload`).
struct Watcher {
    var options: BuildOptions
    /// Seconds between two reads of the sources when polling (without inotify).
    var interval: Double = 0.3
    /// Stops after this many rebuilds (tests); nil: until interrupted or ``SourceWatch/stop()``.
    var maxRebuilds: Int?

    /// The sources of the site at `options.siteRoot`, watched.
    func sources(polling: Bool = false, terminal: Terminal) -> SourceWatch {
        let root = URL(fileURLWithPath: options.siteRoot).standardizedFileURL.path
        return SourceWatch(root: root, polling: polling, pollInterval: interval) { terminal.err($0) }
    }

    /// Builds, then rebuilds after every change of `sources` (nil: the site's, watched from
    /// before the first build, so a save during it is not missed) until it stops.
    func run(terminal: Terminal, sources given: SourceWatch? = nil) -> Int32 {
        let root = URL(fileURLWithPath: options.siteRoot).standardizedFileURL.path
        let sources = given ?? sources(terminal: terminal)
        var options = self.options
        options.liveReload = true
        options.progress = BuildProgress.forBuild(on: terminal)
        var report = SiteBuilder.build(options)
        terminal.print(report.diagnostics, strict: options.strict)
        // Warnings and notes are said once, when they first appear, not on every rebuild (a
        // site with thousands of warnings would reprint 200 lines per save); the rebuild's line
        // counts them. Errors are said after every rebuild while they last: they stop it.
        var said = Set(report.diagnostics.items.filter { $0.severity != .error }.map(\.description))
        terminal.err(BuildCommand.summary(report, write: true) + "\n")
        if report.exitStatus == 2 { return 2 }
        // What the builds write is no source, wherever feedgen.yaml puts the output.
        func excludeOutput() {
            if let output = report.outputPath { sources.exclude([output, BuildCache.folder(forOutput: output)]) }
        }
        excludeOutput()
        terminal.err("feedgen: watching \(options.siteRoot) for changes (Ctrl-C to stop); open the pages from the output folder\n")
        var rebuilds = 0
        while maxRebuilds.map({ rebuilds < $0 }) ?? true {
            guard let changed = sources.next() else { break }
            options.now = Int64(Date().timeIntervalSince1970)
            options.progress = BuildProgress.forBuild(on: terminal)
            report = SiteBuilder.build(options)
            rebuilds += 1
            excludeOutput()
            terminal.print(Self.toSay(report.diagnostics, said: &said), strict: options.strict)
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

    /// What a rebuild prints of its `diagnostics`: every error, and the warnings and notes not
    /// in `said` (which records them).
    static func toSay(_ diagnostics: Diagnostics, said: inout Set<String>) -> Diagnostics {
        var fresh = Diagnostics()
        for d in diagnostics.items where d.severity == .error || said.insert(d.description).inserted {
            fresh.append(d)
        }
        return fresh
    }
}
