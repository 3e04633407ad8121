/// The patch build's writing: changed cards spliced into the last build's feed pages, the
/// other output files carried over, and the byte checks that decide whether a card can be spliced.
import CFileSystem
import FeedgenBuild
import FeedgenContent
import FeedgenDiagnostics
import FeedgenEmit
import FeedgenResolve
import FeedgenStorage
import Foundation

extension PatchBuild {
    /// Puts the patched pages into `session`'s back buffer and carries every other file of the
    /// output over. - Throws: ``NotApplicable`` (an output file changed by hand), write errors.
    static func write(
        pages: [(file: OutputFile, key: UInt64)], hashes: [UInt64?], feedFiles: [(file: OutputFile, feed: Int)],
        documents: [OutputFile], into session: OutputWriter.Session, livePaths: [String], snapshot: inout BuildSnapshot
    ) throws {
        try session.begin(paths: livePaths)
        for (page, hash) in zip(pages, hashes) {
            guard let hash else { throw NotApplicable(reason: "detail page", sessionUsed: true) }
            try session.put(page.file, hash: hash, key: page.key)
        }
        // The big files (a feed page of 10,000 cards is 24 MB) are written on another thread
        // while the others are carried over.
        let large = feedFiles.map(\.file) + documents
        let hashes = ResultSlots<UInt64>(count: large.count)
        let written = DispatchGroup()
        DispatchQueue.global().async(group: written) {
            for (k, file) in large.enumerated() {
                hashes.set(k, Result {
                    guard case .chunks(let chunks) = file.contents else { return 0 }
                    return try session.put(file, size: chunks.count, key: 0) { chunks.stableHash }
                })
            }
        }
        let kept = Result { try session.keepLive(except: Set(pages.map(\.file.path) + large.map(\.path))) }
        written.wait()
        for (k, file) in large.enumerated() {
            guard case .success(let hash) = hashes.values[k] else {
                if case .failure(let error) = hashes.values[k] { throw error }
                continue
            }
            for f in snapshot.feeds.indices {
                // Patched bytes: no key of inputs stands for them.
                if snapshot.feeds[f].path == file.path { (snapshot.feeds[f].hash, snapshot.feeds[f].key) = (hash, 0) }
                if snapshot.feeds[f].syndication?.atomPath == file.path { snapshot.feeds[f].syndication?.atomHash = hash }
                if snapshot.feeds[f].syndication?.jsonPath == file.path { snapshot.feeds[f].syndication?.jsonHash = hash }
            }
        }
        guard try kept.get() else {
            throw NotApplicable(reason: "output changed by hand", sessionUsed: true)
        }
    }

    /// A changed item's card, rendered, and where its last version is in the feed page.
    struct ChangedCard {
        var section: Int
        var item: Int
        var range: Range<Int>
        var html: String
        var preset: String
        var id: String
        /// The pages of the item's links to content files.
        var links: ContentLinks
    }

    /// Bytes of a feed page to replace: `region` (of the written page) by `bytes`, which hold
    /// the card of `section`/`item` at `cardOffset` (`cardLength` bytes).
    struct Replacement {
        var region: Range<Int>
        var bytes: [UInt8]
        var section: Int
        var item: Int
        var cardOffset: Int
        var cardLength: Int
    }

