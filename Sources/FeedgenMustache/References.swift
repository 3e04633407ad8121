/// A tag of a compiled template that names something: a value in the context, a partial or
/// parent, or a block. Returned by ``MustacheTemplate/references()`` for tools that check
/// templates without rendering them (feedgen's `--strict` lint, the unknown-partial check).
public struct MustacheReference: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// `{{name}}`: HTML-escaped interpolation.
        case variable
        /// `{{{name}}}` or `{{&name}}`: unescaped interpolation.
        case unescapedVariable
        /// `{{#name}}`.
        case section
        /// `{{^name}}`.
        case invertedSection
        /// `{{>name}}`; ``MustacheReference/isDynamic`` for `{{>*name}}`.
        case partial
        /// `{{<name}}`; ``MustacheReference/isDynamic`` for `{{<*name}}`.
        case parent
        /// `{{$name}}`: a slot, or an override inside a parent.
        case block
    }

    public var kind: Kind
    /// The name as written: a dotted context name (`item.date.iso`, `.`), a partial name, a
    /// block name; for a dynamic partial or parent, the dotted context name after `*`.
    public var name: String
    /// Whether a partial's or parent's name is looked up in the context (`~dynamic-names.json`).
    public var isDynamic: Bool
    /// The names of the enclosing sections (not inverted sections, which push nothing),
    /// outermost first: the context stack this tag is resolved against, above the root
    /// (Mustache spec, `sections.json` "Context"). A tag inside a block inside a parent gets
    /// the sections enclosing the parent tag.
    public var sections: [String]
    /// 1-based line and column (Unicode scalars) of the tag's opening delimiter.
    public var line: Int
    public var column: Int

    public init(kind: Kind, name: String, isDynamic: Bool = false, sections: [String] = [], line: Int, column: Int) {
        self.kind = kind
        self.name = name
        self.isDynamic = isDynamic
        self.sections = sections
        self.line = line
        self.column = column
    }

    /// Whether the name is looked up in the context: variables, sections, inverted sections
    /// and dynamic partial or parent names.
    public var isContextLookup: Bool {
        switch kind {
        case .variable, .unescapedVariable, .section, .invertedSection: true
        case .partial, .parent: isDynamic
        case .block: false
        }
    }

    /// `line:column kind name`, for test failures.
    public var description: String { "\(line):\(column) \(kind.rawValue) \(isDynamic ? "*" : "")\(name)" }
}

/// Something legal but most likely a mistake, found in a compiled template by
/// ``MustacheTemplate/warnings()``.
public struct MustacheWarning: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// `{{<name}}…{{/name}}` with no block inside: it renders exactly like the partial
        /// `{{>name}}`, and anything else written inside is ignored (`~inheritance.json`).
        case parentWithoutBlocks
        /// Text or tags inside a parent but outside its blocks, which the spec ignores
        /// (`~inheritance.json` "Text inside parent").
        case contentOutsideBlocks
    }

    public var kind: Kind
    public var message: String
    /// 1-based line and column of the parent tag (or of the ignored content).
    public var line: Int
    public var column: Int

    /// `line:column: warning: message`.
    public var description: String { "\(line):\(column): warning: \(message)" }
}

extension MustacheTemplate {
    /// Every naming tag of the template, in source order (see ``MustacheReference``).
    ///
    /// Partials are not followed. Inside a parent only its blocks are listed, since everything
    /// else there is ignored when rendering. Comments and Set Delimiter tags are not listed.
    public func references() -> [MustacheReference] {
        var result: [MustacheReference] = []
        var sections: [String] = []
        Self.collect(nodes, sections: &sections, into: &result)
        return result
    }

    private static func collect(_ nodes: [Node], sections: inout [String], into result: inout [MustacheReference]) {
        func add(_ kind: MustacheReference.Kind, _ name: String, dynamic: Bool = false, _ position: Position) {
            result.append(MustacheReference(
                kind: kind, name: name, isDynamic: dynamic, sections: sections, line: position.line,
                column: position.column))
        }
        func add(_ kind: MustacheReference.Kind, _ reference: TemplateReference, _ position: Position) {
            switch reference {
            case .literal(let name): add(kind, name, position)
            case .dynamic(let name): add(kind, name.text, dynamic: true, position)
            }
        }
        for node in nodes {
            switch node {
            case .variable(let box):
                let variable = box.value
                add(variable.escaped ? .variable : .unescapedVariable, variable.name.text, variable.position)
            case .section(let box):
                let section = box.value
                add(section.inverted ? .invertedSection : .section, section.name.text, section.position)
                if !section.inverted { sections.append(section.name.text) }
                collect(section.children, sections: &sections, into: &result)
                if !section.inverted { sections.removeLast() }
            case .partial(let box):
                let partial = box.value
                add(.partial, partial.name, partial.position)
            case .parent(let box):
                let parent = box.value
                add(.parent, parent.name, parent.position)
                for block in parent.blocks.values.sorted(by: { $0.position < $1.position }) {
                    add(.block, block.name, block.position)
                    collect(block.children, sections: &sections, into: &result)
                }
            case .block(let box):
                let block = box.value
                add(.block, block.name, block.position)
                collect(block.children, sections: &sections, into: &result)
            case .text, .lineStart:
                break
            }
        }
    }

    /// Constructs that the spec allows but that are most likely mistakes, in source order:
    /// a parent without blocks, content inside a parent that is outside its blocks.
    public func warnings() -> [MustacheWarning] {
        var result: [MustacheWarning] = []
        Self.collectWarnings(nodes, into: &result)
        return result
    }

    private static func collectWarnings(_ nodes: [Node], into result: inout [MustacheWarning]) {
        for node in nodes {
            switch node {
            case .section(let section):
                collectWarnings(section.value.children, into: &result)
            case .block(let block):
                collectWarnings(block.value.children, into: &result)
            case .parent(let box):
                let parent = box.value
                let name: String
                switch parent.name {
                case .literal(let literal): name = literal
                case .dynamic(let dotted): name = "*" + dotted.text
                }
                if parent.blocks.isEmpty {
                    let ignored = parent.ignoredContent == nil ? "" : "; the content inside it is ignored"
                    result.append(MustacheWarning(
                        kind: .parentWithoutBlocks,
                        message: "parent '\(name)' has no blocks, so it renders like the partial {{>\(name)}}\(ignored); "
                            + "put what it should replace in a block such as {{$content}}…{{/content}}",
                        line: parent.position.line, column: parent.position.column))
                } else if let ignored = parent.ignoredContent {
                    result.append(MustacheWarning(
                        kind: .contentOutsideBlocks,
                        message: "content inside parent '\(name)' but outside its blocks is ignored; "
                            + "move it into a block",
                        line: ignored.line, column: ignored.column))
                }
                for block in parent.blocks.values.sorted(by: { $0.position < $1.position }) {
                    collectWarnings(block.children, into: &result)
                }
            case .text, .lineStart, .variable, .partial:
                break
            }
        }
    }
}
