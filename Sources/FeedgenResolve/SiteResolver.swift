/// `SiteResolver`: stage 3 of a build, a loaded ``Site`` → one ``PreparedSite`` that later
/// stages only read: every section's layout decoded, every item image found and measured,
/// links between content files checked and front-matter links rewritten, output collisions
/// checked.
import Dispatch
import FeedgenContent
import FeedgenDiagnostics
import FeedgenLayout
import FeedgenStorage
import Foundation

public enum SiteResolver {
    /// Resolves `site`. Problems (positioned) go into `diagnostics`; the site is resolved as far
    /// as it can be even then (a build with errors stops after this stage).
    /// - Returns: the resolved site and its content links (for rewriting the links in pages).
    public static func resolve(_ site: Site, diagnostics: inout Diagnostics) -> (site: PreparedSite, links: ContentLinks) {
        let realRoot = URL(fileURLWithPath: site.root).resolvingSymlinksInPath().path
        var (feeds, images) = prepareFeeds(site, realRoot: realRoot, diagnostics: &diagnostics)
        // Output collisions are checked on another core meanwhile: they depend on the detail
        // pages' paths (a feed's path and each item's id), not on the links rewritten below.
        // A site with views has more pages, known after them (``SectionViews``).
        let views = SectionViews.needed(site)
        let early = views ? nil : CollisionCheck(PreparedSite(site: site, feeds: feeds, images: images))
        // With views, the detail pages (most of the files) are claimed meanwhile, the rest after.
        let detailKeys = views ? OutputCollisions.DetailKeys(feeds) : nil
        // The two tables of page names are made side by side. The ids of the pages that links
        // with a fragment need are gathered by the check, for those pages only.
        let frozen = feeds
        var tables = parallelMap(2) { k -> (ContentLinks?, PageNames?) in
            k == 0 ? (ContentLinks(feeds: frozen), nil) : (nil, PageNames(feeds: frozen))
        }
        // Taken out of `tables`: held once, its table takes the body paths in place.
        let files = tables[0].0!
        tables[0].0 = nil
        // Body paths (images, files, root-relative pages, permalink folders): content-format §5.4.
        let paths = BodyPaths.resolve(
            feeds: feeds, contentPages: files.pages, names: tables[1].1!, site: site, realRoot: realRoot)
        var contentLinks = (consume files).adding(paths: paths.pages)
        // The body paths' problems (made meanwhile) come first, then the link check's.
        var linkProblems = Diagnostics()
        contentLinks.check(feeds, targets: paths.targets.resolved(by: contentLinks.pages), into: &linkProblems)
        var problems = paths.takeProblems()
        problems.append(contentsOf: linkProblems.items)
        diagnostics.append(moving: consume problems)
        // Front-matter links to content files now point at their pages (site-root paths, made
        // relative per page by the templates and absolute in feeds).
        for f in feeds.indices {
            for s in feeds[f].sections.indices {
                for i in feeds[f].sections[s].section.items.indices {
                    guard let target = frontMatterContentLink(feeds[f].sections[s].section.items[i]),
                        let page = contentLinks.pages[target.target]
                    else { continue }
                    feeds[f].sections[s].section.items[i].link = "/" + RelativeURL.percentEncode(page) + (target.fragment.map { "#" + $0 } ?? "")
                }
            }
        }
        if views { SectionViews.apply(&feeds, images: &images, site: site, diagnostics: &diagnostics) }
        var prepared = PreparedSite(site: site, feeds: feeds, images: images)
        prepared.contentPages = contentLinks.pages
        (prepared.bodyFiles, prepared.bodyAbsent) = (paths.files, paths.absent)
        if let early {
            diagnostics.append(contentsOf: early.diagnostics())
        } else if detailKeys?.isClean(prepared) != true {
            OutputCollisions.check(prepared, into: &diagnostics)
        }
        // The tables made for every item (page names, detail keys) are freed on another core,
        // not on the build's serial path.
        releaseElsewhere((consume tables, consume detailKeys))
        return (prepared, contentLinks)
    }

    /// Stage 3 for every feed of `site`: each section's layout decoded, front-matter links to
    /// content files added to their item's links, and each item's image resolved (by
    /// ``PreparedSite/imageKey(feed:item:)``). Problems go into `diagnostics`.
    public static func prepareFeeds(
        _ site: Site, realRoot: String, diagnostics: inout Diagnostics
    ) -> (feeds: [PreparedFeed], images: [String: ImageAsset]) {
        var feeds: [PreparedFeed] = []
        var images: [String: ImageAsset] = [:]
        for feed in site.feeds {
            var sections: [PreparedSection] = []
            for var section in feed.sections {
                // A front-matter `link` to a content file (`link: ../recipes/soup.md`) is checked
                // and rewritten like a link in the body.
                for i in section.items.indices {
                    guard let target = frontMatterContentLink(section.items[i]) else { continue }
                    // Reported at the `link` value (the file's or the inline item's), not at 1:1.
                    let item = section.items[i]
                    let location = item.frontMatter["link"].map {
                        SourceLocation(path: item.sourcePath, line: $0.line, column: $0.column)
                    } ?? item.location
                    section.items[i].markdownLinks.append(target.at(location))
                }
                let path = section.sourcePath ?? "content/" + (feed.folder.isEmpty ? "" : feed.folder + "/") + section.id
                var decoder = LayoutDecoder(path: path)
                let (layout, preset) = decoder.decode(section.layout)
                diagnostics.append(contentsOf: decoder.diagnostics)
                sections.append(PreparedSection(section: section, layout: layout, preset: preset))
            }
            let prepared = PreparedFeed(feed: feed, sections: sections)
            for s in sections {
                for item in s.section.items {
                    guard let image = item.image else { continue }
                    if let asset = resolveImage(image, item: item, site: site, realRoot: realRoot, diagnostics: &diagnostics) {
                        images[PreparedSite.imageKey(feed: prepared, item: item)] = asset
                    }
                }
            }
            feeds.append(prepared)
        }
        return (feeds, images)
    }

    /// The content file an item's front-matter `link` names (`link: ../recipes/soup.md`), if any.
    public static func frontMatterContentLink(_ item: Item) -> MarkdownLink? {
        guard let link = item.link, !RelativeURL.hasScheme(link) else { return nil }
        let directory = item.sourcePath.split(separator: "/").dropLast().joined(separator: "/")
        return MarkdownLink(destination: link, directory: directory)
    }

    /// ``OutputCollisions/check(_:into:)`` on another thread.
    final class CollisionCheck: @unchecked Sendable {
        private var found = Diagnostics()
        private let group = DispatchGroup()

        init(_ site: PreparedSite) {
            DispatchQueue.global().async(group: group) { OutputCollisions.check(site, into: &self.found) }
        }

        /// Waits for the check: its errors.
        func diagnostics() -> [Diagnostic] {
            group.wait()
            return found.items
        }
    }
}
