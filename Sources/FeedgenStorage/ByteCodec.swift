/// `ByteWriter` and `ByteReader`: the one byte codec of every build-cache file.
///
/// Integers are fixed-width little-endian; `int` is an `Int64`; a string is its UTF-8 byte
/// count (`Int64`) and bytes; an optional is a flag byte (0 absent, 1 present) and the value.
/// Every read checks bounds and returns nil on damage, so a torn or foreign file reads as no
/// value rather than trapping.

/// Appends values to ``bytes``.
public struct ByteWriter {
    public var bytes: [UInt8] = []

    @inlinable public init() {}

    @inlinable public mutating func byte(_ v: UInt8) { bytes.append(v) }
    @inlinable public mutating func bool(_ v: Bool) { bytes.append(v ? 1 : 0) }
    @inlinable public mutating func fixed<T: FixedWidthInteger>(_ v: T) {
        // As typed bytes: a raw buffer is appended byte by byte (~100 instructions a number),
        // a typed one is copied in one piece.
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0.assumingMemoryBound(to: UInt8.self)) }
    }
    @inlinable public mutating func u32(_ v: UInt32) { fixed(v) }
    @inlinable public mutating func u64(_ v: UInt64) { fixed(v) }
    @inlinable public mutating func int(_ v: Int) { fixed(Int64(v)) }
    @inlinable public mutating func int(_ v: Int64) { fixed(v) }
    /// The IEEE 754 bit pattern.
    @inlinable public mutating func double(_ v: Double) { fixed(v.bitPattern) }
    @inlinable public mutating func raw(_ v: some Sequence<UInt8>) { bytes.append(contentsOf: v) }
    @inlinable public mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            guard utf8.count <= 56, let text = utf8.baseAddress else {
                int(utf8.count)
                bytes.append(contentsOf: utf8)
                return
            }
            // A short string's count and bytes go in as one piece: each append takes the
            // array's generic path once.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { piece in
                let start = UnsafeMutableRawPointer(piece.baseAddress!)
                start.storeBytes(of: Int64(utf8.count).littleEndian, as: Int64.self)
                (start + 8).copyMemory(from: text, byteCount: utf8.count)
                bytes.append(contentsOf: UnsafeBufferPointer(start: piece.baseAddress, count: 8 + utf8.count))
            }
        }
    }
    @inlinable public mutating func strings(_ list: [String]) {
        int(list.count)
        for s in list { string(s) }
    }
    @inlinable public mutating func optional<T>(_ v: T?, _ body: (inout ByteWriter, T) -> Void) {
        if let v {
            bytes.append(1)
            body(&self, v)
        } else {
            bytes.append(0)
        }
    }
}

/// Reads what ``ByteWriter`` wrote, from `offset` up to `end` of `bytes`.
public struct ByteReader {
    public let bytes: UnsafeRawBufferPointer
    public var offset: Int
    public let end: Int
    /// The mapped file that `bytes` are, when they are: a reader may then leave large values
    /// there (the item cache's bodies) rather than copy them.
    public var file: MappedFile?

    @inlinable public init(bytes: UnsafeRawBufferPointer, offset: Int = 0, end: Int? = nil, file: MappedFile? = nil) {
        self.bytes = bytes
        self.offset = offset
        self.end = min(end ?? bytes.count, bytes.count)
        self.file = file
    }

    /// Bytes not read yet.
    @inlinable public var remaining: Int { end - offset }

    @inlinable public mutating func byte() -> UInt8? {
        guard offset < end else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }
    @inlinable public mutating func bool() -> Bool? { byte().map { $0 == 1 } }
    @inlinable public mutating func fixed<T: FixedWidthInteger>(_: T.Type = T.self) -> T? {
        let size = MemoryLayout<T>.size
        guard end - offset >= size else { return nil }
        defer { offset += size }
        return T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
    }
    @inlinable public mutating func u32() -> UInt32? { fixed() }
    @inlinable public mutating func u64() -> UInt64? { fixed() }
    @inlinable public mutating func int64() -> Int64? { fixed() }
    @inlinable public mutating func int() -> Int? { int64().map { Int($0) } }
    @inlinable public mutating func double() -> Double? { u64().map { Double(bitPattern: $0) } }
    /// An index or a byte offset: not negative.
    @inlinable public mutating func index() -> Int? {
        guard let n = int(), n >= 0 else { return nil }
        return n
    }
    /// A count of elements that take at least one byte each: at most the bytes left.
    @inlinable public mutating func count() -> Int? {
        guard let n = int(), n >= 0, n <= end - offset else { return nil }
        return n
    }
    /// `n` bytes as they are.
    @inlinable public mutating func raw(_ n: Int) -> UnsafeRawBufferPointer? {
        guard n >= 0, n <= end - offset else { return nil }
        defer { offset += n }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + n)])
    }
    /// The range of a string's bytes, stepped over.
    @inlinable public mutating func stringRange() -> Range<Int>? {
        guard let n = count() else { return nil }
        defer { offset += n }
        return offset..<(offset + n)
    }
    @inlinable public mutating func string() -> String? {
        guard let range = stringRange() else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
    @inlinable public mutating func strings() -> [String]? {
        guard let n = count() else { return nil }
        var list: [String] = []
        list.reserveCapacity(n)
        for _ in 0..<n {
            guard let s = string() else { return nil }
            list.append(s)
        }
        return list
    }
    /// `.some(nil)` for an absent value, nil on damage.
    @inlinable public mutating func optional<T>(_ body: (inout ByteReader) -> T?) -> T?? {
        guard let flag = byte() else { return nil }
        if flag == 0 { return .some(nil) }
        guard let value = body(&self) else { return nil }
        return .some(value)
    }
}
