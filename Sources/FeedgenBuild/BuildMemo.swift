/// `BuildMemo`: what a build is lent of earlier builds besides its output's back buffer (the
/// items they parsed, the cards they rendered, the keys of pages and cards), as protocols that
/// FeedgenIncremental implements; a build without a memo parses and renders everything.
import FeedgenContent
import FeedgenEmit
import FeedgenResolve

/// The stores of earlier builds that the pipeline opens as its stages reach them: the parsed
/// items once the configuration (and so the build cache's folder) is known, the rendered cards
/// on the output session's thread, the keys once the templates are compiled.
public protocol BuildMemo: AnyObject, Sendable {
    /// The parsed items kept in the build cache at `cacheFolder`; `writable`: new ones are stored.
    func openItems(cacheFolder: String, writable: Bool, options: BuildOptions) -> any ItemMemo
    /// The rendered cards kept in the build cache at `cacheFolder`; `read: false` (`--clean`)
    /// starts from none. `cutAfterMapping`: a test hook (``BuildOptions/testCutLog``).
    func openCards(cacheFolder: String, read: Bool, cutAfterMapping: Bool) -> any CardMemo
    /// The keys of this build's detail pages and cards, for its templates and configuration.
    func renderMemo(templates: TemplateSet, config: SiteConfig, liveReload: Bool) -> any RenderMemo
}

/// A store of parsed items for one build: counted for the report, its table of sources saved
/// early, the whole saved when the build wrote its output or discarded when it failed.
public protocol ItemMemo: ParsedItemStore {
    /// Items taken from the store, of them those whose file was not even read, items parsed.
    var hits: Int { get }
    var unread: Int { get }
    var misses: Int { get }
    /// Starts saving what is known of each item file's `stat` (complete once the content is loaded).
    func saveSourcesEarly()
    /// Waits for ``saveSourcesEarly()`` (before the build releases the cache's lock).
    func waitForSources()
    func save()
    func discard()
}

/// Rendered cards kept across builds, by the keys of a ``RenderMemo``.
public protocol CardMemo: AnyObject, Sendable {
    /// Lookups that found a fragment / found none.
    var hits: Int { get }
    var misses: Int { get }
    func fragment(_ key: UInt64) -> CardFragment?
    func store(_ key: UInt64, _ fragment: CardFragment)
    /// The fragments of `keys` are still used, though not looked up (their feed page was not
    /// rendered): a log rewritten with the used entries keeps them.
    func keep(_ keys: [UInt64])
    /// Writes this build's new entries (after the output was exchanged).
    func save()
}

/// The keys of one build's rendered output.
public protocol RenderMemo: Sendable {
    /// The key of a detail page in the back buffer's manifest: equal keys, equal pages.
    /// `linkPages`: where each of its item's content links leads (``ContentLinks/pages``), in order.
    func detailKey(_ page: DetailPageInputs, linkPages: [String?]) -> UInt64
    /// `cards` as the renderer's card store, keyed by this memo.
    func cardStore(_ cards: any CardMemo) -> any CardFragmentStore
    /// What every feed page's key holds of the site: its feeds (`outline`) and where content
    /// links lead (`links`, which the last pass rewrites with).
    func feedSiteKey(outline: [FeedOutline], links: ContentLinks) -> UInt64
    /// The key of a feed page in the back buffer's manifest: its inputs and `site`
    /// (``feedSiteKey(outline:links:)``). Equal keys, equal pages and ``FeedPageMap``s.
    func feedKey(_ page: FeedPageInputs, site: UInt64) -> UInt64
}
