/// `BuildSnapshot.Records`: a snapshot's item records. Those of a snapshot read from a file are
/// checked whole when it is read but made (their Strings and lists) only when asked for: a patch
/// build needs the records of the few items that changed, of 10,000; an encoding copies the
/// bytes of the others.
import FeedgenStorage
import Foundation

extension BuildSnapshot {
    struct Records: RandomAccessCollection, ExpressibleByArrayLiteral, Equatable, Sendable {
        /// The records of a read snapshot: its bytes and where each record lies in them.
        final class File: Sendable {
            let bytes: [UInt8]
            let ranges: [Range<Int>]
            /// Each link target that begins with `#` (``SnapshotAnchors``): where its bytes lie,
            /// and its record; in the records' order, and each record's links'.
            let anchors: [Range<Int>]
            let anchorRecords: [Int]
            /// The snapshot's item files as read, and where each lies: an encoding copies those
            /// still the same (all but the changed items' stamps, usually).
            let itemFiles: [Source]
            let itemFileRanges: [Range<Int>]

            init(
                bytes: [UInt8], ranges: [Range<Int>], anchors: [Range<Int>], anchorRecords: [Int], itemFiles: [Source],
                itemFileRanges: [Range<Int>]
            ) {
                self.bytes = bytes
                self.ranges = ranges
                self.anchors = anchors
                self.anchorRecords = anchorRecords
                self.itemFiles = itemFiles
                self.itemFileRanges = itemFileRanges
            }

            /// The record at `k`, made from its bytes (checked when the file was read).
            func record(_ k: Int) -> ItemRecord? {
                bytes.withUnsafeBytes { buffer in
                    var r = ByteReader(bytes: buffer, offset: ranges[k].lowerBound, end: ranges[k].upperBound)
                    return BuildSnapshot.record(&r) ?? nil
                }
            }
        }

        /// The records when not read from a file.
        private var list: [ItemRecord?]
        /// The file read, and the records set since (by index), which take the place of its.
        private(set) var file: File?
        private var changed: [Int: ItemRecord?] = [:]

        init(_ list: [ItemRecord?]) { self.list = list }
        init(arrayLiteral elements: ItemRecord?...) { self.init(elements) }
        init(file: File) {
            self.list = []
            self.file = file
        }

        var startIndex: Int { 0 }
        var endIndex: Int { file?.ranges.count ?? list.count }

        subscript(k: Int) -> ItemRecord? {
            get {
                guard let file else { return list[k] }
                if let record = changed[k] { return record }
                return file.record(k)
            }
            set {
                if file != nil {
                    precondition(indices.contains(k), "record index out of range")
                    changed.updateValue(newValue, forKey: k)
                } else {
                    list[k] = newValue
                }
            }
        }

        /// Where record `k` lies in ``file``'s bytes, when it is still the one read.
        func bytesRead(_ k: Int) -> Range<Int>? {
            guard let file, changed.isEmpty || changed.index(forKey: k) == nil else { return nil }
            return file.ranges[k]
        }

        /// Record `k`'s two fingerprints (``ItemRecord/fingerprint``, ``ItemRecord/whole``), nil
        /// for an item not shown; read where they lie when the record is the one read (no other
        /// field made).
        func fingerprints(_ k: Int) -> (outside: UInt64, whole: UInt64)? {
            guard let range = bytesRead(k), let file else { return self[k].map { ($0.fingerprint, $0.whole) } }
            return file.bytes.withUnsafeBytes { buffer in
                // The present flag, feed, section and item, then the two.
                var r = ByteReader(bytes: buffer, offset: range.lowerBound, end: range.upperBound)
                guard let present = r.byte(), present != 0, r.varint() != nil, r.varint() != nil, r.varint() != nil, let outside = r.u64(),
                    let whole = r.u64()
                else { return nil }
                return (outside, whole)
            }
        }

        /// Whether record `k` is the one read and its bytes are `record`'s encoding (compared
        /// field by field where they lie: no String made).
        func isRead(_ k: Int, sameAs record: ItemRecord?) -> Bool {
            guard let range = bytesRead(k), let file else { return false }
            return file.bytes.withUnsafeBytes { buffer in
                var r = ByteReader(bytes: buffer, offset: range.lowerBound, end: range.upperBound)
                return BuildSnapshot.record(&r, matches: record)
            }
        }

