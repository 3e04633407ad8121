/// Where a feed page's cards are in its bytes, and what their templates were given besides
/// their item: what a build needs to replace one card of the written page in place (the build
/// cache's patch build) instead of assembling the page again.
public struct FeedPageMap: Sendable, Equatable {
    /// Per section of the feed, per item (item order): the byte range of the card's HTML in the
    /// page, with the line feed written after a card that does not end in one.
    public var cards: [[Range<Int>]]
    /// Per section, per item: whether the card's image loads eagerly (`loading="eager"`) and
    /// whether with high priority (``TemplateContext/item(_:feed:page:image:eager:priority:detail:config:)``).
    public var eager: [[Bool]]
    public var priority: [[Bool]]
    /// Whether the cards have height estimates (some section of the page defers cards,
    /// ``DeferredCards``): a card replaced in place must then keep its estimate, or the page's
    /// deferral plan could change.
    public var estimated: Bool
    /// Whether every card is at its range exactly as rendered: each section's groups are in the
    /// page once, not escaped by a template. Else the page cannot be patched.
    public var isExact: Bool
    /// Per section: its column when its deferred cards' estimates are their own heights
    /// (``DeferredCards/Column``), else nil. A deferred card of such a section may change its
    /// estimate: only its own `style` changes.
    public var columns: [DeferredCards.Column?]
    /// Per section: its fold (``DeferredCards/Fold``), nil when it defers no card; or empty when
    /// not known (then no eager card may change its estimate in place).
    public var folds: [DeferredCards.Fold?]

    public init(
        cards: [[Range<Int>]], eager: [[Bool]], priority: [[Bool]], estimated: Bool, isExact: Bool,
        columns: [DeferredCards.Column?] = [], folds: [DeferredCards.Fold?] = []
    ) {
        (self.cards, self.eager, self.priority, self.estimated, self.isExact) = (cards, eager, priority, estimated, isExact)
        self.columns = columns.isEmpty ? cards.map { _ in nil } : columns
        self.folds = folds
    }
}
