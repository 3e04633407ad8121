/// Where the first screen ends in each section of a feed page that may defer cards, as the plan
/// found it: what a patch build needs to tell whether an eager card's new height leaves every card
/// of the page eager or deferred as it was (``DeferredCards/Fold``).
import FeedgenLayout

extension DeferredCards {
    /// A section's fold: which of its cards render eagerly and, in a stack, where the first screen's
    /// edge falls between them.
    ///
    /// A stack is a ``Column`` whose every group holds one card of estimated height in a group of
    /// estimated height, each card exactly as tall as its text estimate at the column's width: a
    /// change of one card's height moves every card after it, and every later section, by the
    /// same amount at each reference width (sections stack vertically). Its eager cards are a
    /// prefix (the tops only grow down the column).
    public struct Fold: Equatable, Sendable {
        /// A height or a top at both reference widths (CSS px).
        public struct Pair: Equatable, Sendable {
            public var phone: Double
            public var wide: Double

            public init(phone: Double, wide: Double) {
                (self.phone, self.wide) = (phone, wide)
            }
        }

        /// Whether the section is a stack; when false, the other fields are empty and say nothing.
        public var isStack: Bool
        /// In a stack: the model's height of each eager card (the cards 0..<count), in item order.
        public var eagerHeights: [Pair]
        /// In a stack: the top of the last eager card, nil when there is none.
        public var lastEager: Pair?
        /// In a stack: the top of the first deferred card, nil when there is none.
        public var firstDeferred: Pair?

        public init(isStack: Bool, eagerHeights: [Pair] = [], lastEager: Pair? = nil, firstDeferred: Pair? = nil) {
            (self.isStack, self.eagerHeights, self.lastEager, self.firstDeferred) = (isStack, eagerHeights, lastEager, firstDeferred)
        }

        /// A section that may defer cards but is no stack: a shift of its cards could change them.
        public static let unknown = Fold(isStack: false)

        /// How many cards render eagerly (in a stack).
        public var eagerCount: Int { eagerHeights.count }

        /// This fold with its cards moved down by `shift`: every card, or only those after the
        /// card of index `after` when it is given.
        func shifted(by shift: Pair, after: Int = -1) -> Fold {
            func moved(_ top: Pair) -> Pair { Pair(phone: top.phone + shift.phone, wide: top.wide + shift.wide) }
            var out = self
            if let top = lastEager, eagerCount - 1 > after { out.lastEager = moved(top) }
            if let top = firstDeferred { out.firstDeferred = moved(top) }
            return out
        }

        /// Whether the plan still finds the cards it did: the last eager card above the first
        /// screen at some width and the first deferred one below it at both, each by more than
        /// ``foldMargin`` (the model adds the heights in another order than a shift does).
        var holds: Bool {
            let edge = DeferredCards.firstScreenHeight
            let (above, below) = (edge - DeferredCards.foldMargin, edge + DeferredCards.foldMargin)
            if let top = lastEager, !(top.phone < above || top.wide < above) { return false }
            if let top = firstDeferred, !(top.phone >= below && top.wide >= below) { return false }
            return true
        }
    }

    /// How far from the first screen's edge a shifted top must stay (CSS px): far above the
    /// rounding error of adding a page's heights in another order.
    static let foldMargin = 1e-6

    /// The folds of a page after the eager card `item` of section `section` took the height
    /// `height` (the model's, at both reference widths): nil when some card of the page could
    /// change from eager to deferred or back, or when the folds cannot tell (that section no
    /// stack, the card not an eager one, a later section that may defer cards no stack).
    ///
    /// - Parameter folds: one per section of the page, nil for a section that defers no card.
    public static func folds(_ folds: [Fold?], resizing item: Int, of section: Int, to height: Fold.Pair) -> [Fold?]? {
        guard section < folds.count, let fold = folds[section], fold.isStack, item >= 0, item < fold.eagerCount,
            height.phone.isFinite, height.wide.isFinite
        else { return nil }
        let old = fold.eagerHeights[item]
        let shift = Fold.Pair(phone: height.phone - old.phone, wide: height.wide - old.wide)
        var out = folds
        var own = fold.shifted(by: shift, after: item)
        own.eagerHeights[item] = height
        guard own.holds else { return nil }
        out[section] = own
        for k in (section + 1)..<folds.count {
            guard let later = folds[k] else { continue }
            guard later.isStack else { return nil }
            let moved = later.shifted(by: shift)
            guard moved.holds else { return nil }
            out[k] = moved
        }
        return out
    }

    /// The folds after a card of section `section` (not an eager card of a stack) changed, its
    /// height by an amount not known exactly: the later sections' stacks can no longer tell their
    /// tops. (Its own section's fold stays: a stack's deferred card moves only deferred cards.)
    public static func folds(_ folds: [Fold?], afterChangeIn section: Int) -> [Fold?] {
        var out = folds
        for k in out.indices where k > section && out[k] != nil { out[k] = .unknown }
        return out
    }

    /// Section `list`'s fold (an eligible section; `list`: its plan, `column` its ``Column``):
    /// a stack when every group is one card of estimated height and each card is as tall as its
    /// measurement (`phoneSizes`, `wideSizes`: the model's measurements of its cards) at both widths.
    static func fold(
        list: [Estimate?], column: Column?, phone: ResolvedSection, wide: ResolvedSection, phoneSizes: [Size?]?, wideSizes: [Size?]?
    ) -> Fold {
        let eagerCount = list.prefix { $0 == nil }.count
        let p = phone.items
        let w = wide.items
        guard column != nil, isOneCardGroup(phone.layout), isOneCardGroup(wide.layout), p.count == list.count, w.count == list.count,
            let phoneSizes, let wideSizes, phoneSizes.count == list.count, wideSizes.count == list.count,
            !list[eagerCount...].contains(where: { $0 == nil })
        else { return .unknown }
        for i in list.indices {
            guard let a = phoneSizes[i], let b = wideSizes[i], a.height == p[i].frame.height, b.height == w[i].frame.height else {
                return .unknown
            }
        }
        let tops = { (i: Int) in Fold.Pair(phone: p[i].frame.y, wide: w[i].frame.y) }
        return Fold(
            isStack: true, eagerHeights: (0..<eagerCount).map { Fold.Pair(phone: p[$0].frame.height, wide: w[$0].frame.height) },
            lastEager: eagerCount > 0 ? tops(eagerCount - 1) : nil, firstDeferred: eagerCount < list.count ? tops(eagerCount) : nil)
    }

    /// Whether `section`'s group is one item of estimated height in a group of estimated height:
    /// the group is then as tall as its card (and constant insets).
    static func isOneCardGroup(_ section: LayoutSection) -> Bool {
        guard case .estimated = section.group.size.height else { return false }
        let item: LayoutItem
        switch section.group.content {
        case .count(1, .item(let only)): item = only
        case .subitems(let list) where list.count == 1:
            guard case .item(let only) = list[0] else { return false }
            item = only
        default: return false
        }
        if case .estimated = item.size.height { return true }
        return false
    }
}
