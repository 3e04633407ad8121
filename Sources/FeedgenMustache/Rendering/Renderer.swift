/// Renders compiled nodes into one output buffer. One renderer per `render` call: it holds all
/// mutable state, so a template can render on many threads at once.
struct Renderer {
    var output: OutputBuffer
    private var context: Context
    /// The blocks passed by each enclosing parent, outermost first. The outermost override of
    /// a name wins (`~inheritance.json` "Multi-level inheritance", "Recursion").
    private var overrides: [[String: Block]] = []
    private let partials: any PartialProvider
    private let strictPartials: Bool
    private var depth = 0
    /// Sections being rendered, through partials included (each level is two stack frames).
    private var sectionDepth = 0

    init(context: MustacheValue, partials: any PartialProvider, strictPartials: Bool, capacity: Int) {
        self.output = OutputBuffer(capacity: capacity)
        self.context = Context(context)
        self.partials = partials
        self.strictPartials = strictPartials
    }

    /// Renders `nodes`, written in `source`, writing `indent` at the start of each line.
    mutating func render(_ nodes: [Node], source: SourceText, indent: [UInt8]) throws(MustacheError) {
        // Each node borrowed in place: copying it out of the array retained its payload, an
        // object every page shares (atomic operations both cores contend for).
        try nodes.withUnsafeBufferPointer { (nodes) throws(MustacheError) in
            for i in nodes.indices { try render(nodes[i], source: source, indent: indent) }
        }
    }

    @inline(__always) private mutating func render(_ node: borrowing Node, source: SourceText, indent: [UInt8]) throws(MustacheError) {
        switch node {
        case .text(let text):
            output.append(text.string)
        case .lineStart(let line):
            if !indent.isEmpty { output.append(indent) }
            if !line.leadingString.isEmpty { output.append(line.leadingString) }
        case .variable(let variable):
            try renderVariable(variable, source: source)
        case .section(let section):
            try renderSection(section, indent: indent)
        case .partial(let partial):
            try renderPartial(partial.value, source: source, indent: indent)
        case .parent(let parent):
            try renderParent(parent.value, source: source, indent: indent)
        case .block(let block):
            try renderSlot(block.value, source: source, indent: indent)
        }
    }

    // MARK: Interpolation (`interpolation.json`, `~lambdas.json`)

    private mutating func renderVariable(_ variable: Box<Variable>, source: SourceText) throws(MustacheError) {
        guard let value = context.lookup(variable.value.name) else { return }
        if case .lambda = value {
            try interpolate(
                value, escaped: variable.value.escaped, tag: variable.value.name.text, source: source,
                at: variable.value.position)
        } else {
            write(value, escaped: variable.value.escaped)
        }
    }

    /// Writes a plain (non-lambda) value (`interpolation.json`).
    @inline(__always) private mutating func write(_ value: MustacheValue, escaped: Bool) {
        switch value {
        case .string(let s), .number(let s):
            if escaped { output.appendEscaped(s) } else { output.append(s) }
        case .bool(let b):
            output.append(b ? "true" : "false")
        case .null, .array, .object, .lambda:
            break
        }
    }

    private mutating func interpolate(
        _ value: MustacheValue, escaped: Bool, tag: String, source: SourceText, at position: Position
    ) throws(MustacheError) {
        switch value {
        case .null, .bool, .number, .string, .array, .object:
            write(value, escaped: escaped)
        case .lambda(let lambda):
            let result = try call(lambda, with: nil, tag: tag, source: source, at: position)
            if case .string(let template) = result {
                let mark = output.count
                try renderLambdaResult(template, delimiters: .standard, tag: tag, source: source, at: position)
                if escaped { output.escapeSuffix(from: mark) }
            } else if case .lambda = result {
                return
            } else {
                try interpolate(result, escaped: escaped, tag: tag, source: source, at: position)
            }
        }
    }

    // MARK: Sections (`sections.json`, `inverted.json`, `~lambdas.json`)

    private mutating func renderSection(_ box: Box<Section>, indent: [UInt8]) throws(MustacheError) {
        // One template nests at most `maximumNestingDepth` sections, but a partial may include
        // itself inside them: 40 sections × 100 partial levels overflowed the stack.
        guard sectionDepth < MustacheTemplate.maximumRenderedSectionDepth else {
            throw box.value.source.error(
                .nestingLimit,
                "sections nested deeper than \(MustacheTemplate.maximumRenderedSectionDepth) levels through partials",
                at: box.value.position)
        }
        sectionDepth += 1
        defer { sectionDepth -= 1 }
        let value = context.lookup(box.value.name) ?? .null
        if box.value.inverted {
            if !value.isTruthy { try render(box.value.children, source: box.value.source, indent: indent) }
            return
        }
        switch value {
        case .null, .bool(false):
            return
        case .array(let items):
            for item in items {
                context.push(item)
                try render(box.value.children, source: box.value.source, indent: indent)
                context.pop()
            }
        case .lambda(let lambda):
            let tag = box.value.name.text
            let result = try call(lambda, with: box.value.rawText, tag: tag, source: box.value.source, at: box.value.position)
            if case .string(let template) = result {
                try renderLambdaResult(
                    template, delimiters: box.value.delimiters, tag: tag, source: box.value.source, at: box.value.position)
            } else if case .lambda = result {
                return
            } else {
                try interpolate(result, escaped: false, tag: tag, source: box.value.source, at: box.value.position)
            }
        default:
            context.push(value)
            try render(box.value.children, source: box.value.source, indent: indent)
            context.pop()
        }
    }

