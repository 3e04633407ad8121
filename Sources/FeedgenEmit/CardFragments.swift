import FeedgenContent

/// A card as its template rendered it, and its text estimate (``CardHeightEstimate``) when the
/// card's section defers cards: what the build cache keeps per card so that an unchanged card
/// skips Mustache and the estimator (docs/content-format.md §9, "card fragments").
public struct CardFragment: Sendable, Equatable {
    /// The card's HTML, exactly as `cards/<type>.mustache` rendered it (before the page's
    /// content links are resolved: that happens to the whole page).
    public var html: String
    /// The card's estimate; nil when its section never defers cards (``DeferredCards``).
    public var estimate: CardHeightEstimate?

    public init(html: String, estimate: CardHeightEstimate?) {
        self.html = html
        self.estimate = estimate
    }

    /// The fragment as bytes: the estimate's pieces (count, then each piece as a tag byte and
    /// little-endian numbers; count `UInt32.max` for none), then the HTML's UTF-8 bytes.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(html.utf8.count + 16 + (estimate?.pieces.count ?? 0) * 33)
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        func f64(_ v: Double) { withUnsafeBytes(of: v.bitPattern.littleEndian) { out.append(contentsOf: $0) } }
        func optional(_ v: Double?) {
            if let v {
                out.append(1)
                f64(v)
            } else {
                out.append(0)
            }
        }
        if let estimate {
            u32(UInt32(estimate.pieces.count))
            for piece in estimate.pieces {
                switch piece {
                case .space(let v):
                    out.append(0)
                    f64(v)
                case .text(let width, let lineHeight, let fontSize, let inset):
                    out.append(1)
                    f64(width); f64(lineHeight); f64(fontSize); f64(inset)
                case .lines(let n, let lineHeight):
                    out.append(2)
                    f64(Double(n)); f64(lineHeight)
                case .image(let ratio, let intrinsic, let inset, let maxHeight):
                    out.append(3)
                    f64(ratio); optional(intrinsic); f64(inset); optional(maxHeight)
                }
            }
        } else {
            u32(UInt32.max)
        }
        out.append(contentsOf: html.utf8)
        return out
    }

    /// Reads what ``encoded()`` wrote; nil when the bytes are damaged.
    public init?(decoding bytes: UnsafeRawBufferPointer) {
        var p = 0
        let end = bytes.count
        func u32() -> UInt32? {
            guard end - p >= 4 else { return nil }
            defer { p += 4 }
            return UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: p, as: UInt32.self))
        }
        func f64() -> Double? {
            guard end - p >= 8 else { return nil }
            defer { p += 8 }
            return Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: p, as: UInt64.self)))
        }
        func byte() -> UInt8? {
            guard p < end else { return nil }
            defer { p += 1 }
            return bytes[p]
        }
        func optional() -> Double?? {
            guard let flag = byte() else { return nil }
            if flag == 0 { return .some(nil) }
            guard flag == 1, let v = f64() else { return nil }
            return .some(v)
        }
        guard let count = u32() else { return nil }
        if count == UInt32.max {
            estimate = nil
        } else {
            guard Int(count) <= end - p else { return nil }
            var pieces: [CardHeightEstimate.Piece] = []
            pieces.reserveCapacity(Int(count))
            for _ in 0..<count {
                switch byte() {
                case 0:
                    guard let v = f64() else { return nil }
                    pieces.append(.space(v))
                case 1:
                    guard let w = f64(), let l = f64(), let f = f64(), let i = f64() else { return nil }
                    pieces.append(.text(width: w, lineHeight: l, fontSize: f, inset: i))
                case 2:
                    guard let n = f64(), let l = f64(), n >= 0, n < 1e12 else { return nil }
                    pieces.append(.lines(Int(n), lineHeight: l))
                case 3:
                    guard let r = f64(), let w = optional(), let i = f64(), let m = optional() else { return nil }
                    pieces.append(.image(ratio: r, intrinsicWidth: w, inset: i, maxHeight: m))
                default: return nil
                }
            }
            estimate = CardHeightEstimate(pieces: pieces)
        }
        html = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[p...]), as: UTF8.self)
    }
}

/// Card fragments kept across builds, by key (``SiteRenderer/cardKey(item:feed:page:image:eager:priority:type:estimated:)``).
/// The build cache's `cards.log` implements it; lookups and stores come from several threads.
public protocol CardFragmentStore: AnyObject, Sendable {
    /// The fragment stored under `key` by this or an earlier build, if any.
    func fragment(_ key: UInt64) -> CardFragment?
    /// Keeps `fragment` under `key` (for the next build).
    func store(_ key: UInt64, _ fragment: CardFragment)
}

extension CardHeightEstimate {
    init(pieces: [Piece]) { self.pieces = pieces }
}
