/// A snapshot's diagnostics as read: left in the file's bytes (``SnapshotDiagnostics``), made
/// into values only when read; how they are written there (a table of their texts and a record
/// of fixed width each); and the tally of their kinds (``KindTally``) that the snapshot keeps
/// with them.
import FeedgenDiagnostics
import FeedgenStorage
import Foundation

/// The diagnostics of a read snapshot (each one's severity, path, line, column and message), in
/// the snapshot's bytes: a patch build reports the last build's, of which it prints 200.
///
/// Layout, after their count: the table of texts (count, then each as a string), each distinct
/// path and message once in the order first used (a file's warnings share its path, and a
/// missing page's warning repeats wherever it is linked); the byte width of lines and columns
/// (4: UInt32, when each fits one; else 8: Int64); then the records, each severity (one byte,
/// ``ByteWriter/severity(_:)``), the path's and the message's places in the table (UInt32),
/// line and column.
final class SnapshotDiagnostics: PackedDiagnostics, @unchecked Sendable {
    /// The snapshot's bytes, and where each text of the table lies in them.
    let bytes: [UInt8]
    let texts: [Range<Int>]
    /// Where the records start, and their lines' and columns' width in bytes (4 or 8).
    let records: Int
    let width: Int
    let count: Int
    /// Where the last one ends.
    let end: Int
    let severities: [Severity]
    private let lock = NSLock()
    private var made: [Diagnostic]?

    /// A record's size in bytes for lines and columns `width` bytes wide.
    static func stride(width: Int) -> Int { 9 + 2 * width }

    /// The diagnostics at `reader`'s place (a count, the table, the records): checked and
    /// stepped over.
    init?(_ reader: inout ByteReader, bytes: [UInt8]) {
        guard let count = reader.count(), let textCount = reader.count() else { return nil }
        var texts: [Range<Int>] = []
        texts.reserveCapacity(textCount)
        for _ in 0..<textCount {
            guard let range = reader.stringRange() else { return nil }
            texts.append(range)
        }
        guard let width = reader.byte(), width == 4 || width == 8 else { return nil }
        let stride = Self.stride(width: Int(width))
        let records = reader.offset
        guard count <= reader.remaining / stride, let all = reader.raw(count * stride) else { return nil }
        var severities: [Severity] = []
        severities.reserveCapacity(count)
        let places = UInt32(truncatingIfNeeded: textCount)
        for k in 0..<count {
            let at = k * stride
            let severity = all[at]
            let path = UInt32(littleEndian: all.loadUnaligned(fromByteOffset: at + 1, as: UInt32.self))
            let message = UInt32(littleEndian: all.loadUnaligned(fromByteOffset: at + 5, as: UInt32.self))
            guard severity <= 2, path < places, message < places else { return nil }
            severities.append(severity == 2 ? .error : severity == 1 ? .warning : .note)
        }
        self.bytes = bytes
        self.texts = texts
        self.records = records
        self.width = Int(width)
        self.count = count
        self.severities = severities
        end = reader.offset
    }

    /// Record `k`'s places of path and message in the table, its line and column.
    @inline(__always)
    private func fields(_ k: Int, in buffer: UnsafeRawBufferPointer) -> (path: Int, message: Int, line: Int, column: Int) {
        let at = records + k * Self.stride(width: width)
        let path = Int(UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: at + 1, as: UInt32.self)))
        let message = Int(UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: at + 5, as: UInt32.self)))
        if width == 4 {
            let line = UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: at + 9, as: UInt32.self))
            let column = UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: at + 13, as: UInt32.self))
            return (path, message, Int(line), Int(column))
        }
        let line = Int64(littleEndian: buffer.loadUnaligned(fromByteOffset: at + 9, as: Int64.self))
        let column = Int64(littleEndian: buffer.loadUnaligned(fromByteOffset: at + 17, as: Int64.self))
        return (path, message, Int(line), Int(column))
    }

    func location(at index: Int) -> SourceLocation { diagnostics(in: index..<index + 1)[0].location }

    var all: [Diagnostic] {
        lock.withLock {
            if let made { return made }
            let all = diagnostics(in: 0..<count)
            made = all
            return all
        }
    }

    /// Each text of the table is made once per call and shared by the diagnostics that use it:
    /// tens of thousands of Strings fewer to make and free.
    func diagnostics(in range: Range<Int>) -> [Diagnostic] {
        guard !range.isEmpty else { return [] }
        return bytes.withUnsafeBytes { buffer in
            var list: [Diagnostic] = []
            list.reserveCapacity(range.count)
            var made: [Int: String] = [:]
            func text(_ t: Int) -> String {
                if let text = made[t] { return text }
                let text = String(decoding: UnsafeRawBufferPointer(rebasing: buffer[texts[t]]), as: UTF8.self)
                made[t] = text
                return text
            }
            for k in range {
                let (path, message, line, column) = fields(k, in: buffer)
                list.append(Diagnostic(severities[k], SourceLocation(path: text(path), line: line, column: column), text(message)))
            }
            return list
        }
    }

    /// Whether `list` is these diagnostics, byte for byte, in the same order.
    func matches(_ list: [Diagnostic]) -> Bool { list.count == count && changes(to: list, atMost: 0) != nil }

    /// What makes these diagnostics `list` (both in ``Diagnostics/sorted`` order): the places of
    /// these that it has not (`removed`) and of its own that these have not (`added`), found
    /// in one walk of both; nil when there are more than `limit` of them.
    func changes(to list: [Diagnostic], atMost limit: Int) -> (removed: [Int], added: [Int])? {
        guard abs(list.count - count) <= limit else { return nil }
        return bytes.withUnsafeBytes { buffer in
            let base = buffer.baseAddress
            func same(_ t: Int, _ text: String) -> Bool {
                let range = texts[t]
                guard text.utf8.count == range.count else { return false }
                func equal(_ p: UnsafeBufferPointer<UInt8>) -> Bool { p.isEmpty || memcmp(base! + range.lowerBound, p.baseAddress!, range.count) == 0 }
                if let same = text.utf8.withContiguousStorageIfAvailable(equal) { return same }
                var text = text
                return text.withUTF8(equal)
            }
            var (removed, added): ([Int], [Int]) = ([], [])
            var (k, j) = (0, 0)
            while k < count || j < list.count {
                guard removed.count + added.count <= limit else { return nil }
                guard k < count else {
                    added.append(j)
                    j += 1
                    continue
                }
                guard j < list.count else {
                    removed.append(k)
                    k += 1
                    continue
                }
                let (path, message, line, column) = fields(k, in: buffer)
                let d = list[j]
                if d.severity == severities[k], d.location.line == line, d.location.column == column, same(path, d.location.path),
                    same(message, d.message)
                {
                    (k, j) = (k + 1, j + 1)
                    continue
                }
                // Told apart: the one at the earlier location is the other list's not; at one
                // location, both.
                let here = location(at: k)
                if here < d.location {
                    removed.append(k)
                    k += 1
                } else if d.location < here {
                    added.append(j)
                    j += 1
                } else {
                    removed.append(k)
                    added.append(j)
                    (k, j) = (k + 1, j + 1)
                }
            }
            return removed.count + added.count <= limit ? (removed, added) : nil
        }
    }
}

