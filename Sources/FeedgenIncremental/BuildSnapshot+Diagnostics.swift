/// A snapshot's diagnostics as read: left in the file's bytes (``SnapshotDiagnostics``), made
/// into values only when read; and the tally of their kinds (``KindTally``) that the snapshot
/// keeps with them.
import FeedgenDiagnostics
import FeedgenStorage
import Foundation

/// The diagnostics of a read snapshot (each one's severity, path, line, column and message), in
/// the snapshot's bytes: a patch build reports the last build's, of which it prints 200.
final class SnapshotDiagnostics: PackedDiagnostics, @unchecked Sendable {
    /// The snapshot's bytes, and where each diagnostic starts in them.
    let bytes: [UInt8]
    let starts: [Int]
    /// Where the last one ends.
    let end: Int
    let severities: [Severity]
    private let lock = NSLock()
    private var made: [Diagnostic]?

    var count: Int { starts.count }

    /// The diagnostics at `reader`'s place (a count, then the records): checked and stepped over.
    init?(_ reader: inout ByteReader, bytes: [UInt8]) {
        guard let count = reader.count() else { return nil }
        var starts: [Int] = []
        var severities: [Severity] = []
        starts.reserveCapacity(count)
        severities.reserveCapacity(count)
        for _ in 0..<count {
            starts.append(reader.offset)
            guard let severity = reader.severity(), reader.stringRange() != nil, reader.int() != nil, reader.int() != nil,
                reader.stringRange() != nil
            else { return nil }
            severities.append(severity)
        }
        self.bytes = bytes
        self.starts = starts
        self.severities = severities
        end = reader.offset
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

    /// A path or message that repeats (a file's warnings are together; a missing page is linked
    /// from many) is made once and shared: tens of thousands of Strings fewer to make and free.
    func diagnostics(in range: Range<Int>) -> [Diagnostic] {
        guard !range.isEmpty else { return [] }
        return bytes.withUnsafeBytes { buffer in
            var r = ByteReader(bytes: buffer, offset: starts[range.lowerBound], end: end)
            var list: [Diagnostic] = []
            list.reserveCapacity(range.count)
            let base = buffer.baseAddress!
            func same(_ a: Range<Int>, _ b: Range<Int>) -> Bool { a.count == b.count && memcmp(base + a.lowerBound, base + b.lowerBound, a.count) == 0 }
            func text(_ range: Range<Int>) -> String { String(decoding: UnsafeRawBufferPointer(rebasing: buffer[range]), as: UTF8.self) }
            var lastPath: (range: Range<Int>, text: String)?
            var messages: [UInt64: (range: Range<Int>, text: String)] = [:]
            for k in range {
                // Read when the list was checked (`init`).
                let severity = severities[k]
                _ = r.byte()
                let pathRange = r.stringRange()!
                let (line, column) = (r.int()!, r.int()!)
                let messageRange = r.stringRange()!
                let path: String
                if let last = lastPath, same(last.range, pathRange) {
                    path = last.text
                } else {
                    path = text(pathRange)
                    lastPath = (pathRange, path)
                }
                let message: String
                if range.count == 1 {
                    message = text(messageRange)
                } else {
                    let digest = StableHasher.digest(UnsafeRawBufferPointer(rebasing: buffer[messageRange]))
                    if let known = messages[digest], same(known.range, messageRange) {
                        message = known.text
                    } else {
                        message = text(messageRange)
                        if messages[digest] == nil { messages[digest] = (messageRange, message) }
                    }
                }
                list.append(Diagnostic(severity, SourceLocation(path: path, line: line, column: column), message))
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
            var r = ByteReader(bytes: buffer, offset: starts.first ?? end, end: end)
            let base = buffer.baseAddress
            func same(_ range: Range<Int>, _ text: String) -> Bool {
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
                let start = r.offset
                _ = r.byte()
                let pathRange = r.stringRange()!
                let (line, column) = (r.int()!, r.int()!)
                let messageRange = r.stringRange()!
                let d = list[j]
                if d.severity == severities[k], d.location.line == line, d.location.column == column, same(pathRange, d.location.path),
                    same(messageRange, d.message)
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
                    r.offset = start
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