        /// The first link target, in the records' order and each one's links', that is `#` and
        /// one of `paths`: that path. Only the records set since the file was read are made.
        func firstFragmentTarget(in paths: Set<String>) -> String? {
            func hit(_ target: String) -> String? {
                guard target.hasPrefix("#") else { return nil }
                let path = String(target.dropFirst())
                return paths.contains(path) ? path : nil
            }
            func first(_ record: ItemRecord?) -> String? {
                for link in record?.links ?? [] {
                    if let path = hit(link.target) { return path }
                }
                return nil
            }
            guard let file else {
                for record in list {
                    if let path = first(record) { return path }
                }
                return nil
            }
            // ASCII text equals another only byte for byte (canonical equivalence can make
            // other bytes equal, so any other text is compared as Strings).
            func isASCII(_ bytes: some Sequence<UInt8>) -> Bool { bytes.allSatisfy { $0 < 0x80 } }
            let asciiPaths = paths.allSatisfy { isASCII($0.utf8) } ? paths.map { ($0, Array($0.utf8)) } : nil
            let set = changed.keys.sorted()
            var next = 0
            for (n, target) in file.anchors.enumerated() {
                let k = file.anchorRecords[n]
                while next < set.count, set[next] < k {
                    if let path = first(changed[set[next]]!) { return path }
                    next += 1
                }
                if next < set.count, set[next] == k { continue }
                let bytes = file.bytes[target]
                if let asciiPaths, isASCII(bytes) {
                    // `#` and an ASCII path: `#` is the text's first Character.
                    let rest = bytes.dropFirst()
                    if let found = asciiPaths.first(where: { $0.1.count == rest.count && $0.1.elementsEqual(rest) }) { return found.0 }
                    continue
                }
                if let path = hit(String(decoding: bytes, as: UTF8.self)) { return path }
            }
            for k in set[next...] {
                if let path = first(changed[k]!) { return path }
            }
            return nil
        }

        static func == (a: Records, b: Records) -> Bool {
            a.count == b.count && a.indices.allSatisfy { a[$0] == b[$0] }
        }
    }

    /// Whether the bytes at `r` are what ``ByteWriter/record(_:)`` writes for `record`, to `r`'s end.
    static func record(_ r: inout ByteReader, matches record: ItemRecord?) -> Bool {
        func same(_ text: String) -> Bool {
            guard let range = r.shortStringRange() else { return false }
            var text = text
            return text.withUTF8 { utf8 in
                utf8.count == range.count
                    && (range.isEmpty || memcmp(utf8.baseAddress!, r.bytes.baseAddress! + range.lowerBound, range.count) == 0)
            }
        }
        guard let present = r.byte() else { return false }
        guard let record else { return present == 0 && r.offset == r.end }
        guard present == 1, r.varint() == record.feed, r.varint() == record.section, r.varint() == record.item,
            r.u64() == record.fingerprint, r.u64() == record.whole, r.varint() == record.links.count
        else { return false }
        for link in record.links {
            guard same(link.target), same(link.page) else { return false }
        }
        guard let hasPlaces = r.byte() else { return false }
        guard let places = record.elsewhere else { return hasPlaces == 0 && r.offset == r.end }
        guard hasPlaces == 1, r.varint() == places.cards.count else { return false }
        for card in places.cards {
            guard r.varint() == card.feed, r.varint() == card.section, r.varint() == card.item, same(card.preset), let hasLang = r.byte()
            else { return false }
            if let lang = card.lang {
                guard hasLang == 1, same(lang) else { return false }
            } else {
                guard hasLang == 0 else { return false }
            }
            guard same(card.cellID), r.byte() == (card.sameLayout ? 1 : 0) else { return false }
        }
        guard r.varint() == places.entries.count else { return false }
        for entry in places.entries {
            guard r.varint() == entry.feed, r.varint() == entry.entry else { return false }
        }
        return r.offset == r.end
    }

    /// One item file's record (``ByteWriter/record(_:)``): `.some(nil)` for an item not shown,
    /// nil when the bytes are not one.
    static func record(_ r: inout ByteReader) -> ItemRecord?? {
        func string() -> String? {
            guard let range = r.shortStringRange() else { return nil }
            return String(decoding: UnsafeRawBufferPointer(rebasing: r.bytes[range]), as: UTF8.self)
        }
        guard let present = r.byte() else { return nil }
        if present == 0 { return .some(nil) }
        guard let feed = r.varIndex(), let section = r.varIndex(), let item = r.varIndex(), let fingerprint = r.u64(), let whole = r.u64(),
            let count = r.varCount()
        else { return nil }
        var links: [Link] = []
        links.reserveCapacity(count)
        for _ in 0..<count {
            guard let target = string(), let page = string() else { return nil }
            links.append(Link(target: target, page: page))
        }
        var record = ItemRecord(feed: feed, section: section, item: item, fingerprint: fingerprint, whole: whole, links: links)
        guard let hasPlaces = r.byte() else { return nil }
        if hasPlaces == 1 {
            guard let count = r.varCount() else { return nil }
            var places = Elsewhere(cards: [], entries: [])
            places.cards.reserveCapacity(count)
            for _ in 0..<count {
                guard let f = r.varIndex(), let s = r.varIndex(), let i = r.varIndex(), let preset = string(), let hasLang = r.byte() else { return nil }
                var lang: String?
                if hasLang != 0 {
                    guard let text = string() else { return nil }
                    lang = text
                }
                guard let cellID = string(), let same = r.byte() else { return nil }
                places.cards.append(CardPlace(feed: f, section: s, item: i, preset: preset, lang: lang, cellID: cellID, sameLayout: same == 1))
            }
            guard let entries = r.varCount() else { return nil }
            places.entries.reserveCapacity(entries)
            for _ in 0..<entries {
                guard let f = r.varIndex(), let e = r.varIndex() else { return nil }
                places.entries.append((f, e))
            }
            record.elsewhere = places
        }
        return .some(record)
    }

