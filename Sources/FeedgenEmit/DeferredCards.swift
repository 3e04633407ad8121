import Dispatch
import FeedgenLayout
import FeedgenResolve

/// Which cards of a feed page render lazily (`content-visibility: auto`), and the height each
/// one reserves until it is first rendered (`contain-intrinsic-block-size: auto <estimate>`):
/// web-output §0 item 4 and §1.6, layout-semantics §5.4 and §8 ([C2]). docs/layout.md ("Long
/// sections") gives the decisions; in short:
///
/// - Only sections of at least ``minimumCards`` cards whose every rule (base and adaptive) is a
///   vertical grid flow (`list`, `grid`, `insetGrouped`; not orthogonal, no section-wide or
///   per-group `uniformAcrossSiblings` height: a skipped card there would size its visible
///   neighbours).
/// - A card is deferred when its top lies below the first screen (``firstScreenHeight``) at both
///   reference widths: the model is solved with every card's text estimate as its measured size.
/// - The estimate is the model's height of the card at each of the ``referenceWidths`` (the text
///   estimate on an estimated axis, the exact height otherwise), emitted as `--cl-est` (phone)
///   and `--cl-est-wide` (when it differs); the CSS switches at ``wideFrom``.
public enum DeferredCards {
    /// The page widths the estimates are computed at: a phone and a desktop window (CSS px).
    public static let referenceWidths = (phone: 390.0, wide: 1280.0)
    /// From this section width the wide estimate applies (half-way between the reference widths).
    public static let wideFrom = 835.0
    /// The first screen: the tallest common phone viewport (CSS px). Cards that start above it
    /// at either reference width render eagerly.
    public static let firstScreenHeight = 900.0
    /// Sections with fewer cards render every card eagerly (the saving is small and a page this
    /// short is cheap to lay out).
    public static let minimumCards = 32

    /// A deferred card's reserved heights, whole CSS px.
    public struct Estimate: Hashable, Sendable {
        public var phone: Int
        public var wide: Int

        /// The `style` attribute value: `--cl-est:123px` (and `;--cl-est-wide:80px`).
        public var style: String { withStyle { String(decoding: $0, as: UTF8.self) } }

