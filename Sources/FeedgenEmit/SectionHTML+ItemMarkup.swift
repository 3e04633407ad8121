/// The fixed pieces of a section item's markup around its card, shared by ``SectionHTML`` (which
/// writes them) and the patch build (which finds and replaces a deferred card's estimate in a
/// written page), so that neither spells them out alone.
extension SectionHTML {
    /// Opens a deferred item's estimate (``DeferredCards``) in its start tag; the estimate's
    /// `style` value and ``estimateStyleEnd`` follow.
    package static let estimateStyleStart = " style=\""
    /// Closes the estimate's `style` attribute.
    package static let estimateStyleEnd = "\""
    /// Ends the item's start tag and opens its cell, up to the item's id.
    package static let cellStart = "><div class=\"cl-cell\" data-item-id=\""
    /// Ends the cell's start tag; the card follows.
    package static let cellStartEnd = "\">\n"

    /// The bytes between a deferred item's estimate `style` value and its card: the attribute's
    /// end, the end of the item's start tag, the cell's start tag with `itemID` (escaped) and a
    /// line feed.
    package static func afterEstimate(itemID: String) -> [UInt8] {
        Array((estimateStyleEnd + cellStart + HTML.escape(itemID) + cellStartEnd).utf8)
    }
}
