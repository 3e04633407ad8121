import FeedgenBuild
import FeedgenResolve

/// The first bytes of an image file through the header probe (PNG, JPEG with EXIF, GIF, WebP,
/// SVG) and the variant formats' sniffing: a malformed header is nil or a ``ImageProbe/HeaderError``.

func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let header = try? ImageProbe.header(of: bytes) {
        precondition(header.width > 0 && header.height > 0)
        _ = header.width.multipliedReportingOverflow(by: header.height)
    }
    _ = ImageProbe.size(of: bytes)
    _ = ImageVariants.formats(of: bytes)
    return 0
}
