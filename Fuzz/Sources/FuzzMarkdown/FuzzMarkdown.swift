import FeedgenContent

/// Markdown through feedgen's cmark-gfm wrapper: HTML, heading ids, first paragraph, `.md` link rewriting.

func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = ContentFuzzing.renderMarkdown(text)
    return 0
}
