/// The bytes of a ``BuildSnapshot`` (its file format is described on the type): the item records,
/// most of a large site's snapshot, are written in pieces on every core; those still as they were
/// read, and the diagnostics when they are, are runs of the file read (not copied: a patch
/// build's snapshot is mostly the last one's bytes, written from where they lie).
import FeedgenDiagnostics
import FeedgenEmit
import FeedgenStorage
import Foundation

extension BuildSnapshot {
    /// Item records per piece written on one core.
    static let encodingPiece = 1_000

    /// A run of a snapshot's bytes: `range` of `bytes` (a part encoded, or the file read).
    struct Piece {
        let bytes: [UInt8]
        let range: Range<Int>
    }

    /// The snapshot's bytes, joined (``encodedPieces(salt:)``).
    func encoded(salt: UInt64) -> [UInt8] { Self.joined(encodedPieces(salt: salt)) }

    static func joined(_ pieces: [Piece]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(pieces.reduce(0) { $0 + $1.range.count })
        for piece in pieces { bytes += piece.bytes[piece.range] }
        return bytes
    }

    /// The snapshot's bytes in order, the checksum last: runs of the file read where they are
    /// still its bytes, and the parts encoded.
    func encodedPieces(salt: UInt64) -> [Piece] {
        let itemPieces = (items.count + Self.encodingPiece - 1) / Self.encodingPiece
        // The read snapshot's diagnostics, when they are these, are copied as they were.
        let diagnosticsRead = readFrom.parts.flatMap { read in
            diagnostics.packedOnly === read.diagnostics || read.diagnostics.matches(diagnostics.items) ? read : nil
        }
        let diagnosticList = diagnosticsRead != nil ? [] : diagnostics.items
        // In file order: the head, the item records, the rest up to the diagnostics' count,
        // the diagnostics (their table and records), the counts and the tally of kinds.
        let parts = parallelMap(4 + itemPieces) { p -> [Piece] in
            var w = ByteWriter()
            var pieces: [Piece] = []
            if p == 0 {
                w.bytes += Self.magic
                w.u32(Self.formatVersion)
                w.u64(salt)
                w.int(recorded)
                w.u64(inputs)
                // An item file as read (path and stamp) is copied from the file read.
                var copy = Copy(file: items.file)
                w.int(itemFiles.count)
                let read = items.file?.itemFiles ?? []
                // In place: a copy of each source retains and releases its path.
                read.withUnsafeBufferPointer { read in
                    itemFiles.withUnsafeBufferPointer { files in
                        for k in files.indices {
                            if k < read.count, read[k].stamp == files[k].stamp, read[k].path.sameBytes(as: files[k].path) {
                                copy.add(items.file!.itemFileRanges[k], to: &w, pieces: &pieces)
                            } else {
                                copy.flush(to: &w, pieces: &pieces)
                                w.source(files[k])
                            }
                        }
                    }
                }
                copy.flush(to: &w, pieces: &pieces)
            } else if p <= itemPieces {
                let start = (p - 1) * Self.encodingPiece
                // A record still as read is copied from the file it was read from.
                var copy = Copy(file: items.file)
                for k in start..<min(items.count, start + Self.encodingPiece) {
                    if let range = items.bytesRead(k) {
                        copy.add(range, to: &w, pieces: &pieces)
                    } else {
                        copy.flush(to: &w, pieces: &pieces)
                        w.record(items[k])
                    }
                }
                copy.flush(to: &w, pieces: &pieces)
            } else if p == itemPieces + 1 {
                encodeMiddle(&w)
            } else if p == itemPieces + 2 {
                // When read as they are: the run of the file read.
                if let diagnosticsRead { return [Piece(bytes: diagnosticsRead.bytes, range: diagnosticsRead.diagnosticBytes)] }
                w.snapshotDiagnostics(diagnosticList)
            } else {
                w.int(pages)
                w.int(feedCount)
                w.int(cards)
                w.kindTally(diagnostics.kinds)
            }
            Copy.own(&w, into: &pieces)
            return pieces
        }
        // Runs of one array that follow each other there are one (one write for many parts).
        var pieces: [Piece] = []
        for piece in parts.joined() where !piece.range.isEmpty {
            if let last = pieces.last, last.range.upperBound == piece.range.lowerBound,
                last.bytes.withUnsafeBufferPointer({ $0.baseAddress }) == piece.bytes.withUnsafeBufferPointer({ $0.baseAddress })
            {
                pieces[pieces.count - 1] = Piece(bytes: last.bytes, range: last.range.lowerBound..<piece.range.upperBound)
            } else {
                pieces.append(piece)
            }
        }
        var w = ByteWriter()
        w.u64(Self.withBuffers(pieces[...], []) { StableHasher.hash(pieces: $0) })
        pieces.append(Piece(bytes: w.bytes, range: 0..<w.bytes.count))
        #if DEBUG
            // Copied parts must be what encoding them again makes.
            if readFrom.parts != nil {
                var fresh = self
                fresh.readFrom = ReadFrom()
                fresh.items = Records(Array(items))
                assert(fresh.encoded(salt: salt) == Self.joined(pieces), "a snapshot's copied parts differ from their encoding")
            }
        #endif
        return pieces
    }

    /// `body` given the bytes of `pieces`, in order.
    private static func withBuffers<R>(
        _ pieces: ArraySlice<Piece>, _ buffers: [UnsafeRawBufferPointer], _ body: ([UnsafeRawBufferPointer]) -> R
    ) -> R {
        guard let first = pieces.first else { return body(buffers) }
        return first.bytes.withUnsafeBytes { bytes in
            withBuffers(pieces.dropFirst(), buffers + [UnsafeRawBufferPointer(rebasing: bytes[first.range])], body)
        }
    }

