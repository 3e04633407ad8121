import FeedgenBuild
import FeedgenIncremental
import FeedgenDiagnostics
import Foundation

/// `feedgen build` and `feedgen check`.
enum BuildCommand {
    /// The options `build` and `check` share (help lines, indented as an OPTIONS list).
    static let contentOptions = """
          --drafts                  Include items with draft: true
          --future                  Include items whose publishDate is in the future
          --expired                 Include items whose expiryDate has passed
          --strict                  Treat warnings as errors
          --error-format FORMAT     text (default) or github (also GitHub Actions annotations)
          --quiet                   Print only warnings and errors, no summary
        """

    static let buildHelp = """
        OVERVIEW: Build the site: every feed page, every item's detail page, the stylesheets and
        assets, written atomically into the output folder.

        USAGE: feedgen build [SITE] [--output DIR] [--drafts] [--future] [--expired] [--strict]
                             [--error-format text|github] [--quiet] [--watch] [--previews]
                             [--clean]

        ARGUMENTS:
          SITE                      The site folder (default: the current folder)

        OPTIONS:
          --output DIR              Output folder (default: feedgen.yaml's output, else SITE/public)
        \(contentOptions)
          --watch                   Rebuild when content, templates or static files change; open
                                    pages reload themselves (file://, no server)
          --previews                Also write _previews/index.html: every section of every
                                    feed at 320, 390, 768 and 1280 px, in light and dark, side
                                    by side (open it from the file system)
          --clean                   Ignore the build cache (.OUTPUT.feedgen-cache beside the
                                    output): parse, render and write everything
          -h, --help                Show this help

        EXIT STATUS: 0 built; 1 content errors (nothing written, previous output untouched);
        2 usage or configuration errors.

        """

    static let checkHelp = """
        OVERVIEW: Validate the site exactly as 'feedgen build' does, writing nothing.

        USAGE: feedgen check [SITE] [--drafts] [--future] [--expired] [--strict]
                             [--error-format text|github] [--quiet]

        ARGUMENTS:
          SITE                      The site folder (default: the current folder)

        OPTIONS:
        \(contentOptions)
          -h, --help                Show this help

        EXIT STATUS: 0 no errors; 1 content errors; 2 usage or configuration errors.

        """

    static func run(_ arguments: [String], terminal: inout Terminal, write: Bool) throws -> Int32 {
        let command = write ? "build" : "check"
        let args = try Arguments(
            arguments, flags: ["--drafts", "--future", "--expired", "--strict", "--quiet"] + (write ? ["--watch", "--previews", "--clean"] : []),
            options: write ? ["--output", "--error-format"] : ["--error-format"], command: command)
        if args.help {
            terminal.out(write ? buildHelp : checkHelp)
            return 0
        }
        guard args.positionals.count <= 1 else {
            throw UsageError("'\(command)' takes one SITE folder, found \(args.positionals.count) arguments")
        }
        if let format = args.options["--error-format"] {
            guard let f = Terminal.ErrorFormat(rawValue: format) else {
                throw UsageError("--error-format must be 'text' or 'github', found '\(format)'")
            }
            terminal.errorFormat = f
        }
        if args.options["--output"]?.isEmpty == true { throw UsageError("--output needs a folder, found an empty string") }
        terminal.quiet = args.flags.contains("--quiet")
        terminal.showPaths(fromSiteRoot: args.positionals.first ?? ".")
        var options = BuildOptions(
            siteRoot: args.positionals.first ?? ".", output: args.options["--output"],
            now: Int64(Date().timeIntervalSince1970))
        options.drafts = args.flags.contains("--drafts")
        options.future = args.flags.contains("--future")
        options.expired = args.flags.contains("--expired")
        options.strict = args.flags.contains("--strict")
        options.write = write
        options.previews = args.flags.contains("--previews")
        options.useCache = !args.flags.contains("--clean")
        // The browser benchmark's switch (docs/layout.md), read here only: the library takes options.
        options.contentVisibility = ProcessInfo.processInfo.environment["FEEDGEN_NO_CONTENT_VISIBILITY"] != "1"
        // The profiling switch (stage times, why a patch build did not apply), read here only.
        options.timing = ProcessInfo.processInfo.environment["FEEDGEN_TIMING"] == "1"
        #if DEBUG
            // The tests' hook (BuildOptions.testCutLog), read here only; release builds ignore it.
            options.testCutLog = ProcessInfo.processInfo.environment["FEEDGEN_TEST_CUT_LOG"]
        #endif
        if !terminal.quiet {
            let say = terminal
            options.onWaiting = { say.err($0) }
        }
        if args.flags.contains("--watch") {
            return Watcher(options: options).run(terminal: terminal)
        }
        options.exitsAfterBuild = true
        options.progress = BuildProgress.forBuild(on: terminal)
        let report = SiteBuilder.build(options)
        // Its diagnostics (tens of thousands on a large site) are left for the exit to free.
        ExitReclaimed.keep(report)
        terminal.print(report.diagnostics, strict: options.strict)
        if !terminal.quiet {
            terminal.err(summary(report, write: write, strict: options.strict) + "\n")
        }
        return report.exitStatus
    }

    /// One line: pages, cards, time, warnings (and errors when there are any).
    static func summary(_ report: BuildReport, write: Bool, strict: Bool = false) -> String {
        // Under --strict the warnings were printed as errors; count them so.
        let errors = report.diagnostics.errorCount + (strict ? report.diagnostics.warningCount : 0)
        let warnings = strict ? 0 : report.diagnostics.warningCount
        let time = String(format: "%.2f s", report.seconds)
        let problems = Terminal.count(warnings, "warning") + (errors > 0 ? ", " + Terminal.count(errors, "error") : "")
        if report.exitStatus != 0 {
            return "feedgen: \(write ? "build" : "check") failed in \(time): \(problems)\(write ? "; previous output left untouched" : "")"
        }
        let what = "\(report.pages) page\(report.pages == 1 ? "" : "s") (\(report.feeds) feed\(report.feeds == 1 ? "" : "s"), \(report.cards) card\(report.cards == 1 ? "" : "s"))"
        if write {
            let cwd = FileManager.default.currentDirectoryPath
            func shown(_ path: String) -> String { path.hasPrefix(cwd + "/") ? String(path.dropFirst(cwd.count + 1)) : path }
            let previews = report.previewsPath.map { "; previews: \(shown($0))" } ?? ""
            return "feedgen: built \(what) in \(time), \(problems) → \(shown(report.outputPath ?? ""))\(previews)"
        }
        return "feedgen: checked \(what) in \(time), \(problems)"
    }
}
