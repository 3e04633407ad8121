/// `ParsedItemStore`: what a load asks of a store of items parsed by earlier loads (the
/// incremental build's item cache implements it), so that an unchanged item file is not parsed,
/// or not even read, again.
import FeedgenDiagnostics
import FeedgenStorage

/// Items parsed by earlier loads, by the key of their file (``ParsedItemKey``), with the
/// diagnostics their parse gave (so the warnings of unchanged items are reported on every load),
/// and what the store knows of each item file's `stat` (so an unchanged file need not be read).
///
/// A load calls ``meet(_:)`` once, from one thread, then the others from its parallel jobs, each
/// job with its own file number: an implementation is called concurrently.
public protocol ParsedItemStore: AnyObject, Sendable {
    /// Whether some item files may be vouched for by their `stat` alone: only then is it worth
    /// taking every item file's `stat` while listing `content/`.
    var vouchesForUnchangedFiles: Bool { get }

    /// Meets this load's item files, in the order of the content plan (file number `k` is
    /// `files[k]`).
    func meet(_ files: [ParsedItemFile])

    /// The hash of the bytes (``StableHasher/hash(_:)-([UInt8])``) of file number `file` when
    /// `stamp`, its `stat` as listed, shows it unchanged since the store saw those bytes; else nil.
    func unchangedBytesHash(file: Int, stamp: FileStamp?) -> UInt64?

    /// Notes that file number `file`, whose `stat` was `stamp` when it was opened, held bytes
    /// whose hash is `bytesHash`.
    func record(file: Int, stamp: FileStamp, bytesHash: UInt64)

    /// The item and diagnostics stored under `key`, if any.
    ///
    /// - Parameters:
    ///   - unread: the item's file was not read (``unchangedBytesHash(file:stamp:)`` vouched for it).
    ///   - countingMiss: whether a miss counts as one (not when the caller reads the file and
    ///     looks it up again).
    func lookup(_ key: UInt64, unread: Bool, countingMiss: Bool) -> (Item, [Diagnostic])?

    /// Stores an item just parsed, with its diagnostics, under `key`.
    func store(_ key: UInt64, item: Item, diagnostics: [Diagnostic])
}

/// An item file of a load: its section folder (site-relative) and its name below it.
public struct ParsedItemFile: Sendable {
    public var folder: String
    public var name: String

    public init(folder: String, name: String) { (self.folder, self.name) = (folder, name) }
}

/// The key of an item file in a ``ParsedItemStore``: the hash of its bytes and everything else
/// its parse reads: its place (section folder, section id and name below the section: a new
/// `_feed.md` can change the last two), the Markdown options, the time zone of its zone-less
/// date-times, the site's language (an `a.en.md` item has no `lang` of its own on an `en` site
/// only) and whether its id keeps its date (a new file with the same slug changes it).
enum ParsedItemKey {
    static func key(
        folder: String, sectionID: String, fileName: String, bytesHash: UInt64, markdown: MarkdownOptions, timeZone: String,
        language: String, keepsDate: Bool
    ) -> UInt64 {
        var h = StableHasher()
        h.combine(folder)
        h.combine(sectionID)
        h.combine(fileName)
        h.combine(bytesHash)
        var key = StableHasher(seed: h.value)
        key.combine(markdown.unsafe)
        key.combine(markdown.smart)
        key.combine(markdown.gfm)
        key.combine(markdown.summaryLength)
        key.combine(timeZone)
        key.combine(language)
        key.combine(keepsDate)
        return key.value
    }
}
