import FeedgenContent

/// Front matter splitting, YAML parsing (libyaml) and typed decoding of one item file.

func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = ContentFuzzing.loadItem(bytes)
    return 0
}
