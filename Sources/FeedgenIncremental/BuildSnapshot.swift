import FeedgenBuild
import FeedgenContent
import FeedgenDiagnostics
import FeedgenEmit
import FeedgenResolve
import FeedgenStorage
import Foundation

/// What the last build that wrote an output knew of its site, kept in the build cache
/// (`<cache>/snapshot`) for a patch build (``PatchBuild``): the diffable idea at the level of
/// files. With the listing of the sources as that build saw them, a later build finds the item
/// files that changed; with each item's place, its fingerprint outside the body and its links,
/// and with where each card is in its feed page, a build whose only changes are in item bodies
/// renders those items' pages and cards and replaces the cards in the written feed page, without
/// loading the other items.
///
/// A `stat` recorded here vouches for a file only when the file's modification and change times
/// are more than ``racyMargin`` older than the recording build's start (git's "racy clean" rule,
/// as ``ItemCache``'s table of sources).
///
/// File format: `FGSN`, format version (UInt32), salt (UInt64), then the fields below in order
/// (integers little-endian Int64 unless said, indexes and byte offsets not negative, column
/// widths finite, strings as byte count and UTF-8; an item record's numbers and byte counts as
/// varints, format 11: ``ByteWriter/varint(_:)``), and a ``StableHasher`` checksum (UInt64) of
/// everything before it. Anything unexpected reads as nil.
struct BuildSnapshot: Equatable {
    static let fileName = "snapshot"
    static let magic: [UInt8] = Array("FGSN".utf8)
    static let formatVersion: UInt32 = 11
    /// As ``ItemCache``'s table of sources: 2 s, FAT's modification-time resolution.
    static let racyMargin: Int64 = 2_000_000_000

    /// One source file and its `stat` (nil: it could not be taken).
    struct Source: Equatable {
        var path: String
        var stamp: FileStamp?
    }

    /// A shown item (the record of an item file).
    struct ItemRecord: Equatable {
        /// Its feed, section and place in the section (the built site's indexes).
        var feed: Int
        var section: Int
        var item: Int
        /// ``ItemCache/fingerprintOutsideBody(_:)``.
        var fingerprint: UInt64
        /// ``ItemCache/fingerprint(_:)`` (the whole item): an item equal to this one by it has
        /// the same ``fingerprint``, which the next snapshot then need not compute again.
        var whole: UInt64
        /// Each link of the item to a content file (its body's and its front matter's): the
        /// target (site-relative source path) and the page it leads to.
        var links: [Link]
        /// In a site with views (``SectionViews``): every card and feed entry of the item; then
        /// `feed`, `section` and `item` are its detail page's place (in the section's
        /// `pageItems`). nil: its one card is at `feed`, `section`, `item`, and its one entry is
        /// that place's in the feed's documents.
        var elsewhere: Elsewhere? = nil
    }

    struct Link: Equatable {
        var target: String
        var page: String
    }

    /// A feed page as written (the write stage's record of it).
    typealias FeedRecord = WrittenFeed
    typealias SyndicationRecord = WrittenSyndication

    /// The recording build's start (ns since 1970, real-time clock).
    var recorded: Int64
    /// A hash of the build's inputs other than content (``PatchBuild/inputs(options:pageSalt:listing:)``).
    var inputs: UInt64
    /// Every item file, in the loader's order.
    var itemFiles: [Source]
    /// Per item file: its record, nil for an item not shown (a draft, or not yet published).
    var items: Records
    /// `_feed.md` and `_section.md` files, in the loader's order.
    var settingsFiles: [Source]
    /// The files of `static/` (relative to it).
    var staticFiles: [Source]
    /// The image files the site's items show (absolute paths), sorted.
    var images: [Source]
    /// Files that must still not exist (absolute paths), sorted: the file beside an item that its
    /// relative image path names first, for each image found in `static/` instead
    /// (``SiteBuilder/resolveImage(_:item:site:realRoot:diagnostics:)``).
    var absent: [String] = []
    var feeds: [FeedRecord]
    /// The feed pages of the build before, those with a key (``WrittenFeed/key``): the tree
    /// that became the back buffer, whose pages a later build keeps by their keys too.
    var backFeeds: [FeedRecord] = []
    /// The build's diagnostics, as reported (before the closing notes), in
    /// ``Diagnostics/sorted`` order (format 6; a patch build merges its own into them), with the
    /// tally of their kinds when it is known (``Diagnostics/kinds``, after the counts: format 9);
    /// written as a table of their texts and fixed-width records (format 10). Read ones stay
    /// packed (``SnapshotDiagnostics``).
    var diagnostics: Diagnostics
    /// The build's counts (``BuildReport``).
    var pages: Int
    var feedCount: Int
    var cards: Int
    /// The file this snapshot was read from, where its parts lie in it (``ReadFrom``).
    var readFrom = ReadFrom()

