/// The East Asian Width test of the CSS segment-break rule, for Markdown soft line breaks:
/// Japanese or Chinese text wrapped in the source must not get a space where it was wrapped.
enum EastAsianWidth {
    /// True when a segment break between `before` and `after` is removed: both are East Asian
    /// Width F, W or H and neither is Hangul (CSS Text 3 §4.1.2, "Segment Break Transformation
    /// Rules"; the ranges are the main F/W/H blocks of Unicode's EastAsianWidth.txt).
    static func removesBreak(before: Unicode.Scalar?, after: Unicode.Scalar?) -> Bool {
        guard let before, let after else { return false }
        return isWide(before) && isWide(after)
    }

    /// F, W or H and not Hangul.
    static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x2E80 { return false }  // fast path: Latin, Greek, Cyrillic…, and Hangul Jamo U+1100–U+11FF
        switch v {
        case 0x3130...0x318F, 0xA960...0xA97F, 0xAC00...0xD7FF, 0xFFA0...0xFFDC: return false  // Hangul
        case 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF: return true
        case 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F: return true
        case 0xFF00...0xFF60, 0xFF61...0xFF9F, 0xFFE0...0xFFE6, 0xFFE8...0xFFEE: return true  // full and half width
        case 0x16FE0...0x18CFF, 0x1AFF0...0x1B2FF: return true  // Tangut, Khitan, Kana supplements, Nushu
        case 0x1F300...0x1F64F, 0x1F900...0x1F9FF: return true  // emoji (W)
        case 0x20000...0x2FFFD, 0x30000...0x3FFFD: return true  // CJK extensions B and later
        default: return false
        }
    }
}
