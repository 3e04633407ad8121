import FeedgenContent
import FeedgenDiagnostics
import FeedgenLayout

/// Decodes a section's `layout` front-matter value (content-format §6) into the layout model.
///
/// The value is a preset name (`list`, `carousel`, `grid`, `chips`, `hero`, `insetGrouped`) or a
/// mapping in the full form. A mapping starts from its `preset` (default `list`) and overrides
/// what it names; `adaptive` rules override the result from their `minWidth` on.
/// Every problem is reported at the value's line and column.
public struct LayoutDecoder {
    /// The site-relative path shown in diagnostics.
    public let path: String
    public private(set) var diagnostics: [Diagnostic] = []

    /// Bounds that keep every frame finite and every layout fast (docs/limits.md).
    static let maxCount = 1_000
    /// The largest length in CSS px (``Limits/maxLength``).
    public static let maxLength = Limits.maxLength
    /// The largest fraction in a dimension.
    static let maxFraction = 100.0
    /// How deep groups nest below a section's group. The solver's work grows with the items a
    /// group can hold, which doubles with each level of half-width groups: 12 levels took
    /// minutes; real layouts nest two or three.
    static let maxGroupDepth = 8

    /// How many `group:` subitems enclose the one being decoded.
    private var groupDepth = 0

    public init(path: String) { self.path = path }

    static let sectionKeys = [
        "preset", "item", "group", "contentInsets", "interGroupSpacing", "orthogonalScrollingBehavior",
        "contentInsetsReference", "header", "footer", "background", "adaptive",
    ]
    static let itemKeys = ["width", "height", "contentInsets", "edgeSpacing"]
    static let groupKeys = ["direction", "width", "height", "count", "subitems", "interItemSpacing", "contentInsets", "item"]
    static let supplementaryKeys = ["height", "pinToVisibleBounds"]
    static let edgeKeys = ["top", "leading", "bottom", "trailing"]

    /// The layout, and the preset it started from (nil for none given: `list`).
    public mutating func decode(_ node: YAMLNode?) -> (layout: AdaptiveSection, preset: LayoutPreset) {
        guard let node else { return (LayoutPreset.list.expansion, .list) }
        if case .scalar = node.kind {
            guard let preset = preset(node) else { return (LayoutPreset.list.expansion, .list) }
            return (preset.expansion, preset)
        }
        guard let pairs = node.pairs else {
            error(node, "'layout' must be a preset name or a mapping, found \(node.kindDescription)")
            return (LayoutPreset.list.expansion, .list)
        }
        checkKeys(pairs, allowed: Self.sectionKeys, context: "layout")
        var preset = LayoutPreset.list
        if let p = node["preset"], let parsed = self.preset(p) { preset = parsed }
        let base = preset.expansion
        let section = apply(node, to: base.base)
        var rules = base.rules.map { AdaptiveSection.Rule(minWidth: $0.minWidth, section: apply(node, to: $0.section)) }
        if let adaptive = node["adaptive"] {
            if let list = adaptive.elements {
                rules = []
                for entry in list {
                    guard let entryPairs = entry.pairs else {
                        error(entry, "each 'adaptive' rule must be a mapping with 'minWidth', found \(entry.kindDescription)")
                        continue
                    }
                    checkKeys(entryPairs, allowed: ["minWidth"] + Self.sectionKeys.filter { $0 != "adaptive" && $0 != "preset" }, context: "adaptive rule")
                    guard let minNode = entry["minWidth"] else {
                        error(entry, "adaptive rule has no 'minWidth'")
                        continue
                    }
                    guard let minWidth = number(minNode, "minWidth") else { continue }
                    // A rule starts from the rule in force just below it.
                    let below = rules.last { $0.minWidth <= minWidth }?.section ?? section
                    rules.append(.init(minWidth: minWidth, section: apply(entry, to: below)))
                    rules.sort { $0.minWidth < $1.minWidth }
                }
            } else {
                error(adaptive, "'adaptive' must be a list of rules, found \(adaptive.kindDescription)")
            }
        }
        let result = AdaptiveSection(section, rules: rules)
        validate(result, node)
        return (result, preset)
    }

