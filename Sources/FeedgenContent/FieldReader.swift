import FeedgenDiagnostics
import Foundation

/// Reads typed values out of YAML nodes of one file, collecting a diagnostic for each value of
/// the wrong type (at the value's position). A null value (`key:`, `key: ~`) counts as absent.
struct FieldReader {
    /// Site-relative path of the file, for diagnostics.
    let path: String
    var diagnostics: [Diagnostic] = []
    /// The zone of a date-time written without one (the site's `timeZone`); nil: UTC.
    var timeZone: TimeZone?

    init(path: String) {
        self.path = path
    }

    func location(_ node: YAMLNode) -> SourceLocation {
        SourceLocation(path: path, line: node.line, column: node.column)
    }

    mutating func error(_ node: YAMLNode, _ message: String) {
        diagnostics.append(.error(location(node), message))
    }

    mutating func warning(_ node: YAMLNode, _ message: String) {
        diagnostics.append(.warning(location(node), message))
    }

    /// `'abc'`, `the quoted string '3'`, `'3' tagged !!float`, `a list`, `a mapping`: what a
    /// wrong value is, for messages.
    static func found(_ node: YAMLNode) -> String {
        switch node.kind {
        case .scalar(let text, let plain):
            if let tag = node.tag {
                "'\(text)' tagged \(YAMLNode.shown(tag: tag))"
            } else {
                plain ? "'\(text)'" : "the quoted string '\(text)'"
            }
        case .sequence: "a list"
        case .mapping: "a mapping"
        }
    }

    /// Reports every key of `mapping` that is not in `known` as an error, with a suggestion.
    mutating func rejectUnknownKeys(_ mapping: YAMLNode, known: [String], in context: String) {
        for pair in mapping.pairs ?? [] {
            guard let key = pair.key.string else {
                error(pair.key, "keys in \(context) must be strings, found \(pair.key.kindDescription)")
                continue
            }
            if known.contains(key) { continue }
            let suggestion = Suggestion.didYouMean(key, in: known)
            let hint = suggestion.isEmpty ? " (known keys: \(known.joined(separator: ", ")))" : suggestion
            error(pair.key, "unknown key '\(key)' in \(context)\(hint)")
        }
    }

    /// `true`/`false` only.
    mutating func bool(_ node: YAMLNode?, key: String) -> Bool? {
        guard let node, !node.isNull else { return nil }
        if let value = node.bool { return value }
        error(node, "'\(key)' must be true or false, found \(Self.found(node))")
        return nil
    }

    mutating func int(_ node: YAMLNode?, key: String) -> Int? {
        guard let node, !node.isNull else { return nil }
        if let value = node.int { return value }
        error(node, "'\(key)' must be an integer, found \(Self.found(node))")
        return nil
    }

    mutating func number(_ node: YAMLNode?, key: String) -> Double? {
        guard let node, !node.isNull else { return nil }
        if let value = node.double, value.isFinite { return value }
        error(node, "'\(key)' must be a number, found \(Self.found(node))")
        return nil
    }

    /// Any scalar, as its text (`title: 2026` is the title "2026").
    mutating func string(_ node: YAMLNode?, key: String) -> String? {
        guard let node, !node.isNull else { return nil }
        if let value = node.string { return value }
        error(node, "'\(key)' must be a string, found \(node.kindDescription)")
        return nil
    }

    /// A date in one of ``ContentDate/parse(_:timeZone:)``'s forms, quoted or not.
    mutating func date(_ node: YAMLNode?, key: String) -> ContentDate? {
        guard let node, !node.isNull else { return nil }
        guard let text = node.string else {
            error(node, "'\(key)' must be a date, found \(node.kindDescription)")
            return nil
        }
        if let date = ContentDate.parse(text, timeZone: timeZone) { return date }
        error(node, "invalid date '\(text)': \(ContentDate.acceptedForms)")
        return nil
    }

    /// A list of scalars.
    mutating func stringList(_ node: YAMLNode?, key: String) -> [String]? {
        guard let node, !node.isNull else { return nil }
        guard let elements = node.elements else {
            error(node, "'\(key)' must be a list of strings, found \(Self.found(node))")
            return nil
        }
        var result: [String] = []
        for element in elements {
            if let text = element.string, !element.isNull {
                if text.allSatisfy(\.isWhitespace) {
                    // It rendered as an empty tag (`<li></li>`) in the card and the feeds.
                    error(element, "an entry of '\(key)' is empty; remove it")
                } else {
                    result.append(text)
                }
            } else {
                error(element, "each entry of '\(key)' must be a string, found \(element.kindDescription)")
            }
        }
        return result
    }

    /// A list of strings, or one string of words separated by white space (Jekyll's
    /// `tags: release security`): `[release, security]`.
    mutating func words(_ node: YAMLNode?, key: String) -> [String]? {
        guard let node, !node.isNull else { return nil }
        if case .scalar(let text, _) = node.kind, node.tag == nil || node.tag == YAMLNode.coreTagPrefix + "str" {
            return text.split(whereSeparator: \.isWhitespace).map(String.init)
        }
        return stringList(node, key: key)
    }

    /// A BCP 47 language tag: 2–8 letters, then `-`-separated subtags of 1–8 letters or digits;
    /// `_` is read as `-` (`pt_BR` → `pt-BR`, as in `strings`). A language that is no ISO 639
    /// code (`jp`) is a warning (``LanguageTag/unknownLanguage(_:)``).
    mutating func language(_ node: YAMLNode?, key: String) -> String? {
        guard let text = string(node, key: key), let node else { return nil }
        let tag = LanguageTag.hyphenated(text)
        guard Self.isLanguageTag(tag) else {
            error(node, "'\(key)' must be a BCP 47 language tag such as 'en' or 'pt-BR', found '\(text)'")
            return nil
        }
        if let problem = LanguageTag.unknownLanguage(tag) {
            warning(node, "'\(text)' in '\(key)' \(problem): browsers and screen readers take the page's language from it")
        }
        return tag
    }

    static func isLanguageTag(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...8).contains(first.count),
            first.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic })
        else { return false }
        return parts.dropFirst().allSatisfy { part in
            (1...8).contains(part.count)
                && part.unicodeScalars.allSatisfy {
                    $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))
                }
        }
    }
}
