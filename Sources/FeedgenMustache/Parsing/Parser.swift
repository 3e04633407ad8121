/// Builds the node tree from the tokens: matches section tags, turns standalone lines into
/// nothing, marks line starts, keeps only blocks inside parents, dedents standalone blocks.
struct Parser {
    private let source: SourceText
    private var tokens: [Token]

    private struct Frame {
        var openIndex: Int
        /// The opening tag's position, found in order (finding it again when the section
        /// closes went back along the line: n nested sections on one line cost n²).
        var position: Position
        var nodes: [Node] = []
        /// For a parent: the first content of its body that is not a block (ignored).
        var ignoredContent: Position?
    }

    init(source: SourceText, tokens: [Token]) {
        self.source = source
        self.tokens = tokens
    }

    /// Errors: ``MustacheError/Kind/unclosedSection``, ``MustacheError/Kind/mismatchedClosingTag``,
    /// ``MustacheError/Kind/unexpectedClosingTag``.
    mutating func parse() throws(MustacheError) -> [Node] {
        Standalone.mark(&tokens, in: source.bytes)
        var root: [Node] = []
        var stack: [Frame] = []
        var atLineStart = true

        func append(_ node: Node) {
            if stack.isEmpty { Parser.append(node, to: &root, insideParent: false) } else {
                let top = stack.count - 1
                let insideParent = tokens[stack[top].openIndex].kind == .parent
                if insideParent, stack[top].ignoredContent == nil, let position = Parser.visiblePosition(node) {
                    stack[top].ignoredContent = position
                }
                Parser.append(node, to: &stack[top].nodes, insideParent: insideParent)
            }
        }

        for index in tokens.indices {
            let token = tokens[index]
            if token.removed {
                if token.kind == .newline { atLineStart = true }
                continue
            }
            let position = source.position(of: token.start)
            switch token.kind {
            case .newline:
                append(.text(Text(bytes: Array(source.bytes[token.start..<token.end]), position: position)))
                atLineStart = true
                continue
            case .text:
                var start = token.start
                if atLineStart {
                    while start < token.end && isIndentWhitespace(source.bytes[start]) { start += 1 }
                    append(.lineStart(LineStart(leading: Array(source.bytes[token.start..<start]), position: position)))
                }
                if start < token.end {
                    append(.text(Text(bytes: Array(source.bytes[start..<token.end]), position: source.position(of: start))))
                }
                atLineStart = false
                continue
            default:
                break
            }

            if atLineStart && !token.standalone {
                append(.lineStart(LineStart(leading: [], position: position)))
            }
            atLineStart = false

            switch token.kind {
            case .variable, .unescapedVariable:
                append(.variable(Box(Variable(name: Name(token.name), escaped: token.kind == .variable, position: position))))
            case .section, .invertedSection, .parent, .block:
                guard stack.count < MustacheTemplate.maximumNestingDepth else {
                    throw source.error(
                        .nestingLimit, "sections nested deeper than \(MustacheTemplate.maximumNestingDepth) levels",
                        at: position)
                }
                stack.append(Frame(openIndex: index, position: position))
            case .partial:
                append(.partial(Box(Partial(
                    name: reference(token), standalone: token.standalone, indent: token.lineIndent,
                    position: position))))
            case .close:
                guard let frame = stack.popLast() else {
                    throw source.error(
                        .unexpectedClosingTag,
                        "closing tag '\(token.matchKey)' does not close any open section", at: position)
                }
                let open = tokens[frame.openIndex]
                guard open.matchKey == token.matchKey else {
                    let openedAt = frame.position
                    throw source.error(
                        .mismatchedClosingTag,
                        "closing tag '\(token.matchKey)' does not match '\(open.matchKey)' opened at \(openedAt)",
                        at: position)
                }
                append(node(for: frame, closedBy: index))
            case .comment, .setDelimiters, .text, .newline:
                break
            }
        }

        if let frame = stack.last {
            let open = tokens[frame.openIndex]
            let what: String
            switch open.kind {
            case .invertedSection: what = "inverted section"
            case .parent: what = "parent"
            case .block: what = "block"
            default: what = "section"
            }
            throw source.error(.unclosedSection, "unclosed \(what) '\(open.matchKey)'", at: frame.position)
        }
        return root
    }

    /// Appends a node, merging adjacent text. Inside a parent only blocks are kept
    /// (`~inheritance.json` "Text inside parent").
    private static func append(_ node: Node, to nodes: inout [Node], insideParent: Bool) {
        if insideParent {
            if case .block = node { nodes.append(node) }
            return
        }
        if case .text(let text) = node, case .text(var last)? = nodes.last {
            last.bytes.append(contentsOf: text.bytes)
            nodes[nodes.count - 1] = .text(last)
            return
        }
        nodes.append(node)
    }

    /// Where `node` is when it is something a parent's body would ignore: text other than
    /// white space, or a tag other than a block; nil otherwise.
    private static func visiblePosition(_ node: Node) -> Position? {
        switch node {
        case .block, .lineStart:
            return nil
        case .text(let text):
            guard let k = text.bytes.firstIndex(where: { !isWhitespace($0) }) else { return nil }
            var position = text.position
            position.column += text.bytes[..<k].count { $0 & 0xC0 != 0x80 }
            return position
        case .variable(let v): return v.value.position
        case .section(let s): return s.value.position
        case .partial(let p): return p.value.position
        case .parent(let p): return p.value.position
        }
    }

    private func reference(_ token: Token) -> TemplateReference {
        token.isDynamic ? .dynamic(Name(token.name)) : .literal(token.name)
    }

    private func node(for frame: Frame, closedBy closeIndex: Int) -> Node {
        let open = tokens[frame.openIndex]
        let position = frame.position
        let range = contentRange(open: frame.openIndex, close: closeIndex)
        switch open.kind {
        case .section, .invertedSection:
            return .section(Box(Section(
                name: Name(open.name), inverted: open.kind == .invertedSection, children: frame.nodes,
                source: source, rawRange: range, delimiters: open.delimiters, position: position)))
        case .parent:
            var blocks: [String: Block] = [:]
            for case .block(let box) in frame.nodes where blocks[box.value.name] == nil {
                blocks[box.value.name] = box.value
            }
            return .parent(Box(Parent(
                name: reference(open), standalone: open.standalone, indent: open.lineIndent,
                blocks: blocks, ignoredContent: frame.ignoredContent, position: position)))
        default:
            var block = Block(
                name: open.name, children: frame.nodes, standalone: open.standalone, indent: [],
                firstLineInline: false, source: source, position: position)
            if open.standalone {
                let (common, hasContent) = Dedent.commonIndent(of: source.bytes[range])
                Dedent.remove(common, from: &block.children)
                block.indent = hasContent ? common : open.lineIndent
            } else {
                let next = frame.openIndex + 1
                block.firstLineInline = next < closeIndex && tokens[next].kind != .newline
            }
            return .block(Box(block))
        }
    }

    /// The source between a section's tags, without the line of a standalone opening or closing tag.
    private func contentRange(open: Int, close: Int) -> Range<Int> {
        var start = tokens[open].end
        if tokens[open].standalone {
            var k = open + 1
            while k < close && tokens[k].kind == .text && tokens[k].removed { k += 1 }
            if k < close && tokens[k].kind == .newline && tokens[k].removed { start = tokens[k].end }
        }
        var end = tokens[close].start
        if tokens[close].standalone {
            var k = close - 1
            while k > open && tokens[k].kind == .text && tokens[k].removed { k -= 1 }
            if k > open && tokens[k].kind == .newline { end = tokens[k].end }
        }
        return start..<max(start, end)
    }
}
