import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A build-cache log of keyed, checksummed records, as read at the start of a build: the
/// format shared by `items.log` and `cards.log` (FeedgenIncremental's `ItemCache` and
/// `CardCache`), and what a build made of each record.
///
/// File format: a 4-byte magic, format version (UInt32), salt (UInt64), then records
/// `key (UInt64) · length (UInt32) · checksum (UInt64) · payload`, little-endian; a later record
/// of a key replaces an earlier one, and a record that is cut short ends the log (a killed
/// build). The file is mapped (``MappedFile``); the index is made once and not changed, so
/// look-ups take no lock. A sealed log (``LogSeal``) is indexed from the index its seal holds,
/// without reading the records' headers from the mapping (a page each: records are KBs); any
/// other log by reading them, once. A record's checksum (``StableHasher``) is checked when it
/// is used, unless the log is sealed; a record that fails, or that its owner cannot decode, is
/// marked damaged and never copied into a rewritten log.
public final class RecordLog: @unchecked Sendable {
    public let path: String
    /// The log as mapped (nil: none, or not read).
    public let file: MappedFile?
    /// Each record's key, by place (superseded records included).
    private let keys: [UInt64]
    /// Key → its latest record's place: ``RecordSlots``.
    private let slots: RecordSlots
    /// Each record's checksum and payload in ``bytes``.
    private let ranges: [Range<Int>]
    /// Where the last whole record ends; 0 for a missing or foreign log.
    public let validEnd: Int
    /// The log is as the build that sealed it left it: checksums are not checked.
    public let sealed: Bool
    /// What this build made of each record, by place; set from any thread.
    private let states: UnsafeMutablePointer<Atomic<UInt8>>
    private static let unused: UInt8 = 0
    private static let used: UInt8 = 1
    private static let damaged: UInt8 = 2

    /// Maps and indexes the log at `path`; a missing or foreign file (other `magic`,
    /// `formatVersion` or `salt`), or `read: false`, gives an empty log.
    /// `cutAfterMapping` (tests only, debug builds): the file is truncated right after it is
    /// mapped, as another process could.
    public init(path: String, magic: [UInt8], formatVersion: UInt32, salt: UInt64, read: Bool = true, cutAfterMapping: Bool = false) {
        self.path = path
        let file = read ? MappedFile(path: path) : nil
        self.file = file
        let data = file?.bytes ?? UnsafeRawBufferPointer(start: nil, count: 0)
        var keys: [UInt64] = []
        var ranges: [Range<Int>] = []
        var end = 0
        var sealed = false
        if let file, data.count >= 16, Array(data[0..<4]) == magic, Self.load(UInt32.self, data, 4) == formatVersion,
            Self.load(UInt64.self, data, 8) == salt
        {
            let seal = LogSeal.sealedIndex(file, path: path)
            if seal.holds, let index = seal.index, let made = Self.ranges(of: index, within: data.count) {
                (keys, ranges, end) = (index.keys, made.ranges, made.end)
                sealed = true
            } else {
                end = Self.forEachRecord(in: data, from: 16) { key, record in
                    keys.append(key)
                    ranges.append(record)
                }
                // A seal whose index does not fit the log it seals is not trusted either.
                sealed = seal.holds && seal.index == nil
            }
        }
        (self.keys, self.ranges, validEnd, self.sealed) = (keys, ranges, end, sealed)
        slots = RecordSlots(keys)
        #if DEBUG
            // Test hook (debug builds only): so that the tests can see the build end with a clear
            // error instead of SIGBUS (Tests/FeedgenBuildTests/CacheRobustnessTests).
            if file != nil, cutAfterMapping {
                truncate(path, 0)
            }
        #endif
        states = .allocate(capacity: max(ranges.count, 1))
        for k in 0..<max(ranges.count, 1) { (states + k).initialize(to: Atomic(Self.unused)) }
    }

    deinit {
        states.deinitialize(count: max(ranges.count, 1))
        states.deallocate()
    }

    /// The mapped bytes (empty without a file).
    public var bytes: UnsafeRawBufferPointer { file?.bytes ?? UnsafeRawBufferPointer(start: nil, count: 0) }

    /// The number of whole records read, superseded ones included.
    public var count: Int { ranges.count }

    /// The header of a new log.
    public static func header(magic: [UInt8], formatVersion: UInt32, salt: UInt64) -> [UInt8] {
        var out = ByteWriter()
        out.raw(magic)
        out.u32(formatVersion)
        out.u64(salt)
        return out.bytes
    }

