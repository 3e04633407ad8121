/// The anchors of links in the build snapshot: which files other pages link into with a
/// `#fragment`, so that a patch build of such a file takes the usual path (its ids, and the
/// warnings of links into it, may change).
import FeedgenContent
import FeedgenResolve

enum SnapshotAnchors {
    /// For the build snapshot: one `#<target>` entry (page "") per file that `links` name with
    /// a fragment to check, beside the item's real links. A patch build of a changed file that
    /// another item links to so takes the usual path (``linkedWithFragment(_:old:feeds:)``):
    /// its ids may have changed, and with them the warnings of links into it.
    static func snapshotMarks(_ links: [MarkdownLink]) -> [BuildSnapshot.Link] {
        var seen: Set<String> = []
        var marks: [BuildSnapshot.Link] = []
        for link in links where link.fragment.map({ !MarkdownHeadings.alwaysFound(MarkdownLink.decodePercent($0)) }) ?? false {
            if seen.insert(link.target).inserted { marks.append(BuildSnapshot.Link(target: "#" + link.target, page: "")) }
        }
        return marks
    }

    /// The first of `paths` that an item of the `old` snapshot, a `_feed.md` intro or a
    /// `_section.md` text of `feeds` links to with a fragment, or nil.
    static func linkedWithFragment(_ paths: Set<String>, old: BuildSnapshot, feeds: [PreparedFeed]) -> String? {
        guard !paths.isEmpty else { return nil }
        if let path = old.items.firstFragmentTarget(in: paths) { return path }
        for feed in feeds {
            let links = feed.feed.introLinks + feed.sections.flatMap(\.section.headerLinks)
            if let hit = snapshotMarks(links).first(where: { paths.contains(String($0.target.dropFirst())) }) {
                return String(hit.target.dropFirst())
            }
        }
        return nil
    }
}