    /// A read snapshot's bytes, with where the diagnostics lie in them, and the values read
    /// there: an encoding of a snapshot made from it copies their bytes while they are still
    /// equal to those values instead of encoding them again (a patch seldom changes them; its
    /// item records are copied the same way: ``Records``). Not part of a snapshot's value: any
    /// two are equal.
    struct ReadFrom: Equatable {
        struct Parts {
            let bytes: [UInt8]
            /// The diagnostics' bytes (after their count).
            let diagnosticBytes: Range<Int>
            let diagnostics: SnapshotDiagnostics
        }
        /// nil: not read from a file.
        var parts: Parts?
        static func == (_: ReadFrom, _: ReadFrom) -> Bool { true }
    }

    /// Whether `stamp` vouches for the file: recorded, and older than the recording build by
    /// more than ``racyMargin``.
    func isTrusted(_ stamp: FileStamp?) -> Bool {
        guard let stamp else { return false }
        return stamp.mtime < recorded - Self.racyMargin && stamp.ctime < recorded - Self.racyMargin
    }

    /// The real-time clock (ns since 1970).
    static func now() -> Int64 { BuildRun.wallClock() }

    /// The snapshot in `bytes`, nil when they are not one of this format, salt and checksum.
    static func decode(_ bytes: [UInt8], salt: UInt64) -> BuildSnapshot? {
        var records: [Range<Int>] = []
        var sources: [Range<Int>] = []
        var anchors: [Range<Int>] = []
        var anchorRecords: [Int] = []
        var diagnostics: (bytes: Range<Int>, list: SnapshotDiagnostics)?
        guard
            var snapshot = bytes.withUnsafeBytes({
                decode(
                    buffer: $0, salt: salt, sources: &sources, records: &records, anchors: &anchors, anchorRecords: &anchorRecords,
                    diagnostics: &diagnostics, array: bytes)
            }),
            let diagnostics
        else { return nil }
        snapshot.items = Records(
            file: Records.File(
                bytes: bytes, ranges: records, anchors: anchors, anchorRecords: anchorRecords, itemFiles: snapshot.itemFiles,
                itemFileRanges: sources))
        snapshot.readFrom.parts = ReadFrom.Parts(bytes: bytes, diagnosticBytes: diagnostics.bytes, diagnostics: diagnostics.list)
        return snapshot
    }