    /// Writes a new log at `path` (as ``CacheFile/write(_:to:)``): `header`, then entry `i`'s
    /// record for each `i` in order, `sizes[i]` bytes (20 + its payload's; 0 for none) that
    /// `record(i, &out)` appends with ``append(_:_:to:)``. The records are made and written on
    /// every core, each run of them at its own offset of the file (a rewritten `cards.log`
    /// is hundreds of MB for a large site).
    /// - Returns: whether the file was written whole.
    public static func write(
        header: [UInt8], sizes: [Int], to path: String, record: @Sendable (Int, inout [UInt8]) -> Void
    ) -> Bool {
        var offsets = [Int](repeating: header.count, count: sizes.count + 1)
        for i in sizes.indices { offsets[i + 1] = offsets[i] + sizes[i] }
        let fd = CacheFile.create(path)
        guard fd >= 0 else { return false }
        let (count, starts) = (sizes.count, offsets)
        let runs = min(count, max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) * 8)
        let wrote: [Bool] = parallelMap(runs + 1) { run in
            guard run < runs else { return writeAll(fd, header, at: 0) }
            let (start, end) = (count * run / runs, count * (run + 1) / runs)
            var out: [UInt8] = []
            out.reserveCapacity(starts[end] - starts[start])
            for i in start..<end { record(i, &out) }
            return out.count == starts[end] - starts[start] && writeAll(fd, out, at: starts[start])
        }
        return close(fd) == 0 && !wrote.contains(false)
    }

    /// `bytes` written at `offset` of `fd`, however many calls it takes.
    private static func writeAll(_ fd: Int32, _ bytes: [UInt8], at offset: Int) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let n = pwrite(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return false }
                done += n
            }
            return true
        }
    }

    /// Appends a record of `payload` under `key` to `out`.
    public static func append(_ key: UInt64, _ payload: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        // The header's fields straight into `out` (no writer of their own: one per record).
        withUnsafeBytes(of: key.littleEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(payload.count).littleEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: StableHasher.hash(bytes: payload).littleEndian) { out.append(contentsOf: $0) }
        out.append(contentsOf: payload)
    }

    /// Where the payload of the record of `key` is in ``bytes``, and the record's place for
    /// ``markUsed(_:)`` and ``markDamaged(_:)``; nil when there is none, it was found damaged,
    /// or its checksum fails (it is then marked damaged).
    public func payload(of key: UInt64) -> (place: Int, range: Range<Int>)? {
        guard let place = slots.place(of: key, keys), states[place].load(ordering: .relaxed) != Self.damaged else { return nil }
        let record = ranges[place]
        let range = (record.lowerBound + 8)..<record.upperBound
        guard sealed || StableHasher.hash(bytes: UnsafeRawBufferPointer(rebasing: bytes[range])) == Self.load(UInt64.self, bytes, record.lowerBound)
        else {
            markDamaged(place)
            return nil
        }
        return (place, range)
    }

    /// The record at `place` was used by this build (it is kept in a rewritten log).
    public func markUsed(_ place: Int) { states[place].store(Self.used, ordering: .relaxed) }

    /// The record of `key`, if any (and not found damaged), was used by this build, without
    /// being read: kept in a rewritten log.
    public func markUsed(key: UInt64) {
        guard let place = slots.place(of: key, keys), states[place].load(ordering: .relaxed) != Self.damaged else { return }
        markUsed(place)
    }

    /// The record at `place` could not be decoded (it is never copied into a rewritten log).
    public func markDamaged(_ place: Int) { states[place].store(Self.damaged, ordering: .relaxed) }

    /// The payload of the record of `key` as read, unless this build found it damaged (its
    /// checksum is not checked again: for copying into a rewritten log).
    public func storedPayload(of key: UInt64) -> UnsafeRawBufferPointer? {
        guard let place = slots.place(of: key, keys), states[place].load(ordering: .relaxed) != Self.damaged else { return nil }
        let range = ranges[place]
        return UnsafeRawBufferPointer(rebasing: bytes[(range.lowerBound + 8)..<range.upperBound])
    }

    /// For deciding whether to compact the log, without building ``usedKeys``: `used` is the
    /// number of keys this build used (records marked used, and `added` keys), `stale` the
    /// number of whole records (superseded ones included) that are neither marked used nor
    /// stored under an `added` key and undamaged. Equal to `usedKeys ∪ added` and
    /// `count - (that set's keys with a ``storedPayload(of:)``)`.
    public func usage(adding added: some Sequence<UInt64>) -> (used: Int, stale: Int) {
        var marked = 0
        for place in 0..<ranges.count where states[place].load(ordering: .relaxed) == Self.used { marked += 1 }
        var used = marked
        var stored = marked
        for key in added {
            let state = slots.place(of: key, keys).map { states[$0].load(ordering: .relaxed) }
            guard state != Self.used else { continue }
            used += 1
            if let state, state != Self.damaged { stored += 1 }
        }
        return (used, ranges.count - stored)
    }

    /// The keys of the records this build used.
    public var usedKeys: Set<UInt64> {
        var keys = Set<UInt64>()
        slots.forEachLatest { place in
            if states[place].load(ordering: .relaxed) == Self.used { keys.insert(self.keys[place]) }
        }
        return keys
    }

    /// Seals the log after this build appended to it, when every record is known good: the log
    /// was sealed, or each record read matches its checksum (checked once).
    public func sealAfterAppending() {
        guard sealed || checksumsHold() else { return }
        Self.seal(path, after: self)
    }

    /// Seals the log at `path` as it is now (``LogSeal/seal(_:settling:index:)``), with its
    /// index: the records of `prefix` (this file as read whole at the start of the build, when
    /// it is still that file) and those after them, read from the file; without a `prefix`,
    /// every record's.
    public static func seal(_ path: String, after prefix: RecordLog? = nil) {
        LogSeal.seal(path) { stamp in
            guard let file = MappedFile(path: path), file.stamp == stamp, file.bytes.count >= 16 else { return nil }
            var index = LogSeal.Index()
            var start = 16
            // Appended to: the records read are those of the file's start (the same file, and
            // it was read whole).
            if let prefix, let read = prefix.file, read.stamp.inode == stamp.inode, read.stamp.device == stamp.device,
                prefix.validEnd >= 16, prefix.validEnd == read.bytes.count, prefix.validEnd <= file.bytes.count
            {
                index.keys = prefix.keys
                index.lengths = prefix.ranges.map { UInt32($0.count - 8) }
                start = prefix.validEnd
            }
            Self.forEachRecord(in: file.bytes, from: start) { key, record in
                index.keys.append(key)
                index.lengths.append(UInt32(record.count - 8))
            }
            return index
        }
    }

    /// Seals the log at `path`, just written as `index` says (the header, then its records in
    /// order), with that index; with none when the file's size is not the index's (it is not
    /// that file).
    public static func seal(_ path: String, written index: LogSeal.Index) {
        LogSeal.seal(path) { stamp in
            stamp.size == Int64(index.lengths.reduce(16) { $0 + 20 + Int($1) }) ? index : nil
        }
    }

    /// The ranges (checksum and payload) of the records of `index` and where the last ends;
    /// nil when they do not fit in `count` bytes.
    static func ranges(of index: LogSeal.Index, within count: Int) -> (ranges: [Range<Int>], end: Int)? {
        guard index.keys.count == index.lengths.count else { return nil }
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(index.lengths.count)
        var offset = 16
        for length in index.lengths {
            let end = offset + 20 + Int(length)
            guard end <= count else { return nil }
            ranges.append((offset + 12)..<end)
            offset = end
        }
        return (ranges, offset)
    }

    /// Whether every record read matches its checksum.
    public func checksumsHold() -> Bool {
        ranges.allSatisfy { range in
            StableHasher.hash(bytes: UnsafeRawBufferPointer(rebasing: bytes[(range.lowerBound + 8)..<range.upperBound]))
                == Self.load(UInt64.self, bytes, range.lowerBound)
        }
    }

    /// Calls `body` with the key and the range (checksum and payload) of each whole record of
    /// the log `data` from the one at `start`, in order; returns where the last whole record ends.
    @discardableResult
    private static func forEachRecord(in data: UnsafeRawBufferPointer, from start: Int, _ body: (UInt64, Range<Int>) -> Void) -> Int {
        var offset = start
        while offset + 20 <= data.count {
            let length = Int(load(UInt32.self, data, offset + 8))
            let start = offset + 20
            guard length <= data.count - start else { break }
            body(load(UInt64.self, data, offset), (offset + 12)..<(start + length))
            offset = start + length
        }
        return offset
    }

    /// The integer at `offset`, which the caller has checked is inside `data`.
    public static func load<T: FixedWidthInteger>(_: T.Type, _ data: UnsafeRawBufferPointer, _ offset: Int) -> T {
        var reader = ByteReader(bytes: data, offset: offset)
        return reader.fixed()!
    }
}
