import FeedgenContent
import Foundation
import FeedgenDiagnostics
import FeedgenEmit

/// Links between content files (`[x](../other/item.md)`): checked against the site's pages, then
/// written as relative links to the right output page (content-format §5).
struct ContentLinks {
    /// Output page of each content file that has one, by site-relative source path.
    let pages: [String: String]

    init(feeds: [PreparedFeed]) {
        var pages: [String: String] = [:]
        for feed in feeds {
            if let source = feed.feed.sourcePath { pages[source] = feed.pagePath }
            for s in feed.sections {
                if let source = s.section.sourcePath { pages[source] = feed.pagePath }
                for item in s.section.items where item.fileName != "" {
                    pages[item.sourcePath] = item.hasBody ? feed.detailPath(item) : feed.pagePath
                }
            }
        }
        self.pages = pages
    }

    /// An error for every link whose file is not a page of the site (missing, skipped as a draft,
    /// or outside the content folder).
    func check(_ feeds: [PreparedFeed], into diagnostics: inout Diagnostics) {
        for feed in feeds {
            for s in feed.sections {
                for item in s.section.items {
                    for link in item.markdownLinks where pages[link.target] == nil {
                        diagnostics.error(
                            link.location,
                            "link '\(link.destination)' leads to \(link.target), which is not a page of this site (missing, a draft, or not yet published); fix the path or remove the link")
                    }
                }
            }
        }
    }

    /// Replaces `feedgen-md:<path>#frag` destinations in `html`, rendered into output page `page`,
    /// by relative URLs. Unknown targets (already reported) become `#`.
    func rewrite(_ html: String, page: String) -> String {
        let marker = Markdown.contentLinkScheme
        guard html.contains(marker) else { return html }
        var out = ""
        out.reserveCapacity(html.utf8.count)
        var rest = Substring(html)
        while let r = rest.range(of: marker) {
            out += rest[..<r.lowerBound]
            let tail = rest[r.upperBound...]
            let end = tail.firstIndex(where: { $0 == "\"" || $0 == "'" || $0 == ">" || $0 == " " }) ?? tail.endIndex
            var destination = String(tail[..<end])
            var fragment = ""
            if let hash = destination.firstIndex(of: "#") {
                fragment = String(destination[hash...])
                destination = String(destination[..<hash])
            }
            if let target = pages[MarkdownLink.decodePercent(destination)] {
                out += RelativeURL.relative(from: page, to: target) + fragment
            } else {
                out += "#"
            }
            rest = tail[end...]
        }
        out += rest
        return out
    }
}