    // MARK: Lambdas

    private func call(
        _ lambda: MustacheLambda, with text: String?, tag: String, source: SourceText, at position: Position
    ) throws(MustacheError) -> MustacheValue {
        do {
            return try lambda.body(text)
        } catch {
            throw source.error(.lambdaFailed, "lambda '\(tag)' failed: \(error)", at: position)
        }
    }

    /// Compiles and renders a lambda's returned template in the current context. Its lines are
    /// not indented: like interpolated data, it is not part of the enclosing template's source.
    private mutating func renderLambdaResult(
        _ text: String, delimiters: Delimiters, tag: String, source: SourceText, at position: Position
    ) throws(MustacheError) {
        let template: MustacheTemplate
        do {
            template = try MustacheTemplate(source: text, name: "lambda '\(tag)'", delimiters: delimiters)
        } catch {
            throw source.error(
                .lambdaFailed,
                "lambda '\(tag)' returned an invalid template: \(error.message) (at \(error.line):\(error.column) of its result)",
                at: position)
        }
        try enter("lambda", source: source, at: position)
        try render(template.nodes, source: template.source, indent: [])
        depth -= 1
    }

    // MARK: Partials (`partials.json`, `~dynamic-names.json`)

    private mutating func renderPartial(_ partial: Partial, source: SourceText, indent: [UInt8]) throws(MustacheError) {
        guard let template = try resolve(partial.name, source: source, at: partial.position) else { return }
        try enter("partial", source: source, at: partial.position)
        try render(template.nodes, source: template.source, indent: partial.standalone ? indent + partial.indent : [])
        depth -= 1
    }

    /// The template a partial or parent tag names, or `nil` when there is none to render.
    private mutating func resolve(
        _ reference: TemplateReference, source: SourceText, at position: Position
    ) throws(MustacheError) -> MustacheTemplate? {
        let name: String
        switch reference {
        case .literal(let literal):
            name = literal
        case .dynamic(let dotted):
            // "The dotted name resolution produces the same value as an Interpolation tag."
            let value = context.lookup(dotted) ?? .null
            let mark = output.count
            try interpolate(value, escaped: false, tag: dotted.text, source: source, at: position)
            name = output.removeSuffix(from: mark)
            if name.isEmpty {
                if strictPartials {
                    throw source.error(
                        .unknownPartial, "dynamic name '*\(dotted.text)' does not resolve to a partial name",
                        at: position)
                }
                return nil
            }
        }
        if let template = try partials.template(named: name) { return template }
        if strictPartials { throw source.error(.unknownPartial, "unknown partial '\(name)'", at: position) }
        return nil
    }

    private mutating func enter(_ what: String, source: SourceText, at position: Position) throws(MustacheError) {
        guard depth < MustacheTemplate.maximumPartialDepth else {
            throw source.error(
                .recursionLimit, "\(what) recursion deeper than \(MustacheTemplate.maximumPartialDepth)", at: position)
        }
        depth += 1
    }

    // MARK: Inheritance (`~inheritance.json`)

    private mutating func renderParent(_ parent: Parent, source: SourceText, indent: [UInt8]) throws(MustacheError) {
        guard let template = try resolve(parent.name, source: source, at: parent.position) else { return }
        try enter("partial", source: source, at: parent.position)
        overrides.append(parent.blocks)
        try render(template.nodes, source: template.source, indent: parent.standalone ? indent + parent.indent : [])
        overrides.removeLast()
        depth -= 1
    }

    /// A block outside a parent: renders the outermost override of its name, else its own
    /// content. A standalone slot indents what fills it with its indentation; an inline slot
    /// renders an override as is and its own content with the current indentation.
    private mutating func renderSlot(_ slot: Block, source: SourceText, indent: [UInt8]) throws(MustacheError) {
        var content = slot
        var overridden = false
        for level in overrides {
            if let block = level[slot.name] {
                content = block
                overridden = true
                break
            }
        }
        // An override whose content holds a block of its own name would fill itself forever
        // (found by fuzzing: `{{<q}}{{$b}}[{{$b}}y{{/b}}]{{/b}}{{/q}}`); overrides count towards
        // the same depth bound as partials, so such a template fails with a positioned error.
        if overridden { try enter("block", source: content.source, at: content.position) }
        if slot.standalone {
            let slotIndent = indent + slot.indent
            if content.firstLineInline && !slotIndent.isEmpty { output.append(slotIndent) }
            try render(content.children, source: content.source, indent: slotIndent)
        } else if overridden {
            try render(content.children, source: content.source, indent: [])
        } else {
            try render(slot.children, source: source, indent: indent)
        }
        if overridden { depth -= 1 }
    }
}
