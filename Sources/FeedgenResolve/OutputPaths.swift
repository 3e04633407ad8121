/// `OutputPaths`: the paths of the files feedgen writes itself, relative to the output folder,
/// in one place so that the collision check and the stages that write them agree.
public enum OutputPaths {
    /// The section previews of `feedgen build --previews` (a folder reserved in every build).
    public static let previews = "_previews"
    /// Watch mode's scripts (claimed by every build, written by watch builds only).
    public static let liveReloadScript = "_feedgen/live-reload.js"
    public static let buildID = "_feedgen/build-id.js"
    public static let layoutStylesheet = "assets/layout.css"
    public static let themeStylesheet = "assets/theme.css"
    /// Written when the site has a `baseURL`.
    public static let sitemap = "sitemap.xml"

    /// A token safe in an `id` attribute and a CSS identifier: ASCII letters, digits, `-`, `_`;
    /// anything else becomes `-`.
    public static func identifier(_ s: String) -> String {
        String(s.unicodeScalars.map { c in
            (c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "-" || c == "_")) ? Character(c) : "-"
        })
    }

    /// The `id` of a section's heading on its feed page (`sec-` and the section's id).
    public static func sectionAnchor(_ sectionID: String) -> String { "sec-" + identifier(sectionID) }

    /// A feed's Atom feed (`feed.xml`, `recipes/feed.xml`), written when the site has a `baseURL`.
    public static func atom(_ feed: PreparedFeed) -> String { feed.syndicationFolder.isEmpty ? "feed.xml" : feed.syndicationFolder + "/feed.xml" }
    /// A feed's JSON Feed (`feed.json`, `recipes/feed.json`).
    public static func json(_ feed: PreparedFeed) -> String { feed.syndicationFolder.isEmpty ? "feed.json" : feed.syndicationFolder + "/feed.json" }
}
