/// A loaded site: its configuration, its feeds and its static files.
///
/// ```text
/// Site ─ config: SiteConfig
///      ├ feeds: [Feed]          home feed first, then by path
///      │   └ sections: [Section]
///      │       └ items: [Item]
///      └ staticFiles: [String]  relative to static/, sorted
/// ```
public struct Site: Sendable {
    /// Absolute path of the site folder.
    public var root: String
    public var config: SiteConfig
    /// The home feed (`path == ""`) first, then the others by path (byte-wise).
    public var feeds: [Feed]
    /// Files below `static/`, relative to it, sorted byte-wise.
    public var staticFiles: [String]
    /// Whether some item (shown or hidden) has a `publishDate` or `expiryDate` that the load
    /// compared with "now" (not with `--future` or `--expired`): the site may then change as
    /// time passes, with no file changed.
    public var isScheduled = false

    public init(root: String, config: SiteConfig, feeds: [Feed], staticFiles: [String]) {
        self.root = root
        self.config = config
        self.feeds = feeds
        self.staticFiles = staticFiles
    }

    /// The feed at `path` (`""` for the home feed).
    public func feed(at path: String) -> Feed? { feeds.first { $0.path == path } }
}
