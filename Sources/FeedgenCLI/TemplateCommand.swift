import FeedgenContent
import FeedgenDiagnostics
import FeedgenEmit
import FeedgenMustache
import Foundation

/// `feedgen template render FILE --data DATA.(json|yaml) [--partials DIR]`: renders one
/// Mustache template for theme authors, to stdout.
enum TemplateCommand {
    static let help = """
        OVERVIEW: Render one Mustache template with the given data, to stdout (for theme authors).

        USAGE: feedgen template render FILE --data DATA.(json|yaml) [--partials DIR] [--strict]

        ARGUMENTS:
          FILE                      The Mustache template to render

        OPTIONS:
          --data FILE               The context: a JSON or YAML file (by extension);
                                    numbers render as written (1.50 stays 1.50)
          --partials DIR            Folder of partials: {{> name}} reads DIR/name.mustache
          --strict                  An unknown partial is an error, and so is every warning
          -h, --help                Show this help

        EXIT STATUS: 0 rendered; 1 template or data errors (path:line:column: error: …); 2 usage errors.

        """

    static func run(_ arguments: [String], terminal: inout Terminal) throws -> Int32 {
        guard arguments.first == "render" else {
            if arguments.first == "--help" || arguments.first == "-h" {
                terminal.out(help)
                return 0
            }
            throw UsageError("'template' takes the subcommand 'render': feedgen template render FILE --data DATA")
        }
        let args = try Arguments(Array(arguments.dropFirst()), flags: ["--strict"], options: ["--data", "--partials"], command: "template render")
        if args.help {
            terminal.out(help)
            return 0
        }
        guard args.positionals.count == 1, let file = args.positionals.first else {
            throw UsageError("'template render' needs one template FILE")
        }
        guard let dataFile = args.options["--data"] else { throw UsageError("'template render' needs --data DATA.json or DATA.yaml") }
        let strict = args.flags.contains("--strict")
        let result = try render(file: file, data: dataFile, partials: args.options["--partials"], strict: strict)
        terminal.print(result.diagnostics, strict: strict)
        guard let output = result.output else { return 1 }
        terminal.out(output)
        return 0
    }

    /// The core of `feedgen template render`: reads the template `file`, the `data` file
    /// (`.json`, or `.yaml`/`.yml` read as front matter is; in both a number renders as written,
    /// so `1.10` stays `1.10`) and the partials `DIR/name.mustache` of the `partials` folder,
    /// and renders.
    ///
    /// - Returns: The rendered text, or nil when there are errors; and the diagnostics:
    ///   errors (`path:line:column: error: …`: JSON or YAML syntax, template compile errors
    ///   of ``MustacheTemplate/init(source:name:)``, rendering errors) and the template's
    ///   warnings (``MustacheTemplate/warnings()``: a parent without blocks, content outside
    ///   blocks). With `strict`, an unknown partial is an error and so is any warning, and the
    ///   output is nil.
    /// - Throws: ``UsageError`` when a file or the folder cannot be read, or `data` has another
    ///   extension.
    static func render(
        file: String, data dataFile: String, partials folder: String?, strict: Bool
    ) throws(UsageError) -> (output: String?, diagnostics: Diagnostics) {
        var diagnostics = Diagnostics()
        guard let source = try read(file, what: "template", into: &diagnostics),
            let dataText = try read(dataFile, what: "data", into: &diagnostics)
        else { return (nil, diagnostics) }

        var context: MustacheValue = .null
        if dataFile.hasSuffix(".json") {
            do {
                // Numbers as written, as YAML plain scalars are (`1.50` stays `1.50`).
                context = try MustacheValue(json: dataText, name: dataFile, numbers: .asWritten)
            } catch {
                diagnostics.error(SourceLocation(path: dataFile, line: error.line, column: error.column), error.message)
            }
        } else if dataFile.hasSuffix(".yaml") || dataFile.hasSuffix(".yml") {
            let (node, problems) = YAMLParser.parse(dataText, path: dataFile)
            diagnostics.append(contentsOf: problems)
            if let node { context = TemplateContext.value(node) }
        } else {
            throw UsageError("--data must be a .json, .yaml or .yml file, found '\(dataFile)'")
        }

        var partials: [String: MustacheTemplate] = [:]
        if let folder {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: folder)
            } catch {
                let reason = access(folder, R_OK) != 0 ? String(cString: strerror(errno)) : "Not a directory"
                throw UsageError("cannot read --partials folder '\(folder)': \(reason)")
            }
            for name in names.sorted() where name.hasSuffix(".mustache") {
                let path = folder + "/" + name
                guard let text = try read(path, what: "partial", into: &diagnostics) else { continue }
                if let partial = compile(text, name: path, into: &diagnostics) {
                    partials[String(name.dropLast(".mustache".count))] = partial
                }
            }
        }
        let template = compile(source, name: file, into: &diagnostics)
        let blocked = diagnostics.hasErrors || (strict && diagnostics.warningCount > 0)
        guard !blocked, let template else { return (nil, diagnostics) }
        do {
            let text = try template.render(context, partials: DictionaryPartials(templates: partials), strictPartials: strict)
            return (text, diagnostics)
        } catch {
            let path = error.templateName.isEmpty ? file : error.templateName
            diagnostics.error(SourceLocation(path: path, line: error.line, column: error.column), error.message)
            return (nil, diagnostics)
        }
    }

    /// Compiles `text`, adding its compile error or its warnings to `diagnostics`.
    private static func compile(_ text: String, name: String, into diagnostics: inout Diagnostics) -> MustacheTemplate? {
        do {
            let template = try MustacheTemplate(source: text, name: name)
            for w in template.warnings() {
                diagnostics.warning(SourceLocation(path: name, line: w.line, column: w.column), w.message)
            }
            return template
        } catch {
            diagnostics.error(SourceLocation(path: name, line: error.line, column: error.column), error.message)
            return nil
        }
    }

    /// The file's text (BOM removed, line endings normalised). A file that cannot be opened is
    /// a usage error; bytes that are not UTF-8 are an error at their line and column, added to
    /// `diagnostics` (nil is returned).
    static func read(_ path: String, what: String, into diagnostics: inout Diagnostics) throws(UsageError) -> String? {
        guard access(path, R_OK) == 0 else {
            throw UsageError("cannot read \(what) '\(path)': \(String(cString: strerror(errno)))")
        }
        // Files named on the command line may be pipes (`--data <(…)`).
        switch SourceFile.readText(path, shownAs: path, regularOnly: false) {
        case .success(let text):
            return text
        case .failure(let problem):
            diagnostics.append(problem)
            return nil
        }
    }
}
