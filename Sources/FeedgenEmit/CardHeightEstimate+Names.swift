/// The element names, theme classes and attributes `CardHeightEstimate`'s reader tells apart,
/// read straight from a tag's bytes (a card's tags are read thousands of times a build).

extension CardHeightEstimate {
    /// Every element name the reader treats specially (``CardHeightEstimate/style(_:classes:insetGrouped:)``,
    /// images, line breaks and void elements); all other elements change no height and are `other`.
    enum Element: UInt8, CaseIterable {
        case other
        case p, h1, h2, h3, h4, h5, h6, ul, ol, menu, dl, dd, blockquote, figure, pre, hr, table, tr, th, li, div
        case section, article, header, footer, main, nav, aside, dt, figcaption, details, summary, address, caption
        case tbody, thead, tfoot, form, fieldset, strong, b, code, kbd, samp, tt, script, style, template, noscript
        case img, br
        // Void elements: never on the reader's stack.
        case area, base, col, embed, input, link, meta, source, track, wbr

        var isVoid: Bool { rawValue >= Element.area.rawValue }

        /// The element named by `bytes` (ASCII case-insensitive).
        static func named(_ bytes: UnsafeBufferPointer<UInt8>) -> Element {
            // The longest known name has 10 bytes.
            guard bytes.count <= 10, let k = Key(bytes) else { return .other }
            return named(k)
        }

        /// The element whose lowercased name packs to `key` (``Key``). A switch over the packed
        /// names compiles to a few integer compares: no table, no string.
        static func named(_ key: Key) -> Element {
            guard key.b == 0 else {
                // The two names longer than 8 bytes.
                if key == Key("blockquote".utf8) { return .blockquote }
                if key == Key("figcaption".utf8) { return .figcaption }
                return .other
            }
            // Each name's bytes, first byte lowest (``Key``); a test reads every case back.
            return switch key.a {
            case 0x62: .b
            case 0x70: .p
            case 0x3168: .h1
            case 0x3268: .h2
            case 0x3368: .h3
            case 0x3468: .h4
            case 0x3568: .h5
            case 0x3668: .h6
            case 0x6464: .dd
            case 0x6874: .th
            case 0x696C: .li
            case 0x6C64: .dl
            case 0x6C6F: .ol
            case 0x6C75: .ul
            case 0x7262: .br
            case 0x7268: .hr
            case 0x7274: .tr
            case 0x7464: .dt
            case 0x7474: .tt
            case 0x64626B: .kbd
            case 0x657270: .pre
            case 0x676D69: .img
            case 0x6C6F63: .col
            case 0x726277: .wbr
            case 0x76616E: .nav
            case 0x766964: .div
            case 0x61657261: .area
            case 0x6174656D: .meta
            case 0x65646F63: .code
            case 0x65736162: .base
            case 0x6B6E696C: .link
            case 0x6D726F66: .form
            case 0x6E69616D: .main
            case 0x706D6173: .samp
            case 0x756E656D: .menu
            case 0x6461656874: .thead
            case 0x6465626D65: .embed
            case 0x6564697361: .aside
            case 0x656C626174: .table
            case 0x656C797473: .style
            case 0x6B63617274: .track
            case 0x746F6F6674: .tfoot
            case 0x7475706E69: .input
            case 0x79646F6274: .tbody
            case 0x656372756F73: .source
            case 0x657275676966: .figure
            case 0x676E6F727473: .strong
            case 0x726564616568: .header
            case 0x7265746F6F66: .footer
            case 0x747069726373: .script
            case 0x656C6369747261: .article
            case 0x6E6F6974636573: .section
            case 0x6E6F6974706163: .caption
            case 0x736C6961746564: .details
            case 0x73736572646461: .address
            case 0x7972616D6D7573: .summary
            case 0x6574616C706D6574: .template
            case 0x746573646C656966: .fieldset
            case 0x7470697263736F6E: .noscript
            default: .other
            }
        }

        /// Up to 16 ASCII bytes, lowercased, packed: byte `i` in bits `8i…8i+7` of `a` (`i < 8`)
        /// or of `b`.
        struct Key: Equatable {
            var a: UInt64 = 0
            var b: UInt64 = 0

            init(a: UInt64, b: UInt64) { (self.a, self.b) = (a, b) }

            init?(_ bytes: UnsafeBufferPointer<UInt8>) {
                guard bytes.count <= 16 else { return nil }
                for i in 0..<bytes.count { add(bytes[i], at: i) }
            }

            init?<C: Collection<UInt8>>(_ bytes: C) {
                guard bytes.count <= 16 else { return nil }
                for (i, c) in bytes.enumerated() { add(c, at: i) }
            }

            /// Adds byte `c`, lowercased, as the key's byte `i` (`i < 16`).
            @inline(__always) mutating func add(_ c: UInt8, at i: Int) {
                let lower = UInt64(c &- 0x41 < 26 ? c | 0x20 : c)
                if i < 8 { a |= lower << (8 * UInt64(i)) } else { b |= lower << (8 * UInt64(i - 8)) }
            }
        }
    }

