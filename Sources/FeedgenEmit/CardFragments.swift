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
    /// when the fragment was read from it (``CardHTML/init(unsafeUTF8:owner:)``).
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
}

extension CardHeightEstimate {
    /// An estimate of these pieces (the card cache's codec, FeedgenIncremental's, reads them back).
    package init(pieces: [Piece]) { self.pieces = pieces }
}
