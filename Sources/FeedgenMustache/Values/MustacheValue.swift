/// A value a template is rendered against: the JSON data model plus lambdas.
///
/// Build one with literals (`["title": "Hi", "tags": ["a", "b"], "count": 3]`), with
/// ``MustacheValue/init(json:name:)``, or case by case.
///
/// Rules (Mustache spec, `sections.json`, `inverted.json`, `interpolation.json`):
/// - **Truthiness.** `false`, `null` and the empty list are falsey; everything else is truthy,
///   including `""`, `0` and the empty object. (The spec defines falsey only by example:
///   `false`, `null`, missing keys and `[]`. feedgen picks the Ruby-reference reading and does
///   not treat `""` or `0` as falsey, so a value that exists always renders its section.)
/// - **Interpolation.** Strings render as themselves, numbers as their stored text, booleans
///   as `true`/`false`, `null` as nothing; lists and objects render as nothing.
/// - **Lambdas** follow `~lambdas.json`; see ``MustacheLambda``.
///
/// Only an object is boxed (its three buffers would make every value four words): a string,
/// number or list is stored inline, so a context does not allocate a box for each of them.
public enum MustacheValue: Sendable {
    case null
    case bool(Bool)
    /// A number, kept as the text it renders as (`"85"`, `"1.21"`), so no precision is lost.
    case number(String)
    case string(String)
    case array([MustacheValue])
    indirect case object(MustacheObject)
    case lambda(MustacheLambda)

    /// An integer number.
    public static func int(_ value: Int) -> MustacheValue { .number(String(value)) }

    /// A floating-point number, written in its shortest form (`1.0` renders as `1`).
    public static func double(_ value: Double) -> MustacheValue { .number(formatNumber(value)) }

    /// Whether a section renders for this value (see the type's documentation).
    public var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let b): b
        case .array(let a): !a.isEmpty
        case .number, .string, .object, .lambda: true
        }
    }

    /// The value for `key` when this is an object; `nil` otherwise or when the key is absent.
    public subscript(key: String) -> MustacheValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The value for `key` (of ``MustacheObject/fingerprint(_:)`` `fingerprint`) when this is
    /// an object; `nil` otherwise or when the key is absent.
    @inline(__always) func member(_ key: String, fingerprint: UInt64) -> MustacheValue? {
        guard case .object(let object) = self else { return nil }
        return object.value(forKey: key, fingerprint: fingerprint)
    }

    /// The text a plain (non-lambda) value interpolates as, before escaping.
    public var interpolationText: String {
        switch self {
        case .null, .array, .object, .lambda: ""
        case .bool(let b): b ? "true" : "false"
        case .number(let text): text
        case .string(let s): s
        }
    }

    /// The shortest text for a number: integers without a fraction (`1.0` → `1`), others as
    /// Swift's shortest round-trip form (`1.210` → `1.21`).
    static func formatNumber(_ value: Double) -> String {
        if value.isFinite, abs(value) < 1e15, Double(Int64(value)) == value {
            return String(Int64(value))
        }
        return value.description
    }
}

extension MustacheValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}

extension MustacheValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension MustacheValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self = .int(value) }
}

extension MustacheValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension MustacheValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension MustacheValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: MustacheValue...) { self = .array(elements) }
}

extension MustacheValue: ExpressibleByDictionaryLiteral {
    /// An object keeping the literal's key order (a repeated key keeps its first position and
    /// its last value).
    public init(dictionaryLiteral elements: (String, MustacheValue)...) {
        self = .object(MustacheObject(elements))
    }
}
