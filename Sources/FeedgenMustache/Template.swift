/// A compiled Mustache template: parse once, render many times, from any thread.
///
/// Implements the whole Mustache specification (v1.4, `github.com/mustache/spec`), optional
/// modules included: comments, set delimiters, interpolation, sections, inverted sections,
/// partials, lambdas (`~lambdas.json`), inheritance with parents and blocks
/// (`~inheritance.json`), and dynamic names (`~dynamic-names.json`).
///
/// ```swift
/// let page = try MustacheTemplate(source: "<h1>{{title}}</h1>{{>footer}}", name: "page")
/// let partials = try DictionaryPartials(["footer": "<footer>{{year}}</footer>"])
/// let html = try page.render(["title": "Today", "year": 2025], partials: partials)
/// ```
public struct MustacheTemplate: Sendable {
    /// How deep partials, parents and lambda results may nest before rendering fails with
    /// ``MustacheError/Kind/recursionLimit`` (a guard against templates that include themselves
    /// without end).
    public static let maximumPartialDepth = 100

    /// How deep sections, inverted sections, parents and blocks may nest in one template before
    /// compiling fails with ``MustacheError/Kind/nestingLimit``: the walks over a compiled
    /// template recurse once per level, and 100,000 nested sections overflowed the stack.
    public static let maximumNestingDepth = 100

    /// How deep sections may nest while rendering, through partials, before rendering fails
    /// with ``MustacheError/Kind/nestingLimit`` (each level takes stack; 4,000 overflowed an
    /// 8 MiB stack in a debug build).
    public static let maximumRenderedSectionDepth = 1_000

    /// The name given at compile time, used in error messages.
    public var name: String { source.name }

    let nodes: [Node]
    let source: SourceText

    /// Compiles a template.
    ///
    /// - Parameters:
    ///   - source: The template text.
    ///   - name: Shown in errors (`name:line:column: error: message`), typically a file path.
    /// - Throws: ``MustacheError`` with the position of the offending tag:
    ///   ``MustacheError/Kind/unclosedTag`` (`{{name` with no `}}`),
    ///   ``MustacheError/Kind/emptyTag`` (`{{}}`),
    ///   ``MustacheError/Kind/invalidDelimiters`` (`{{=a=}}`),
    ///   ``MustacheError/Kind/unclosedSection`` (at the opening tag),
    ///   ``MustacheError/Kind/mismatchedClosingTag`` and ``MustacheError/Kind/unexpectedClosingTag``
    ///   (at the closing tag).
    public init(source: String, name: String = "") throws(MustacheError) {
        try self.init(source: source, name: name, delimiters: .standard)
    }

    init(source text: String, name: String, delimiters: Delimiters) throws(MustacheError) {
        let source = SourceText(name: name, text: text)
        var tokenizer = Tokenizer(source: source, delimiters: delimiters)
        let tokens = try tokenizer.tokenize()
        var parser = Parser(source: source, tokens: tokens)
        self.nodes = try parser.parse()
        self.source = source
    }

    /// Renders the template against `context`.
    ///
    /// - Parameters:
    ///   - context: The bottom of the context stack, usually an object.
    ///   - partials: Where `{{>name}}` and `{{<name}}` find their templates.
    ///   - strictPartials: When `false` (the spec's behaviour), a partial or parent the provider
    ///     does not know renders as nothing, as does a dynamic name that resolves to nothing.
    ///     When `true`, both throw ``MustacheError/Kind/unknownPartial`` ("unknown partial 'x'").
    /// - Throws: ``MustacheError``: ``MustacheError/Kind/unknownPartial`` (strict only),
    ///   ``MustacheError/Kind/recursionLimit`` (partials nested deeper than
    ///   ``maximumPartialDepth``), ``MustacheError/Kind/lambdaFailed``, and any error the
    ///   partial provider throws.
    public func render(
        _ context: MustacheValue, partials: any PartialProvider = NoPartials(), strictPartials: Bool = false
    ) throws(MustacheError) -> String {
        var renderer = Renderer(
            context: context, partials: partials, strictPartials: strictPartials,
            capacity: source.bytes.count + source.bytes.count / 2 + 64)
        try renderer.render(nodes, source: source, indent: [])
        return renderer.output.string
    }

    /// The dotted names the template looks up in the context: those of variables, sections,
    /// inverted sections and dynamic partial or parent names, as written (`person.name`),
    /// including those inside blocks and parents' blocks. The implicit iterator `.` is left
    /// out. Names inside a section are relative to that section's value, and partials are not
    /// followed.
    public func variableNames() -> Set<String> {
        Set(references().lazy.filter { $0.isContextLookup && $0.name != "." }.map(\.name))
    }
}