        /// Calls `body` with ``style``'s bytes, written in place (decimal numbers, as
        /// `String(Int)` writes them): no String per deferred card of a page.
        func withStyle<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
            // "--cl-est:" 9 + 20 + "px" 2 + ";--cl-est-wide:" 15 + 20 + "px" 2 bytes at most.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 72) { buffer in
                var at = 0
                func put(_ text: StaticString) {
                    text.withUTF8Buffer { for byte in $0 { buffer[at] = byte; at += 1 } }
                }
                func put(_ value: Int) {
                    if value < 0 { buffer[at] = UInt8(ascii: "-"); at += 1 }
                    var magnitude = value.magnitude
                    let start = at
                    repeat {
                        buffer[at] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                        at += 1
                        magnitude /= 10
                    } while magnitude > 0
                    buffer[start..<at].reverse()
                }
                put("--cl-est:")
                put(phone)
                put("px")
                if wide != phone {
                    put(";--cl-est-wide:")
                    put(wide)
                    put("px")
                }
                return body(UnsafeRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[0..<at]))
            }
        }
    }

    /// Whether `section`'s cards may be deferred (its arrangement, not its length).
    public static func isEligible(_ layout: AdaptiveSection) -> Bool {
        for s in [layout.base] + layout.rules.map(\.section) {
            guard LayoutCSS.mode(of: s) == .gridFlow else { return false }
            if s.group.size.height.isUniform { return false }
            if case .count(_, .item(let item)) = s.group.content, item.size.height.isUniform { return false }
        }
        return true
    }

    /// The text estimates of a page's cards, as the model's measurements at container width
    /// `width`: each card at the width the model gives it (estimates only), and each section
    /// header from its title and text.
    ///
    /// - Parameters:
    ///   - sections: the feed's sections.
    ///   - profiles: each section's card estimates, in item order (``profiles(sections:cards:)``).
    ///   - environment: the container; its width decides each card's width.
    public static func measurements(
        sections: [PreparedSection], profiles: [[CardHeightEstimate]], environment: LayoutEnvironment
    ) -> Measurements {
        let first = CompositionalLayout.solve(sections.map(\.input), environment: environment)
        var m = Measurements()
        for (k, s) in first.sections.enumerated() {
            let section = sections[k]
            let items = section.section.items
            // By position, of the section and of the item, and the header by the section's
            // position (two ids may compare equal: Unicode canonical equivalence, also of two
            // sections' folder names). The model
            // places a section's items in snapshot order: a card is found at its position, and
            // by its identifier otherwise.
            var sizes = [Size?](repeating: nil, count: items.count)
            var index: [String: Int]?
            for (j, item) in s.items.enumerated() {
                var found: Int?
                if j < items.count, items[j].id == item.id {
                    found = j
                } else {
                    if index == nil {
                        index = Dictionary(items.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
                    }
                    found = index?[item.id]
                }
                guard let i = found, i < profiles[k].count else { continue }
                let profile = profiles[k][i]
                if profile.isEmpty { continue }
                sizes[i] = Size(width: item.frame.width, height: profile.height(width: item.frame.width))
            }
            m.indexedItems[k] = sizes
            if let title = section.section.title, let header = s.headerFrame {
                m.indexedHeaders[k] = headerHeight(title: title, text: section.section.headerHTML, width: header.width)
            }
        }
        return m
    }

    /// A section header's height (theme.css: 16 px top padding, a 1.25rem bold title at line
    /// height 1.3, the supporting text at .95rem, 4 px above it).
    static func headerHeight(title: String, text: String, width: Double) -> Double {
        var html = "<h2 class=\"card-title\">\(HTML.escape(title))</h2>"
        let titleHeight = CardHeightEstimate(html: html, preset: "list").height(width: width * 16.8 / 20) * 20 / 16.8
        guard !text.isEmpty else { return 16 + titleHeight }
        html = "<div>\(text)</div>"
        let body = CardHeightEstimate(html: html).height(width: width * 16 / 15.2) * 15.2 / 16
        // The text's first child margin is 4 px and its last one 0 (theme.css).
        return 16 + titleHeight + 4 + max(0, body - 2 * 15.2)
    }

    /// Each card's profile, read from its HTML (in parallel for long pages).
    public static func profiles(sections: [PreparedSection], cards: [[String]]) -> [[CardHeightEstimate]] {
        var out: [[CardHeightEstimate]] = []
        for (k, s) in sections.enumerated() {
            let list = cards[k]
            let preset = s.preset.rawValue
            if list.count < 256 {
                out.append(list.map { CardHeightEstimate(html: $0, preset: preset) })
            } else {
                let slots = ResultSlots<CardHeightEstimate>(count: list.count)
                DispatchQueue.concurrentPerform(iterations: list.count) { i in
                    slots.set(i, .success(CardHeightEstimate(html: list[i], preset: preset)))
                }
                out.append(slots.values.map { result in
                    if case .success(let estimate) = result { estimate } else { CardHeightEstimate(html: "") }
                })
            }
        }
        return out
    }

    /// Whether any section of `feed` may defer cards (so its cards need estimates).
    public static func defersAny(_ feed: PreparedFeed) -> Bool {
        feed.sections.contains { isEligible($0.layout) && $0.section.items.count >= minimumCards }
    }

    /// The estimates of the deferred cards of a feed page: one list per section, in item order,
    /// nil for a card that renders eagerly.
    ///
    /// - Parameters:
    ///   - cards: each section's cards' HTML.
    ///   - estimates: the cards' estimates already made (from the card cache), one list per
    ///     section or none; when one is missing, every card's estimate is read from its HTML.
    public static func plan(
        site: PreparedSite, feed: PreparedFeed, cards: [[CardHTML]], estimates: [[CardHeightEstimate?]] = []
    ) -> [[Estimate?]] {
        planAndColumns(site: site, feed: feed, cards: cards, estimates: estimates).estimates
    }

    /// A section whose every item sits alone in its row at both reference widths, all of one
    /// width: a deferred card's estimate there is its own height at that width
    /// (``CardHeightEstimate/height(width:)``), and a change of that height only moves the
    /// cards below it, which stay below the first screen. nil for other sections.
    public struct Column: Equatable, Sendable {
        public var phone: Double
        public var wide: Double

        public init(phone: Double, wide: Double) {
            (self.phone, self.wide) = (phone, wide)
        }

        /// The estimate of a card of `profile` in this column.
        public func estimate(_ profile: CardHeightEstimate) -> Estimate {
            Estimate(phone: Int(profile.height(width: phone).rounded()), wide: Int(profile.height(width: wide).rounded()))
        }
    }

    /// ``plan(site:feed:cards:estimates:)``, with each section's ``Column`` (nil when it is not one)
    /// and its ``Fold`` (nil when it defers no card: not eligible).
    static func planAndColumns(
        site: PreparedSite, feed: PreparedFeed, cards: [[CardHTML]], estimates: [[CardHeightEstimate?]] = []
    ) -> (estimates: [[Estimate?]], columns: [Column?], folds: [Fold?]) {
        let sections = feed.sections
        let eligible = sections.map { isEligible($0.layout) && $0.section.items.count >= minimumCards }
        guard eligible.contains(true) else {
            let none = sections.map { _ in nil as Column? }
            return (sections.map { Array(repeating: nil, count: $0.section.items.count) }, none, none.map { _ in nil })
        }
        let profiles: [[CardHeightEstimate]] =
            if estimates.count == cards.count, zip(estimates, cards).allSatisfy({ $0.count == $1.count && !$0.contains(nil) }) {
                estimates.map { $0.map { $0! } }
            } else {
                self.profiles(sections: sections, cards: cards.map { $0.map(\.text) })
            }
        // Each width's layout and the measurements it was solved with.
        @Sendable func solve(_ width: Double) -> (ResolvedLayout, Measurements) {
            let env = site.layoutEnvironment(feed, width: width, viewportHeight: firstScreenHeight)
            let measured = measurements(sections: sections, profiles: profiles, environment: env)
            return (CompositionalLayout.solve(sections.map(\.input), environment: env, measurements: measured), measured)
        }
        // The two widths are independent: solved at once, on two cores (a feed page of
        // 10,000 cards solves the model four times).
        let solved = ResultSlots<(ResolvedLayout, Measurements)>(count: 2)
        DispatchQueue.concurrentPerform(iterations: 2) { k in
            solved.set(k, .success(solve(k == 0 ? referenceWidths.phone : referenceWidths.wide)))
        }
        guard case .success(let (phone, phoneSizes)) = solved.values[0], case .success(let (wide, wideSizes)) = solved.values[1] else {
            return ([], [], [])
        }
        var out: [[Estimate?]] = []
        var columns: [Column?] = []
        var folds: [Fold?] = []
        for (k, s) in sections.enumerated() {
            var list: [Estimate?] = Array(repeating: nil, count: s.section.items.count)
            var column: Column?
            if eligible[k] {
                // Flat grid flows place the items in snapshot order.
                let p = phone.sections[k].items
                let w = wide.sections[k].items
                for i in list.indices where i < p.count && i < w.count {
                    guard p[i].frame.y >= firstScreenHeight, w[i].frame.y >= firstScreenHeight else { continue }
                    list[i] = Estimate(phone: Int(p[i].frame.height.rounded()), wide: Int(w[i].frame.height.rounded()))
                }
                if p.count == list.count, w.count == list.count, let p0 = p.first, let w0 = w.first {
                    let alone = { (items: [ResolvedItem]) in
                        zip(items, items.dropFirst()).allSatisfy { $1.frame.y >= $0.frame.y + $0.frame.height }
                            && items.allSatisfy { $0.frame.width == items[0].frame.width && $0.frame.x == items[0].frame.x }
                    }
                    if alone(p), alone(w) { column = Column(phone: p0.frame.width, wide: w0.frame.width) }
                }
                folds.append(
                    fold(
                        list: list, column: column, phone: phone.sections[k], wide: wide.sections[k],
                        phoneSizes: phoneSizes.indexedItems[k], wideSizes: wideSizes.indexedItems[k]))
            } else {
                folds.append(nil)
            }
            out.append(list)
            columns.append(column)
        }
        return (out, columns, folds)
    }
}
