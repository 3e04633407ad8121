/// One file of the built site, relative to the output folder.
public struct OutputFile: Sendable, Hashable {
    public enum Contents: Sendable, Hashable {
        /// Generated text, written as UTF-8.
        case text(String)
        /// Generated text as UTF-8 bytes, written as they are (a feed page whose pieces were
        /// joined to resolve its content links or add the live-reload script).
        case utf8([UInt8])
        /// Generated text as UTF-8 bytes in pieces, some borrowed from the card cache: a feed
        /// page (``FeedGroups``, ``ByteChunks``), written with `writev`.
        case chunks(ByteChunks)
        /// A copy of a file of the site (absolute path).
        case copy(from: String)
    }

    /// The UTF-8 bytes of generated contents (nil for a copy).
    public var utf8Bytes: [UInt8]? {
        switch contents {
        case .text(let text): Array(text.utf8)
        case .utf8(let bytes): bytes
        case .chunks(let chunks): chunks.bytes
        case .copy: nil
        }
    }

    /// Relative to the output folder, `/`-separated (`recipes/index.html`).
    public var path: String
    public var contents: Contents

    public init(path: String, contents: Contents) {
        self.path = path
        self.contents = contents
    }
}