    // MARK: - Section

    mutating func apply(_ node: YAMLNode, to base: LayoutSection) -> LayoutSection {
        var s = base
        if let v = node["contentInsets"], let insets = insets(v) { s.contentInsets = insets }
        if let v = node["interGroupSpacing"], let n = number(v, "interGroupSpacing") { s.interGroupSpacing = n }
        if let v = node["orthogonalScrollingBehavior"],
            let b: OrthogonalScrollingBehavior = enumValue(v, "orthogonalScrollingBehavior")
        {
            s.orthogonalScrollingBehavior = b
        }
        if let v = node["contentInsetsReference"], let r: ContentInsetsReference = enumValue(v, "contentInsetsReference") {
            s.contentInsetsReference = r
        }
        if let v = node["header"] { s.header = supplementary(v, base: s.header, name: "header") }
        if let v = node["footer"] { s.footer = supplementary(v, base: s.footer, name: "footer") }
        if let v = node["background"], let b = bool(v, "background") { s.background = b }
        let itemNode = node["item"] ?? node["group"]?["item"]
        if node["group"] != nil || itemNode != nil {
            s.group = group(node["group"], item: itemNode, base: s.group)
        }
        return s
    }

    mutating func supplementary(_ node: YAMLNode, base: BoundarySupplementaryItem?, name: String) -> BoundarySupplementaryItem? {
        if let b = node.bool { return b ? (base ?? BoundarySupplementaryItem()) : nil }
        guard let pairs = node.pairs else {
            error(node, "'\(name)' must be a mapping with 'height' and 'pinToVisibleBounds', or true/false, found \(node.kindDescription)")
            return base
        }
        checkKeys(pairs, allowed: Self.supplementaryKeys, context: name)
        var s = base ?? BoundarySupplementaryItem()
        if let h = node["height"], let d = dimension(h) { s.height = d }
        if let p = node["pinToVisibleBounds"], let b = bool(p, "pinToVisibleBounds") { s.pinToVisibleBounds = b }
        return s
    }

    // MARK: - Groups and items

    /// The base item of a group: what `count` repeats, or the first subitem.
    static func baseItem(_ g: LayoutGroup) -> LayoutItem? {
        for sub in g.subitems { if case .item(let i) = sub { return i } }
        return nil
    }

    mutating func group(_ node: YAMLNode?, item itemNode: YAMLNode?, base: LayoutGroup) -> LayoutGroup {
        var g = base
        let baseItem = Self.baseItem(base) ?? LayoutItem(size: base.size)
        let newItem = itemNode.map { item($0, base: baseItem) } ?? baseItem
        if let node {
            guard let pairs = node.pairs else {
                error(node, "'group' must be a mapping, found \(node.kindDescription)")
                return base
            }
            checkKeys(pairs, allowed: Self.groupKeys, context: "group")
            if let v = node["direction"], let d: Axis = enumValue(v, "direction") { g.direction = d }
            if let v = node["width"], let d = dimension(v) { g.size.width = d; warnIfZero(d, v, "width", of: "group") }
            if let v = node["height"], let d = dimension(v) { g.size.height = d; warnIfZero(d, v, "height", of: "group") }
            if let v = node["interItemSpacing"], let s = spacing(v, "interItemSpacing") { g.interItemSpacing = s }
            if let v = node["contentInsets"], let i = insets(v) { g.contentInsets = i }
            if node["count"] != nil, node["subitems"] != nil {
                error(node, "a group takes 'count' or 'subitems', not both")
            }
            if let v = node["count"] {
                if let n = v.int {
                    if n <= 0 {
                        error(v, "'count' must be at least 1, found \(n)")
                    } else if n > Self.maxCount {
                        error(v, "'count' must be at most \(Self.maxCount), found \(n)")
                    } else {
                        g.content = .count(n, .item(newItem))
                    }
                } else if v.double.map({ $0 == $0.rounded() && $0 > 0 }) == true {
                    error(v, "'count' must be at most \(Self.maxCount), found \(v.string ?? "")")
                } else {
                    error(v, "'count' must be a whole number, found '\(v.string ?? v.kindDescription)'")
                }
                return g
            }
            if let v = node["subitems"] {
                if let list = v.elements, !list.isEmpty {
                    g.content = .subitems(list.compactMap { subitem($0, baseItem: newItem, baseGroup: g) })
                } else {
                    error(v, "'subitems' must be a non-empty list of 'item:' or 'group:' entries")
                }
                return g
            }
        }
        switch g.content {
        case .count(let n, .item): g.content = .count(n, .item(newItem))
        case .subitems(let list) where list.count == 1: if case .item = list[0] { g.content = .subitems([.item(newItem)]) }
        default: if itemNode != nil { g.content = .subitems([.item(newItem)]) }
        }
        return g
    }

