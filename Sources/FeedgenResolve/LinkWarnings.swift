/// `LinkWarnings`: the diagnostics stage 3 gives one item's links, computed from what the whole
/// site's resolution gave their targets, so that a build that loads only that item (a patch
/// build) reports them exactly as a full build does.
import FeedgenContent
import FeedgenDiagnostics

package enum LinkWarnings {
    /// The diagnostics ``SiteResolver/resolve(_:diagnostics:)`` gives the links of `item`, in
    /// its order (``BodyPaths``' first, then ``ContentLinks``', then ``ContentAnchors``'), when
    /// `pages` holds what the whole site's resolution gave each of their targets (a
    /// ``ContentLinks/pages`` value; a target it has no page for is absent or "").
    ///
    /// - Returns: the warnings, or nil when one of them would be an error (which ends a build)
    ///   or a link's fragment must be checked against the ids of a page not known here.
    package static func of(_ item: Item, pages: [String: String]) -> [Diagnostic]? {
        var paths: [Diagnostic] = []
        var files: [Diagnostic] = []
        for link in item.markdownLinks {
            let value = pages[link.target].flatMap { $0.isEmpty ? nil : $0 }
            if link.isPath {
                guard let value else { return nil }  // outside the output, or unreadable: errors
                if BodyPaths.parse(value).verbatim {
                    paths.append(.warning(link.location, BodyPaths.missingMessage(link)))
                }
            } else if value == nil {
                guard let warning = ContentLinks.problem(link), warning.severity == .warning else { return nil }
                files.append(warning)
            }
            // A fragment is checked against the page the link leads to (not against a file, nor
            // where the path names nothing): those ids are not known here.
            guard let fragment = link.fragment, !MarkdownHeadings.alwaysFound(MarkdownLink.decodePercent(fragment)),
                let value
            else { continue }
            if (link.isPath || link.target.hasSuffix("/")) && BodyPaths.parse(value).verbatim { continue }
            return nil
        }
        return paths + files
    }
}
