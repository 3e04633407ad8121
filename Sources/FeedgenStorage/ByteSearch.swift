/// Substring search and replacement on a string's UTF-8 bytes (memmem), for the per-item and
/// per-page passes that look for a fixed ASCII or UTF-8 marker in a whole body or page.
import CFileSystem

extension String {
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
