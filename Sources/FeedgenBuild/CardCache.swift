import FeedgenContent
import FeedgenEmit
import Foundation

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
/// The file is mapped (``MappedFile``); a record's checksum is checked when it is used; a
/// cut-short record ends the log. A fragment's HTML is not copied out of the mapping: it
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
    private var index: [UInt64: Range<Int>] = [:]
    private var validEnd = 0
    private var records = 0
    private let lock = NSLock()
    private var used = Set<UInt64>()
    private var added: [UInt64: [UInt8]] = [:]
    /// Lookups that found a usable entry / found none (for `FEEDGEN_TIMING` and the tests).
    private(set) var hits = 0
    private(set) var misses = 0

    /// Reads the log at `path` (a missing, foreign or damaged file gives an empty cache);
    /// `read: false` (`feedgen build --clean`) starts from nothing and writes a new log.
    init(path: String, salt: UInt64, read: Bool = true) {
        self.path = path
        self.salt = salt
        file = read ? MappedFile(path: path) : nil
        let buffer = file?.bytes ?? UnsafeRawBufferPointer(start: nil, count: 0)
        guard buffer.count >= 16 else { return }
        do {
            guard Array(buffer[0..<4]) == Self.magic,
                UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: 4, as: UInt32.self)) == Self.formatVersion,
                UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) == salt
            else { return }
            var offset = 16
            while offset + 20 <= buffer.count {
                let key = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                let length = Int(UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)))
                let start = offset + 20
                guard length <= buffer.count - start else { break }
                index[key] = (offset + 12)..<(start + length)  // checksum and payload
                records += 1
                offset = start + length
            }
            validEnd = offset
        }
    }

    func fragment(_ key: UInt64) -> CardFragment? {
        let fragment: CardFragment? = index[key].flatMap { range in
            { (buffer: UnsafeRawBufferPointer) -> CardFragment? in
                let checksum = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: range.lowerBound, as: UInt64.self))
                let payload = UnsafeRawBufferPointer(rebasing: buffer[(range.lowerBound + 8)..<range.upperBound])
                guard StableHasher.hash(bytes: payload) == checksum else { return nil }
                return CardFragment(decoding: payload, owner: file)
            }(data)
        }
        lock.withLock {
            if fragment != nil {
                hits += 1
                used.insert(key)
            } else {
                misses += 1
            }
        }
        return fragment
    }

    func store(_ key: UInt64, _ fragment: CardFragment) {
        let bytes = fragment.encoded()
        lock.withLock {
            used.insert(key)
            added[key] = bytes
        }
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
            let stale = records - used.count { index[$0] != nil }
            if intact, stale <= max(64, used.count) {
                guard !fresh.isEmpty else { return }
                var out: [UInt8] = []
                for (key, bytes) in fresh { bytes.withUnsafeBytes { Self.record(key, $0, into: &out) } }
                let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
                guard fd >= 0 else { return }
                _ = out.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                close(fd)
                return
            }
            var out = Self.header(salt: salt)
            out.reserveCapacity(data.count + added.values.reduce(0) { $0 + $1.count + 20 })
            do {
                let buffer = data
                for key in used.sorted() {
                    if let bytes = added[key] {
                        bytes.withUnsafeBytes { Self.record(key, $0, into: &out) }
                    } else if let range = index[key] {
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
            if written == out.count { rename(temporary, path) } else { unlink(temporary) }
        }
    }
}
