import FeedgenContent
import FeedgenStorage

/// A card's HTML, as the page assembly copies it: text rendered by this build, or UTF-8 bytes
/// that the card cache keeps (`cards.log`, mapped), which are neither copied nor decoded until
/// they are written into the page (``FeedGroups``). A 10,000-card feed page is 24 MB of cards:
/// decoding each cached card into a `String` (validation, an allocation, fresh pages) and
/// copying it again into the page was most of an incremental build's feed page.
public struct CardHTML: @unchecked Sendable, Equatable {
    private enum Storage {
        case text(String)
        /// Borrowed bytes; `owner` keeps them alive and unchanged.
        case bytes(UnsafeRawBufferPointer, owner: any AnyObject & Sendable)
    }

    private let storage: Storage

    /// HTML rendered by this build.
    public init(_ text: String) { storage = .text(text) }

    /// HTML that stays in `bytes`, which must stay alive and unchanged while `owner` lives (a
    /// ``MappedFile`` of the card cache, which it holds). The bytes should be UTF-8: they are
    /// written to the page as they are; ``text`` repairs invalid sequences (U+FFFD) as
    /// `String(decoding:as:)` does. (The card cache wrote them from a `String`, and checks each
    /// record's checksum before use, so they are not validated again.)
    public init(unsafeUTF8 bytes: UnsafeRawBufferPointer, owner: any AnyObject & Sendable) {
        storage = .bytes(bytes, owner: owner)
    }

    /// The HTML's UTF-8 bytes, for the duration of `body` (no copy).
    public func withUTF8<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        switch storage {
        case .text(var text): return try text.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
        case .bytes(let bytes, let owner): return try withExtendedLifetime(owner) { try body(bytes) }
        }
    }

    /// The bytes and their owner when they are borrowed (the card cache's), else nil.
    var borrowedBytes: (UnsafeRawBufferPointer, any AnyObject & Sendable)? {
        if case .bytes(let bytes, let owner) = storage { (bytes, owner) } else { nil }
    }

    /// The number of UTF-8 bytes.
    public var utf8Count: Int {
        switch storage {
        case .text(let text): text.utf8.count
        case .bytes(let bytes, _): bytes.count
        }
    }

    /// The HTML as a `String` (decoded from the bytes, a copy, when they are the cache's).
    public var text: String {
        switch storage {
        case .text(let text): text
        case .bytes: withUTF8 { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// Whether the HTML's last character is a lone line feed (`hasSuffix("\n")`: a final CRLF
    /// is one character, not a line feed), read from its last two UTF-8 bytes.
    public var endsWithLineFeed: Bool {
        withUTF8 { bytes in
            guard bytes.last == UInt8(ascii: "\n") else { return false }
            return bytes.count < 2 || bytes[bytes.count - 2] != UInt8(ascii: "\r")
        }
    }

    /// Equal bytes (wherever they are kept).
    public static func == (a: CardHTML, b: CardHTML) -> Bool {
        a.withUTF8 { x in b.withUTF8 { y in x.elementsEqual(y) } }
    }
}

/// A card as its template rendered it, and its text estimate (``CardHeightEstimate``) when the
/// card's section defers cards: what the build cache keeps per card so that an unchanged card
/// skips Mustache and the estimator (docs/content-format.md §9, "card fragments").
public struct CardFragment: Sendable, Equatable {
    /// The card's HTML, exactly as `cards/<type>.mustache` rendered it (before the page's
    /// content links are resolved: that happens to the whole page); bytes of the card cache
    /// when the fragment was read from it with an owner (``init(decoding:owner:)``).
    public var html: CardHTML
    /// The card's estimate; nil when its section never defers cards (``DeferredCards``).
    public var estimate: CardHeightEstimate?

    public init(html: CardHTML, estimate: CardHeightEstimate?) {
        self.html = html
        self.estimate = estimate
    }

    public init(html: String, estimate: CardHeightEstimate?) {
        self.init(html: CardHTML(html), estimate: estimate)
    }

    /// The fragment as bytes: the estimate's pieces (count, then each piece as a tag byte and
    /// little-endian numbers; count `UInt32.max` for none), then the HTML's UTF-8 bytes.
    public func encoded() -> [UInt8] {
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
    public init?(decoding bytes: UnsafeRawBufferPointer, owner: (any AnyObject & Sendable)? = nil) {
        var r = ByteReader(bytes: bytes)
        func optional() -> Double?? {
            guard let flag = r.byte(), flag <= 1 else { return nil }
            if flag == 0 { return .some(nil) }
            return r.double().map { .some($0) }
        }
        guard let count = r.u32() else { return nil }
        if count == UInt32.max {
            estimate = nil
        } else {
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
        if let owner {
            html = CardHTML(unsafeUTF8: text, owner: owner)
        } else {
            html = CardHTML(String(decoding: text, as: UTF8.self))
        }
    }
}

extension CardHeightEstimate {
    init(pieces: [Piece]) { self.pieces = pieces }
}
