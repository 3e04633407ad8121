import Dispatch
import FeedgenBuild
import FeedgenContent
import FeedgenDiagnostics
import FeedgenStorage
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Parsed items of earlier builds, so that an unchanged item file is not parsed again (no
/// libyaml, no cmark): the build cache's `items.log` (``BuildCache``), the ``ParsedItemStore``
/// that a load is given (through the pipeline's ``ItemMemo``).
///
/// An entry is keyed by the load's key of the item file (the ``StableHasher`` hash of its bytes,
/// its site-relative path, its section and its name, the Markdown options); the whole log is tied to a `salt` (the feedgen binary, the
/// Markdown options), and a different salt discards it. An entry holds the item exactly as the
/// parser produced it *and* its diagnostics, so the warnings of unchanged items are reported
/// on every build.
///
/// The file is a ``RecordLog`` (magic `FGIC`, format version 2). New entries are appended as
/// they come; a record that is cut short ends the log (a killed build), and the next save
/// rewrites the file; a record is checked against its checksum when it is used (unless the log
/// is sealed: ``LogSeal``), and a damaged one is ignored (its item is parsed again, and the
/// record is not copied into a rewritten log). When most records are no longer used the log is
/// rewritten with the used ones only (into a temporary file that is renamed over it).
public final class ItemCache: ItemMemo, @unchecked Sendable {
    static let magic: [UInt8] = Array("FGIC".utf8)
    static let formatVersion: UInt32 = 2

    public let path: String
    let salt: UInt64
    /// The log as read at the start of the build.
    private let log: RecordLog
    /// A write of this build's records failed (the log is then not sealed).
    private var writeFailed = false
    private let lock = Mutex(())
    /// Keys stored by this build (under the lock).
    private var added = Set<UInt64>()
    private let hitCount = Atomic<Int>(0)
    private let unreadCount = Atomic<Int>(0)
    private var missCount = 0
    /// Lookups that found an entry / found none (for `FEEDGEN_TIMING` and the tests).
    public var hits: Int { hitCount.load(ordering: .relaxed) }
    public var misses: Int { lock.withLock { _ in missCount } }
    /// Hits whose file was not even read: its stat was unchanged (``SourceStats``).
    public var unread: Int { unreadCount.load(ordering: .relaxed) }

    /// Whether new entries are stored (false for `feedgen check`, which writes nothing).
    let writable: Bool
    /// The `sources` table being saved on another thread (``saveSourcesEarly()``).
    private let sourcesSaving = DispatchGroup()
    private let sourcesSavedEarly = Atomic<Bool>(false)

    /// The `stat` of each item file and the key of its bytes (nil: every file is read).
    let sources: SourceStats?
    /// Whether the last build's table of item files can vouch for some files as unchanged by
    /// their `stat` (so that listing `content/` should stamp every item file).
    public var vouchesForUnchangedFiles: Bool { sources?.hasTrustedEntries == true }

    /// The fingerprint of every item this build took from the log or stored in it.
    package let fingerprints = ItemFingerprints()

    /// Reads the log at `path` (a missing, foreign or damaged file gives an empty cache) and,
    /// with a `sourcesPath`, the ``SourceStats`` table there, so that item files whose `stat` is
    /// unchanged are not read.
    ///
    /// `testCut` (tests only, debug builds): ``LogCut/afterMapping`` truncates the log right
    /// after it is mapped, ``LogCut/afterCommit`` when ``save()`` starts, as another process could.
    public init(path: String, salt: UInt64, writable: Bool = true, sourcesPath: String? = nil, testCut: LogCut? = nil) {
        self.path = path
        self.salt = salt
        self.writable = writable
        self.testCut = testCut
        sources = sourcesPath.map { SourceStats(path: $0, salt: salt) }
        log = RecordLog(
            path: path, magic: Self.magic, formatVersion: Self.formatVersion, salt: salt, cutAfterMapping: testCut == .afterMapping)
    }

    /// A test hook: when the tests cut the item log short (``init(path:salt:writable:sourcesPath:testCut:)``).
    public enum LogCut: Sendable { case afterMapping, afterCommit }
    private let testCut: LogCut?

    /// The keys of the records this build used, and of the entries it stored.
    private var usedKeys: Set<UInt64> { log.usedKeys.union(added) }

    public func meet(_ files: [ParsedItemFile]) { sources?.match(files) }

    public func unchangedBytesHash(file: Int, stamp: FileStamp?) -> UInt64? { sources?.bytesHash(file: file, stamp: stamp) }

    public func record(file: Int, stamp: FileStamp, bytesHash: UInt64) {
        sources?.record(file: file, stamp: stamp, bytesHash: bytesHash)
    }

    /// The parsed item and its diagnostics for `key`, if an earlier build stored them; the
    /// item's fingerprint (stored with it) goes into ``fingerprints``.
    ///
    /// - Parameters:
    ///   - unread: the item's file was not read (its stat was unchanged), for ``unread``.
    ///   - countingMiss: whether a miss counts in ``misses`` (not when the caller reads the file
    ///     and looks it up again).
    public func lookup(_ key: UInt64, unread: Bool = false, countingMiss: Bool = true) -> (Item, [Diagnostic])? {
        func miss() -> (Item, [Diagnostic])? {
            if countingMiss { lock.withLock { _ in missCount += 1 } }
            return nil
        }
        guard let (place, range) = log.payload(of: key) else { return miss() }
        // Payload: the item's fingerprint (UInt64), the item, its diagnostics.
        var reader = ByteReader(bytes: log.bytes, offset: range.lowerBound + 8, end: range.upperBound, file: log.file)
        guard range.count >= 8, let item = reader.item(), let diagnostics = reader.diagnostics(), reader.offset == range.upperBound
        else {
            log.markDamaged(place)  // never copied into a new log
            return miss()
        }
        fingerprints.remember(RecordLog.load(UInt64.self, log.bytes, range.lowerBound), of: item)
        log.markUsed(place)
        hitCount.add(1, ordering: .relaxed)
        if unread { unreadCount.add(1, ordering: .relaxed) }
        return (item, diagnostics)
    }

    /// Adds a parsed item, and its fingerprint (computed from the encoding stored) to
    /// ``fingerprints``. Entries go to disk as they come (in 1 MiB writes), not held in memory:
    /// appended to an intact log, else into a new log (`items.log.tmp-<pid>`) that ``save()``
    /// renames over the old one.
    public func store(_ key: UInt64, item: Item, diagnostics: [Diagnostic]) {
        var writer = ByteWriter()
        // Room for the body and the rest of the item: the encoding does not grow by copies.
        writer.bytes.reserveCapacity(item.html.utf8.count + 4096)
        writer.int(0)  // the fingerprint, once the item is encoded
        writer.item(item)
        let fingerprint = writer.bytes.withUnsafeBytes { StableHasher.hash(bytes: UnsafeRawBufferPointer(rebasing: $0[8...])) }
        fingerprints.remember(fingerprint, of: item)
        guard writable else { return }
        withUnsafeBytes(of: fingerprint.littleEndian) { writer.bytes.replaceSubrange(0..<8, with: $0) }
        writer.diagnostics(diagnostics)
        var record: [UInt8] = []
        record.reserveCapacity(writer.bytes.count + 20)
        writer.bytes.withUnsafeBytes { RecordLog.append(key, $0, to: &record) }
        lock.withLock { _ in
            added.insert(key)
            if sink < 0 {
                openSink()
                guard sink >= 0 else { return }
            }
            pending += record
            if sinkIsNew { written.add(key, length: record.count - 20) }
            if pending.count >= 1 << 20 { flush() }
        }
    }

    private var sink: Int32 = -1
    private var sinkIsNew = false
    /// The records of a new log, in order (its seal's index: ``RecordLog/seal(_:written:)``).
    private var written = LogSeal.Index()
    private var pending: [UInt8] = []
    private var temporaryPath: String { path + ".tmp-\(getpid())" }

    /// Whether the log on disk is the one read, whole (this build has not appended yet).
    private var isIntact: Bool { log.validEnd > 0 && fileSize(path) == log.validEnd }

    private func openSink() {
        // The cache folder may not exist yet (a first build creates it after loading).
        var folder = ""
        for part in path.split(separator: "/").dropLast() {
            folder += "/" + part
            mkdir(folder, 0o755)
        }
        if isIntact {
            sink = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        } else {
            sink = CacheFile.create(temporaryPath)
            sinkIsNew = true
            pending += RecordLog.header(magic: Self.magic, formatVersion: Self.formatVersion, salt: salt)
        }
    }

    private func flush() {
        if sink >= 0, !pending.isEmpty {
            let written = pending.withUnsafeBytes { write(sink, $0.baseAddress, $0.count) }
            if written != pending.count { writeFailed = true }
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// Starts saving the `sources` table on another thread, for a build that writes: the table
    /// is complete once the content is loaded (it records what each file's `stat` and bytes
    /// were, true whatever the rest of the build does), so its write need not wait for the
    /// pages. ``save()`` and ``waitForSources()`` wait for it.
    public func saveSourcesEarly() {
        guard writable, let sources, !sourcesSavedEarly.exchange(true, ordering: .relaxed) else { return }
        DispatchQueue.global().async(group: sourcesSaving) { sources.save() }
    }

    /// Waits for a save started by ``saveSourcesEarly()`` (before the build releases the cache).
    public func waitForSources() { sourcesSaving.wait() }

    /// Ends a build that failed: a new log (`items.log.tmp-<pid>`) is closed and removed, so a
    /// failed build leaves no temporary file in the cache (entries appended to an intact log stay;
    /// they are valid records).
    public func discard() {
        guard writable else { return }
        if sourcesSavedEarly.load(ordering: .relaxed) { waitForSources() }
        lock.withLock { _ in
            pending.removeAll()
            guard sink >= 0 else { return }
            close(sink)
            sink = -1
            if sinkIsNew { unlink(temporaryPath) }
            sinkIsNew = false
        }
    }

    /// Finishes the log: a new log gets the old entries this build used and replaces the old
    /// one; an appended log that is mostly stale is rewritten with the used entries only.
    /// Failures are ignored (it is a cache).
    public func save() {
        guard writable else { return }
        #if DEBUG
            // Test hook (debug builds only; Tests/FeedgenBuildTests/CacheRobustnessTests): the
            // log cut short after the output was exchanged, while this build still reads it.
            if testCut == .afterCommit, log.count > 0 {
                truncate(path, 0)
                _ = log.checksumsHold()
            }
        #endif
        if sourcesSavedEarly.load(ordering: .relaxed) { waitForSources() } else { sources?.save() }
        lock.withLock { _ in
            if sink >= 0 {
                if sinkIsNew { copyUsedRecords(into: &pending) }
                flush()
                close(sink)
                sink = -1
                if sinkIsNew {
                    if CacheFile.rename(temporaryPath, over: path), !writeFailed { RecordLog.seal(path, written: written) }
                    return
                }
                if !writeFailed { log.sealAfterAppending() }
            } else if !isIntact {
                // Nothing new, but the log is damaged or foreign: rewrite it.
                sink = CacheFile.create(temporaryPath)
                guard sink >= 0 else { return }
                sinkIsNew = true
                pending = RecordLog.header(magic: Self.magic, formatVersion: Self.formatVersion, salt: salt)
                copyUsedRecords(into: &pending)
                flush()
                close(sink)
                sink = -1
                if CacheFile.rename(temporaryPath, over: path), !writeFailed { RecordLog.seal(path, written: written) }
                return
            } else if !log.sealed {
                log.sealAfterAppending()  // nothing appended: sealed when every record holds
            }
            // Compaction: most records of the log are no longer used. The log is read again:
            // this build appended to it.
            let usage = log.usage(adding: added)
            guard usage.stale > max(64, usage.used) else { return }
            let used = usedKeys
            let reread = RecordLog(path: path, magic: Self.magic, formatVersion: Self.formatVersion, salt: salt)
            var out = RecordLog.header(magic: Self.magic, formatVersion: Self.formatVersion, salt: salt)
            var index = LogSeal.Index()
            for key in used.sorted() {
                guard let payload = reread.storedPayload(of: key) else { continue }
                RecordLog.append(key, payload, to: &out)
                index.add(key, length: payload.count)
            }
            if CacheFile.write(out, to: temporaryPath), CacheFile.rename(temporaryPath, over: path) {
                RecordLog.seal(path, written: index)
            } else {
                unlink(temporaryPath)
            }
        }
    }

    /// Appends the records this build used from the log as read (for a new log).
    private func copyUsedRecords(into out: inout [UInt8]) {
        for key in usedKeys.sorted() {
            guard let payload = log.storedPayload(of: key) else { continue }
            RecordLog.append(key, payload, to: &out)
            written.add(key, length: payload.count)
        }
    }
}

private func fileSize(_ path: String) -> Int? {
    var info = stat()
    guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    return Int(info.st_size)
}