    /// What replaces `card`'s last version in the written page `base`: nil when its bytes are
    /// the same. On a page that defers cards, a card whose height estimate changed must be a
    /// deferred card of a ``DeferredCards/Column``: its `style` then changes with it, checked
    /// first against its last estimate (an estimate not made the way assumed stops the patch);
    /// or an eager card of a stack whose new height leaves every card of the page eager or
    /// deferred as it was (``DeferredCards/folds(_:resizing:of:to:)``). `folds`: the page's
    /// folds, updated for the card (cards in page order).
    static func replacement(
        of card: ChangedCard, in base: UnsafeRawBufferPointer, map: FeedPageMap, folds: inout [DeferredCards.Fold?], page: String,
        links: ContentLinks
    ) -> Result<Replacement?, NotApplicable> {
        func no(_ reason: String) -> Result<Replacement?, NotApplicable> { .failure(NotApplicable(reason: reason)) }
        guard card.range.upperBound <= base.count else { return no("feed page map") }
        var new = Array(card.html.utf8)
        if new.last != UInt8(ascii: "\n") { new.append(UInt8(ascii: "\n")) }
        // Its links to content files, resolved from the feed page (as the page's were).
        if new.withUnsafeBytes({ holdsContentLink($0) }) { new = links.rewrite(new, page: page) }
        let then = base[card.range]
        if then.elementsEqual(new) { return .success(nil) }
        let plain = Replacement(
            region: card.range, bytes: new, section: card.section, item: card.item, cardOffset: 0, cardLength: new.count)
        guard map.estimated else { return .success(plain) }
        if card.section < folds.count, card.section < map.columns.count, let column = map.columns[card.section],
            let fold = folds[card.section], fold.isStack, card.item < fold.eagerCount
        {
            // An eager card of a stack: no estimate in its markup; its height (the model's, from
            // its HTML as rendered, as the full build measures it) moves the cards after it.
            let profile = CardHeightEstimate(html: card.html, preset: card.preset)
            guard !profile.isEmpty,
                let moved = DeferredCards.folds(
                    folds, resizing: card.item, of: card.section,
                    to: DeferredCards.Fold.Pair(phone: profile.height(width: column.phone), wide: profile.height(width: column.wide)))
            else { return no("an eager card's height changed which cards are deferred") }
            folds = moved
            return .success(plain)
        }
        // Any other card's height may have changed by an amount the later sections' folds
        // cannot follow (a deferred card's exact height is not recorded).
        if !folds.isEmpty { folds = DeferredCards.folds(folds, afterChangeIn: card.section) }
        let before = CardHeightEstimate(html: String(decoding: then.dropLast(), as: UTF8.self), preset: card.preset)
        let after = CardHeightEstimate(html: String(decoding: new.dropLast(), as: UTF8.self), preset: card.preset)
        if before == after { return .success(plain) }
        guard card.section < map.columns.count, let column = map.columns[card.section] else {
            return no("a card's height estimate changed")
        }
        // The card's item element ends its start tag with its estimate's `style` and opens the
        // card's cell (``SectionHTML``'s item markup).
        let oldStyle = Array(column.estimate(before).style.utf8)
        let middle = SectionHTML.afterEstimate(itemID: card.id)
        let head = Array(SectionHTML.estimateStyleStart.utf8)
        let start = card.range.lowerBound - middle.count - oldStyle.count
        guard start - head.count >= 0, base[(start - head.count)..<start].elementsEqual(head),
            base[start..<(start + oldStyle.count)].elementsEqual(oldStyle),
            base[(card.range.lowerBound - middle.count)..<card.range.lowerBound].elementsEqual(middle)
        else { return no("a card's height estimate changed (not a deferred card)") }
        let bytes = Array(column.estimate(after).style.utf8) + middle + new
        return .success(
            Replacement(
                region: start..<card.range.upperBound, bytes: bytes, section: card.section, item: card.item,
                cardOffset: bytes.count - new.count, cardLength: new.count))
    }

    /// `base` with each of `edits` (sorted, disjoint ranges of it) replaced by its bytes, as
    /// pieces: the unchanged bytes stay in the mapping. nil when the edits overlap.
    static func splice(_ base: MappedFile, _ edits: [(range: Range<Int>, bytes: [UInt8])]) -> ByteChunks? {
        let chunks = ByteChunks()
        var copied = 0
        for edit in edits.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            guard edit.range.lowerBound >= copied, edit.range.upperBound <= base.bytes.count else { return nil }
            chunks.append(card: CardHTML(unsafeUTF8: UnsafeRawBufferPointer(rebasing: base.bytes[copied..<edit.range.lowerBound]), owner: base))
            edit.bytes.withUnsafeBytes { chunks.append($0) }
            copied = edit.range.upperBound
        }
        chunks.append(card: CardHTML(unsafeUTF8: UnsafeRawBufferPointer(rebasing: base.bytes[copied...]), owner: base))
        return chunks
    }

    /// `ranges` (disjoint) after `edits` replaced some of them (`entry`: which one; `length`:
    /// its new length in bytes): every other range moves by the edits before it.
    static func moved(_ ranges: [Range<Int>], by edits: [(range: Range<Int>, length: Int, entry: Int)]) -> [Range<Int>] {
        let sorted = edits.sorted { $0.range.lowerBound < $1.range.lowerBound }
        var out = ranges
        for k in ranges.indices {
            var delta = 0
            for edit in sorted where edit.range.upperBound <= ranges[k].lowerBound { delta += edit.length - edit.range.count }
            out[k] = (ranges[k].lowerBound + delta)..<(ranges[k].upperBound + delta)
        }
        for edit in sorted {
            let lower = out[edit.entry].lowerBound
            out[edit.entry] = lower..<(lower + edit.length)
        }
        return out
    }

    /// Whether every content-link marker in `html` leads to a file of `links` (the changed
    /// item's own links): else the full build, which rewrites with every page of the site, could
    /// write another URL (text spelling the marker is rewritten too).
    static func resolvesEveryLink(_ html: String, _ links: ContentLinks) -> Bool {
        var text = html
        return text.withUTF8 { bytes in
            let raw = UnsafeRawBufferPointer(bytes)
            return !holdsContentLink(raw) || links.resolvesEveryDestination(in: raw)
        }
    }

    /// Whether `bytes` hold a link to a content file not yet resolved (``Markdown/contentLinkScheme``).
    static func holdsContentLink(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let marker = Array(Markdown.contentLinkScheme.utf8)
        guard let base = bytes.baseAddress, bytes.count >= marker.count else { return false }
        return marker.withUnsafeBytes { feedgen_contains(base, bytes.count, $0.baseAddress, marker.count) != 0 }
    }
}
