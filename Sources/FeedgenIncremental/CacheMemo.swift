/// `CacheMemo`: the build cache's stores lent to the pipeline (FeedgenBuild's ``BuildMemo``):
/// the item cache, the card cache and the keys of pages and cards.
import FeedgenBuild
import FeedgenContent
import FeedgenEmit

/// The stores of one build, opened when the pipeline asks for them.
final class CacheMemo: BuildMemo, @unchecked Sendable {  // `items` is set and read on the build's thread
    /// The item cache, once opened: its fingerprints key the cards, the pages and the snapshot.
    private(set) var items: ItemCache?
    /// The fingerprints of the items this build loaded or fingerprinted: the item cache's, or
    /// this build's own when it has none.
    var fingerprints: ItemFingerprints { items?.fingerprints ?? own }
    private let own = ItemFingerprints()

    func openItems(cacheFolder: String, writable: Bool, options: BuildOptions) -> any ItemMemo {
        let cache = ItemCache(
            path: cacheFolder + "/items.log", salt: BuildCache.salt, writable: writable, sourcesPath: cacheFolder + "/sources",
            testCut: options.itemLogCut)
        items = cache
        return cache
    }

    func openCards(cacheFolder: String, read: Bool, cutAfterMapping: Bool) -> any CardMemo {
        CardCache(path: cacheFolder + "/cards.log", salt: BuildCache.salt, read: read, cutAfterMapping: cutAfterMapping)
    }

    func renderMemo(templates: TemplateSet, config: SiteConfig, liveReload: Bool) -> any RenderMemo {
        RenderKeys(
            salt: RenderKeys.pageSalt(templates: templates, config: config, liveReload: liveReload), fingerprints: fingerprints)
    }
}

extension BuildOptions {
    /// The test hook ``testCutLog`` for `items.log`.
    var itemLogCut: ItemCache.LogCut? {
        switch testCutLog {
        case "items.log": .afterMapping
        case "items.log after commit": .afterCommit
        default: nil
        }
    }
}
