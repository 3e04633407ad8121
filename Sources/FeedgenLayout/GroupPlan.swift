/// How the emitter writes a section's items into HTML, decided by the model so that the CSS it
/// generates puts every box where the solver puts it.
public struct GroupPlan: Hashable, Sendable {
    /// The element structure of one group instance.
    public indirect enum Node: Hashable, Sendable {
        /// An item slot (`.cl-item`) holding the item at `index` (snapshot order). `path` is the
        /// position of its description in the group tree: `[2]` = the top group's third subitem.
        case item(index: Int, path: [Int])
        /// A nested group element.
        case group(path: [Int], children: [Node])

        func prefixed(_ head: Int) -> Node {
            switch self {
            case .item(let index, let path): .item(index: index, path: [head] + path)
            case .group(let path, let children): .group(path: [head] + path, children: children.map { $0.prefixed(head) })
            }
        }

        /// The CSS class naming the node's description: `lp-2`, `lp-0-1`.
        public var pathClass: String {
            switch self {
            case .item(_, let path), .group(let path, _): GroupPlan.pathClass(path)
            }
        }
    }

    public enum Mode: String, Hashable, Sendable {
        /// Items are direct children of the section's groups element, which is a CSS grid of the
        /// group's `count` columns: rows are the group instances. Adaptive rules may change the count.
        case gridFlow
        /// Items are direct children of a wrapping flex container: each flex line is one group
        /// instance, filled while the next item fits (tag flow, estimated widths).
        case wrapFlow
        /// One `.cl-group` element per instance, with nested groups as nested elements.
        case groups
    }

    public var mode: Mode
    /// For `.groups`: the instances in order. Empty for the flow modes.
    public var instances: [[Node]]

    /// `lp` for the top-level group, `lp-i-j` for nested descriptions.
    public static func pathClass(_ path: [Int]) -> String {
        (["lp"] + path.map(String.init)).joined(separator: "-")
    }
}
