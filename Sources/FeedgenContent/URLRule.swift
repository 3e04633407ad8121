/// The URLs front matter may hold (`link`, `image`), checked against an allow-list of schemes
/// so that no page can carry a `javascript:` or `data:` URL however a template writes it
/// (escaped `{{url}}` or not).
///
/// A value is read the way a browser reads an attribute value, and each reading must pass:
///
/// 1. as written, and with its HTML character references decoded (HTML Living Standard,
///    "Character references": `&#106;`, `&#x6A`, `&colon;`, `&Tab;` …), since an unescaped
///    `{{{link}}}` would let the browser decode them;
/// 2. without leading and trailing C0 controls and spaces, and without any ASCII tab or
///    newline anywhere (WHATWG URL Standard, "basic URL parser"), so `java\tscript:` and
///    ` javascript:` are `javascript:`;
/// 3. the scheme is the ASCII letter and letters, digits, `+`, `-`, `.` before the first `:`,
///    compared without case (WHATWG "scheme state"); no scheme means a relative URL, which is
///    allowed unless it starts with two slashes (`//host`, also `\\host`): such a
///    protocol-relative URL points at `file://host` when a page is opened from disk
///    (content-format §8).
enum URLRule {
    /// The schemes `link` may use.
    static let linkSchemes = ["http", "https", "mailto", "tel"]
    /// The schemes `image` may use (an image cannot be an e-mail address).
    static let imageSchemes = ["http", "https"]

    /// Nil when `value` may stand in front matter key `key`; else the problem, as a message.
    static func problem(_ value: String, key: String, allowed: [String]) -> String? {
        let readings = [value, decodingCharacterReferences(value)]
        for reading in readings {
            let url = normalized(reading)
            if url.count >= 2, url.prefix(2).allSatisfy({ $0 == "/" || $0 == "\\" }) {
                return "'\(key)' starts with '\(url.prefix(2))', a protocol-relative URL that points at file:// when "
                    + "a page is opened from disk; write the scheme, as in https://"
            }
            if let scheme = scheme(of: url), !allowed.contains(scheme) {
                let list = allowed.map { $0 + ":" }.joined(separator: ", ")
                return "'\(key)' uses the URL scheme '\(scheme):', which is not allowed; use \(list) or a relative path"
            }
        }
        return nil
    }

    /// The lowercased scheme of `url` (already normalized), or nil for a relative URL.
    static func scheme(of url: String) -> String? {
        var scheme = ""
        for (i, c) in url.unicodeScalars.enumerated() {
            let isLetter = ("a"..."z").contains(c) || ("A"..."Z").contains(c)
            if i == 0 {
                guard isLetter else { return nil }
            } else if c == ":" {
                return scheme.lowercased()
            } else if !(isLetter || ("0"..."9").contains(c) || c == "+" || c == "-" || c == ".") {
                return nil
            }
            scheme.unicodeScalars.append(c)
        }
        return nil
    }

    /// Without leading and trailing C0 controls and spaces, and without ASCII tabs and newlines.
    static func normalized(_ value: String) -> String {
        let scalars = Array(value.unicodeScalars)
        var lo = 0, hi = scalars.count
        while lo < hi && scalars[lo].value <= 0x20 { lo += 1 }
        while hi > lo && scalars[hi - 1].value <= 0x20 { hi -= 1 }
        var out = String.UnicodeScalarView()
        for c in scalars[lo..<hi] where c != "\t" && c != "\n" && c != "\r" { out.append(c) }
        return String(out)
    }

    /// Named references that decode to characters that matter in a scheme or at the start of a
    /// URL; no named reference decodes to an ASCII letter or digit.
    private static let named: [String: Unicode.Scalar] = [
        "Tab": "\t", "NewLine": "\n", "colon": ":", "sol": "/", "bsol": "\\", "period": ".", "plus": "+",
        "amp": "&", "AMP": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}",
    ]

    /// `value` with numeric character references (`&#106;`, `&#x6a;`, with or without the `;`,
    /// as browsers accept) and the references of ``named`` (with their `;`) decoded.
    static func decodingCharacterReferences(_ value: String) -> String {
        guard value.contains("&") else { return value }
        let s = Array(value.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < s.count {
            guard s[i] == "&", i + 1 < s.count else {
                out.append(s[i])
                i += 1
                continue
            }
            if s[i + 1] == "#" {
                var k = i + 2
                let hex = k < s.count && (s[k] == "x" || s[k] == "X")
                if hex { k += 1 }
                let digitsStart = k
                var code: UInt32 = 0
                while k < s.count, let d = hex ? s[k].hexDigitValue : s[k].decimalDigitValue {
                    code = min(code &* (hex ? 16 : 10) &+ UInt32(d), 0x110000)
                    k += 1
                }
                if k > digitsStart {
                    if k < s.count && s[k] == ";" { k += 1 }
                    // Invalid code points become U+FFFD, as in browsers.
                    out.append(Unicode.Scalar(code).flatMap { $0.value == 0 ? nil : $0 } ?? "\u{FFFD}")
                    i = k
                    continue
                }
            } else {
                var k = i + 1
                var name = ""
                while k < s.count, s[k].properties.isAlphabetic, s[k].isASCII, name.count < 16 {
                    name.unicodeScalars.append(s[k])
                    k += 1
                }
                if k < s.count, s[k] == ";", let scalar = named[name] {
                    out.append(scalar)
                    i = k + 1
                    continue
                }
            }
            out.append(s[i])
            i += 1
        }
        return String(out)
    }
}

extension Unicode.Scalar {
    fileprivate var decimalDigitValue: Int? {
        ("0"..."9").contains(self) ? Int(value - 48) : nil
    }

    fileprivate var hexDigitValue: Int? {
        switch self {
        case "0"..."9": Int(value - 48)
        case "a"..."f": Int(value - 87)
        case "A"..."F": Int(value - 55)
        default: nil
        }
    }
}
