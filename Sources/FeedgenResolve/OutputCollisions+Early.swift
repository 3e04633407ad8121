/// `OutputCollisions.DetailKeys`: the keys of a site's detail pages, most of its output files,
/// claimed on another thread while the site is resolved; once the pages that views add are
/// known, the few other files are checked against them (``OutputCollisions/isClean(_:detail:)``).
import Dispatch
import FeedgenContent
import FeedgenStorage

extension OutputCollisions {
    /// The detail pages of the feeds of a site with views, as resolved before ``SectionViews``
    /// applied the views: they keep the same detail pages, and the pages the views add have none.
    final class DetailKeys: @unchecked Sendable {
        private let group = DispatchGroup()
        // Written on `make`'s thread before it leaves `group`; read after `group.wait()`.
        private var keys: Set<String> = []
        private var folders: Set<Substring> = []
        /// Each feed's path and its detail pages' item ids, in claim order (to tell that the
        /// resolved site has these pages).
        private var pages: [(feed: String, ids: [String])] = []
        /// Whether the pages claim no reserved path, no name too long, no key twice.
        private var clean = true

        init(_ feeds: [PreparedFeed]) {
            DispatchQueue.global().async(group: group) { self.make(feeds) }
        }

        private func make(_ feeds: [PreparedFeed]) {
            let reserved = key(OutputPaths.previews)
            let reservedFolder = reserved + "/"
            var lastFolder: Substring?
            // Room for every page at once: growing the set rehashed its keys again and again.
            keys.reserveCapacity(feeds.reduce(0) { $0 + $1.sections.reduce(0) { $0 + $1.pageItems.count } })
            for feed in feeds {
                var ids: [String] = []
                for s in feed.sections {
                    for item in s.pageItems where item.hasBody {
                        let path = feed.detailPath(item)
                        let k = key(path)
                        guard k != reserved, !k.hasPrefix(reservedFolder), longName(path) == nil, keys.insert(k).inserted else {
                            clean = false
                            return
                        }
                        if let slash = lastSlash(k), k[..<slash] != lastFolder {
                            folders.insert(k[..<slash])
                            lastFolder = k[..<slash]
                        }
                        ids.append(item.id)
                    }
                }
                pages.append((feed.feed.path, ids))
            }
        }

        /// Whether `site` has no output collision, told from these keys when it has the same
        /// detail pages; false when it may have one (then ``OutputCollisions/check(_:into:)``
        /// finds it, and says what it is).
        func isClean(_ site: PreparedSite) -> Bool {
            group.wait()
            guard clean, site.feeds.count >= pages.count else { return false }
            // The resolved site's detail pages must be these: the first feeds' the same items,
            // the pages added after them none.
            for (f, feed) in site.feeds.enumerated() {
                var ids = f < pages.count ? pages[f].ids[...] : [][...]
                if f < pages.count, !feed.feed.path.sameBytes(as: pages[f].feed) { return false }
                for s in feed.sections {
                    for item in s.pageItems where item.hasBody {
                        guard let id = ids.popFirst(), id.sameBytes(as: item.id) else { return false }
                    }
                }
                guard ids.isEmpty else { return false }
            }
            // The other files, checked as the full check would, against the detail pages too.
            let reserved = key(OutputPaths.previews)
            let reservedFolder = reserved + "/"
            var others: Set<String> = []
            var otherFolders: Set<Substring> = []
            let files = generatedClaims(site).map(\.path) + site.feeds.map(\.pagePath) + copiedClaims(site).map(\.path)
            for path in files {
                let k = key(path)
                guard k != reserved, !k.hasPrefix(reservedFolder), longName(path) == nil, !keys.contains(k), others.insert(k).inserted
                else { return false }
                if let slash = lastSlash(k) { otherFolders.insert(k[..<slash]) }
            }
            let claimed = { (k: String) in self.keys.contains(k) || others.contains(k) }
            return !fileIsFolder(folders, claimed: claimed) && !fileIsFolder(otherFolders, claimed: claimed)
        }
    }
}
