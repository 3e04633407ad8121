/// The compiled form of a template: a tree of nodes, each tag node with its source position.
///
/// Whitespace rules are resolved at compile time: standalone lines are already removed, and
/// every output line of the template's own source begins with a ``Node/lineStart(_:)`` marker,
/// where the renderer writes the indentation of an enclosing standalone partial, parent or
/// block (Mustache spec, `partials.json` "Standalone Indentation", `~inheritance.json`).
enum Node: Sendable {
    /// Literal text, written as is.
    case text(Text)
    /// The start of a non-empty source line, holding the line's leading whitespace (kept
    /// separately so that block reindentation can remove part of it at compile time).
    case lineStart(LineStart)
    /// `{{name}}`, `{{{name}}}`, `{{&name}}`.
    case variable(Box<Variable>)
    /// `{{#name}}…{{/name}}` and `{{^name}}…{{/name}}`.
    case section(Box<Section>)
    /// `{{>name}}` and `{{>*name}}`.
    case partial(Box<Partial>)
    /// `{{<name}}…{{/name}}` and `{{<*name}}…{{/*name}}`: holds only the blocks of its body.
    case parent(Box<Parent>)
    /// `{{$name}}…{{/name}}`: a slot outside a parent, an override inside one.
    case block(Box<Block>)
}

/// An immutable heap box for a tag node's payload, so that the renderer's walk over the nodes
/// costs one retain per tag rather than one per reference the payload holds.
final class Box<Value: Sendable>: Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

struct Text: Sendable {
    /// The text (slices of the source at tag and line boundaries, so whole scalars), decoded
    /// once at compile time: the renderer appends it without validating it again on every
    /// render. The only storage, so that the renderer's copy of a node retains one buffer.
    private(set) var string: String
    var position: Position

    /// The text's UTF-8 bytes (for the compiler; the renderer uses ``string``).
    var bytes: [UInt8] {
        get { Array(string.utf8) }
        set { string = String(decoding: newValue, as: UTF8.self) }
    }

    init(bytes: [UInt8], position: Position) {
        self.string = String(decoding: bytes, as: UTF8.self)
        self.position = position
    }
}

struct LineStart: Sendable {
    /// The line's leading white space (from the source), decoded once at compile time; the only
    /// storage, as in ``Text``.
    private(set) var leadingString: String
    var position: Position

    /// The leading white space's UTF-8 bytes (for the compiler).
    var leading: [UInt8] {
        get { Array(leadingString.utf8) }
        set { leadingString = String(decoding: newValue, as: UTF8.self) }
    }

    init(leading: [UInt8], position: Position) {
        self.leadingString = String(decoding: leading, as: UTF8.self)
        self.position = position
    }
}

/// A dotted name (`a.b.c`) split into its parts, or the implicit iterator `.` (no parts).
struct Name: Sendable, Hashable {
    let text: String
    let components: [String]
    /// ``MustacheObject/fingerprint(_:)`` of each component, computed once at compile time.
    let fingerprints: [UInt64]

    init(_ text: String) {
        self.text = text
        self.components = text == "." ? [] : text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        self.fingerprints = components.map(MustacheObject.fingerprint)
    }

    var isImplicitIterator: Bool { components.isEmpty }
}

struct Variable: Sendable {
    var name: Name
    var escaped: Bool
    var position: Position
}

struct Section: Sendable {
    var name: Name
    var inverted: Bool
    var children: [Node]
    /// The unrendered section text, given to a lambda (standalone tag lines excluded).
    var source: SourceText
    var rawRange: Range<Int>
    /// The delimiters in effect at the opening tag: a lambda's result is compiled with them.
    var delimiters: Delimiters
    var position: Position

    var rawText: String { source.string(rawRange) }
}

/// The name of a partial or parent: written in the tag, or looked up in the context
/// (`~dynamic-names.json`).
enum TemplateReference: Sendable {
    case literal(String)
    case dynamic(Name)
}

struct Partial: Sendable {
    var name: TemplateReference
    /// Whether the tag stands alone on its line: only then does it carry indentation.
    var standalone: Bool
    /// Whitespace before the tag on its standalone line, prepended to every line of the partial.
    var indent: [UInt8]
    var position: Position
}

struct Parent: Sendable {
    var name: TemplateReference
    var standalone: Bool
    var indent: [UInt8]
    /// The body's blocks by name (the first of a repeated name wins); other content is ignored.
    var blocks: [String: Block]
    /// Where the first ignored content of the body is (text other than white space, or a tag
    /// other than a block or comment), for ``MustacheTemplate/warnings()``.
    var ignoredContent: Position?
    var position: Position
}

struct Block: Sendable {
    var name: String
    var children: [Node]
    /// Whether the opening tag stands alone on its line. Such a block's content is dedented at
    /// compile time, and its slot reindents whatever content fills it with ``indent``.
    var standalone: Bool
    /// For a standalone block: the content's common indentation, or when the content has no
    /// non-blank line, the whitespace before the tag.
    var indent: [UInt8]
    /// Whether the content starts with output on the opening tag's line (which therefore has
    /// no ``Node/lineStart(_:)`` marker but must be indented in a standalone slot).
    var firstLineInline: Bool
    /// The template the block was written in (for errors raised while rendering it elsewhere).
    var source: SourceText
    var position: Position
}
