/// `LayoutDecoder`'s values: dimensions, spacings, insets, numbers, booleans, enumerations and
/// presets read from YAML nodes, each problem reported at the node.
import FeedgenContent
import FeedgenDiagnostics
import FeedgenLayout

extension LayoutDecoder {
    static let dimensionNames = ["fractionalWidth", "fractionalHeight", "absolute", "estimated", "uniformAcrossSiblings"]

    /// `fractionalWidth(f)`, `fractionalHeight(f)`, `absolute(v)`, `estimated(v)`,
    /// `uniformAcrossSiblings(v)`, or a bare number (absolute).
    mutating func dimension(_ node: YAMLNode) -> LayoutDimension? {
        guard let text = node.string else {
            error(node, "a dimension must be written like fractionalWidth(1.0) or absolute(160), found \(node.kindDescription)")
            return nil
        }
        if node.isPlain, let v = node.double {
            guard v >= 0, v.isFinite else {
                error(node, "a dimension must be a non-negative number of px, found '\(text)'")
                return nil
            }
            guard v <= Self.maxLength else {
                error(node, "a dimension must be at most \(Int(Self.maxLength)) px, found '\(text)'")
                return nil
            }
            return .absolute(v)
        }
        guard let (name, value) = call(text), Self.dimensionNames.contains(name) else {
            let name = call(text)?.name ?? text
            error(
                node,
                "malformed dimension '\(text)'; expected fractionalWidth(f), fractionalHeight(f), absolute(v), estimated(v) or uniformAcrossSiblings(v)\(Self.suggestion(name, in: Self.dimensionNames))"
            )
            return nil
        }
        guard let v = value, v.isFinite, v >= 0 else {
            error(node, "malformed dimension '\(text)': the value must be a non-negative number")
            return nil
        }
        let limit = name.hasPrefix("fractional") ? Self.maxFraction : Self.maxLength
        guard v <= limit else {
            error(node, "dimension '\(text)' is too large: at most \(Int(limit))\(name.hasPrefix("fractional") ? "" : " px")")
            return nil
        }
        switch name {
        case "fractionalWidth": return .fractionalWidth(v)
        case "fractionalHeight": return .fractionalHeight(v)
        case "absolute": return .absolute(v)
        case "estimated": return .estimated(v)
        default: return .uniformAcrossSiblings(estimate: v)
        }
    }

    /// `fixed(v)`, `flexible(v)` or a bare number (fixed).
    mutating func spacing(_ node: YAMLNode, _ key: String) -> LayoutSpacing? {
        guard let text = node.string else {
            error(node, "'\(key)' must be fixed(v), flexible(v) or a number, found \(node.kindDescription)")
            return nil
        }
        if node.isPlain, let v = node.double {
            guard v >= 0 else {
                error(node, "'\(key)' must not be negative, found '\(text)'")
                return nil
            }
            return .fixed(v)
        }
        guard let (name, value) = call(text), name == "fixed" || name == "flexible", let v = value, v >= 0 else {
            let name = call(text)?.name ?? text
            error(node, "malformed spacing '\(text)'; expected fixed(v), flexible(v) or a number\(Self.suggestion(name, in: ["fixed", "flexible"]))")
            return nil
        }
        return name == "fixed" ? .fixed(v) : .flexible(v)
    }

    /// A number (all edges) or a mapping of `top`, `leading`, `bottom`, `trailing`.
    /// Values in (0, 1) are rejected: UIKit reads them as fractions (layout-semantics §1.4).
    mutating func insets(_ node: YAMLNode) -> DirectionalEdgeInsets? {
        if node.pairs == nil {
            guard let v = insetValue(node, "contentInsets") else { return nil }
            return DirectionalEdgeInsets(all: v)
        }
        checkKeys(node.pairs!, allowed: Self.edgeKeys, context: "contentInsets")
        var i = DirectionalEdgeInsets()
        if let v = node["top"], let n = insetValue(v, "top") { i.top = n }
        if let v = node["leading"], let n = insetValue(v, "leading") { i.leading = n }
        if let v = node["bottom"], let n = insetValue(v, "bottom") { i.bottom = n }
        if let v = node["trailing"], let n = insetValue(v, "trailing") { i.trailing = n }
        return i
    }

