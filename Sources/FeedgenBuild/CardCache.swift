import FeedgenContent
import FeedgenEmit
import Foundation
import Synchronization

/// Rendered cards of earlier builds, so that the feed page of an incremental build renders only
/// the cards whose inputs changed: the build cache's `cards.log` (``BuildCache``).
///
/// An entry is a ``CardFragment`` (the card's HTML and its height estimate) under its card key
/// (`SiteRenderer.cardKey`: the item's fields, its image, eager/lazy loading, the card type,
/// seeded with the templates, the configuration and the binary). Nothing about the card's place
/// in its section is in the fragment, so an entry is right wherever the card lands.
///
/// File format (like `items.log`, ``ItemCache``): `FGCC`, format version (UInt32), salt (UInt64),
/// then records `key (UInt64) · length (UInt32) · checksum (UInt64) · payload`, little-endian.
/// The file is mapped (``MappedFile``); a record's checksum is checked when it is used, unless
/// the log is sealed (``LogSeal``: as the build that last wrote it left it); a cut-short record
/// ends the log. A fragment's HTML is not copied out of the mapping: it
/// refers to the record's bytes (``CardHTML``) and keeps the mapping alive, and it is not
/// validated as UTF-8 (it was written from a `String`; the checksum catches damage). New entries are appended at the end of the build; when more records are
/// stale than used (or the file is damaged), the log is rewritten with the used entries only
/// (a temporary file renamed over it). Failures are ignored: it is a cache.
final class CardCache: CardFragmentStore, @unchecked Sendable {
    static let magic: [UInt8] = Array("FGCC".utf8)
    static let formatVersion: UInt32 = 1

    let path: String
    let salt: UInt64
    /// The log as read at the start of the build (mapped; nil: none).
    private let file: MappedFile?
    private var data: UnsafeRawBufferPointer { file?.bytes ?? UnsafeRawBufferPointer(start: nil, count: 0) }
    /// Key → the record's place in `ranges` (its checksum and payload in `data`).
    private let index: [UInt64: Int]
    private let ranges: [Range<Int>]
    private let validEnd: Int
    /// The log is as the build that sealed it left it (``LogSeal``): checksums are not checked.
    private let sealed: Bool
    private var records: Int { ranges.count }
    private let lock = NSLock()
    /// Which records this build used, by place: set without the lock (a feed page looks up
    /// 10,000 cards on every core; one lock per look-up was contended).
    private let usedRecords: UnsafeMutablePointer<Atomic<Bool>>
    private let hitCount = Atomic<Int>(0)
    private var added: [UInt64: [UInt8]] = [:]
    private var missCount = 0
    /// Lookups that found a usable entry / found none (for `FEEDGEN_TIMING` and the tests).
    var hits: Int { hitCount.load(ordering: .relaxed) }
    var misses: Int { lock.withLock { missCount } }

    /// Reads the log at `path` (a missing, foreign or damaged file gives an empty cache);
    /// `read: false` (`feedgen build --clean`) starts from nothing and writes a new log.
    init(path: String, salt: UInt64, read: Bool = true) {
        self.path = path
        self.salt = salt
        file = read ? MappedFile(path: path) : nil
        (index, ranges, validEnd) = Self.records(file?.bytes ?? UnsafeRawBufferPointer(start: nil, count: 0), salt: salt)
        sealed = file.map { LogSeal.holds($0, path: path) } ?? false
        usedRecords = .allocate(capacity: max(ranges.count, 1))
        for k in 0..<max(ranges.count, 1) { (usedRecords + k).initialize(to: Atomic(false)) }
    }