    /// The theme classes (Templates/theme.css) that change heights, as read from a `class`
    /// attribute split at spaces.
    struct Classes: OptionSet {
        let rawValue: UInt16
        init(rawValue: UInt16) { self.rawValue = rawValue }
        static let cardBody = Classes(rawValue: 1 << 0)
        static let cardTitle = Classes(rawValue: 1 << 1)
        static let cardDescription = Classes(rawValue: 1 << 2)
        static let tableScroll = Classes(rawValue: 1 << 3)
        static let footnotes = Classes(rawValue: 1 << 4)
        static let cardDate = Classes(rawValue: 1 << 5)
        static let weatherNow = Classes(rawValue: 1 << 6)
        static let weatherCondition = Classes(rawValue: 1 << 7)
        static let cardImage = Classes(rawValue: 1 << 8)

        static let names: [(StaticString, Classes)] = [
            ("card-body", .cardBody), ("card-title", .cardTitle), ("card-description", .cardDescription),
            ("table-scroll", .tableScroll), ("footnotes", .footnotes), ("card-date", .cardDate),
            ("weather-now", .weatherNow), ("weather-condition", .weatherCondition), ("card-image", .cardImage),
        ]

        /// The known classes among `value`'s space-separated words.
        init(value v: UnsafeBufferPointer<UInt8>) {
            var set: UInt16 = 0
            var i = 0
            let n = v.count
            while i < n {
                while i < n, v[i] == 0x20 { i += 1 }
                let start = i
                while i < n, v[i] != 0x20 { i += 1 }
                guard i > start else { break }
                for (name, flag) in Self.names where name.utf8CodeUnitCount == i - start {
                    let w = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
                    if w.elementsEqual(UnsafeBufferPointer(rebasing: v[start..<i])) { set |= flag.rawValue }
                }
            }
            self.init(rawValue: set)
        }
    }
}

extension CardHeightEstimate.Reader {
    /// What the reader needs of a tag's attributes: the first `class` attribute's theme classes
    /// and an image's first `width` and `height`.
    struct Attributes {
        var classes = CardHeightEstimate.Classes()
        var width: Double? = nil
        var height: Double? = nil
    }

    /// The `class`, `width` and `height` attributes (the first of each; names ASCII
    /// case-insensitive; double or single quotes, or bare values) of a tag's UTF-8 bytes after
    /// its name. Read on bytes: a card's tags read character by character took a third of the
    /// estimate's time.
    static func attributes(bytes b: UnsafeBufferPointer<UInt8>) -> Attributes {
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D || c == 0x0C || c == 0x0B }
        var out = Attributes()
        var seenClass = false
        let n = b.count
        var i = 0
        while true {
            while i < n, isSpace(b[i]) || b[i] == UInt8(ascii: "/") { i += 1 }
            guard i < n else { break }
            let nameStart = i
            while i < n, !isSpace(b[i]), b[i] != UInt8(ascii: "="), b[i] != UInt8(ascii: "/") { i += 1 }
            guard i > nameStart else { break }
            let name = CardHeightEstimate.Element.Key(UnsafeBufferPointer(rebasing: b[nameStart..<i]))
            // With its length: a packed key alone reads `class\0` as `class`.
            let length = i - nameStart
            while i < n, isSpace(b[i]) { i += 1 }
            var value = UnsafeBufferPointer(rebasing: b[i..<i])
            if i < n, b[i] == UInt8(ascii: "=") {
                i += 1
                while i < n, isSpace(b[i]) { i += 1 }
                if i < n, b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") {
                    let q = b[i]
                    let start = i + 1
                    var end = start
                    while end < n, b[end] != q { end += 1 }
                    value = UnsafeBufferPointer(rebasing: b[start..<end])
                    i = min(n, end + 1)
                } else {
                    let start = i
                    while i < n, !isSpace(b[i]) { i += 1 }
                    value = UnsafeBufferPointer(rebasing: b[start..<i])
                }
            }
            if length == 5, name == Self.classKey {
                if !seenClass { out.classes = CardHeightEstimate.Classes(value: value) }
                seenClass = true
            } else if length == 5, name == Self.widthKey {
                if out.width == nil { out.width = Self.number(value) }
            } else if length == 6, name == Self.heightKey {
                if out.height == nil { out.height = Self.number(value) }
            }
        }
        return out
    }

    static let classKey = CardHeightEstimate.Element.Key("class".utf8)
    static let widthKey = CardHeightEstimate.Element.Key("width".utf8)
    static let heightKey = CardHeightEstimate.Element.Key("height".utf8)

    /// `Double(value)`, or `.nan` when it is not a number (so that a later attribute of the
    /// same name is still not read, as only the first counts).
    static func number(_ value: UnsafeBufferPointer<UInt8>) -> Double {
        Double(String(decoding: value, as: UTF8.self)) ?? .nan
    }
}
