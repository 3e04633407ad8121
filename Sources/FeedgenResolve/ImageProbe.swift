import Foundation

/// Reads an image's intrinsic size from its header: PNG (IHDR), GIF (logical screen), JPEG
/// (first SOFn marker, turned by its EXIF orientation), WebP (VP8, VP8L, VP8X) and SVG
/// (`width`/`height` or `viewBox`).
/// Sizes go into `<img width height>` so that pages do not shift while images load.
///
/// A JPEG whose EXIF orientation (tag 0x0112) is 5–8 is stored on its side: browsers draw it
/// upright (CSS Images 3, `image-orientation: from-image`, the default) and libvips turns its
/// variants upright, so its size is the stored one with width and height swapped.
///
/// Every number is range-checked before it becomes an `Int` (issue #22): an SVG length must be a
/// finite number of at most ``maxSVGLength`` px, a PNG side at most 2³¹ − 1 (PNG §11.2.2).
public enum ImageProbe {
    /// The longest SVG `width`, `height` or `viewBox` side accepted, CSS px (as layout lengths,
    /// `LayoutDecoder.maxLength`).
    public static let maxSVGLength = 100_000.0

    /// A header that states a size no image can have (`width='1e400'`, `'NaN'`); `message` says
    /// which value, for an error at the `image:` reference.
    public struct HeaderError: Error, Equatable {
        public var message: String
    }

    /// What a header says: the intrinsic size in image pixels (CSS px for SVG), and whether the
    /// image is a vector one (SVG: never decoded, so the pixel limit does not apply).
    public struct Header: Equatable, Sendable {
        public var width: Int
        public var height: Int
        public var isVector: Bool
    }

    /// The intrinsic size in image pixels; nil when the header is none of these, says the
    /// image is 0 px (or less) wide or high (nothing to draw or resize), or is malformed.
    public static func size(of bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard let header = try? header(of: bytes) else { return nil }
        return (header.width, header.height)
    }

    /// ``size(of:)`` with its kind; nil when the header is none of these or says 0 px (or less).
    ///
    /// - Throws: ``HeaderError`` when it states a size out of range (see the type's note).
    public static func header(of bytes: [UInt8]) throws(HeaderError) -> Header? {
        guard let size = try headerSize(of: bytes), size.width > 0, size.height > 0 else { return nil }
        return Header(width: size.width, height: size.height, isVector: !isRaster(bytes))
    }