    /// The records of the log `buffer`: key → place in `ranges` (a later record replaces an
    /// earlier one), each record's checksum and payload, and where the last whole record ends
    /// (0: a missing, foreign or damaged log).
    private static func records(
        _ buffer: UnsafeRawBufferPointer, salt: UInt64
    ) -> (index: [UInt64: Int], ranges: [Range<Int>], validEnd: Int) {
        guard buffer.count >= 16, Array(buffer[0..<4]) == Self.magic,
            UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: 4, as: UInt32.self)) == Self.formatVersion,
            UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) == salt
        else { return ([:], [], 0) }
        var index: [UInt64: Int] = [:]
        var ranges: [Range<Int>] = []
        var offset = 16
        while offset + 20 <= buffer.count {
            let key = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            let length = Int(UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)))
            let start = offset + 20
            guard length <= buffer.count - start else { break }
            index[key] = ranges.count
            ranges.append((offset + 12)..<(start + length))  // checksum and payload
            offset = start + length
        }
        return (index, ranges, offset)
    }

    deinit {
        usedRecords.deinitialize(count: max(ranges.count, 1))
        usedRecords.deallocate()
    }

    func fragment(_ key: UInt64) -> CardFragment? {
        guard let record = index[key] else {
            lock.withLock { missCount += 1 }
            return nil
        }
        let range = ranges[record]
        let buffer = data
        let checksum = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: range.lowerBound, as: UInt64.self))
        let payload = UnsafeRawBufferPointer(rebasing: buffer[(range.lowerBound + 8)..<range.upperBound])
        guard sealed || StableHasher.hash(bytes: payload) == checksum, let fragment = CardFragment(decoding: payload, owner: file) else {
            lock.withLock { missCount += 1 }
            return nil
        }
        usedRecords[record].store(true, ordering: .relaxed)
        hitCount.add(1, ordering: .relaxed)
        return fragment
    }

    func store(_ key: UInt64, _ fragment: CardFragment) {
        let bytes = fragment.encoded()
        lock.withLock { added[key] = bytes }
    }

    /// The keys of the records this build used, or stored anew.
    private var used: Set<UInt64> {
        var keys = Set(added.keys)
        for (key, record) in index where usedRecords[record].load(ordering: .relaxed) { keys.insert(key) }
        return keys
    }

    private static func header(salt: UInt64) -> [UInt8] {
        var out = magic
        withUnsafeBytes(of: formatVersion.littleEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: salt.littleEndian) { out.append(contentsOf: $0) }
        return out
    }

    private static func record(_ key: UInt64, _ payload: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        withUnsafeBytes(of: key.littleEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(payload.count).littleEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: StableHasher.hash(bytes: payload).littleEndian) { out.append(contentsOf: $0) }
        out.append(contentsOf: payload)
    }

    /// Writes this build's new entries: appended to an intact log, or the log rewritten with the
    /// entries this build used when it is damaged, foreign or mostly stale.
    func save() {
        lock.withLock {
            let fresh = added.sorted { $0.key < $1.key }  // a later record replaces an earlier one
            let intact = validEnd > 0 && validEnd == data.count
            let used = self.used
            let stale = records - used.count { index[$0] != nil }
            if intact, stale <= max(64, used.count) {
                // Sealed again after the append when every record is known good: the log was
                // sealed, or each record's checksum holds (checked once).
                guard !fresh.isEmpty else {
                    if !sealed, checksumsHold() { LogSeal.seal(path) }
                    return
                }
                var out: [UInt8] = []
                for (key, bytes) in fresh { bytes.withUnsafeBytes { Self.record(key, $0, into: &out) } }
                let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
                guard fd >= 0 else { return }
                let written = out.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                close(fd)
                if written == out.count, sealed || checksumsHold() { LogSeal.seal(path) }
                return
            }
            var out = Self.header(salt: salt)
            out.reserveCapacity(data.count + added.values.reduce(0) { $0 + $1.count + 20 })
            do {
                let buffer = data
                for key in used.sorted() {
                    if let bytes = added[key] {
                        bytes.withUnsafeBytes { Self.record(key, $0, into: &out) }
                    } else if let record = index[key] {
                        let range = ranges[record]
                        Self.record(key, UnsafeRawBufferPointer(rebasing: buffer[(range.lowerBound + 8)..<range.upperBound]), into: &out)
                    }
                }
            }
            var folder = ""
            for part in path.split(separator: "/").dropLast() {
                folder += "/" + part
                mkdir(folder, 0o755)
            }
            let temporary = path + ".tmp-\(getpid())"
            let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else { return }
            var written = 0
            out.withUnsafeBytes { buffer in
                while written < buffer.count {
                    let n = write(fd, buffer.baseAddress! + written, buffer.count - written)
                    if n <= 0 { break }
                    written += n
                }
            }
            close(fd)
            if written == out.count, rename(temporary, path) == 0 { LogSeal.seal(path) } else { unlink(temporary) }
        }
    }

    /// Whether every record of the log as read matches its checksum.
    private func checksumsHold() -> Bool {
        let buffer = data
        return ranges.allSatisfy { range in
            let checksum = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: range.lowerBound, as: UInt64.self))
            return StableHasher.hash(bytes: UnsafeRawBufferPointer(rebasing: buffer[(range.lowerBound + 8)..<range.upperBound])) == checksum
        }
    }
}