    /// Steps over one item file's record, checking it as ``record(_:)`` reads it, without
    /// making it; false when the bytes are not one. `anchors` gets where each link target that
    /// begins with `#` lies.
    static func stepOverRecord(_ r: inout ByteReader, anchors: inout [Range<Int>]) -> Bool {
        guard let present = r.byte() else { return false }
        if present == 0 { return true }
        guard r.varIndex() != nil, r.varIndex() != nil, r.varIndex() != nil, r.u64() != nil, r.u64() != nil, let count = r.varCount()
        else { return false }
        for _ in 0..<count {
            guard let target = r.shortStringRange(), r.shortStringRange() != nil else { return false }
            if let first = target.first, r.bytes[first] == UInt8(ascii: "#") { anchors.append(target) }
        }
        guard let hasPlaces = r.byte() else { return false }
        guard hasPlaces == 1 else { return true }
        guard let cards = r.varCount() else { return false }
        for _ in 0..<cards {
            guard r.varIndex() != nil, r.varIndex() != nil, r.varIndex() != nil, r.shortStringRange() != nil, let hasLang = r.byte()
            else { return false }
            if hasLang != 0, r.shortStringRange() == nil { return false }
            guard r.shortStringRange() != nil, r.byte() != nil else { return false }
        }
        guard let entries = r.varCount() else { return false }
        for _ in 0..<entries {
            guard r.varIndex() != nil, r.varIndex() != nil else { return false }
        }
        return true
    }
}

/// A record's numbers and texts' byte counts are mostly small: written in 7-bit groups, low
/// first, each group's high bit set when another follows (LEB128), after a zigzag fold of the
/// sign (0, -1, 1, -2… as 0, 1, 2, 3…), so that one below 64 takes one byte. A number that
/// must not be negative (an index, a count) reads as damage when it is.
extension ByteWriter {
    mutating func varint(_ v: Int) {
        var folded = UInt64(bitPattern: Int64(v) << 1 ^ Int64(v) >> 63)
        while folded >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: folded) | 0x80)
            folded >>= 7
        }
        bytes.append(UInt8(folded))
    }

    /// A string as its byte count (``varint(_:)``) and UTF-8.
    mutating func shortString(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            varint(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }
}

extension ByteReader {
    /// ``ByteWriter/varint(_:)``: nil past the end or past 64 bits.
    @inline(__always)
    mutating func varint() -> Int? {
        // Most are one byte: read here, inlined.
        guard offset < end else { return nil }
        let first = bytes[offset]
        guard first >= 0x80 else {
            offset += 1
            return Int(first >> 1) ^ -Int(first & 1)
        }
        return longVarint()
    }

    /// ``varint()`` of two bytes or more.
    mutating func longVarint() -> Int? {
        var folded: UInt64 = 0
        var shift: UInt64 = 0
        while offset < end {
            let byte = bytes[offset]
            offset += 1
            guard shift < 63 || byte <= 1 else { return nil }
            folded |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return Int(Int64(bitPattern: folded >> 1) ^ -Int64(bitPattern: folded & 1)) }
            shift += 7
        }
        return nil
    }

    /// A ``varint()`` that is an index or a byte offset: not negative.
    @inline(__always)
    mutating func varIndex() -> Int? {
        guard let n = varint(), n >= 0 else { return nil }
        return n
    }

    /// A ``varint()`` count of elements that take at least one byte each: at most the bytes left.
    @inline(__always)
    mutating func varCount() -> Int? {
        guard let n = varint(), n >= 0, n <= end - offset else { return nil }
        return n
    }

    /// The range of a ``ByteWriter/shortString(_:)``'s bytes, stepped over.
    @inline(__always)
    mutating func shortStringRange() -> Range<Int>? {
        guard let n = varCount() else { return nil }
        defer { offset += n }
        return offset..<(offset + n)
    }
}