    /// Bytes of the file read to copy, gathered while they follow each other there: one run
    /// for many records, put after the bytes encoded before it.
    private struct Copy {
        let file: Records.File?
        var run: Range<Int>? = nil

        init(file: Records.File?) { self.file = file }

        mutating func add(_ range: Range<Int>, to w: inout ByteWriter, pieces: inout [Piece]) {
            if let last = run, last.upperBound == range.lowerBound {
                run = last.lowerBound..<range.upperBound
            } else {
                flush(to: &w, pieces: &pieces)
                run = range
            }
        }

        mutating func flush(to w: inout ByteWriter, pieces: inout [Piece]) {
            guard let copied = run, let file else { return }
            Self.own(&w, into: &pieces)
            pieces.append(Piece(bytes: file.bytes, range: copied))
            run = nil
        }

        /// The bytes encoded so far, as a piece.
        static func own(_ w: inout ByteWriter, into pieces: inout [Piece]) {
            guard !w.bytes.isEmpty else { return }
            pieces.append(Piece(bytes: w.bytes, range: 0..<w.bytes.count))
            w.bytes = []
        }
    }

    /// The sources of settings, `static/` and images, the absent files, the feeds, their
    /// syndication maps and the diagnostics' count.
    private func encodeMiddle(_ w: inout ByteWriter) {
        w.sources(settingsFiles)
        w.sources(staticFiles)
        w.sources(images)
        w.int(absent.count)
        for path in absent { w.string(path) }
        w.int(feeds.count)
        for feed in feeds { w.feedPage(feed) }
        for feed in feeds {
            guard let syndication = feed.syndication else {
                w.bytes.append(0)
                continue
            }
            w.bytes.append(1)
            w.string(syndication.atomPath)
            w.u64(syndication.atomHash)
            w.string(syndication.jsonPath)
            w.u64(syndication.jsonHash)
            let map = syndication.map
            w.string(map.updated)
            w.int(map.sections.count)
            for k in map.sections.indices {
                w.int(map.sections[k])
                w.int(map.items[k])
                w.int(map.atom[k].lowerBound)
                w.int(map.atom[k].upperBound)
                w.int(map.json[k].lowerBound)
                w.int(map.json[k].upperBound)
            }
        }
        w.int(backFeeds.count)
        for feed in backFeeds { w.feedPage(feed) }
        w.int(diagnostics.count)
    }
}

extension ByteWriter {
    /// A feed page's record: its path, hash, key and map (not its documents).
    fileprivate mutating func feedPage(_ feed: BuildSnapshot.FeedRecord) {
        string(feed.path)
        u64(feed.hash)
        u64(feed.key)
        bytes.append(feed.map.estimated ? 1 : 0)
        bytes.append(feed.map.isExact ? 1 : 0)
        let folds = feed.map.folds.count == feed.map.cards.count
        bytes.append(folds ? 1 : 0)
        int(feed.map.cards.count)
        for s in feed.map.cards.indices {
            if let column = feed.map.columns[s] {
                bytes.append(1)
                u64(column.phone.bitPattern)
                u64(column.wide.bitPattern)
            } else {
                bytes.append(0)
            }
            int(feed.map.cards[s].count)
            for i in feed.map.cards[s].indices {
                int(feed.map.cards[s][i].lowerBound)
                int(feed.map.cards[s][i].upperBound)
                bytes.append((feed.map.eager[s][i] ? 1 : 0) | (feed.map.priority[s][i] ? 2 : 0))
            }
            if folds { fold(feed.map.folds[s]) }
        }
    }

    /// A section's fold: 0 (none), 1 (no stack), or 2, the eager cards' heights and the tops
    /// around the first screen's edge (each 0, or 1 and the top).
    fileprivate mutating func fold(_ fold: DeferredCards.Fold?) {
        guard let fold else { return bytes.append(0) }
        guard fold.isStack else { return bytes.append(1) }
        bytes.append(2)
        func pair(_ p: DeferredCards.Fold.Pair) {
            u64(p.phone.bitPattern)
            u64(p.wide.bitPattern)
        }
        int(fold.eagerHeights.count)
        for height in fold.eagerHeights { pair(height) }
        for top in [fold.lastEager, fold.firstDeferred] {
            if let top {
                bytes.append(1)
                pair(top)
            } else {
                bytes.append(0)
            }
        }
    }

    fileprivate mutating func sources(_ list: [BuildSnapshot.Source]) {
        int(list.count)
        for source in list { self.source(source) }
    }

    fileprivate mutating func source(_ source: BuildSnapshot.Source) {
        string(source.path)
        optional(source.stamp) { $0.stamp($1) }
    }

    /// An item file's record: 0 for an item not shown, else 1 and the record.
    fileprivate mutating func record(_ record: BuildSnapshot.ItemRecord?) {
        guard let record else { return bytes.append(0) }
        bytes.append(1)
        varint(record.feed)
        varint(record.section)
        varint(record.item)
        u64(record.fingerprint)
        u64(record.whole)
        varint(record.links.count)
        for link in record.links {
            shortString(link.target)
            shortString(link.page)
        }
        guard let elsewhere = record.elsewhere else { return bytes.append(0) }
        bytes.append(1)
        varint(elsewhere.cards.count)
        for card in elsewhere.cards {
            varint(card.feed)
            varint(card.section)
            varint(card.item)
            shortString(card.preset)
            optional(card.lang) { $0.shortString($1) }
            shortString(card.cellID)
            bytes.append(card.sameLayout ? 1 : 0)
        }
        varint(elsewhere.entries.count)
        for entry in elsewhere.entries {
            varint(entry.feed)
            varint(entry.entry)
        }
    }
}
