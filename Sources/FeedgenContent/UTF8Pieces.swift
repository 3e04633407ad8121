/// Strings made from UTF-8 bytes that are mostly ASCII (rendered HTML, processed bodies) at
/// less cost than one `String(decoding:as:)` of the whole.
extension String {
    /// The same string as `String(decoding: bytes, as: UTF8.self)`, ill-formed sequences
    /// repaired alike. The standard library validates a buffer that holds a non-ASCII byte one
    /// byte at a time, an ASCII one eight at a time: each long ASCII run (`minimumRun` bytes or
    /// more) is decoded alone, so is the text between two of them, and the pieces are
    /// appended. A cut is always next to an ASCII byte, which ends every UTF-8 sequence, valid
    /// or not: the pieces decode as the whole does.
    init(decodingMostlyASCII bytes: UnsafeBufferPointer<UInt8>, minimumRun: Int = 64) {
        guard let base = bytes.baseAddress else {
            self = ""
            return
        }
        let n = bytes.count
        func decoded(_ from: Int, _ to: Int) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self)
        }
        var text = ""
        var piece = 0  // where the text not appended yet starts
        var k = 0
        while k < n {
            // The ASCII run from k: eight bytes at a time while none has its high bit.
            var end = k
            while end + 8 <= n, UnsafeRawPointer(base + end).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 { end += 8 }
            while end < n, bytes[end] < 0x80 { end += 1 }
            if end - k >= minimumRun {
                if piece == 0, k == 0, end == n {
                    self = decoded(0, n)  // all ASCII
                    return
                }
                if text.isEmpty { text.reserveCapacity(n) }
                if k > piece { text += decoded(piece, k) }
                text += decoded(k, end)
                piece = end
            }
            k = end
            while k < n, bytes[k] >= 0x80 { k += 1 }
        }
        if piece == 0 {
            self = decoded(0, n)
            return
        }
        if n > piece { text += decoded(piece, n) }
        self = text
    }
}
