import FeedgenDiagnostics
import FeedgenMustache

/// The site's templates: the built-ins compiled into the binary (from the repository's
/// `Templates/`), overridden file by file by `<site>/Templates/` (content-format §7).
///
/// Every template is parsed once; pages and cards reuse the compiled form.
public struct TemplateSet: Sendable, PartialProvider {
    /// Source text by path relative to `Templates/` (`cards/card.mustache`).
    public let sources: [String: String]
    /// Where each source came from, for diagnostics (`Templates/feed.mustache` or `(built-in) …`).
    public let origins: [String: String]
    private let compiled: [String: MustacheTemplate]

    /// The built-in files, as compiled into the binary.
    public static var builtinFiles: [String: String] { BuiltinTemplates.files }

    /// Compiles the built-ins overridden by `overrides` (path → source text, paths relative to the
    /// site's `Templates/`). Throws the template errors, each at its `path:line:column`.
    public init(overrides: [String: String] = [:], overrideRoot: String = "Templates") throws(TemplateErrors) {
        var sources = BuiltinTemplates.files
        var origins: [String: String] = [:]
        for key in sources.keys { origins[key] = "(built-in) Templates/\(key)" }
        for (key, text) in overrides {
            sources[key] = text
            origins[key] = "\(overrideRoot)/\(key)"
        }
        var compiled: [String: MustacheTemplate] = [:]
        var problems: [Diagnostic] = []
        for key in sources.keys.sorted() where key.hasSuffix(".mustache") {
            do {
                compiled[key] = try MustacheTemplate(source: sources[key]!, name: origins[key]!)
            } catch {
                problems.append(.error(SourceLocation(path: origins[key]!, line: error.line, column: error.column), error.message))
            }
        }
        if !problems.isEmpty { throw TemplateErrors(diagnostics: problems) }
        self.sources = sources
        self.origins = origins
        self.compiled = compiled
    }

    /// The compiled template at `path` (`feed.mustache`, `cards/weather.mustache`).
    public func template(at path: String) -> MustacheTemplate? { compiled[path] }

    /// Partials: `{{> name}}` is `partials/name.mustache`, then `name.mustache` (so layouts can
    /// be used as parents with `{{< feed}}`).
    public func template(named name: String) throws(MustacheError) -> MustacheTemplate? {
        compiled["partials/\(name).mustache"] ?? compiled["\(name).mustache"]
    }

    /// The card template for an item `type`, falling back to `cards/card.mustache`.
    public func card(type: String) -> MustacheTemplate? {
        compiled["cards/\(type).mustache"]
    }

    /// A plain (non-template) file such as `theme.css`.
    public func file(_ path: String) -> String? { sources[path] }
}

/// Errors found while compiling templates, each at its position.
public struct TemplateErrors: Error, Sendable {
    public var diagnostics: [Diagnostic]

    public init(diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
}
