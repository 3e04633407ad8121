import FeedgenLayout

/// The sections' cards of one feed page, written once, into the finished page.
///
/// A long feed page is mostly its sections' `groupsHTML` (every card, wrapped): 24 MB for 10,000
/// cards, 240 MB for 100,000. Rendered through `section.mustache` and then `feed.mustache`, those
/// bytes were copied into each template's output in turn. Instead, each section's context gets a
/// placeholder, the templates render around it, and ``splice(into:)`` puts the cards where the
/// placeholders landed, as the pieces of the page (``ByteChunks``): a card kept by the card cache
/// stays in the cache's bytes (``CardHTML``) until the page is written, never a `String`.
///
/// The result is byte-identical to rendering the cards through the templates: a Mustache
/// variable is inserted as it is (partial indentation applies to template lines, not to values;
/// Mustache spec, "Partials"), and a template that escapes it (`{{groupsHTML}}`, or a section
/// escaped again by `feed.mustache`) is seen by the placeholder's `&`, which each escape turns
/// into `&amp;`: the cards are escaped as many times. A template may use the placeholder any
/// number of times, or not at all.
final class FeedGroups {
    /// One section's groups element, footer and background (``SectionHTML/groups(layout:ids:cards:headingID:label:focusable:scrollerID:slides:footer:deferred:)``).
    struct Section {
        var layout: AdaptiveSection
        var ids: [String]
        var cards: [CardHTML]
        var headingID: String?
        var label: String
        var focusable: Bool
        var scrollerID: String?
        /// The slides' labels and role description in a slideshow, else nil.
        var slides: SectionHTML.Slides?
        /// The footer's text (the item count) when the layout has a footer, else nil.
        var footer: String?
        var deferred: [DeferredCards.Estimate?]
        /// Per card: whether its image loads eagerly, and with high priority (its template was
        /// given these; kept for ``FeedPageMap``).
        var eager: [Bool] = []
        var priority: [Bool] = []

        func write<Out: HTMLByteSink>(into out: inout Out, cardRanges: SectionHTML.CardRanges? = nil) {
            SectionHTML.groups(
                layout: layout, ids: ids, cards: cards, headingID: headingID, label: label, focusable: focusable,
                scrollerID: scrollerID, slides: slides, footer: footer, deferred: deferred, into: &out,
                cardRanges: cardRanges)
        }

        var html: String {
            var out: [UInt8] = []
            write(into: &out)
            return String(decoding: out, as: UTF8.self)
        }
    }

    private var sections: [Section] = []

    /// Where ``splice(into:)`` put the cards (set by it).
    private(set) var map = FeedPageMap(cards: [], eager: [], priority: [], estimated: false, isExact: false)
    /// Each section's column, when its deferred cards' estimates are their own heights
    /// (``DeferredCards/Column``).
    var columns: [DeferredCards.Column?] = []
    /// Each section's fold (``DeferredCards/Fold``), nil for one that defers no card.
    var folds: [DeferredCards.Fold?] = []

    /// U+FFFE (a noncharacter: not in text an author writes), the marker, the section's index,
    /// U+FFFE. The `&` shows how many times a template escaped it.
    static let open = "\u{FFFE}feedgen&"
    static let close: Character = "\u{FFFE}"

    /// The placeholder that stands for `section`'s groups in the templates.
    func placeholder(for section: Section) -> String {
        sections.append(section)
        return Self.open + "groups-\(sections.count - 1)" + String(Self.close)
    }

    /// `skeleton` (the rendered page) with every placeholder replaced by its section's groups,
    /// as UTF-8: cached cards are referred to, not copied (``ByteChunks``).
    func splice(into skeleton: String) -> ByteChunks {
        let out = ByteChunks()
        map = FeedPageMap(
            cards: sections.map { Array(repeating: 0..<0, count: $0.cards.count) }, eager: sections.map(\.eager),
            priority: sections.map(\.priority), estimated: false, isExact: true)
        guard !sections.isEmpty else {
            out.append(skeleton)
            return out
        }
        let marker = Array(Self.open.utf8)
        let end = Array(String(Self.close).utf8)
        let amp = Array("amp;".utf8)
        let prefix = Array("groups-".utf8)
        var text = skeleton
        return text.withUTF8 { bytes -> ByteChunks in
            // Where each placeholder is: byte range, section, times escaped.
            var found: [(range: Range<Int>, section: Int, escapes: Int)] = []
            var i = 0
            while i + marker.count <= bytes.count {
                guard bytes[i] == marker[0], bytes[i..<(i + marker.count)].elementsEqual(marker) else {
                    i += 1
                    continue
                }
                var p = i + marker.count
                var escapes = 0
                while p + amp.count <= bytes.count, bytes[p..<(p + amp.count)].elementsEqual(amp) {
                    escapes += 1
                    p += amp.count
                }
                guard p + prefix.count <= bytes.count, bytes[p..<(p + prefix.count)].elementsEqual(prefix) else {
                    i += 1
                    continue
                }
                p += prefix.count
                var index = 0
                let digits = p
                while p < bytes.count, bytes[p] >= 0x30, bytes[p] <= 0x39, p - digits < 9 {
                    index = index * 10 + Int(bytes[p] - 0x30)
                    p += 1
                }
                guard p > digits, index < sections.count, p + end.count <= bytes.count,
                    bytes[p..<(p + end.count)].elementsEqual(end)
                else {
                    i += 1
                    continue
                }
                found.append((i..<(p + end.count), index, escapes))
                i = p + end.count
            }
            var out = out
            var copied = 0
            // Each card is where its range says only when every section's groups are written
            // once, unescaped.
            var uses = Array(repeating: 0, count: sections.count)
            for placeholder in found { uses[placeholder.section] += placeholder.escapes == 0 ? 1 : 2 }
            map.isExact = uses.allSatisfy { $0 == 1 }
            for placeholder in found {
                out.append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[copied..<placeholder.range.lowerBound])))
                if placeholder.escapes == 0 {
                    let ranges = SectionHTML.CardRanges(count: sections[placeholder.section].cards.count)
                    sections[placeholder.section].write(into: &out, cardRanges: ranges)
                    map.cards[placeholder.section] = ranges.ranges
                } else {
                    var html = sections[placeholder.section].html
                    for _ in 0..<placeholder.escapes { html = HTML.escape(html) }
                    out.append(html)
                }
                copied = placeholder.range.upperBound
            }
            out.append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[copied...])))
            return out
        }
    }
}
