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

        OPTIONS:
          --data FILE               The context: a JSON or YAML file (by extension)
          --partials DIR            Folder of partials: {{> name}} reads DIR/name.mustache
          --strict                  An unknown partial is an error
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
        guard let source = read(file) else { throw UsageError("cannot read template '\(file)'") }
        guard let dataText = read(dataFile) else { throw UsageError("cannot read data '\(dataFile)'") }

        var diagnostics = Diagnostics()
        var context: MustacheValue = .null
        if dataFile.hasSuffix(".json") {
            do {
                context = try MustacheValue(json: dataText, name: dataFile)
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

        var partials: [String: String] = [:]
        if let dir = args.options["--partials"] {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else {
                throw UsageError("cannot read --partials folder '\(dir)'")
            }
            for name in names.sorted() where name.hasSuffix(".mustache") {
                partials[String(name.dropLast(".mustache".count))] = read(dir + "/" + name) ?? ""
            }
        }
        var provider: (any PartialProvider)?
        do {
            provider = try DictionaryPartials(partials)
        } catch {
            diagnostics.error(SourceLocation(path: error.templateName, line: error.line, column: error.column), error.message)
        }
        var template: MustacheTemplate?
        do {
            template = try MustacheTemplate(source: source, name: file)
        } catch {
            diagnostics.error(SourceLocation(path: file, line: error.line, column: error.column), error.message)
        }
        guard !diagnostics.hasErrors, let template, let provider else {
            terminal.print(diagnostics)
            return 1
        }
        do {
            let text = try template.render(context, partials: provider, strictPartials: args.flags.contains("--strict"))
            terminal.out(text)
            return 0
        } catch {
            let path = error.templateName.isEmpty ? file : error.templateName
            diagnostics.error(SourceLocation(path: path, line: error.line, column: error.column), error.message)
            terminal.print(diagnostics)
            return 1
        }
    }

    /// The file's text, or nil when it cannot be read as UTF-8.
    static func read(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return String(data: data, encoding: .utf8)
    }
}