extension ByteWriter {
    /// `list`'s table of texts and records, as ``SnapshotDiagnostics`` reads them (after their
    /// count). A text's place is found by a digest of its bytes (faster to hash than a String);
    /// texts are told apart byte for byte (Swift's `==` would join canonically equivalent ones).
    mutating func snapshotDiagnostics(_ list: [Diagnostic]) {
        var table: [String] = []
        var byDigest: [UInt64: Int] = [:]
        var collided: [[UInt8]: Int] = [:]
        func place(_ text: String) -> Int {
            let digest = StableHasher.digest(text)
            if let k = byDigest[digest] {
                if table[k].sameBytes(as: text) { return k }
                let key = Array(text.utf8)
                if let k = collided[key] { return k }
                collided[key] = table.count
            } else {
                byDigest[digest] = table.count
            }
            table.append(text)
            return table.count - 1
        }
        var places: [(path: UInt32, message: UInt32)] = []
        places.reserveCapacity(list.count)
        var narrow = true
        for d in list {
            // A file's diagnostics are together: its path is most often the last one's.
            let path: Int
            if let last = places.last, table[Int(last.path)].sameBytes(as: d.location.path) { path = Int(last.path) } else { path = place(d.location.path) }
            places.append((UInt32(path), UInt32(place(d.message))))
            let (line, column) = (d.location.line, d.location.column)
            if line < 0 || line > Int(UInt32.max) || column < 0 || column > Int(UInt32.max) { narrow = false }
        }
        int(table.count)
        for text in table { string(text) }
        let width = narrow ? 4 : 8
        bytes.append(UInt8(width))
        let stride = SnapshotDiagnostics.stride(width: width)
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: list.count * stride))
        bytes.withUnsafeMutableBytes { out in
            for (k, d) in list.enumerated() {
                let at = start + k * stride
                out[at] = d.severity == .error ? 2 : d.severity == .warning ? 1 : 0
                out.storeBytes(of: places[k].path.littleEndian, toByteOffset: at + 1, as: UInt32.self)
                out.storeBytes(of: places[k].message.littleEndian, toByteOffset: at + 5, as: UInt32.self)
                if narrow {
                    out.storeBytes(of: UInt32(d.location.line).littleEndian, toByteOffset: at + 9, as: UInt32.self)
                    out.storeBytes(of: UInt32(d.location.column).littleEndian, toByteOffset: at + 13, as: UInt32.self)
                } else {
                    out.storeBytes(of: Int64(d.location.line).littleEndian, toByteOffset: at + 9, as: Int64.self)
                    out.storeBytes(of: Int64(d.location.column).littleEndian, toByteOffset: at + 17, as: Int64.self)
                }
            }
        }
    }

    /// A tally of kinds: 0, or 1 and its kinds (severity, text, count) in order.
    mutating func kindTally(_ tally: KindTally?) {
        guard let tally else { return bytes.append(0) }
        bytes.append(1)
        int(tally.kinds.count)
        for (kind, n) in zip(tally.kinds, tally.counts) {
            severity(kind.severity)
            string(kind.text)
            int(n)
        }
    }
}

extension ByteReader {
    /// ``ByteWriter/kindTally(_:)``: nil when it does not read, `.some(nil)` for none.
    mutating func kindTally() -> KindTally?? {
        guard let present = byte(), present <= 1 else { return nil }
        guard present == 1 else { return .some(nil) }
        guard let count = count() else { return nil }
        var tally = KindTally()
        for _ in 0..<count {
            guard let s = severity(), let text = string(), let n = int(), n >= 0 else { return nil }
            tally.add(KindTally.Kind(severity: s, text: text), n)
        }
        return .some(tally)
    }
}
