import Foundation
import Testing

@testable import FeedgenStorage

/// A sealed log is opened from the index its seal holds (``LogSeal/sealedIndex(_:path:)``):
/// it must read as the walk of its records reads it, and a damaged, short, foreign or stale
/// index must read as none (the log's records are then walked).
@Suite struct LogSealIndexTests {
    static let magic: [UInt8] = Array("TEST".utf8)
    /// Records `1…6`, key 2 written twice (its first record superseded), one of them empty.
    static let records: [(UInt64, String)] = [(1, "payload 1"), (2, "payload 2"), (3, ""), (4, "payload 4"), (5, "five"), (2, "payload 2 again"), (6, "six")]

    static func temporaryLog() -> String {
        NSTemporaryDirectory() + "feedgen-logseal-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
    }

    static func bytes(_ records: [(UInt64, String)], header: Bool = true) -> [UInt8] {
        var out = header ? RecordLog.header(magic: magic, formatVersion: 1, salt: 9) : []
        for (key, text) in records { Array(text.utf8).withUnsafeBytes { RecordLog.append(key, $0, to: &out) } }
        return out
    }

    static func open(_ path: String) -> RecordLog { RecordLog(path: path, magic: magic, formatVersion: 1, salt: 9) }

    static func stamp(_ path: String) -> FileStamp {
        var info = stat()
        lstat(path, &info)
        return FileStamp(info)
    }

    /// The seal's modification time a second after the log's times: not racy.
    static func settle(_ path: String) throws {
        let ns = max(stamp(path).ctime, stamp(path).mtime) + 1_000_000_000
        let times = [timespec(tv_sec: 0, tv_nsec: (1 << 30) - 2), timespec(tv_sec: Int(ns / 1_000_000_000), tv_nsec: Int(ns % 1_000_000_000))]
        try #require(utimensat(AT_FDCWD, LogSeal.path(for: path), times, AT_SYMLINK_NOFOLLOW) == 0)
    }

    /// What a log reads as: its count, where its records end, each key's payload.
    static func contents(_ log: RecordLog) -> [String] {
        var out = ["\(log.count) records, end \(log.validEnd)"]
        for key: UInt64 in 0...7 {
            let text = log.payload(of: key).map { String(decoding: log.bytes[$0.range], as: UTF8.self) }
            out.append("\(key): \(text ?? "none")")
        }
        return out
    }

    /// A log written and sealed (with its index); its path.
    static func sealedLog() throws -> String {
        let path = temporaryLog()
        try Data(bytes(records)).write(to: URL(fileURLWithPath: path))
        RecordLog.seal(path)
        try settle(path)
        return path
    }

    @Test func aSealedLogReadsFromItsIndexAsItsRecordsRead() throws {
        let path = try Self.sealedLog()
        defer { unlink(path); unlink(LogSeal.path(for: path)) }
        let file = try #require(MappedFile(path: path))
        let (holds, index) = LogSeal.sealedIndex(file, path: path)
        #expect(holds)
        #expect(index == LogSeal.Index(keys: Self.records.map(\.0), lengths: Self.records.map { UInt32($0.1.utf8.count) }))
        let log = Self.open(path)
        #expect(log.sealed)
        let walked = Self.contents(log)
        #expect(walked.first == "7 records, end \(file.bytes.count)")
        #expect(walked.contains("2: payload 2 again") && walked.contains("3: ") && walked.contains("7: none"))
        // The same log without its seal is walked: it reads the same.
        unlink(LogSeal.path(for: path))
        let unsealed = Self.open(path)
        #expect(!unsealed.sealed)
        #expect(Self.contents(unsealed) == walked)
    }

