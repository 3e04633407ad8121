import FeedgenBuild
import FeedgenDiagnostics
import Foundation

/// `feedgen`: the command-line interface (content-format §9). Exit status: 0 success,
/// 1 content errors, 2 usage or configuration errors.
public enum CommandLineTool {
    public static let version = FeedgenVersion.string

    public static let usage = """
        OVERVIEW: feedgen builds static HTML card feeds from Markdown with YAML front matter,
        laid out like UICollectionViewCompositionalLayout.

        USAGE: feedgen <command> [options]

        COMMANDS:
          build [SITE]              Build the site into its output folder (default: public/)
          check [SITE]              Validate everything build validates, writing nothing
          layout [SITE] --width W   Print the layout model's frames at container width W
          template render FILE      Render one Mustache template with data, to stdout
          init DIR                  Create a small working site in DIR
          new SECTION/NAME          Create an item with front matter filled in

        OPTIONS:
          -h, --help                Show help (also: feedgen <command> --help)
          --version                 Show the version

        SITE defaults to the current folder. See README.md and docs/ for the content format.

        """

    /// Runs the tool with `arguments` (without the program name) and returns the exit status.
    public static func run(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) -> Int32 {
        var terminal = Terminal(environment: environment)
        guard let command = arguments.first else {
            terminal.err(usage)
            return 2
        }
        let rest = Array(arguments.dropFirst())
        do {
            switch command {
            case "-h", "--help", "help":
                terminal.out(usage)
                return 0
            case "--version":
                terminal.out("feedgen \(version)\n")
                return 0
            case "build":
                return try BuildCommand.run(rest, terminal: &terminal, write: true)
            case "check":
                return try BuildCommand.run(rest, terminal: &terminal, write: false)
            case "layout":
                return try LayoutCommand.run(rest, terminal: &terminal)
            case "template":
                return try TemplateCommand.run(rest, terminal: &terminal)
            case "init":
                return try ScaffoldCommand.runInit(rest, terminal: &terminal)
            case "new":
                return try ScaffoldCommand.runNew(rest, terminal: &terminal)
            default:
                let known = ["build", "check", "layout", "template", "init", "new", "help"]
                // Hugo's and other tools' names for what feedgen does another way.
                let hint =
                    switch command {
                    case "server", "serve": " (there is no server: 'feedgen build --watch' rebuilds on every save and pages opened from the file system reload themselves)"
                    case "version", "-v", "-V": " (did you mean '--version'?)"
                    default: Suggestion.didYouMean(command, in: known)
                    }
                terminal.err("feedgen: error: unknown command '\(command)'\(hint); see 'feedgen --help'\n")
                return 2
            }
        } catch let error as UsageError {
            terminal.err("feedgen: error: \(error.message)\n")
            return 2
        } catch {
            terminal.err("feedgen: error: \(error)\n")
            return 1
        }
    }
}

/// A command-line mistake: printed as `feedgen: error: …`, exit status 2.
public struct UsageError: Error {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// A minimal, strict argument parser: `--flag`, `--option value` / `--option=value`, positionals.
/// Unknown options are usage errors with a suggestion.
struct Arguments {
    var positionals: [String] = []
    var flags: Set<String> = []
    var options: [String: String] = [:]

    init(_ arguments: [String], flags allowedFlags: [String], options allowedOptions: [String], command: String) throws {
        var i = 0
        let known = allowedFlags + allowedOptions + ["--help", "-h"]
        while i < arguments.count {
            let a = arguments[i]
            if a == "--" {
                positionals += arguments[(i + 1)...]
                break
            }
            if a.hasPrefix("-"), a.count > 1 {
                var name = a
                var value: String?
                if let eq = a.firstIndex(of: "="), a.hasPrefix("--") {
                    name = String(a[..<eq])
                    value = String(a[a.index(after: eq)...])
                }
                if name == "-h" { name = "--help" }
                if allowedFlags.contains(name) || name == "--help" {
                    guard value == nil else { throw UsageError("\(name) takes no value") }
                    flags.insert(name)
                } else if allowedOptions.contains(name) {
                    if value == nil {
                        i += 1
                        guard i < arguments.count else { throw UsageError("\(name) needs a value; see 'feedgen \(command) --help'") }
                        value = arguments[i]
                    }
                    options[name] = value
                } else if let ours = Self.hugoSpellings[name], known.contains(ours) {
                    throw UsageError("unknown option '\(name)' for '\(command)' (Hugo's \(name) is feedgen's \(ours)); see 'feedgen \(command) --help'")
                } else {
                    throw UsageError("unknown option '\(name)' for '\(command)'\(Suggestion.didYouMean(name, in: known)); see 'feedgen \(command) --help'")
                }
            } else {
                positionals.append(a)
            }
            i += 1
        }
    }

    var help: Bool { flags.contains("--help") }

    /// Hugo's options that feedgen has under another name (`hugo -D` is `feedgen build
    /// --drafts`): named in the error instead of a spelling guess ('-D' was "did you mean '-h'?").
    static let hugoSpellings = [
        "-D": "--drafts", "--buildDrafts": "--drafts", "-F": "--future", "--buildFuture": "--future",
        "-E": "--expired", "--buildExpired": "--expired", "-d": "--output", "--destination": "--output",
        "-w": "--watch", "--cleanDestinationDir": "--clean",
    ]
}
