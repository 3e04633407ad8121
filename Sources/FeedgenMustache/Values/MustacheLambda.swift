/// A function in the data, called by the template (Mustache spec, `~lambdas.json`).
///
/// - **Interpolation** (`{{name}}`, `{{{name}}}`, `{{&name}}`): the body is called with `nil`.
///   A returned `.string` is compiled as a template with the **default** delimiters `{{ }}`,
///   rendered against the current context, then HTML-escaped for `{{name}}`. Any other
///   returned value interpolates like plain data (so a counter may return `.int(n)`).
/// - **Section** (`{{#name}}…{{/name}}`): the body is called with the section's unrendered
///   source text. A returned `.string` is compiled with the delimiters in effect at the section
///   tag and rendered against the current context, unescaped; any other returned value
///   interpolates like plain data. When the section's opening or closing tag stands alone on
///   its line, that line is not part of the text.
/// - **Inverted section** (`{{^name}}`): a lambda is truthy, so the section is skipped and the
///   body is not called.
///
/// The body is called once per tag occurrence, possibly from several threads at once when a
/// template is rendered concurrently: it must be `Sendable` and guard any state it keeps.
/// A thrown error stops rendering with a ``MustacheError/Kind/lambdaFailed`` error.
public struct MustacheLambda: Sendable {
    /// Receives `nil` for an interpolation, the raw section text for a section.
    public let body: @Sendable (_ sectionText: String?) throws -> MustacheValue

    public init(_ body: @escaping @Sendable (_ sectionText: String?) throws -> MustacheValue) {
        self.body = body
    }

    /// A lambda for interpolation tags: `{{name}}` renders the returned template.
    public static func interpolation(_ body: @escaping @Sendable () throws -> String) -> MustacheLambda {
        MustacheLambda { _ in .string(try body()) }
    }

    /// A lambda for section tags: `{{#name}}text{{/name}}` renders the template returned for
    /// `text`. Used as an interpolation, it receives the empty string.
    public static func section(_ body: @escaping @Sendable (String) throws -> String) -> MustacheLambda {
        MustacheLambda { text in .string(try body(text ?? "")) }
    }
}
