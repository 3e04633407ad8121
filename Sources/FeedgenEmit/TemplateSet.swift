import FeedgenContent
import FeedgenDiagnostics
import FeedgenMustache

/// The site's templates: the built-ins compiled into the binary (from the repository's
/// `Templates/`), overridden file by file by `<site>/Templates/` (content-format §7).
///
/// ```text
/// Templates/
///   feed.mustache  section.mustache  item.mustache   pages (feed, section, item contexts)
///   cards/<type>.mustache                            one card per item type (card context)
///   partials/<name>.mustache                         {{> name}}, and parents: {{< base}}
///   theme.css                                        copied to assets/theme.css
/// ```
///
/// Every template is parsed once; pages and cards reuse the compiled form.
public struct TemplateSet: Sendable, PartialProvider {
    /// Source text by path relative to `Templates/` (`cards/card.mustache`).
    public let sources: [String: String]
    /// Where each source came from, for diagnostics (`Templates/feed.mustache` or `(built-in) …`).
    public let origins: [String: String]
    private let compiled: [String: MustacheTemplate]
    /// What ``partialPath(_:)`` finds for each name it can find, by name (a partial is looked up
    /// by name on every render).
    private let partialPaths: [String: String]

    /// The built-in files, as compiled into the binary.
    public static var builtinFiles: [String: String] { BuiltinTemplates.files }

