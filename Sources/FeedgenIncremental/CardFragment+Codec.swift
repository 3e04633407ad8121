/// The byte codec of a ``CardFragment`` as the card cache keeps it (a `cards.log` record): the
/// estimate's pieces, then the card's HTML.
import FeedgenEmit
import FeedgenStorage

extension CardFragment {
    /// The fragment as bytes: the estimate's pieces (count, then each piece as a tag byte and
    /// little-endian numbers; count `UInt32.max` for none), then the HTML's UTF-8 bytes.
    /// Written straight into the array's storage: through ``ByteWriter``, each number was an
    /// `append(contentsOf:)` of its own (a card's pieces took longer to write than its HTML).
    func encoded() -> [UInt8] {
        let pieces = estimate?.pieces ?? []
        return html.withUTF8 { text in
            // At most 35 bytes a piece (an image: tag, two numbers, two optional numbers).
            [UInt8](unsafeUninitializedCapacity: 4 + pieces.count * 35 + text.count) { buffer, count in
                let out = UnsafeMutableRawPointer(buffer.baseAddress!)
                var at = 0
                func byte(_ v: UInt8) {
                    out.storeBytes(of: v, toByteOffset: at, as: UInt8.self)
                    at += 1
                }
                func double(_ v: Double) {
                    out.storeBytes(of: v.bitPattern.littleEndian, toByteOffset: at, as: UInt64.self)
                    at += 8
                }
                func optional(_ v: Double?) {
                    if let v {
                        byte(1)
                        double(v)
                    } else {
                        byte(0)
                    }
                }
                let n = estimate == nil ? UInt32.max : UInt32(pieces.count)
                out.storeBytes(of: n.littleEndian, toByteOffset: 0, as: UInt32.self)
                at = 4
                for piece in pieces {
                    switch piece {
                    case .space(let v):
                        byte(0)
                        double(v)
                    case .text(let width, let lineHeight, let fontSize, let inset):
                        byte(1)
                        double(width)
                        double(lineHeight)
                        double(fontSize)
                        double(inset)
                    case .lines(let n, let lineHeight):
                        byte(2)
                        double(Double(n))
                        double(lineHeight)
                    case .image(let ratio, let intrinsic, let inset, let maxHeight):
                        byte(3)
                        double(ratio)
                        optional(intrinsic)
                        double(inset)
                        optional(maxHeight)
                    }
                }
                if let base = text.baseAddress { (out + at).copyMemory(from: base, byteCount: text.count) }
                count = at + text.count
            }
        }
    }

    /// Reads what ``encoded()`` wrote; nil when the bytes are damaged. With an `owner` (which
    /// keeps `bytes` alive and unchanged: the card cache's ``MappedFile``), the HTML stays in
    /// `bytes` (``CardHTML/init(unsafeUTF8:owner:)``, not validated as UTF-8); without one it is
    /// decoded into a `String`.
    init?(decoding bytes: UnsafeRawBufferPointer, owner: (any AnyObject & Sendable)? = nil) {
        var r = ByteReader(bytes: bytes)
        func optional() -> Double?? {
            guard let flag = r.byte(), flag <= 1 else { return nil }
            if flag == 0 { return .some(nil) }
            return r.double().map { .some($0) }
        }
        guard let count = r.u32() else { return nil }
        var estimate: CardHeightEstimate?
        if count != UInt32.max {
            guard Int(count) <= r.remaining else { return nil }
            var pieces: [CardHeightEstimate.Piece] = []
            pieces.reserveCapacity(Int(count))
            for _ in 0..<count {
                switch r.byte() {
                case 0:
                    guard let v = r.double() else { return nil }
                    pieces.append(.space(v))
                case 1:
                    guard let w = r.double(), let l = r.double(), let f = r.double(), let i = r.double() else { return nil }
                    pieces.append(.text(width: w, lineHeight: l, fontSize: f, inset: i))
                case 2:
                    guard let n = r.double(), let l = r.double(), n >= 0, n < 1e12 else { return nil }
                    pieces.append(.lines(Int(n), lineHeight: l))
                case 3:
                    guard let ratio = r.double(), let w = optional(), let i = r.double(), let m = optional() else { return nil }
                    pieces.append(.image(ratio: ratio, intrinsicWidth: w, inset: i, maxHeight: m))
                default: return nil
                }
            }
            estimate = CardHeightEstimate(pieces: pieces)
        }
        let text = UnsafeRawBufferPointer(rebasing: bytes[r.offset...])
        let html = owner.map { CardHTML(unsafeUTF8: text, owner: $0) } ?? CardHTML(String(decoding: text, as: UTF8.self))
        self.init(html: html, estimate: estimate)
    }
}