    /// PNG, GIF, JPEG or WebP by its signature (as ``headerSize(of:)`` tells them apart).
    static func isRaster(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) || bytes.starts(with: Array("GIF".utf8)) || bytes.starts(with: [0xFF, 0xD8])
            || (bytes.count >= 12 && bytes.starts(with: Array("RIFF".utf8)) && bytes[8...11].elementsEqual(Array("WEBP".utf8)))
    }

    /// The size the header states, whatever it is.
    static func headerSize(of bytes: [UInt8]) throws(HeaderError) -> (width: Int, height: Int)? {
        func be16(_ i: Int) -> Int { Int(bytes[i]) << 8 | Int(bytes[i + 1]) }
        func be32(_ i: Int) -> Int { be16(i) << 16 | be16(i + 2) }
        func le16(_ i: Int) -> Int { Int(bytes[i]) | Int(bytes[i + 1]) << 8 }
        func le24(_ i: Int) -> Int { le16(i) | Int(bytes[i + 2]) << 16 }
        let n = bytes.count
        if n >= 24, bytes[0...7].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            let (width, height) = (be32(16), be32(20))
            guard width <= Int(Int32.max), height <= Int(Int32.max) else {
                throw HeaderError(message: "its PNG header says \(width) × \(height) px, over PNG's limit of 2147483647")
            }
            return (width, height)
        }
        if n >= 10, bytes[0...2].elementsEqual(Array("GIF".utf8)) {
            return (le16(6), le16(8))
        }
        if n >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 {
            var i = 2
            var sideways = false
            while i + 9 < n {
                guard bytes[i] == 0xFF else { return nil }
                let marker = bytes[i + 1]
                if marker == 0xFF { i += 1; continue }
                if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }
                let length = be16(i + 2)
                if marker == 0xE1, let orientation = exifOrientation(bytes, start: i + 4, end: min(n, i + 2 + length)) {
                    sideways = (5...8).contains(orientation)
                }
                if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                    let (width, height) = (be16(i + 7), be16(i + 5))
                    return sideways ? (height, width) : (width, height)
                }
                i += 2 + length
            }
            return nil
        }
        if n >= 30, bytes[0...3].elementsEqual(Array("RIFF".utf8)), bytes[8...11].elementsEqual(Array("WEBP".utf8)) {
            let chunk = String(decoding: bytes[12...15], as: UTF8.self)
            switch chunk {
            case "VP8 ": return (le16(26) & 0x3FFF, le16(28) & 0x3FFF)
            case "VP8L":
                let b = (Int(bytes[21]), Int(bytes[22]), Int(bytes[23]), Int(bytes[24]))
                let w = 1 + (b.0 | (b.1 & 0x3F) << 8)
                let h = 1 + ((b.1 >> 6) | b.2 << 2 | (b.3 & 0x0F) << 10)
                return (w, h)
            case "VP8X": return (1 + le24(24), 1 + le24(27))
            default: return nil
            }
        }
        let head = String(decoding: bytes.prefix(4096), as: UTF8.self)
        if let svgStart = head.range(of: "<svg") {
            let tagEnd = head[svgStart.upperBound...].firstIndex(of: ">") ?? head.endIndex
            let tag = String(head[svgStart.upperBound..<tagEnd])
            if let w = attribute("width", in: tag), let width = number(w),
                let h = attribute("height", in: tag), let height = number(h)
            {
                return (try svgLength(width, w, "width"), try svgLength(height, h, "height"))
            }
            if let box = attribute("viewBox", in: tag) {
                let texts = box.split(whereSeparator: { $0 == " " || $0 == "," })
                let parts = texts.compactMap { Double($0) }
                if parts.count == 4 {
                    return (try svgLength(parts[2], String(texts[2]), "viewBox width"), try svgLength(parts[3], String(texts[3]), "viewBox height"))
                }
            }
        }
        return nil
    }

    /// The orientation (1–8) in the EXIF APP1 segment body `bytes[start..<end]` (`Exif\0\0`, then
    /// a TIFF header and IFD0; EXIF 2.32 §4.6.4, tag 0x0112), or nil.
    static func exifOrientation(_ bytes: [UInt8], start: Int, end: Int) -> Int? {
        guard start >= 0, end <= bytes.count, end - start >= 14,
            bytes[start..<(start + 6)].elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0])
        else { return nil }
        let tiff = start + 6
        let little: Bool
        switch (bytes[tiff], bytes[tiff + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ i: Int) -> Int? {
            guard i >= tiff, i + 2 <= end else { return nil }
            return little ? Int(bytes[i]) | Int(bytes[i + 1]) << 8 : Int(bytes[i]) << 8 | Int(bytes[i + 1])
        }
        func u32(_ i: Int) -> Int? {
            guard let a = u16(i), let b = u16(i + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(tiff + 2) == 42, let ifd = u32(tiff + 4), let count = u16(tiff + ifd) else { return nil }
        for k in 0..<count {
            let entry = tiff + ifd + 2 + 12 * k
            guard let tag = u16(entry) else { return nil }
            // Type SHORT (3), one value, stored in the first two bytes of the value field.
            if tag == 0x0112 {
                guard u16(entry + 2) == 3, let value = u16(entry + 8), (1...8).contains(value) else { return nil }
                return value
            }
        }
        return nil
    }

    static func attribute(_ name: String, in tag: String) -> String? {
        for quote in ["\"", "'"] {
            if let r = tag.range(of: " \(name)=\(quote)") {
                let rest = tag[r.upperBound...]
                if let end = rest.firstIndex(of: Character(quote)) { return String(rest[..<end]) }
            }
        }
        return nil
    }

    /// An SVG length as whole px, when finite and at most ``maxSVGLength`` either way.
    static func svgLength(_ value: Double, _ text: String, _ name: String) throws(HeaderError) -> Int {
        guard value.isFinite, abs(value) <= maxSVGLength else {
            throw HeaderError(message: "its SVG \(name) '\(text)' is not a size: give a number of px up to \(Int(maxSVGLength))")
        }
        return Int(value.rounded())
    }

    static func number(_ s: String) -> Double? {
        Double(s.hasSuffix("px") ? String(s.dropLast(2)) : s)
    }
}