    /// Compiles the built-ins overridden by `overrides` (path → source text, paths relative to the
    /// site's `Templates/`).
    ///
    /// - Throws: ``TemplateErrors`` with every problem, each at its `path:line:column`: the
    ///   compile errors of ``MustacheTemplate/init(source:name:)`` (unclosed or mismatched
    ///   section, bad delimiter change, unclosed or empty tag), and every partial or parent tag
    ///   with a literal name that names no template (in a site build partials are strict: the
    ///   spec's "render nothing" would hide a typo).
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
        self.sources = sources
        self.origins = origins
        self.compiled = compiled
        self.partialPaths = Self.partialPaths(compiled.keys)
        problems += unknownPartials()
        if !problems.isEmpty { throw TemplateErrors(diagnostics: problems) }
    }

    /// The compiled template at `path` (`feed.mustache`, `cards/weather.mustache`).
    public func template(at path: String) -> MustacheTemplate? { compiled[path] }

    /// Partials: `{{> name}}` is `partials/name.mustache`, then `name.mustache` (so a page
    /// template can be used as a parent with `{{< feed}}`).
    public func template(named name: String) throws(MustacheError) -> MustacheTemplate? {
        partialPath(name).flatMap { compiled[$0] }
    }

    /// The path of the template `{{> name}}` uses, if there is one: `partials/<name>.mustache`,
    /// else `<name>.mustache`.
    public func partialPath(_ name: String) -> String? { partialPaths[name] }

    /// ``partialPath(_:)`` of every name that has one, from the templates' paths.
    private static func partialPaths(_ paths: some Collection<String>) -> [String: String] {
        let suffix = ".mustache"
        var found: [String: String] = [:]
        for path in paths where path.hasSuffix(suffix) {
            let name = String(path.dropLast(suffix.count))
            if found[name] == nil { found[name] = path }
        }
        for path in paths where path.hasPrefix("partials/") && path.hasSuffix(suffix) {
            found[String(path.dropFirst("partials/".count).dropLast(suffix.count))] = path
        }
        return found
    }

    /// The card template for an item `type` (`cards/<type>.mustache`), or nil when there is
    /// none (the renderer then uses `cards/card.mustache`).
    public func card(type: String) -> MustacheTemplate? {
        compiled["cards/\(type).mustache"]
    }

    /// A plain (non-template) file such as `theme.css`.
    public func file(_ path: String) -> String? { sources[path] }

    // MARK: - Checks

    /// Every partial or parent tag with a literal name that names no template, as errors.
    private func unknownPartials() -> [Diagnostic] {
        var names: Set<String> = []
        for key in compiled.keys {
            if key.hasPrefix("partials/") { names.insert(String(key.dropFirst(9).dropLast(9))) }
            if !key.contains("/") { names.insert(String(key.dropLast(9))) }
        }
        var problems: [Diagnostic] = []
        for key in compiled.keys.sorted() {
            for reference in compiled[key]!.references()
            where (reference.kind == .partial || reference.kind == .parent) && !reference.isDynamic
                && partialPath(reference.name) == nil
            {
                let what = reference.kind == .parent ? "parent" : "partial"
                problems.append(.error(
                    SourceLocation(path: origins[key]!, line: reference.line, column: reference.column),
                    "unknown \(what) '\(reference.name)': there is no partials/\(reference.name).mustache or "
                        + "\(reference.name).mustache in Templates/\(Suggestion.didYouMean(reference.name, in: names))"))
            }
        }
        return problems
    }

    /// Warnings about the templates, for `--strict` (which makes them errors):
    ///
    /// - a name that no context ever provides: each variable and section name of `feed`,
    ///   `section`, `item`, `cards/*` templates and of the partials feedgen renders itself
    ///   (`slide-label`, `item-count`, `carousel-roledescription`, `slide-roledescription`) is
    ///   checked against the keys of its kind
    ///   (``TemplateContext/schema(for:)``, documented in docs/templates.md; any name below
    ///   `params` is allowed), taking the enclosing sections into account (`{{#image}}{{src}}`
    ///   is `image.src`, Mustache spec `sections.json`); partials and parents are checked in the
    ///   context of every tag that includes them, and warned about only when no such context
    ///   has the name;
    /// - a parent without blocks, content inside a parent outside its blocks
    ///   (``MustacheTemplate/warnings()``);
    /// - when `site` is given, an item `type` with no `cards/<type>.mustache` (the card then
    ///   uses `cards/card.mustache`), at the item's `type` value.
    ///
    /// Pure: the same templates and site give the same diagnostics, in a stable order.
    public func lint(for site: Site? = nil) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for key in compiled.keys.sorted() {
            for warning in compiled[key]!.warnings() {
                diagnostics.append(.warning(
                    SourceLocation(path: origins[key]!, line: warning.line, column: warning.column), warning.message))
            }
        }
        diagnostics += unknownNames()
        if let site { diagnostics += missingCardTemplates(site) }
        return diagnostics
    }

    private func missingCardTemplates(_ site: Site) -> [Diagnostic] {
        let types = compiled.keys.filter { $0.hasPrefix("cards/") }.map { String($0.dropFirst(6).dropLast(9)) }
        var seen: Set<SourceLocation> = []
        var diagnostics: [Diagnostic] = []
        // Whether each type has a card template, asked once per type (a site has a few types);
        // the last item's answer is kept too: items in a row mostly share their type, and a
        // string comparison costs less than a hash.
        var drawn: [String: Bool] = [:]
        var last: (type: String, found: Bool)?
        for feed in site.feeds {
            for section in feed.sections {
                for item in section.items {
                    let type = item.type
                    let found: Bool
                    if let last, last.type == type {
                        found = last.found
                    } else {
                        if let known = drawn[type] {
                            found = known
                        } else {
                            found = card(type: type) != nil
                            drawn[type] = found
                        }
                        last = (type, found)
                    }
                    guard !found else { continue }
                    let node = item.frontMatter["type"]
                    let location = node.map { SourceLocation(path: item.sourcePath, line: $0.line, column: $0.column) }
                        ?? item.location
                    guard seen.insert(location).inserted else { continue }
                    diagnostics.append(.warning(
                        location,
                        "no template cards/\(item.type).mustache for type '\(item.type)'; the card uses "
                            + "cards/card.mustache\(Suggestion.didYouMean(item.type, in: types))"))
                }
            }
        }
        return diagnostics
    }

    // MARK: Names no context provides

    /// One level of the context stack during the check: the absolute paths its value may have,
    /// or `anything` when its value is free data (or unknown), so that names below it cannot be
    /// checked.
    private struct Frame {
        var paths: [String]
        var anything = false
    }

    private enum Resolution {
        case anything
        case paths([String])
        case missing
    }

    /// A tag, by template and position.
    private struct TagKey: Hashable {
        var template: String
        var line: Int
        var column: Int
    }

    /// What the walk found for one tag over every context it was checked in.
    private struct TagFinding {
        var name: String
        var provided = false
        var suggestion: String?
    }

    private func unknownNames() -> [Diagnostic] {
        var findings: [TagKey: TagFinding] = [:]
        for key in compiled.keys.sorted() {
            guard let kind = TemplateContext.Kind(path: key) else { continue }
            var including: [String] = []
            walk(key, schema: TemplateContext.schema(for: kind), frames: [Frame(paths: [""])], including: &including,
                 findings: &findings)
        }
        var diagnostics: [Diagnostic] = []
        for (tag, finding) in findings.sorted(by: { ($0.key.template, $0.key.line, $0.key.column) < ($1.key.template, $1.key.line, $1.key.column) })
        where !finding.provided {
            let whose: String
            if let kind = TemplateContext.Kind(path: tag.template) {
                switch kind {
                case .card: whose = "the context of a card template"
                case .slideLabel: whose = "the context of a slide label"
                case .itemCount: whose = "the context of an item count"
                case .roleDescription: whose = "the context of a role description"
                default: whose = "the context of the \(kind.rawValue) template"
                }
            } else {
                whose = "any context where this partial is used"
            }
            let hint = finding.suggestion.map { " (did you mean '\($0)'?)" } ?? ""
            diagnostics.append(.warning(
                SourceLocation(path: origins[tag.template]!, line: tag.line, column: tag.column),
                "no value '\(finding.name)' in \(whose); it renders as nothing\(hint)"))
        }
        return diagnostics
    }

    /// Checks the names of the template at `key` against `schema`, in the context stack
    /// `frames`, and follows its literal partials and parents with the stack at their tag.
    private func walk(
        _ key: String, schema: ContextSchema, frames: [Frame], including: inout [String],
        findings: inout [TagKey: TagFinding]
    ) {
        guard let template = compiled[key], !including.contains(key), including.count < 32 else { return }
        including.append(key)
        defer { including.removeLast() }
        var sectionFrames: [Frame] = []
        for reference in template.references() {
            sectionFrames.removeLast(max(0, sectionFrames.count - reference.sections.count))
            let stack = frames + sectionFrames
            if reference.isContextLookup, !reference.name.hasPrefix(".") {
                let resolution = Self.resolve(reference.name, in: stack, schema: schema)
                let tag = TagKey(template: key, line: reference.line, column: reference.column)
                var finding = findings[tag] ?? TagFinding(name: reference.name)
                if case .missing = resolution {
                    if finding.suggestion == nil {
                        finding.suggestion = Suggestion.closest(
                            to: reference.name, in: Self.candidates(in: stack, schema: schema))
                    }
                } else {
                    finding.provided = true
                }
                findings[tag] = finding
                if reference.kind == .section {
                    switch resolution {
                    case .paths(let paths):
                        // Inside a list that is always empty here (the built-in head's
                        // {{#page.feeds}} on item pages) nothing renders: nothing to warn about.
                        sectionFrames.append(Frame(paths: paths, anything: paths.allSatisfy(schema.emptyLists.contains)))
                    case .anything, .missing: sectionFrames.append(Frame(paths: [], anything: true))
                    }
                }
            } else if reference.kind == .section {
                sectionFrames.append(Frame(paths: [], anything: true))  // `{{#.}}`
            }
            if reference.kind == .partial || reference.kind == .parent, !reference.isDynamic,
                let target = partialPath(reference.name)
            {
                walk(target, schema: schema, frames: stack, including: &including, findings: &findings)
            }
        }
    }

    /// Where `name` may come from in `stack`, searched from the top (Mustache spec,
    /// `interpolation.json` "Dotted Names"; any frame that has it counts).
    private static func resolve(_ name: String, in stack: [Frame], schema: ContextSchema) -> Resolution {
        var found: [String] = []
        for frame in stack.reversed() {
            if frame.anything { return .anything }
            for path in frame.paths {
                let full = path.isEmpty ? name : path + "." + name
                if schema.isOpen(full) { return .anything }
                if schema.paths.contains(full) { found.append(full) }
            }
        }
        return found.isEmpty ? .missing : .paths(found)
    }

    /// The names reachable from `stack`, for "did you mean".
    private static func candidates(in stack: [Frame], schema: ContextSchema) -> [String] {
        var names: [String] = []
        for frame in stack where !frame.anything {
            for path in frame.paths {
                if path.isEmpty {
                    names += schema.paths
                } else {
                    names += schema.paths.filter { $0.hasPrefix(path + ".") }.map { String($0.dropFirst(path.count + 1)) }
                }
            }
        }
        return names.sorted()
    }
}

/// Errors found while compiling or rendering templates, each at its position.
public struct TemplateErrors: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]

    public init(diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }

    /// An error of the Mustache engine as a diagnostic at `path:line:column`, where the path
    /// is the name the template was compiled with (its origin in a ``TemplateSet``).
    public init(_ error: MustacheError) {
        self.diagnostics = [
            .error(SourceLocation(path: error.templateName, line: error.line, column: error.column), error.message)
        ]
    }

    /// One diagnostic per line.
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
