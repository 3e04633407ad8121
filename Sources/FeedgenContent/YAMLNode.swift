/// One node of a parsed YAML document, with its position in the whole source file.
///
/// ```text
/// YAMLNode ── scalar(text, plain:)      text exactly as written (after YAML unescaping)
///          ├─ sequence([YAMLNode])
///          └─ mapping([YAMLPair])       keys in source order, no duplicates
/// ```
///
/// Typed accessors follow the YAML 1.2 core schema and apply only to plain (unquoted, untagged)
/// scalars, or to scalars explicitly tagged with the matching core tag: `"3"` is a string, `3` is
/// an integer, `yes` is a string. A plain scalar keeps its source text (`1.10` stays `"1.10"`).
public struct YAMLNode: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// A scalar's text; `plain` is true for an unquoted, non-block scalar.
        case scalar(String, plain: Bool)
        case sequence([YAMLNode])
        case mapping([YAMLPair])
    }

    public var kind: Kind
    /// 1-based line in the whole file (front matter lines counted from the file's first line).
    public var line: Int
    /// 1-based column, in Unicode scalars.
    public var column: Int
    /// The resolved tag when one was written (`!!int` → `tag:yaml.org,2002:int`), else nil.
    public var tag: String?

    /// The prefix the `!!` shorthand stands for (YAML 1.2 §6.8.1, the secondary tag handle).
    static let coreTagPrefix = "tag:yaml.org,2002:"

    /// `tag` as an author writes it, for messages: `!!int` for the core schema's, else as resolved.
    static func shown(tag: String) -> String {
        tag.hasPrefix(coreTagPrefix) ? "!!" + tag.dropFirst(coreTagPrefix.count) : tag
    }

    public init(_ kind: Kind, line: Int, column: Int, tag: String? = nil) {
        self.kind = kind
        self.line = line
        self.column = column
        self.tag = tag
    }

    /// The value for `key` when this node is a mapping with a scalar key of that text.
    public subscript(key: String) -> YAMLNode? {
        guard case .mapping(let pairs) = kind else { return nil }
        for pair in pairs where pair.key.string == key { return pair.value }
        return nil
    }

    /// The pairs of a mapping, nil for other kinds.
    public var pairs: [YAMLPair]? {
        if case .mapping(let pairs) = kind { return pairs }
        return nil
    }

    /// The elements of a sequence, nil for other kinds.
    public var elements: [YAMLNode]? {
        if case .sequence(let nodes) = kind { return nodes }
        return nil
    }

    /// A scalar's text (whatever its type), nil for collections.
    public var string: String? {
        if case .scalar(let text, _) = kind { return text }
        return nil
    }

    /// True for an unquoted flow scalar (`plain` style), whatever its tag.
    public var isPlain: Bool {
        if case .scalar(_, let plain) = kind { return plain }
        return false
    }

    /// `true`/`True`/`TRUE` or `false`/`False`/`FALSE` (YAML 1.2 core schema); nil otherwise.
    public var bool: Bool? {
        guard let text = resolvableText(coreTag: "bool") else { return nil }
        switch text {
        case "true", "True", "TRUE": return true
        case "false", "False", "FALSE": return false
        default: return nil
        }
    }

    /// A core-schema integer: decimal (`-12`, `+3`), `0o17` octal or `0x1F` hexadecimal.
    public var int: Int? {
        guard let text = resolvableText(coreTag: "int") else { return nil }
        return Self.parseInt(text)
    }

    /// A core-schema float (`1.5`, `-2e3`, `.5`, `.inf`, `.nan`) or any integer.
    public var double: Double? {
        guard let text = resolvableText(coreTag: "float") ?? resolvableText(coreTag: "int") else {
            return nil
        }
        if let i = Self.parseInt(text) { return Double(i) }
        return Self.parseFloat(text)
    }

    /// A core-schema null: a plain `~`, `null`, `Null`, `NULL` or an empty plain scalar.
    public var isNull: Bool {
        guard let text = resolvableText(coreTag: "null") else { return false }
        switch text {
        case "", "~", "null", "Null", "NULL": return true
        default: return false
        }
    }

    /// "a string", "a list", "a mapping": the kind as named in diagnostics.
    public var kindDescription: String {
        switch kind {
        case .scalar: isNull ? "null" : "a string"
        case .sequence: "a list"
        case .mapping: "a mapping"
        }
    }

    /// The text of a scalar that may resolve to core type `coreTag` (`bool`, `int`, …):
    /// a plain untagged scalar, or any scalar tagged `tag:yaml.org,2002:<coreTag>`.
    private func resolvableText(coreTag: String) -> String? {
        guard case .scalar(let text, let plain) = kind else { return nil }
        if let tag { return tag == Self.coreTagPrefix + coreTag ? text : nil }
        return plain ? text : nil
    }

    static func parseInt(_ text: String) -> Int? {
        // Plain decimal digits (nearly every value, `weight: 12`): read on bytes, no String work
        // (up to 18 digits, which cannot overflow).
        let decimal = text.utf8.withContiguousStorageIfAvailable { b -> Int? in
            guard !b.isEmpty, b.count <= 18, b.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return b.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        if let value = decimal ?? nil { return value }
        var s = Substring(text)
        for (prefix, radix) in [("0o", 8), ("0x", 16)] where s.hasPrefix(prefix) {
            let digits = s.dropFirst(2)
            guard let first = digits.first, first != "-", first != "+" else { return nil }
            return Int(digits, radix: radix)
        }
        var negative = false
        if let first = s.first, first == "-" || first == "+" {
            negative = first == "-"
            s = s.dropFirst()
        }
        guard !s.isEmpty, s.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return negative ? Int("-" + s) : Int(s)  // with its sign: Int.min has no positive magnitude
    }

    static func parseFloat(_ text: String) -> Double? {
        switch text {
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .infinity
        case "-.inf", "-.Inf", "-.INF": return -.infinity
        case ".nan", ".NaN", ".NAN": return .nan
        default: break
        }
        // [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
        let bytes = Array(text.utf8)
        var i = 0
        func digits() -> Int {
            let start = i
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
            return i - start
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
        let integerDigits = digits()
        var fractionDigits = 0
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            fractionDigits = digits()
        }
        guard integerDigits > 0 || fractionDigits > 0 else { return nil }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
            guard digits() > 0 else { return nil }
        }
        guard i == bytes.count else { return nil }
        return Double(text)
    }
}

/// One key–value pair of a YAML mapping.
public struct YAMLPair: Sendable, Hashable {
    public var key: YAMLNode
    public var value: YAMLNode

    public init(key: YAMLNode, value: YAMLNode) {
        self.key = key
        self.value = value
    }
}