    /// A seal whose index bytes are damaged, cut short or longer still seals the log (its header
    /// holds), but its index reads as none: the records are walked.
    @Test func aDamagedShortOrLongerIndexReadsAsNone() throws {
        let path = try Self.sealedLog()
        let seal = LogSeal.path(for: path)
        defer { unlink(path); unlink(seal) }
        let expected = Self.contents(Self.open(path))
        let good = try Data(contentsOf: URL(fileURLWithPath: seal))
        var flipped = good
        flipped[good.count - 3] ^= 0x01  // a length
        var key = good
        key[LogSeal.headerSize + 8] ^= 0x80  // the second key
        for (name, bytes) in [("flipped length", flipped), ("flipped key", key), ("short", good.dropLast(4)), ("longer", good + [0, 0, 0, 0])] {
            try Data(bytes).write(to: URL(fileURLWithPath: seal))
            try Self.settle(path)
            let file = try #require(MappedFile(path: path))
            let (holds, index) = LogSeal.sealedIndex(file, path: path)
            #expect(holds, "\(name)")
            #expect(index == nil, "\(name)")
            let log = Self.open(path)
            #expect(log.sealed, "\(name)")
            #expect(Self.contents(log) == expected, "\(name)")
        }
        // A header cut short, or a seal of the first format (56 bytes): no seal.
        for bytes in [good.prefix(LogSeal.headerSize - 1), good.prefix(56)] {
            try Data(bytes).write(to: URL(fileURLWithPath: seal))
            try Self.settle(path)
            let log = Self.open(path)
            #expect(!log.sealed)
            #expect(Self.contents(log) == expected)
        }
    }

    /// An index that does not fit the log it seals (a record running past its end) is not
    /// trusted, nor is the seal: the records are walked and their checksums checked.
    @Test func anIndexThatDoesNotFitItsLogIsNotTrusted() throws {
        let path = try Self.sealedLog()
        defer { unlink(path); unlink(LogSeal.path(for: path)) }
        let expected = Self.contents(Self.open(path))
        unlink(LogSeal.path(for: path))
        let keys = Self.records.map(\.0)
        LogSeal.seal(path, settling: false) { _ in LogSeal.Index(keys: keys, lengths: Self.records.map { UInt32($0.1.utf8.count + 1) }) }
        try Self.settle(path)
        let log = Self.open(path)
        #expect(!log.sealed)
        #expect(Self.contents(log) == expected)
    }

    /// A stale seal (the log appended to since, by another process) holds no more: the log is
    /// walked, appended records included; sealing after appending indexes the records read and
    /// those appended.
    @Test func aStaleIndexIsNotUsedAndAppendingExtendsIt() throws {
        let path = try Self.sealedLog()
        defer { unlink(path); unlink(LogSeal.path(for: path)) }
        let read = Self.open(path)
        #expect(read.sealed)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(Self.bytes([(7, "seven"), (1, "payload 1 again")], header: false)))
        try handle.close()
        let stale = Self.open(path)
        #expect(!stale.sealed)
        let contents = Self.contents(stale)
        #expect(contents.first?.hasPrefix("9 records") == true)
        #expect(contents.contains("7: seven") && contents.contains("1: payload 1 again"))
        // The build that read the log before the append seals it: its records, then the new ones.
        read.sealAfterAppending()
        try Self.settle(path)
        let file = try #require(MappedFile(path: path))
        let index = try #require(LogSeal.sealedIndex(file, path: path).index)
        #expect(index.keys == Self.records.map(\.0) + [7, 1])
        let reopened = Self.open(path)
        #expect(reopened.sealed)
        #expect(Self.contents(reopened) == contents)
    }

    /// A log sealed with the index of what was just written keeps it when the file's size is the
    /// index's, else its seal holds no index.
    @Test func aWrittenIndexIsKeptOnlyWhenItFitsTheFilesSize() throws {
        let path = Self.temporaryLog()
        defer { unlink(path); unlink(LogSeal.path(for: path)) }
        try Data(Self.bytes(Self.records)).write(to: URL(fileURLWithPath: path))
        var index = LogSeal.Index()
        for (key, text) in Self.records { index.add(key, length: text.utf8.count) }
        RecordLog.seal(path, written: index)
        try Self.settle(path)
        let file = try #require(MappedFile(path: path))
        #expect(LogSeal.sealedIndex(file, path: path).index == index)
        unlink(LogSeal.path(for: path))
        index.add(9, length: 1)  // a record the file does not hold
        RecordLog.seal(path, written: index)
        try Self.settle(path)
        let (holds, none) = LogSeal.sealedIndex(file, path: path)
        #expect(holds && none == nil)
        #expect(Self.open(path).sealed)
    }
}
