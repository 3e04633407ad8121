/// `WrittenFeed`: a feed page as the write stage left it (path, hash, where its cards are), and
/// its Atom and JSON Feed documents: what a later build needs to patch them in place.
import FeedgenEmit

/// A feed page as written.
public struct WrittenFeed: Equatable, Sendable {
    public var path: String
    /// ``StableHasher`` hash of its bytes.
    public var hash: UInt64
    public var map: FeedPageMap
    /// The key of its inputs it was written with (``RenderMemo/feedKey(_:site:)``; 0: none, as
    /// for a page a patch build changed): a later build that makes the same key and finds these
    /// bytes in the back buffer keeps them, with this ``map``.
    public var key: UInt64 = 0
    /// The feed's Atom and JSON Feed documents (a site with a `baseURL`), else nil.
    public var syndication: WrittenSyndication?

    public init(path: String, hash: UInt64, map: FeedPageMap, syndication: WrittenSyndication? = nil) {
        (self.path, self.hash, self.map, self.syndication) = (path, hash, map, syndication)
    }
}

/// A feed's `feed.xml` and `feed.json` as written, and where their entries are.
public struct WrittenSyndication: Equatable, Sendable {
    public var atomPath: String
    public var atomHash: UInt64
    public var jsonPath: String
    public var jsonHash: UInt64
    public var map: SyndicationMap

    public init(atomPath: String, atomHash: UInt64, jsonPath: String, jsonHash: UInt64, map: SyndicationMap) {
        (self.atomPath, self.atomHash, self.jsonPath, self.jsonHash, self.map) = (atomPath, atomHash, jsonPath, jsonHash, map)
    }
}