    mutating func subitem(_ node: YAMLNode, baseItem: LayoutItem, baseGroup: LayoutGroup) -> LayoutSubitem? {
        guard let pairs = node.pairs, pairs.count == 1, let key = pairs[0].key.string else {
            error(node, "each subitem must be a mapping with one key, 'item' or 'group'")
            return nil
        }
        switch key {
        case "item": return .item(item(pairs[0].value, base: baseItem))
        case "group":
            guard groupDepth < Self.maxGroupDepth else {
                error(
                    pairs[0].key,
                    "groups nest at most \(Self.maxGroupDepth) levels deep below the section's group; this one is \(groupDepth + 1) deep")
                return nil
            }
            groupDepth += 1
            defer { groupDepth -= 1 }
            let nestedBase = LayoutGroup(
                direction: .horizontal, size: LayoutSize(width: .fractionalWidth(1), height: .fractionalHeight(1)),
                content: .subitems([.item(LayoutItem(size: LayoutSize(width: .fractionalWidth(1), height: .fractionalHeight(1))))]))
            return .group(group(pairs[0].value, item: pairs[0].value["item"], base: nestedBase))
        default:
            error(pairs[0].key, "unknown subitem '\(key)'; expected 'item' or 'group'\(Self.suggestion(key, in: ["item", "group"]))")
            return nil
        }
    }

    mutating func item(_ node: YAMLNode, base: LayoutItem) -> LayoutItem {
        guard let pairs = node.pairs else {
            error(node, "'item' must be a mapping, found \(node.kindDescription)")
            return base
        }
        checkKeys(pairs, allowed: Self.itemKeys, context: "item")
        var i = base
        if let v = node["width"], let d = dimension(v) { i.size.width = d; warnIfZero(d, v, "width", of: "item") }
        if let v = node["height"], let d = dimension(v) { i.size.height = d; warnIfZero(d, v, "height", of: "item") }
        if let v = node["contentInsets"], let ins = insets(v) { i.contentInsets = ins }
        if let v = node["edgeSpacing"] { i.edgeSpacing = edgeSpacing(v) }
        return i
    }

    mutating func edgeSpacing(_ node: YAMLNode) -> EdgeSpacing? {
        guard let pairs = node.pairs else {
            error(node, "'edgeSpacing' must be a mapping of edges (top, leading, bottom, trailing)")
            return nil
        }
        checkKeys(pairs, allowed: Self.edgeKeys, context: "edgeSpacing")
        var e = EdgeSpacing()
        if let v = node["leading"] { e.leading = spacing(v, "leading") }
        if let v = node["top"] { e.top = spacing(v, "top") }
        if let v = node["trailing"] { e.trailing = spacing(v, "trailing") }
        if let v = node["bottom"] { e.bottom = spacing(v, "bottom") }
        return e
    }

    // MARK: - Validation

