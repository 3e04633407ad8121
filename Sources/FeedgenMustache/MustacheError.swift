/// An error found while compiling or rendering a Mustache template, or while reading JSON data.
///
/// Printed as `name:line:column: error: message`, the format of compilers and of the rest of
/// feedgen's diagnostics. `line` and `column` are 1-based and point at the first character of
/// the offending tag's opening delimiter (columns count Unicode scalars); they are 0 when the
/// problem has no position.
public struct MustacheError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong, for callers that want to react to one case.
    public enum Kind: String, Sendable, Equatable {
        /// A tag opened with the opening delimiter is never closed (`{{name` at end of input).
        case unclosedTag
        /// A tag with no name (`{{}}`, `{{#}}`, `{{>}}`).
        case emptyTag
        /// A section, inverted section, parent or block is never closed.
        case unclosedSection
        /// A closing tag whose name differs from the innermost open section's name.
        case mismatchedClosingTag
        /// A closing tag with no open section.
        case unexpectedClosingTag
        /// A Set Delimiter tag that is not two non-empty delimiters separated by whitespace.
        case invalidDelimiters
        /// A partial or parent that the partial provider does not know (strict rendering only).
        case unknownPartial
        /// Partials or parents nested deeper than ``MustacheTemplate/maximumPartialDepth``.
        case recursionLimit
        /// Sections, inverted sections, parents and blocks nested deeper than
        /// ``MustacheTemplate/maximumNestingDepth`` in one template, or sections deeper than
        /// ``MustacheTemplate/maximumRenderedSectionDepth`` while rendering through partials.
        case nestingLimit
        /// A lambda threw, or returned a template that does not compile.
        case lambdaFailed
        /// Malformed JSON given to ``MustacheValue/init(json:name:)``.
        case invalidJSON
    }

    public var kind: Kind
    public var message: String
    /// The name of the template (or JSON document) where the problem is; may be empty.
    public var templateName: String
    /// 1-based line, or 0 when unknown.
    public var line: Int
    /// 1-based column in Unicode scalars, or 0 when unknown.
    public var column: Int

    public init(_ kind: Kind, _ message: String, templateName: String = "", line: Int = 0, column: Int = 0) {
        self.kind = kind
        self.message = message
        self.templateName = templateName
        self.line = line
        self.column = column
    }

    /// `name:line:column: error: message` (an empty name prints as `<template>`).
    public var description: String {
        let name = templateName.isEmpty ? "<template>" : templateName
        return "\(name):\(line):\(column): error: \(message)"
    }
}
