/// Strings made from cmark-gfm's output bytes without a second UTF-8 validation, or from other
/// bytes with a faster one, the ASCII test that gives such a string its ASCII flag, and a
/// string's bytes read in place.
import CFileSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension String {
    /// A copy of `bytes`, which must be valid UTF-8: cmark's rendering or a node's text of a
    /// document parsed from a String (cmark copies the input's bytes, writes entities and smart
    /// punctuation as whole UTF-8 sequences and escapes only ASCII). Swift validates the bytes
    /// of `String(decoding:as:)` once more, one byte at a time for any non-ASCII page; this
    /// checks only whether they are ASCII (which Swift's string operations read as a flag), and
    /// validates in debug builds, where the tests and fuzzers run.
    init(validUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        guard !bytes.isEmpty else {
            self = ""
            return
        }
        assert(String(validating: bytes, as: UTF8.self) != nil, "cmark gave invalid UTF-8")
        self = String(copying: UTF8Span(unchecked: bytes.span, isKnownASCII: ByteScan.isASCII(bytes)))
    }
}

extension String {
    /// A copy of `bytes` when they are valid UTF-8, else nil: `String(validating:as:)`, with the
    /// check made by `feedgen_utf8_check` (ASCII runs sixteen bytes at a time; the standard
    /// library's reads one byte at a time). Debug builds check that both agree.
    init?(checkedUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            self = ""
            return
        }
        let check = feedgen_utf8_check(base, bytes.count)
        assert((check != 0) == (String(validating: bytes, as: UTF8.self) != nil), "feedgen_utf8_check disagrees with Swift")
        guard check != 0 else { return nil }
        self = String(copying: UTF8Span(unchecked: bytes.span, isKnownASCII: check == 2))
    }

    /// ``init(validUTF8:)`` of a node's NUL-terminated text or destination.
    init(validUTF8CString text: UnsafePointer<CChar>) {
        self.init(validUTF8: UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: strlen(text)))
    }

    /// `body` of this string's UTF-8 bytes: read in place for a native string (every link
    /// destination cmark gives), copied for a bridged one. The loops of the link checks run on
    /// these bytes, not on the UTF-8 view's indices.
    func withUTF8Bytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let r = utf8.withContiguousStorageIfAvailable(body) { return r }
        return Array(utf8).withUnsafeBufferPointer(body)
    }
}

enum ByteScan {
    /// Whether every byte of `bytes` is below 0x80: 64 bytes at a time (eight words OR-ed
    /// together), stopping at the first block that holds a byte above.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        let n = bytes.count
        var j = 0
        while j + 64 <= n {
            var any: UInt64 = 0
            for k in stride(from: 0, to: 64, by: 8) { any |= raw.loadUnaligned(fromByteOffset: j + k, as: UInt64.self) }
            if any & 0x8080_8080_8080_8080 != 0 { return false }
            j += 64
        }
        var any: UInt8 = 0
        while j < n {
            any |= base[j]
            j += 1
        }
        return any < 0x80
    }
}
