import Foundation

/// Reads an image's intrinsic size from its header: PNG (IHDR), GIF (logical screen), JPEG
/// (first SOFn marker), WebP (VP8, VP8L, VP8X) and SVG (`width`/`height` or `viewBox`).
/// Sizes go into `<img width height>` so that pages do not shift while images load.
public enum ImageProbe {
    public static func size(of bytes: [UInt8]) -> (width: Int, height: Int)? {
        func be16(_ i: Int) -> Int { Int(bytes[i]) << 8 | Int(bytes[i + 1]) }
        func be32(_ i: Int) -> Int { be16(i) << 16 | be16(i + 2) }
        func le16(_ i: Int) -> Int { Int(bytes[i]) | Int(bytes[i + 1]) << 8 }
        func le24(_ i: Int) -> Int { le16(i) | Int(bytes[i + 2]) << 16 }
        let n = bytes.count
        if n >= 24, bytes[0...7].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return (be32(16), be32(20))
        }
        if n >= 10, bytes[0...2].elementsEqual(Array("GIF".utf8)) {
            return (le16(6), le16(8))
        }
        if n >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 {
            var i = 2
            while i + 9 < n {
                guard bytes[i] == 0xFF else { return nil }
                let marker = bytes[i + 1]
                if marker == 0xFF { i += 1; continue }
                if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }
                let length = be16(i + 2)
                if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                    return (be16(i + 7), be16(i + 5))
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
            if let w = attribute("width", in: tag).flatMap(number), let h = attribute("height", in: tag).flatMap(number) {
                return (Int(w.rounded()), Int(h.rounded()))
            }
            if let box = attribute("viewBox", in: tag) {
                let parts = box.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Double($0) }
                if parts.count == 4 { return (Int(parts[2].rounded()), Int(parts[3].rounded())) }
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

    static func number(_ s: String) -> Double? {
        Double(s.hasSuffix("px") ? String(s.dropLast(2)) : s)
    }
}
