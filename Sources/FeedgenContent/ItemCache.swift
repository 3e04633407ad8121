import Dispatch
import FeedgenDiagnostics
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Parsed items of earlier builds, so that an unchanged item file is not parsed again (no
/// libyaml, no cmark): the build cache's `items.log` (see `BuildCache` in FeedgenBuild).
///
/// An entry is keyed by the ``StableHasher`` hash of the item file's bytes, its site-relative
/// path, its section and its name; the whole log is tied to a `salt` (the feedgen binary, the
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
public final class ItemCache: @unchecked Sendable {
    static let magic: [UInt8] = Array("FGIC".utf8)
    static let formatVersion: UInt32 = 2

    public let path: String
    let salt: UInt64
    /// The log as read at the start of the build.
    private let log: RecordLog
    /// A write of this build's records failed (the log is then not sealed).
    private var writeFailed = false
    private let lock = NSLockish()
    /// Keys stored by this build (under the lock).
    private var added = Set<UInt64>()
    private let hitCount = Atomic<Int>(0)
    private let unreadCount = Atomic<Int>(0)
    private var missCount = 0
    /// Lookups that found an entry / found none (for `FEEDGEN_TIMING` and the tests).
    public var hits: Int { hitCount.load(ordering: .relaxed) }
    public var misses: Int { lock.withLock { missCount } }
    /// Hits whose file was not even read: its stat was unchanged (``SourceStats``).
    public var unread: Int { unreadCount.load(ordering: .relaxed) }

    /// Whether new entries are stored (false for `feedgen check`, which writes nothing).
    let writable: Bool
    /// The `sources` table being saved on another thread (``saveSourcesEarly()``).
    private let sourcesSaving = DispatchGroup()
    private let sourcesSavedEarly = Atomic<Bool>(false)

    /// The `stat` of each item file and the key of its bytes (nil: every file is read).
    let sources: SourceStats?

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

    /// The key of an item file: its bytes (`bytesHash`, their ``StableHasher/hash(_:)-([UInt8])``)
    /// and everything about its place that the parser reads: its section folder (site-relative;
    /// with `fileName`, the file's path), its section and its name below the section.
    public static func key(folder: String, sectionID: String, fileName: String, bytesHash: UInt64) -> UInt64 {
        var h = StableHasher()
        h.combine(folder)
        h.combine(sectionID)
        h.combine(fileName)
        h.combine(bytesHash)
        return h.value
    }

    /// The parsed item and its diagnostics for `key`, if an earlier build stored them.
    ///
    /// - Parameters:
    ///   - unread: the item's file was not read (its stat was unchanged), for ``unread``.
    ///   - countingMiss: whether a miss counts in ``misses`` (not when the caller reads the file
    ///     and looks it up again).
    func lookup(_ key: UInt64, unread: Bool = false, countingMiss: Bool = true) -> (Item, [Diagnostic])? {
        func miss() -> (Item, [Diagnostic])? {
            if countingMiss { lock.withLock { missCount += 1 } }
            return nil
        }
        guard let (place, range) = log.payload(of: key) else { return miss() }
        // Payload: the item's fingerprint (UInt64), the item, its diagnostics.
        var reader = ByteReader(bytes: log.bytes, offset: range.lowerBound + 8, end: range.upperBound, file: log.file)
        guard range.count >= 8, var item = reader.item(), let diagnostics = reader.diagnostics(), reader.offset == range.upperBound
        else {
            log.markDamaged(place)  // never copied into a new log
            return miss()
        }
        item.remember(fingerprint: RecordLog.load(UInt64.self, log.bytes, range.lowerBound))
        log.markUsed(place)
        hitCount.add(1, ordering: .relaxed)
        if unread { unreadCount.add(1, ordering: .relaxed) }
        return (item, diagnostics)
    }

    /// Adds a parsed item. Entries go to disk as they come (in 1 MiB writes), not held in
    /// memory: appended to an intact log, else into a new log (`items.log.tmp-<pid>`) that
    /// ``save()`` renames over the old one.
    /// - Returns: the item's ``fingerprint(_:)``, computed from the encoding stored.
    @discardableResult
    func store(_ key: UInt64, item: Item, diagnostics: [Diagnostic]) -> UInt64 {
        var writer = ByteWriter()
        writer.int(0)  // the fingerprint, once the item is encoded
        writer.item(item)
        let fingerprint = writer.bytes.withUnsafeBytes { StableHasher.hash(bytes: UnsafeRawBufferPointer(rebasing: $0[8...])) }
        guard writable else { return fingerprint }
        withUnsafeBytes(of: fingerprint.littleEndian) { writer.bytes.replaceSubrange(0..<8, with: $0) }
        writer.diagnostics(diagnostics)
        var record: [UInt8] = []
        writer.bytes.withUnsafeBytes { RecordLog.append(key, $0, to: &record) }
        lock.withLock {
            added.insert(key)
            if sink < 0 {
                openSink()
                guard sink >= 0 else { return }
            }
            pending += record
            if pending.count >= 1 << 20 { flush() }
        }
        return fingerprint
    }

    private var sink: Int32 = -1
    private var sinkIsNew = false
    private var pending: [UInt8] = []
    private var temporaryPath: String { path + ".tmp-\(getpid())" }

    /// Whether the log on disk is the one read, whole (this build has not appended yet).
    private var isIntact: Bool { log.validEnd > 0 && FileSystem.fileSize(path) == log.validEnd }

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
        lock.withLock {
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
        lock.withLock {
            if sink >= 0 {
                if sinkIsNew { copyUsedRecords(into: &pending) }
                flush()
                close(sink)
                sink = -1
                if sinkIsNew {
                    if CacheFile.rename(temporaryPath, over: path), !writeFailed { LogSeal.seal(path) }
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
                if CacheFile.rename(temporaryPath, over: path), !writeFailed { LogSeal.seal(path) }
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
            for key in used.sorted() { if let payload = reread.storedPayload(of: key) { RecordLog.append(key, payload, to: &out) } }
            if CacheFile.write(out, to: temporaryPath), CacheFile.rename(temporaryPath, over: path) {
                LogSeal.seal(path)
            } else {
                unlink(temporaryPath)
            }
        }
    }

    /// Appends the records this build used from the log as read (for a new log).
    private func copyUsedRecords(into out: inout [UInt8]) {
        for key in usedKeys.sorted() { if let payload = log.storedPayload(of: key) { RecordLog.append(key, payload, to: &out) } }
    }
}

extension ItemCache {
    /// A hash of every field of `item` (its exact cache encoding).
    public static func fingerprint(_ item: Item) -> UInt64 {
        if let known = item.knownFingerprint { return known }
        var writer = ByteWriter()
        writer.item(item)
        return StableHasher.hash(writer.bytes)
    }


    /// ``fingerprint(_:)`` of the item without what its Markdown body decides: its HTML, its
    /// links to other content files and its description (the body's first paragraph when the
    /// front matter has none; the front matter itself is in the fingerprint). Two versions of
    /// an item edited only in its body have equal values.
    public static func fingerprintOutsideBody(_ item: Item) -> UInt64 {
        var copy = item
        copy.html = ""
        copy.markdownLinks = []
        copy.description = nil
        return fingerprint(copy)
    }

    /// A hash of a YAML document as parsed (values, styles, tags and positions).
    public static func fingerprint(_ node: YAMLNode?) -> UInt64 {
        var writer = ByteWriter()
        writer.optional(node) { $0.node($1) }
        return StableHasher.hash(writer.bytes)
    }
}

/// A minimal lock (Foundation is not imported by this module).
final class NSLockish: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return try body()
    }
}

extension FileSystem {
    static func fileSize(_ path: String) -> Int? {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }
}

// MARK: - The item codec

struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func int(_ v: Int) { withUnsafeBytes(of: Int64(v).littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func bool(_ v: Bool) { bytes.append(v ? 1 : 0) }
    mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            int(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }
    mutating func optional<T>(_ v: T?, _ body: (inout ByteWriter, T) -> Void) {
        if let v {
            bytes.append(1)
            body(&self, v)
        } else {
            bytes.append(0)
        }
    }
    mutating func location(_ l: SourceLocation) {
        string(l.path)
        int(l.line)
        int(l.column)
    }
    mutating func date(_ d: ContentDate) {
        switch d.value {
        case .calendar(let y, let m, let day):
            bytes.append(0)
            int(y); int(m); int(day)
        case .instant(let s, let ns, let offset):
            bytes.append(1)
            int(Int(s)); int(Int(ns)); int(Int(offset))
        }
    }
    mutating func node(_ n: YAMLNode) {
        int(n.line)
        int(n.column)
        optional(n.tag) { $0.string($1) }
        switch n.kind {
        case .scalar(let text, let plain):
            bytes.append(0)
            string(text)
            bool(plain)
        case .sequence(let nodes):
            bytes.append(1)
            int(nodes.count)
            for node in nodes { self.node(node) }
        case .mapping(let pairs):
            bytes.append(2)
            int(pairs.count)
            for pair in pairs {
                node(pair.key)
                node(pair.value)
            }
        }
    }
    mutating func item(_ item: Item) {
        string(item.id)
        string(item.sourcePath)
        location(item.location)
        string(item.title)
        optional(item.description) { $0.string($1) }
        optional(item.date) { $0.date($1) }
        optional(item.publishDate) { $0.date($1) }
        optional(item.expiryDate) { $0.date($1) }
        bool(item.draft)
        optional(item.weight) { $0.int($1) }
        optional(item.image) { w, image in
            w.string(image.src)
            w.optional(image.alt) { $0.string($1) }
            w.optional(image.width) { $0.int($1) }
            w.optional(image.height) { $0.int($1) }
            w.location(image.location)
        }
        optional(item.link) { $0.string($1) }
        string(item.type)
        int(item.tags.count)
        for tag in item.tags { string(tag) }
        optional(item.lang) { $0.string($1) }
        int(item.params.count)
        for pair in item.params {
            node(pair.key)
            node(pair.value)
        }
        string(item.html)
        bool(item.hasBody)
        string(item.fileName)
        node(item.frontMatter)
        int(item.markdownLinks.count)
        for link in item.markdownLinks {
            string(link.target)
            optional(link.fragment) { $0.string($1) }
            location(link.location)
            string(link.destination)
        }
    }
    mutating func diagnostics(_ list: [Diagnostic]) {
        int(list.count)
        for d in list {
            bytes.append(d.severity == .error ? 2 : d.severity == .warning ? 1 : 0)
            location(d.location)
            string(d.message)
        }
    }
}

/// A value of an item (its rendered body, ``Item/html``; its front matter): made by the parser,
/// or left where the build cache's mapped log holds it (``CachedValue``) and decoded the first
/// time it is read. An unchanged item whose card and page come from the cache never needs its
/// body, and decoding it (UTF-8 validation, a copy) was most of the cost of taking an item from
/// the cache; its front matter is read only for a few diagnostics.
enum LazyValue<Value: Hashable & Sendable>: Sendable, Hashable {
    case value(Value)
    case cached(CachedValue<Value>)

    init(_ value: Value) { self = .value(value) }

    var value: Value {
        switch self {
        case .value(let value): value
        case .cached(let cached): cached.value
        }
    }

    static func == (a: LazyValue, b: LazyValue) -> Bool {
        if case .cached(let x) = a, case .cached(let y) = b, x === y { return true }
        return a.value == b.value
    }

    func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

/// An item's rendered body.
typealias ItemText = LazyValue<String>
/// An item's front matter.
typealias ItemYAML = LazyValue<YAMLNode>

/// The encoding of a value at `range` of a mapped build-cache log (whose record passed its
/// checksum or seal, and whose structure was checked when the item was read), decoded once,
/// when first read, on whichever thread reads it first.
final class CachedValue<Value: Sendable>: Sendable {
    /// Held so that the mapping outlives every item that points into it.
    let file: MappedFile
    let range: Range<Int>
    private let decode: @Sendable (UnsafeRawBufferPointer) -> Value
    private let decoded = Mutex<Value?>(nil)

    init(file: MappedFile, range: Range<Int>, decode: @escaping @Sendable (UnsafeRawBufferPointer) -> Value) {
        self.file = file
        self.range = range
        self.decode = decode
    }

    var value: Value {
        decoded.withLock { decoded in
            if let decoded { return decoded }
            let value = decode(UnsafeRawBufferPointer(rebasing: file.bytes[range]))
            decoded = value
            return value
        }
    }
}

extension CachedValue where Value == String {
    /// UTF-8 text.
    convenience init(text file: MappedFile, range: Range<Int>) {
        self.init(file: file, range: range) { String(decoding: $0, as: UTF8.self) }
    }
}

extension CachedValue where Value == YAMLNode {
    /// A node as ``ByteWriter/node(_:)`` wrote it (an empty mapping if it cannot be read).
    convenience init(node file: MappedFile, range: Range<Int>) {
        self.init(file: file, range: range) { bytes in
            var reader = ByteReader(bytes: bytes, offset: 0, end: bytes.count)
            return reader.node() ?? YAMLNode(.mapping([]), line: 1, column: 1)
        }
    }
}

/// Reads what ``ByteWriter`` wrote; every read checks bounds and returns nil on damage.
struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    var offset: Int
    let end: Int
    /// The mapped file that `bytes` are, when they are: an item's body is then left there
    /// (``LazyValue/cached(_:)``) rather than decoded.
    var file: MappedFile? = nil

    mutating func byte() -> UInt8? {
        guard offset < end else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }
    mutating func int() -> Int? {
        guard end - offset >= 8 else { return nil }
        defer { offset += 8 }
        return Int(Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int64.self)))
    }
    mutating func bool() -> Bool? { byte().map { $0 == 1 } }
    mutating func string() -> String? {
        guard let count = int(), count >= 0, count <= end - offset else { return nil }
        defer { offset += count }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)]), as: UTF8.self)
    }
    /// A string written by ``ByteWriter/string(_:)``, left in the mapped file when there is one.
    mutating func text() -> ItemText? {
        guard let file else { return string().map(ItemText.init) }
        guard let count = int(), count >= 0, count <= end - offset else { return nil }
        defer { offset += count }
        return .cached(CachedValue(text: file, range: offset..<(offset + count)))
    }
    /// `.some(nil)` for an absent value, nil on damage.
    mutating func optional<T>(_ body: (inout ByteReader) -> T?) -> T?? {
        guard let flag = byte() else { return nil }
        if flag == 0 { return .some(nil) }
        guard let value = body(&self) else { return nil }
        return .some(value)
    }
    mutating func location() -> SourceLocation? {
        guard let path = string(), let line = int(), let column = int() else { return nil }
        return SourceLocation(path: path, line: line, column: column)
    }
    mutating func date() -> ContentDate? {
        guard let kind = byte(), let a = int(), let b = int(), let c = int() else { return nil }
        if kind == 0 { return ContentDate(year: a, month: b, day: c) }
        return ContentDate(secondsSinceEpoch: Int64(a), nanoseconds: Int32(truncatingIfNeeded: b), utcOffset: Int32(truncatingIfNeeded: c))
    }
    mutating func node(depth: Int = 0) -> YAMLNode? {
        guard depth < 512, let line = int(), let column = int(), let tag = optional({ $0.string() }), let kind = byte() else { return nil }
        switch kind {
        case 0:
            guard let text = string(), let plain = bool() else { return nil }
            return YAMLNode(.scalar(text, plain: plain), line: line, column: column, tag: tag)
        case 1:
            guard let count = int(), count >= 0, count <= end - offset else { return nil }
            var nodes: [YAMLNode] = []
            for _ in 0..<count {
                guard let n = node(depth: depth + 1) else { return nil }
                nodes.append(n)
            }
            return YAMLNode(.sequence(nodes), line: line, column: column, tag: tag)
        case 2:
            guard let pairs = pairs(depth: depth + 1) else { return nil }
            return YAMLNode(.mapping(pairs), line: line, column: column, tag: tag)
        default: return nil
        }
    }
    /// Steps over a node written by ``ByteWriter/node(_:)``, checking its structure but making
    /// nothing; false on damage.
    mutating func skipNode(depth: Int = 0) -> Bool {
        func skipString() -> Bool {
            guard let count = int(), count >= 0, count <= end - offset else { return false }
            offset += count
            return true
        }
        guard depth < 512, int() != nil, int() != nil, let hasTag = byte() else { return false }
        if hasTag != 0, !skipString() { return false }
        switch byte() {
        case 0: return skipString() && bool() != nil
        case 1:
            guard let count = int(), count >= 0, count <= end - offset else { return false }
            for _ in 0..<count where !skipNode(depth: depth + 1) { return false }
            return true
        case 2:
            guard let count = int(), count >= 0, count <= end - offset else { return false }
            for _ in 0..<(2 * count) where !skipNode(depth: depth + 1) { return false }
            return true
        default: return false
        }
    }
    /// A node written by ``ByteWriter/node(_:)``, left in the mapped file when there is one
    /// (decoded when first read: an unchanged item's front matter is read only for a few
    /// diagnostics).
    mutating func frontMatter() -> ItemYAML? {
        guard let file else { return node().map(ItemYAML.init) }
        let start = offset
        guard skipNode() else { return nil }
        return .cached(CachedValue(node: file, range: start..<offset))
    }
    mutating func pairs(depth: Int = 0) -> [YAMLPair]? {
        guard let count = int(), count >= 0, count <= end - offset else { return nil }
        var pairs: [YAMLPair] = []
        for _ in 0..<count {
            guard let key = node(depth: depth), let value = node(depth: depth) else { return nil }
            pairs.append(YAMLPair(key: key, value: value))
        }
        return pairs
    }
    mutating func strings() -> [String]? {
        guard let count = int(), count >= 0, count <= end - offset else { return nil }
        var list: [String] = []
        for _ in 0..<count {
            guard let s = string() else { return nil }
            list.append(s)
        }
        return list
    }
    mutating func item() -> Item? {
        guard let id = string(), let sourcePath = string(), let itemLocation = location(), let title = string(),
            let description = optional({ $0.string() }), let date = optional({ $0.date() }),
            let publishDate = optional({ $0.date() }), let expiryDate = optional({ $0.date() }), let draft = bool(),
            let weight = optional({ $0.int() }),
            let image = optional({ r -> ItemImage? in
                guard let src = r.string(), let alt = r.optional({ $0.string() }), let width = r.optional({ $0.int() }),
                    let height = r.optional({ $0.int() }), let imageLocation = r.location()
                else { return nil }
                return ItemImage(src: src, alt: alt, width: width, height: height, location: imageLocation)
            }),
            let link = optional({ $0.string() }), let type = string(), let tags = strings(),
            let lang = optional({ $0.string() }), let params = pairs(), let html = text(), let hasBody = bool(),
            let fileName = string(), let frontMatter = frontMatter(), let linkCount = int(), linkCount >= 0, linkCount <= end - offset
        else { return nil }
        var links: [MarkdownLink] = []
        for _ in 0..<linkCount {
            guard let target = string(), let fragment = optional({ $0.string() }), let linkLocation = location(),
                let destination = string(), var link = MarkdownLink(destination: "x.md", directory: "")
            else { return nil }
            link.target = target
            link.fragment = fragment
            link.location = linkLocation
            link.destination = destination
            links.append(link)
        }
        var item = Item(
            id: id, sourcePath: sourcePath, location: itemLocation, title: title, description: description, date: date,
            publishDate: publishDate, expiryDate: expiryDate, draft: draft, weight: weight, image: image, link: link,
            type: type, tags: tags, lang: lang, params: params, hasBody: hasBody, fileName: fileName,
            frontMatter: YAMLNode(.mapping([]), line: 1, column: 1))
        item.markdownLinks = links
        item.setFrontMatter(frontMatter)
        item.setHTML(html)
        return item
    }
    mutating func diagnostics() -> [Diagnostic]? {
        guard let count = int(), count >= 0, count <= end - offset else { return nil }
        var list: [Diagnostic] = []
        for _ in 0..<count {
            guard let s = byte(), s <= 2, let location = location(), let message = string() else { return nil }
            list.append(Diagnostic(s == 2 ? .error : s == 1 ? .warning : .note, location, message))
        }
        return list
    }
}