    private static func decode(
        buffer bytes: UnsafeRawBufferPointer, salt: UInt64, sources: inout [Range<Int>], records: inout [Range<Int>],
        anchors: inout [Range<Int>], anchorRecords: inout [Int], diagnostics read: inout (bytes: Range<Int>, list: SnapshotDiagnostics)?,
        array: [UInt8]
    ) -> BuildSnapshot? {
        guard bytes.count >= 24, Array(bytes[0..<4]) == magic else { return nil }
        let body = bytes.count - 8
        var r = ByteReader(bytes: bytes, offset: 4, end: body)
        guard r.u32() == formatVersion, r.u64() == salt else { return nil }
        var tail = ByteReader(bytes: bytes, offset: body)
        guard let checksum = tail.u64(), StableHasher.hash(bytes: UnsafeRawBufferPointer(rebasing: bytes[0..<body])) == checksum
        else { return nil }
        guard let recorded = r.int64(), let inputs = r.u64(), let itemFiles = r.sources(ranges: &sources) else { return nil }
        // Each record is checked here, and made when it is asked for (``Records``).
        records.reserveCapacity(itemFiles.count)
        for k in itemFiles.indices {
            let recordStart = r.offset
            let anchored = anchors.count
            guard Self.stepOverRecord(&r, anchors: &anchors) else { return nil }
            records.append(recordStart..<r.offset)
            #if DEBUG
                // A record stepped over reads when asked for.
                var again = ByteReader(bytes: bytes, offset: recordStart, end: r.offset)
                assert(Self.record(&again) != nil && again.offset == r.offset, "a snapshot record checked but not read")
            #endif
            for _ in anchored..<anchors.count { anchorRecords.append(k) }
        }
        guard let settingsFiles = r.sources(), let staticFiles = r.sources(), let images = r.sources(), let absentCount = r.count()
        else { return nil }
        var absent: [String] = []
        for _ in 0..<absentCount {
            guard let path = r.string() else { return nil }
            absent.append(path)
        }
        guard let feedCount = r.count() else { return nil }
        var feeds: [FeedRecord] = []
        for _ in 0..<feedCount {
            guard let record = Self.feedPage(&r) else { return nil }
            feeds.append(record)
        }
        for f in feeds.indices {
            guard let present = r.byte() else { return nil }
            guard present == 1 else { continue }
            guard let atomPath = r.string(), let atomHash = r.u64(), let jsonPath = r.string(), let jsonHash = r.u64(),
                let updated = r.string(), let count = r.count()
            else { return nil }
            var map = SyndicationMap(updated: updated)
            for _ in 0..<count {
                guard let section = r.int(), let item = r.int(), let a0 = r.int(), let a1 = r.int(), a0 <= a1, let j0 = r.int(),
                    let j1 = r.int(), j0 <= j1
                else { return nil }
                map.sections.append(section)
                map.items.append(item)
                map.atom.append(a0..<a1)
                map.json.append(j0..<j1)
            }
            feeds[f].syndication = SyndicationRecord(atomPath: atomPath, atomHash: atomHash, jsonPath: jsonPath, jsonHash: jsonHash, map: map)
        }
        guard let backCount = r.count() else { return nil }
        var backFeeds: [FeedRecord] = []
        for _ in 0..<backCount {
            guard let record = Self.feedPage(&r) else { return nil }
            backFeeds.append(record)
        }
        // The diagnostics' bytes (table and records) follow their count (8 bytes); they are made
        // when read.
        let diagnosticStart = r.offset + 8
        guard let packed = SnapshotDiagnostics(&r, bytes: array) else { return nil }
        read = (diagnosticStart..<r.offset, packed)
        guard let pages = r.int(), let feedTotal = r.int(), let cards = r.int(), let kinds = r.kindTally(), r.offset == body else { return nil }
        let diagnostics = Diagnostics(packed: packed, kinds: kinds)
        return BuildSnapshot(
            recorded: recorded, inputs: inputs, itemFiles: itemFiles, items: [], settingsFiles: settingsFiles,
            staticFiles: staticFiles, images: images, absent: absent, feeds: feeds, backFeeds: backFeeds, diagnostics: diagnostics,
            pages: pages, feedCount: feedTotal, cards: cards)
    }

    /// A feed page's record (``ByteWriter/feedPage(_:)``); nil when it does not read.
    private static func feedPage(_ r: inout ByteReader) -> FeedRecord? {
        guard let path = r.string(), let hash = r.u64(), let key = r.u64(), let estimated = r.byte(), let exact = r.byte(),
            let hasFolds = r.byte(), let sections = r.count()
        else { return nil }
        var map = FeedPageMap(cards: [], eager: [], priority: [], estimated: estimated == 1, isExact: exact == 1)
        for _ in 0..<sections {
            guard let hasColumn = r.byte() else { return nil }
            if hasColumn == 1 {
                guard let phone = r.width(), let wide = r.width() else { return nil }
                map.columns.append(DeferredCards.Column(phone: phone, wide: wide))
            } else {
                map.columns.append(nil)
            }
            guard let count = r.count() else { return nil }
            var ranges: [Range<Int>] = []
            var eager: [Bool] = []
            var priority: [Bool] = []
            ranges.reserveCapacity(count)
            for _ in 0..<count {
                guard let lower = r.index(), let upper = r.index(), lower <= upper, let flags = r.byte() else { return nil }
                ranges.append(lower..<upper)
                eager.append(flags & 1 != 0)
                priority.append(flags & 2 != 0)
            }
            map.cards.append(ranges)
            map.eager.append(eager)
            map.priority.append(priority)
            if hasFolds == 1 {
                guard let fold = Self.fold(&r, cards: count) else { return nil }
                map.folds.append(fold)
            }
        }
        var record = FeedRecord(path: path, hash: hash, map: map)
        record.key = key
        return record
    }

