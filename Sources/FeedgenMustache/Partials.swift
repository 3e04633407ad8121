/// Where partial (`{{>name}}`) and parent (`{{<name}}`) tags find their templates.
///
/// Templates are compiled once and handed out by the provider on every use, so a provider
/// should cache compiled templates rather than compile on each call. It must be safe to call
/// from several threads at once.
public protocol PartialProvider: Sendable {
    /// The template called `name`, or `nil` when there is none (rendered as nothing, unless
    /// rendering is strict). Throws when a template exists but cannot be compiled.
    func template(named name: String) throws(MustacheError) -> MustacheTemplate?
}

/// Partials compiled up front from their sources; immutable, so safe to share between threads.
public struct DictionaryPartials: PartialProvider {
    public let templates: [String: MustacheTemplate]

    /// Compiles every source, each named by its key (the name used in errors).
    /// - Throws: The first ``MustacheError`` in key order.
    public init(_ sources: [String: String]) throws(MustacheError) {
        var templates: [String: MustacheTemplate] = [:]
        for key in sources.keys.sorted() {
            templates[key] = try MustacheTemplate(source: sources[key]!, name: key)
        }
        self.templates = templates
    }

    /// Partials from templates already compiled.
    public init(templates: [String: MustacheTemplate]) {
        self.templates = templates
    }

    public func template(named name: String) -> MustacheTemplate? { templates[name] }
}

/// No partials at all: every partial tag renders as nothing (or fails, when strict).
public struct NoPartials: PartialProvider {
    public init() {}
    public func template(named name: String) -> MustacheTemplate? { nil }
}
