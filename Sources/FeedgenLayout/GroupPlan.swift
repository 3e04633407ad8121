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
            case .group(let path, let children):
                .group(path: [head] + path, children: children.map { $0.prefixed(head) })
            }
        }

        /// The CSS class naming the node's description: `lp-2`, `lp-0-1`.
        public var pathClass: String {
            switch self {
            case .item(_, let path), .group(let path, _): GroupPlan.pathClass(path)
            }
        }
    }

    /// How the CSS of one section description (the base or an adaptive rule) arranges its items.
    public enum Mode: String, Hashable, Sendable {
        /// Items are direct children of the section's groups element, which is a CSS grid of the
        /// group's `count` columns: rows are the group instances (`list`, `grid`).
        case gridFlow
        /// Items are direct children of a wrapping flex container: each flex line is one group
        /// instance, filled while the next item fits (`chips`: one repeated item per group).
        case wrapFlow
        /// Orthogonal sections whose group is exactly one item (`carousel`, `hero`): each item
        /// element is also its group, a flex item of the horizontal scroller.
        case rowFlow
        /// One `.cl-group` element per instance, with nested groups as nested elements.
        case groups

        /// Whether items are direct children of `.cl-groups` (no group elements).
        public var isFlat: Bool { self != .groups }
    }

    /// The HTML structure of the whole section, shared by all its adaptive rules.
    public enum Structure: String, Hashable, Sendable {
        /// `.cl-groups > .cl-item` (every rule's mode is flat).
        case flat
        /// `.cl-groups > .cl-group.lp > …` (every rule groups items the same way).
        case nested
    }

    /// The elements the section's items are written in.
    public var structure: Structure
    /// For `.nested`: the instances in order. Empty for `.flat`.
    public var instances: [[Node]]
    /// How many paging snap markers the scroller holds (`.cl-pages > span`, one per page of
    /// the container width); 0 when no rule uses `paging`.
    public var pageMarkers: Int

    public init(structure: Structure, instances: [[Node]] = [], pageMarkers: Int = 0) {
        self.structure = structure
        self.instances = instances
        self.pageMarkers = pageMarkers
    }

    /// `lp` for the top-level group, `lp-i-j` for nested descriptions.
    public static func pathClass(_ path: [Int]) -> String {
        (["lp"] + path.map(String.init)).joined(separator: "-")
    }
}
