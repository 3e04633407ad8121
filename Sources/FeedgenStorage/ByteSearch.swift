/// Substring search and replacement on a string's UTF-8 bytes (memmem), for the per-item and
/// per-page passes that look for a fixed ASCII or UTF-8 marker in a whole body or page.
import CFileSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension String {
    /// Whether the two texts are the same bytes (Swift's `==` also takes canonically
    /// equivalent texts for equal). Read in place: a copy to take the bytes would retain and
    /// release each text.
    @inline(__always)
    public func sameBytes(as other: String) -> Bool {
        let (a, b) = (utf8, other.utf8)
        guard a.count == b.count else { return false }
        let same = a.withContiguousStorageIfAvailable { p in
            b.withContiguousStorageIfAvailable { q in
                p.baseAddress == q.baseAddress || p.isEmpty || memcmp(p.baseAddress!, q.baseAddress!, p.count) == 0
            }
        }
        return same.flatMap { $0 } ?? a.elementsEqual(b)
    }

    /// Whether `needle` occurs in this string, compared byte for byte in UTF-8 (no Unicode
    /// equivalence, no locale: the markers searched for are fixed markup). Foundation's
    /// `contains(_:)` goes through NSString and UTF-16 on Linux, ~30× slower on a page of HTML.
    public func containsBytes(_ needle: String) -> Bool {
        firstByteOffset(of: needle) != nil
    }

    /// The UTF-8 offset of the first occurrence of `needle` at or after `from`, or nil.
    public func firstByteOffset(of needle: String, from: Int = 0) -> Int? {
        if needle.isEmpty { return from <= utf8.count ? from : nil }
        var haystack = self
        var needle = needle
        return haystack.withUTF8 { h in
            needle.withUTF8 { n in
                guard from < h.count, let base = h.baseAddress,
                      let hit = feedgen_find(base + from, h.count - from, n.baseAddress, n.count) else { return nil }
                return UnsafeRawPointer(base).distance(to: hit)
            }
        }
    }

    /// Whether some byte `lead` in this string's UTF-8 is followed by a byte of `next` (at most
    /// 8 ASCII bytes; `"%{:"` after `{` finds `{%`, `{{` or `{:`): one memchr pass, where a
    /// memmem per two-byte needle reads the whole text once per needle.
    public func containsByte(_ lead: UInt8, followedByOneOf next: StaticString) -> Bool {
        let follow = UnsafeBufferPointer(start: next.utf8Start, count: next.utf8CodeUnitCount)
        var text = self
        return text.withUTF8 { h in
            guard let base = h.baseAddress else { return false }
            var i = 0
            while i < h.count - 1, let hit = memchr(base + i, Int32(lead), h.count - i) {
                i = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit)) + 1
                if i < h.count, follow.contains(h[i]) { return true }
            }
            return false
        }
    }

    /// Whether this string's UTF-8 holds `count` bytes `byte` in a row (`!!!`): one memchr pass.
    public func containsRun(of byte: UInt8, count: Int) -> Bool {
        var text = self
        return text.withUTF8 { h in
            guard let base = h.baseAddress, count > 0 else { return count == 0 }
            var i = 0
            while i + count <= h.count, let hit = memchr(base + i, Int32(byte), h.count - i) {
                i = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
                var run = 1
                while run < count, i + run < h.count, h[i + run] == byte { run += 1 }
                if run == count { return true }
                i += run
            }
            return false
        }
    }

    /// The index of the first character that is a single ASCII byte matching `isMatch` (what
    /// `firstIndex { $0 == "?" || $0 == "#" }` finds), searched on bytes. A matching byte next to
    /// a non-ASCII one may be part of a larger character (`#` and a combining mark, a prepended
    /// character and `.`): then the characters decide.
    public func firstASCIIIndex(where isMatch: (UInt8) -> Bool) -> Index? {
        guard let hit = utf8.firstIndex(where: isMatch) else { return nil }
        if isLoneASCII(at: hit) { return hit }
        return firstIndex { $0.utf8.count == 1 && isMatch($0.utf8.first!) }
    }

    /// The index of the last character that is the single ASCII byte `byte` (what
    /// `lastIndex(of: ".")` finds), searched on bytes as ``firstASCIIIndex(where:)`` is.
    public func lastASCIIIndex(of byte: UInt8) -> Index? {
        guard let hit = utf8.lastIndex(of: byte) else { return nil }
        if isLoneASCII(at: hit) { return hit }
        return lastIndex { $0.utf8.count == 1 && $0.utf8.first == byte }
    }

    /// Whether the ASCII byte at `i` is surely a character of its own: both neighbours are ASCII
    /// (a character of several scalars holds a non-ASCII one beside it; `\r\n` is not searched).
    private func isLoneASCII(at i: Index) -> Bool {
        let after = utf8.index(after: i)
        return (after == utf8.endIndex || utf8[after] < 0x80) && (i == utf8.startIndex || utf8[utf8.index(before: i)] < 0x80)
    }

    /// This string with every occurrence of `target` replaced by `replacement`, searched byte for
    /// byte in UTF-8 from left to right without overlaps (what Foundation's
    /// `replacingOccurrences(of:with:)` gives for ASCII markup, without its UTF-16 round trip).
    public func replacingBytes(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty, var at = firstByteOffset(of: target) else { return self }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count + replacement.utf8.count)
        var copied = 0
        let bytes = Array(utf8), step = target.utf8.count
        while true {
            out.append(contentsOf: bytes[copied..<at])
            out.append(contentsOf: replacement.utf8)
            copied = at + step
            guard let next = firstByteOffset(of: target, from: copied) else { break }
            at = next
        }
        out.append(contentsOf: bytes[copied...])
        return String(decoding: out, as: UTF8.self)
    }
}
