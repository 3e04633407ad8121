// The image limits (issue #22, docs/limits.md): an item image's file size and pixel count,
// checked from `stat` and the header before anything decodes the image.
import Foundation

extension ImageProbe {
    /// Reads the header of the image file at `path` (its first 64 KiB) after checking its size.
    ///
    /// - Returns: the header (nil when it is none feedgen reads), or the message of an error at
    ///   the `image:` reference: a file over `maxFileSize` bytes, a raster image of more than
    ///   `maxPixels` pixels (`image too large (144 MP > 100 MP limit): …`), a header out of
    ///   range (``HeaderError``). `name` is the image as the front matter gives it.
    static func checkedHeader(path: String, name: String, maxPixels: Int, maxFileSize: Int) -> Result<Header?, HeaderError> {
        var info = stat()
        // Only a regular file is opened (opening a FIFO would wait for a writer).
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, let handle = FileHandle(forReadingAtPath: path) else {
            return .success(nil)
        }
        defer { try? handle.close() }
        let size = Int(info.st_size)
        if size > maxFileSize {
            return .failure(HeaderError(message:
                "image file too large (\(mebibytes(size)) MiB > \(mebibytes(maxFileSize)) MiB limit): '\(name)' is \(size) bytes; make it smaller, or raise 'images.maxFileMiB' in feedgen.yaml"))
        }
        let bytes = [UInt8]((try? handle.read(upToCount: 65536)) ?? Data())
        let header: Header?
        do {
            header = try self.header(of: bytes)
        } catch {
            return .failure(HeaderError(message: "'\(name)' states a size no image has: \(error.message)"))
        }
        // Both sides are at most 2³¹ − 1 (``headerSize(of:)``), so the product fits an Int.
        if let header, !header.isVector, header.width * header.height > maxPixels {
            return .failure(HeaderError(message:
                "image too large (\(megapixels(header.width * header.height, up: true)) MP > \(megapixels(maxPixels, up: false)) MP limit): '\(name)' is \(header.width) × \(header.height) px; scale it down, or raise 'images.maxMegapixels' in feedgen.yaml"))
        }
        return .success(header)
    }

    /// `144`, `100.01`: pixels in MP with at most two decimals, rounded up for a size over a
    /// limit (so that it never reads as equal to it) and down for the limit.
    static func megapixels(_ pixels: Int, up: Bool) -> String {
        let hundredths = up ? (pixels + 9_999) / 10_000 : pixels / 10_000
        var text = "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
        while text.hasSuffix("0") { text.removeLast() }
        return text.hasSuffix(".") ? String(text.dropLast()) : text
    }

    /// `50`, `72.4`: bytes in MiB with at most one decimal, rounded up.
    static func mebibytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + (1 << 20) - 1) >> 20
        return tenths % 10 == 0 ? String(tenths / 10) : "\(tenths / 10).\(tenths % 10)"
    }
}