    mutating func insetValue(_ node: YAMLNode, _ key: String) -> Double? {
        guard let v = number(node, key) else { return nil }
        if v > 0, v < 1 {
            error(node, "inset '\(node.string ?? "")' is between 0 and 1, which UIKit reads as a fraction of the container; use 0 or a value of at least 1 px")
            return nil
        }
        return v
    }

    mutating func number(_ node: YAMLNode, _ key: String) -> Double? {
        guard let v = node.double, v.isFinite else {
            error(node, "'\(key)' must be a number of CSS px, found '\(node.string ?? node.kindDescription)'")
            return nil
        }
        guard v >= 0 else {
            error(node, "'\(key)' must not be negative, found '\(node.string ?? "")'")
            return nil
        }
        guard v <= Self.maxLength else {
            error(node, "'\(key)' must be at most \(Int(Self.maxLength)) px, found '\(node.string ?? "")'")
            return nil
        }
        return v
    }

    mutating func bool(_ node: YAMLNode, _ key: String) -> Bool? {
        guard let b = node.bool else {
            error(node, "'\(key)' must be true or false, found '\(node.string ?? node.kindDescription)'")
            return nil
        }
        return b
    }

    mutating func enumValue<T: RawRepresentable & CaseIterable>(_ node: YAMLNode, _ key: String) -> T? where T.RawValue == String {
        let names = T.allCases.map(\.rawValue)
        guard let text = node.string, let value = T(rawValue: text) else {
            let found = node.string ?? node.kindDescription
            error(node, "unknown \(key) '\(found)'; expected one of: \(names.joined(separator: ", "))\(Self.suggestion(found, in: names))")
            return nil
        }
        return value
    }

    mutating func preset(_ node: YAMLNode) -> LayoutPreset? {
        let names = LayoutPreset.allCases.map(\.rawValue)
        guard let text = node.string, let p = LayoutPreset(rawValue: text) else {
            let found = node.string ?? node.kindDescription
            error(node, "unknown layout preset '\(found)'; expected one of: \(names.joined(separator: ", ")), or a layout mapping\(Self.suggestion(found, in: names))")
            return nil
        }
        return p
    }

    /// " (did you mean 'x'?)" for a likely typo (`Suggestion`), or for a unique name that the
    /// word abbreviates or extends (`lead` → `leading`, `flex` → `flexible`); else "".
    static func suggestion(_ word: String, in names: [String]) -> String {
        let typo = Suggestion.didYouMean(word, in: names)
        if !typo.isEmpty { return typo }
        let lower = word.lowercased()
        guard lower.count >= 3 else { return "" }
        let matches = names.filter {
            let name = $0.lowercased()
            return name.hasPrefix(lower) || lower.hasPrefix(name)
        }
        return matches.count == 1 ? " (did you mean '\(matches[0])'?)" : ""
    }

    /// Parses `name(number)`; the value is nil when the argument is not a number.
    func call(_ text: String) -> (name: String, value: Double?)? {
        let t = text.trimmingSpaces()
        guard let open = t.firstIndex(of: "("), t.hasSuffix(")") else { return nil }
        let name = String(t[..<open]).trimmingSpaces()
        let arg = t[t.index(after: open)..<t.index(before: t.endIndex)].trimmingSpaces()
        let node = YAMLNode(.scalar(arg, plain: true), line: 0, column: 0)
        return (name, node.double)
    }

    mutating func checkKeys(_ pairs: [YAMLPair], allowed: [String], context: String) {
        for pair in pairs {
            guard let key = pair.key.string else { continue }
            if !allowed.contains(key) {
                error(pair.key, "unknown key '\(key)' in \(context)\(Self.suggestion(key, in: allowed))")
            }
        }
    }
}
