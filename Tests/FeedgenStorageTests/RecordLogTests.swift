import Foundation
import Testing

@testable import FeedgenStorage

/// `RecordLog.usage(adding:)` decides whether a cache log is compacted without building the set
/// of used keys; it must count what that set-based rule counted.
@Suite struct RecordLogTests {
    static let magic: [UInt8] = Array("TEST".utf8)

    /// A log of records `1…6` with key 2 written twice (its first record superseded).
    static func log() throws -> RecordLog {
        let path = NSTemporaryDirectory() + "feedgen-recordlog-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        var out = RecordLog.header(magic: magic, formatVersion: 1, salt: 9)
        for key: UInt64 in [1, 2, 3, 4, 5, 2, 6] {
            let payload = Array("payload \(key)".utf8)
            payload.withUnsafeBytes { RecordLog.append(key, $0, to: &out) }
        }
        try Data(out).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        return RecordLog(path: path, magic: magic, formatVersion: 1, salt: 9)
    }

    /// The rule `usage` replaces: `usedKeys ∪ added`, and the log's records minus those of that
    /// set's keys that still have a payload.
    static func expected(_ log: RecordLog, _ added: Set<UInt64>) -> (used: Int, stale: Int) {
        let used = log.usedKeys.union(added)
        return (used.count, log.count - used.count { log.storedPayload(of: $0) != nil })
    }

    @Test func countsUsedAndStaleRecordsAsTheSetRuleDid() throws {
        let log = try Self.log()
        #expect(log.count == 7)
        // Nothing used, nothing added: every record is stale.
        #expect(log.usage(adding: []) == (0, 7))
        // Keys 1 and 2 used (2's latest record), 3 found damaged.
        for key: UInt64 in [1, 2] { log.markUsed(try #require(log.payload(of: key)).place) }
        log.markDamaged(try #require(log.payload(of: 3)).place)
        // Added: a key already used (1), a damaged one (3), one in the log (4), a new one (99).
        let added: Set<UInt64> = [1, 3, 4, 99]
        let usage = log.usage(adding: added)
        #expect(usage == Self.expected(log, added))
        // Used: 1, 2, 3, 4, 99. Stored among them: 1, 2, 4. Stale: 7 records - 3.
        #expect(usage == (5, 4))
    }

    /// `write(header:sizes:to:record:)` writes the bytes that appending every record to one
    /// buffer makes (its runs made and written at their offsets on every core); a record of
    /// another size than announced makes it fail.
    @Test func writeMakesTheRecordsInOrder() throws {
        let path = NSTemporaryDirectory() + "feedgen-recordlog-write-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        defer { unlink(path) }
        let header = RecordLog.header(magic: Self.magic, formatVersion: 1, salt: 9)
        // 1,000 entries of 0 to 96 payload bytes; every seventh has no record.
        let payloads: [[UInt8]?] = (0..<1000).map { $0 % 7 == 3 ? nil : Array(repeating: UInt8($0 % 251), count: $0 % 97) }
        var expected = header
        for (i, payload) in payloads.enumerated() {
            payload?.withUnsafeBytes { RecordLog.append(UInt64(i), $0, to: &expected) }
        }
        let sizes = payloads.map { $0.map { $0.count + 20 } ?? 0 }
        let record = { @Sendable (i: Int, out: inout [UInt8]) -> Void in
            guard let payload = payloads[i] else { return }
            payload.withUnsafeBytes { RecordLog.append(UInt64(i), $0, to: &out) }
        }
        #expect(RecordLog.write(header: header, sizes: sizes, to: path, record: record))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(expected))
        #expect(RecordLog(path: path, magic: Self.magic, formatVersion: 1, salt: 9).count == payloads.count { $0 != nil })
        var wrong = sizes
        wrong[501] += 1
        #expect(!RecordLog.write(header: header, sizes: wrong, to: path, record: record))
    }
}