    /// Contradictions: items that cannot fit their group (errors); legal but surprising
    /// combinations and what the CSS cannot reproduce exactly (warnings, `LayoutCSS.warnings`).
    /// A problem shared by the base layout and the adaptive rules that inherit it is reported once.
    mutating func validate(_ layout: AdaptiveSection, _ node: YAMLNode) {
        var messages: [String] = []
        for s in [layout.base] + layout.rules.map(\.section) { checkFit(s.group, into: &messages) }
        for m in messages { error(node, m) }
        // Warnings would only restate a misfit.
        if messages.isEmpty { for m in LayoutCSS.warnings(layout) { warning(node, m) } }
    }

    /// A subitem that can never fit its group (layout-semantics §2.1): wider (taller) than the
    /// group's content box, as an absolute size or as a fraction above 1, with its fixed edge
    /// spacing; or `count` gaps alone filling the box.
    func checkFit(_ g: LayoutGroup, into messages: inout [String]) {
        func add(_ m: String) { if !messages.contains(m) { messages.append(m) } }
        let axis = g.direction
        let name = axis == .horizontal ? "width" : "height"
        let insets = axis == .horizontal ? g.contentInsets.horizontal : g.contentInsets.vertical
        var inner: Double?
        if case .absolute(let groupMain) = g.size.dimension(axis) { inner = groupMain - insets }
        switch g.content {
        case .subitems(let list):
            for sub in list {
                var edges = 0.0
                if case .item(let item) = sub, let e = item.edgeSpacing {
                    let (lead, trail) = axis == .horizontal ? (e.leading, e.trailing) : (e.top, e.bottom)
                    edges = (lead?.minimum ?? 0) + (trail?.minimum ?? 0)
                }
                let with = edges > 0 ? " with \(LayoutDimensionText.px(edges)) of edge spacing" : ""
                let kind = sub.isGroup ? "a nested group" : "an item"
                switch sub.size.dimension(axis) {
                case .absolute(let m):
                    if let inner, m + edges > inner + 1e-9 {
                        add("\(kind) \(name) of \(LayoutDimensionText.px(m))\(with) cannot fit its group's \(LayoutDimensionText.px(inner)) content box")
                    }
                case let dim where dim.fraction(along: axis) != nil:
                    let f = dim.fraction(along: axis)!
                    if !g.size.dimension(axis).isEstimated, f > 1 + 1e-9 || (f >= 1 - 1e-9 && edges > 0) {
                        add("\(kind) \(name) of \(dim.sourceForm)\(with) cannot fit its group's content box")
                    }
                default:
                    break
                }
                if case .group(let nested) = sub { checkFit(nested, into: &messages) }
            }
        case .count(let n, let sub):
            if let inner, let gap = g.interItemSpacing?.minimum, Double(n - 1) * gap >= inner {
                add("\(n) items with spacing \(LayoutDimensionText.px(gap)) cannot fit their group's \(LayoutDimensionText.px(inner)) content box")
            }
            if case .group(let nested) = sub { checkFit(nested, into: &messages) }
        }
    }

    mutating func error(_ node: YAMLNode, _ message: String) {
        diagnostics.append(.error(SourceLocation(path: path, line: node.line, column: node.column), message))
    }

    /// A fixed size of 0 (`absolute(0)`, `fractionalWidth(0)`, a bare `0`) draws the cards 0 px
    /// wide or high: they are on the page but invisible, which no layout wants.
    mutating func warnIfZero(_ d: LayoutDimension, _ node: YAMLNode, _ key: String, of what: String) {
        switch d {
        case .absolute(0), .fractionalWidth(0), .fractionalHeight(0):
            warning(node, "the \(what)'s '\(key)' is 0, so its cards are \(key == "width" ? "0 px wide" : "0 px high") and cannot be seen; give it a size")
        default: break
        }
    }

    mutating func warning(_ node: YAMLNode, _ message: String) {
        diagnostics.append(.warning(SourceLocation(path: path, line: node.line, column: node.column), message))
    }
}

enum LayoutDimensionText {
    static func px(_ v: Double) -> String {
        v == v.rounded() ? "\(Int(v)) px" : "\(v) px"
    }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}

extension Substring {
    func trimmingSpaces() -> String { String(self).trimmingSpaces() }
}
