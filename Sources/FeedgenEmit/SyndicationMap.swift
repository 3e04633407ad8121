/// Where each entry of a feed's Atom and JSON Feed documents is (``Syndication``): what a build
/// needs to replace one entry in place (the build cache's patch build) instead of writing the
/// documents again.
public struct SyndicationMap: Sendable, Equatable {
    /// Per entry (feed order): its item's section and place in the section.
    public var sections: [Int] = []
    public var items: [Int] = []
    /// Per entry: the byte range of its `<entry>` element in `feed.xml` (with its line feed).
    public var atom: [Range<Int>] = []
    /// Per entry: the byte range of its object in `feed.json`'s `items` (from `{` to `}`).
    public var json: [Range<Int>] = []
    /// The Atom feed's `updated` (an undated entry's `updated` too).
    public var updated: String

    public init(updated: String) { self.updated = updated }

    public mutating func append(section: Int, item: Int, atom range: Range<Int>) {
        sections.append(section)
        items.append(item)
        atom.append(range)
    }
}
