/// The byte codec of a ``CardFragment`` as the card cache keeps it (a `cards.log` record): the
/// estimate's pieces, then the card's HTML.
import FeedgenEmit
import FeedgenStorage

extension CardFragment {
    /// The fragment as bytes: the estimate's pieces (count, then each piece as a tag byte and
    /// little-endian numbers; count `UInt32.max` for none), then the HTML's UTF-8 bytes.
    func encoded() -> [UInt8] {
        var out = ByteWriter()
        out.bytes.reserveCapacity(html.utf8Count + 16 + (estimate?.pieces.count ?? 0) * 33)
        if let estimate {
            out.u32(UInt32(estimate.pieces.count))
            for piece in estimate.pieces {
                switch piece {
                case .space(let v):
                    out.byte(0)
                    out.double(v)
                case .text(let width, let lineHeight, let fontSize, let inset):
                    out.byte(1)
                    for v in [width, lineHeight, fontSize, inset] { out.double(v) }
                case .lines(let n, let lineHeight):
                    out.byte(2)
                    out.double(Double(n))
                    out.double(lineHeight)
                case .image(let ratio, let intrinsic, let inset, let maxHeight):
                    out.byte(3)
                    out.double(ratio)
                    out.optional(intrinsic) { $0.double($1) }
                    out.double(inset)
                    out.optional(maxHeight) { $0.double($1) }
                }
            }
        } else {
            out.u32(UInt32.max)
        }
        html.withUTF8 { out.raw($0) }
        return out.bytes
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
