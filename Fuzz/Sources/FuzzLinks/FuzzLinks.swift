import FeedgenContent

/// A front-matter or body link through the link resolver: scheme rules, `.md` content links,
/// output-root paths (percent-decoding, `..`, query and fragment kept).

func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = ContentFuzzing.resolveLink(text)
    return 0
}
