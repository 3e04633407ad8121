/// The autolink extension of cmark-gfm without its email search, for the texts that need none.
import CCmarkSpecialChars

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Markdown {
    /// cmark-gfm's autolink extension without its search for email addresses (a walk
    /// over the whole tree, ``feedgen_cmark_autolink_without_email``), for texts that cannot
    /// hold one (``mayHoldEmail(_:)``): it finds the same `www.` and `scheme:` links.
    nonisolated(unsafe) static let autolinkWithoutEmail: OpaquePointer = {
        guard let e = feedgen_cmark_autolink_without_email() else { fatalError("cmark-gfm's autolink extension: out of memory") }
        return OpaquePointer(e)
    }()

    /// Whether a text node of `bytes`, parsed, may hold an `@` (what the autolink extension's
    /// email search looks for): the text has one, or an entity that may write one (`&#64;`,
    /// `&#x40;`, `&commat;`, the only named one).
    static func mayHoldEmail(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let n = bytes.count
        if memchr(base, Int32(UInt8(ascii: "@")), n) != nil { return true }
        var i = 0
        while i < n, let hit = memchr(base + i, Int32(UInt8(ascii: "&")), n - i) {
            let at = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
            if at + 1 < n, bytes[at + 1] == UInt8(ascii: "#") { return true }
            if at + 1 + commat.utf8CodeUnitCount <= n, (0..<commat.utf8CodeUnitCount).allSatisfy({ bytes[at + 1 + $0] == commat.utf8Start[$0] }) { return true }
            i = at + 1
        }
        return false
    }

    private static let commat: StaticString = "commat;"
}