    /// A section of `cards` cards' fold (``ByteWriter/fold(_:)``): `.some(nil)` for none; nil
    /// when it does not read (tops and heights must be finite).
    private static func fold(_ r: inout ByteReader, cards: Int) -> DeferredCards.Fold?? {
        guard let kind = r.byte(), kind <= 2 else { return nil }
        if kind == 0 { return .some(nil) }
        if kind == 1 { return .unknown }
        func pair() -> DeferredCards.Fold.Pair? {
            guard let a = r.u64(), let b = r.u64() else { return nil }
            let (phone, wide) = (Double(bitPattern: a), Double(bitPattern: b))
            return phone.isFinite && wide.isFinite ? DeferredCards.Fold.Pair(phone: phone, wide: wide) : nil
        }
        guard let count = r.count(), count <= cards else { return nil }
        var fold = DeferredCards.Fold(isStack: true)
        for _ in 0..<count {
            guard let height = pair() else { return nil }
            fold.eagerHeights.append(height)
        }
        for k in 0..<2 {
            guard let present = r.byte(), present <= 1 else { return nil }
            guard present == 1 else { continue }
            guard let top = pair() else { return nil }
            if k == 0 { fold.lastEager = top } else { fold.firstDeferred = top }
        }
        // The tops are there exactly when their cards are.
        guard (fold.lastEager != nil) == (count > 0), (fold.firstDeferred != nil) == (count < cards) else { return nil }
        return .some(fold)
    }

    /// The snapshot of the cache folder `folder`, if it has a valid one.
    static func read(cacheFolder folder: String) -> BuildSnapshot? {
        guard let bytes = CacheFile.read(folder + "/" + fileName) else { return nil }
        return decode(bytes, salt: BuildCache.salt)
    }

    /// Writes the snapshot into the cache folder (a temporary file renamed over the old one).
    func write(cacheFolder folder: String) { Self.write(encodedPieces(salt: BuildCache.salt), cacheFolder: folder) }

    /// Writes a snapshot's bytes (``encodedPieces(salt:)``) into the cache folder, as
    /// ``write(cacheFolder:)``.
    static func write(_ pieces: [Piece], cacheFolder folder: String) {
        let path = folder + "/" + fileName
        let temporary = path + ".tmp-\(getpid())"
        guard CacheFile.write(pieces.map { $0.bytes[$0.range] }, to: temporary) else { return }
        if rename(temporary, path) != 0 { CacheFile.remove(temporary) }
    }

    /// Removes the cache folder's snapshot: the output is about to change by another way.
    static func remove(cacheFolder folder: String) { CacheFile.remove(folder + "/" + fileName) }
}

extension ByteReader {
    /// A column width in CSS px: finite and in 1...100,000 (an estimate converts heights
    /// made with it to `Int`, which traps on NaN or infinity).
    fileprivate mutating func width() -> Double? {
        guard let w = double() else { return nil }
        return w.isFinite && w >= 1 && w <= 100_000 ? w : nil
    }
    fileprivate mutating func sources() -> [BuildSnapshot.Source]? {
        var ranges: [Range<Int>] = []
        return sources(ranges: &ranges)
    }
    /// `ranges`: gets where each source lies.
    fileprivate mutating func sources(ranges: inout [Range<Int>]) -> [BuildSnapshot.Source]? {
        guard let n = count() else { return nil }
        var list: [BuildSnapshot.Source] = []
        list.reserveCapacity(n)
        ranges.reserveCapacity(n)
        for _ in 0..<n {
            let start = offset
            guard let path = string(), let stamp = optional({ $0.stamp() }) else { return nil }
            list.append(BuildSnapshot.Source(path: path, stamp: stamp))
            ranges.append(start..<offset)
        }
        return list
    }
}
