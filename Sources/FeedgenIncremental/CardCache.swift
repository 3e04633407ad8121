import FeedgenBuild
import FeedgenContent
import FeedgenEmit
import FeedgenStorage
import Foundation
import Synchronization

/// Rendered cards of earlier builds, so that the feed page of an incremental build renders only
/// the cards whose inputs changed: the build cache's `cards.log` (``BuildCache``).
///
/// An entry is a ``CardFragment`` (the card's HTML and its height estimate) under its card key
/// (``RenderKeys/cardKey(_:)``: the item's fields, its image, eager/lazy loading, the card type,
/// seeded with the templates, the configuration and the binary). Nothing about the card's place
/// in its section is in the fragment, so an entry is right wherever the card lands.
///
/// The file is a ``RecordLog`` (magic `FGCC`, format version 1), like `items.log`: records are
/// checked when used unless the log is sealed (``LogSeal``). A fragment's HTML is not copied out
/// of the mapping: it
/// refers to the record's bytes (``CardHTML``) and keeps the mapping alive, and it is not
/// validated as UTF-8 (it was written from a `String`; the checksum catches damage). New entries are appended at the end of the build; when more records are
/// stale than used (or the file is damaged), the log is rewritten with the used entries only
/// (a temporary file renamed over it). Failures are ignored: it is a cache.
final class CardCache: CardMemo, @unchecked Sendable {
    static let magic: [UInt8] = Array("FGCC".utf8)
    static let formatVersion: UInt32 = 1

    let path: String
    let salt: UInt64
    /// The log as read at the start of the build.
    private let log: RecordLog
    private let lock = NSLock()
    private let hitCount = Atomic<Int>(0)
    private var added: [UInt64: [UInt8]] = [:]
    private var missCount = 0
    /// Lookups that found a usable entry / found none (for `FEEDGEN_TIMING` and the tests).
    public var hits: Int { hitCount.load(ordering: .relaxed) }
    public var misses: Int { lock.withLock { missCount } }

    /// Reads the log at `path` (a missing, foreign or damaged file gives an empty cache);
    /// `read: false` (`feedgen build --clean`) starts from nothing and writes a new log;
    /// `cutAfterMapping`: a test hook (``BuildOptions/testCutLog``).
    init(path: String, salt: UInt64, read: Bool = true, cutAfterMapping: Bool = false) {
        self.path = path
        self.salt = salt
        log = RecordLog(
            path: path, magic: Self.magic, formatVersion: Self.formatVersion, salt: salt, read: read, cutAfterMapping: cutAfterMapping)
    }

    public func fragment(_ key: UInt64) -> CardFragment? {
        guard let (place, range) = log.payload(of: key),
            let fragment = CardFragment(decoding: UnsafeRawBufferPointer(rebasing: log.bytes[range]), owner: log.file)
        else {
            lock.withLock { missCount += 1 }
            return nil
        }
        log.markUsed(place)
        hitCount.add(1, ordering: .relaxed)
        return fragment
    }

    public func keep(_ keys: [UInt64]) {
        for key in keys { log.markUsed(key: key) }
    }

    public func store(_ key: UInt64, _ fragment: CardFragment) {
        let bytes = fragment.encoded()
        lock.withLock { added[key] = bytes }
    }

    /// Writes this build's new entries: appended to an intact log, or the log rewritten with the
    /// entries this build used when it is damaged, foreign or mostly stale.
    public func save() {
        lock.withLock {
            let fresh = added.sorted { $0.key < $1.key }
            let intact = log.validEnd > 0 && log.validEnd == log.bytes.count
            let usage = log.usage(adding: added.keys)
            if intact, usage.stale <= max(64, usage.used) {
                guard !fresh.isEmpty else {
                    if !log.sealed { log.sealAfterAppending() }  // nothing appended: sealed when every record holds
                    return
                }
                var out: [UInt8] = []
                for (key, bytes) in fresh { bytes.withUnsafeBytes { RecordLog.append(key, $0, to: &out) } }
                let fd = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
                guard fd >= 0 else { return }
                let written = out.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                close(fd)
                if written == out.count { log.sealAfterAppending() }
                return
            }
            let (log, added) = (log, added)
            let keys = log.usedKeys.union(added.keys).sorted()
            let sizes = keys.map { key in (added[key]?.count ?? log.storedPayload(of: key)?.count).map { $0 + 20 } ?? 0 }
            var folder = ""
            for part in path.split(separator: "/").dropLast() {
                folder += "/" + part
                mkdir(folder, 0o755)
            }
            let temporary = path + ".tmp-\(getpid())"
            let header = RecordLog.header(magic: Self.magic, formatVersion: Self.formatVersion, salt: salt)
            let wrote = RecordLog.write(header: header, sizes: sizes, to: temporary) { i, out in
                if let bytes = added[keys[i]] {
                    bytes.withUnsafeBytes { RecordLog.append(keys[i], $0, to: &out) }
                } else if let payload = log.storedPayload(of: keys[i]) {
                    RecordLog.append(keys[i], payload, to: &out)
                }
            }
            if wrote, CacheFile.rename(temporary, over: path) {
                var index = LogSeal.Index()
                for i in keys.indices where sizes[i] > 0 { index.add(keys[i], length: sizes[i] - 20) }
                RecordLog.seal(path, written: index)
            } else {
                unlink(temporary)
            }
        }
    }
}
