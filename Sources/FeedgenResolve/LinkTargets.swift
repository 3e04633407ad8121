/// `LinkTargets`: the Markdown links of a site's feeds by the index of their distinct target, so
/// that the checks after body paths look each target's page up once, not once per link (a site's
/// bodies may hold tens of thousands of links to a few hundred targets).
import FeedgenContent

/// Each link's target as an index into the distinct targets, and, once resolved, each target's
/// page.
package struct LinkTargets: Sendable {
    package init() {}

    /// Each link of ``BodyPaths/forEachLink(_:item:_:)``, in its order: its target's index in
    /// ``targets``.
    package var ofLink: [Int32] = []
    /// The distinct targets (``MarkdownLink/target``), in the order of their first link.
    package var targets: [String] = []
    /// Each of ``targets``' page (a ``ContentLinks/pages`` value), or nil: set by
    /// ``resolved(by:)``.
    package private(set) var pages: [String?] = []

    /// These targets with their pages in `table` (``ContentLinks/pages``).
    package func resolved(by table: [String: String]) -> LinkTargets {
        var copy = self
        copy.pages = targets.map { table[$0] }
        return copy
    }

    /// Whether these are the links of `feeds` (as many as ``BodyPaths/forEachLink(_:item:_:)`` calls
    /// with) and resolved.
    package func fits(linkCount: Int) -> Bool {
        ofLink.count == linkCount && pages.count == targets.count
    }

    /// The page of the `k`th link (in ``BodyPaths/forEachLink(_:item:_:)``'s order).
    package func page(ofLink k: Int) -> String? { pages[Int(ofLink[k])] }
}
