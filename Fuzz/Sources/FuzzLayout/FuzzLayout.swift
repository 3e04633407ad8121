import FeedgenResolve

/// A section's `layout` value (YAML: a preset name or the full form) through LayoutDecoder.

func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = ResolveFuzzing.decodeLayout(text)
    return 0
}
