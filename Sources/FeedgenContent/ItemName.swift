/// What an item file's name gives the item when its front matter is silent: its default id and
/// title (URL-safe, from the name), Jekyll's file-name date (`2024-03-05-title.md`) and Hugo's
/// language code (`title.es.md`).
import FeedgenStorage

package struct ItemName: Equatable {
    /// The Markdown extensions read as items, in any case (Jekyll lower-cases the extension
    /// before comparing): the union of Jekyll's default `markdown_ext` (`markdown,mkdown,mkdn,mkd,md`)
    /// and Hugo's Markdown suffixes (`md`, `mdown`, `markdown`), `.markdn`, and Docusaurus' `.mdx`
    /// (its `import`/`export` lines left out: ``MDXModuleLines``).
    static let extensions = [".md", ".markdown", ".mdown", ".mkdown", ".mkdn", ".mkd", ".markdn", ".mdx"]

    /// `<section>/<path below the section>`, each segment made URL-safe (``urlSafe(_:)``), the
    /// dated file's date prefix and a language code left out.
    var id: String
    /// The last segment of the path without its extension, language code and date prefix, as
    /// written.
    var title: String
    /// The date of a `YYYY-MM-DD-slug` (or `YYYY-M-D-slug`) file name, a calendar date.
    var date: ContentDate?
    /// The `YYYY-MM-DD` a name starts with in Jekyll's post form when it is no calendar date
    /// (`2024-02-30-bad-day`): the name is then read as a plain name, and a warning says so.
    var invalidDate: String?
    /// The language code of a `name.<lang>.md` file name (``ItemLanguage/split(_:)``), as written.
    var lang: String?

    /// - Parameters:
    ///   - sectionID: the section folder's name.
    ///   - fileName: the path below the section folder (`a.md`, `sub/2024-03-05-b.markdown`).
    ///   - keepsDate: the id keeps the file name's date prefix (``keepingDates(sectionID:fileNames:)``).
    init(sectionID: String, fileName: String, keepsDate: Bool = false) {
        var stem = Substring(fileName)
        stem = stem.dropLast(Self.extensionLength(fileName))
        // Most names are a file right in the section folder: one segment, nothing to split.
        let nested = stem.utf8.contains(UInt8(ascii: "/"))
        var segments = nested ? stem.split(separator: "/", omittingEmptySubsequences: false).map(String.init) : []
        var last = nested ? segments.popLast() ?? "" : String(stem)
        if let (base, code) = ItemLanguage.split(last) {
            lang = code
            last = base
        }
        title = last
        if let (date, slug) = Self.datePrefix(last) {
            self.date = date
            title = slug
            if !keepsDate { last = slug }
        } else {
            invalidDate = Self.nonDatePrefix(last)
        }
        // A feed's pages (``Section/pagesID``) have ids without a section part: `about.md` → `about`.
        if segments.isEmpty {
            let name = Self.pathSegment(last)
            id = sectionID.isEmpty ? name : Self.pathSegment(sectionID) + "/" + name
        } else {
            segments.append(last)
            id = (sectionID.isEmpty ? segments : [sectionID] + segments).map(Self.pathSegment).joined(separator: "/")
        }
    }

    /// The item files of one section whose default id keeps its date prefix: the dated files
    /// (`2016-11-09-meetings.md`, `2017-05-01-meetings.md`) whose id without the date another
    /// file of the section also gets, as Jekyll's and Hugo's dated URLs keep them apart. The
    /// other files keep the date-less id. Empty when no name has a date prefix.
    static func keepingDates(sectionID: String, fileNames: [String]) -> Set<String> {
        // Only a name whose last segment starts with a digit can have a date prefix (in most
        // sections none does: no name is made).
        // (Read from each name's contiguous bytes: through the UTF-8 view, this test of every
        // file name took longer than the rest of the section's naming.)
        let mayBeDated = fileNames.contains { name in
            var name = name
            return name.withUTF8 { utf8 in
                let start = utf8.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
                guard start < utf8.count else { return false }
                return utf8[start] >= 0x30 && utf8[start] <= 0x39
            }
        }
        guard mayBeDated else { return [] }
        var byID: [String: [String]] = [:]
        var dated: Set<String> = []
        for name in fileNames {
            let item = ItemName(sectionID: sectionID, fileName: name)
            byID[item.id, default: []].append(name)
            if item.date != nil { dated.insert(name) }
        }
        guard !dated.isEmpty else { return [] }
        var keep: Set<String> = []
        for names in byID.values where names.count > 1 {
            for name in names where dated.contains(name) { keep.insert(name) }
        }
        return keep
    }

    /// Whether `name` is read as an item file.
    static func isItemFile(_ name: String) -> Bool { extensionLength(name) > 0 }

    /// The length in bytes of `name`'s Markdown extension (one of ``extensions``, compared
    /// ASCII-case-insensitively on bytes), 0 when it has none. A name that is only an extension
    /// (`.md`) has none.
    static func extensionLength<S: Collection>(_ name: S) -> Int where S.Element == UInt8 {
        if let n = name.withContiguousStorageIfAvailable(extensionLength(bytes:)) { return n }
        for ext in extensions where name.count > ext.utf8.count {
            if name.suffix(ext.utf8.count).elementsEqual(ext.utf8, by: { $0 == $1 || ($1 >= 0x61 && $0 | 0x20 == $1) }) { return ext.utf8.count }
        }
        return 0
    }

    static func extensionLength(_ name: String) -> Int { extensionLength(name.utf8) }

    /// ``extensionLength(_:)`` of contiguous bytes (the common case: a native string's UTF-8),
    /// called for every link: every extension is `.` and letters, so only the bytes after the
    /// last `.` (at most 8, not the first byte) are compared, with ASCII case folded.
    private static func extensionLength(bytes name: UnsafeBufferPointer<UInt8>) -> Int {
        var dot = name.count - 1
        while dot > 0, name.count - dot <= maxExtensionLength, name[dot] != UInt8(ascii: ".") { dot -= 1 }
        let length = name.count - dot
        guard dot > 0, length <= maxExtensionLength, name[dot] == UInt8(ascii: ".") else { return 0 }
        for ext in extensionBytes where ext.count == length {
            var k = 1
            while k < length, name[dot + k] | 0x20 == ext[k] { k += 1 }
            if k == length { return length }
        }
        return 0
    }

    /// ``extensions`` as bytes, and the longest one's length.
    private static let extensionBytes = extensions.map { Array($0.utf8) }
    private static let maxExtensionLength = extensions.map(\.utf8.count).max() ?? 0

    /// `2024-03-05-slug` → (2024-03-05, `slug`): Jekyll's post name (`YYYY-MM-DD-title`, one-digit
    /// month and day allowed); nil when the name does not start with a valid date and a `-` and a
    /// non-empty slug.
    static func datePrefix(_ name: String) -> (ContentDate, String)? {
        guard let first = name.utf8.first, first >= 0x30, first <= 0x39 else { return nil }
        let parts = name.split(separator: "-", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0].utf8.count == 4, (1...2).contains(parts[1].utf8.count),
            (1...2).contains(parts[2].utf8.count), !parts[3].isEmpty,
            parts[0...2].allSatisfy({ $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            let date = ContentDate(year: year, month: month, day: day)
        else { return nil }
        return (date, String(parts[3]))
    }

    /// The prefix of `name` shaped like Jekyll's post date (`2024-02-30-slug`: 4, 1–2 and 1–2
    /// digits, then `-` and a slug) that ``datePrefix(_:)`` rejects as no calendar date; nil
    /// otherwise.
    static func nonDatePrefix(_ name: String) -> String? {
        guard let first = name.utf8.first, first >= 0x30, first <= 0x39 else { return nil }
        let parts = name.split(separator: "-", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0].utf8.count == 4, (1...2).contains(parts[1].utf8.count),
            (1...2).contains(parts[2].utf8.count), !parts[3].isEmpty,
            parts[0...2].allSatisfy({ $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }),
            datePrefix(name) == nil
        else { return nil }
        return parts[0...2].joined(separator: "-")
    }

    /// `segment` with every run of characters an item id may not hold (see
    /// ``Item/idProblem(_:)``: anything but letters, digits, marks, `-`, `_`, `.`) replaced by one
    /// `-`, and such a `-` at either end dropped, as are leading dots: `my post` → `my-post`,
    /// `@media` → `media`, `Q&A (draft)` → `Q-A-draft`. A segment that is left empty stays as
    /// written (the id is then reported as unusable).
    static func urlSafe(_ segment: String) -> String {
        // A name of ASCII id bytes (nearly every one) is read on its bytes.
        if segment.withUTF8Bytes({ $0.allSatisfy(isASCIIIDByte) }), !segment.hasPrefix(".") { return segment }
        guard segment.unicodeScalars.contains(where: { !isIDScalar($0) }) || segment.hasPrefix(".") else { return segment }
        var out = String.UnicodeScalarView()
        var replaced = false  // a run of replaced characters is pending
        for scalar in segment.unicodeScalars {
            if isIDScalar(scalar) {
                if replaced, !out.isEmpty { out.append("-") }
                replaced = false
                if scalar == ".", out.isEmpty { continue }
                out.append(scalar)
            } else {
                replaced = true
            }
        }
        return out.isEmpty ? segment : String(out)
    }

    /// `path` (`/`-separated folder names) with each segment made URL-safe (``urlSafe(_:)``):
    /// a feed folder's output path (`news@2 x` → `news-2-x`).
    static func urlSafePath(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { pathSegment(String($0)) }.joined(separator: "/")
    }

    /// The longest id or feed-path segment derived from a name, in UTF-8 bytes: file systems
    /// allow 255 bytes in a name, and the build adds to a segment (`.html`; `.light.html` for a
    /// section preview; an image variant's `-480w.webp`).
    static let maxSegmentBytes = 200

    /// A folder or file name as an output path segment: ``urlSafe(_:)``, then, when longer than
    /// ``maxSegmentBytes``, cut at a character boundary to 191 bytes and ended with `-` and the
    /// 8 hex digits of the name's XXH3 hash (``StableHasher``, its lower 32 bits), so that two long names
    /// with the same beginning stay apart and the result is the same on every build.
    package static func pathSegment(_ name: String) -> String {
        let safe = urlSafe(name)
        guard safe.utf8.count > maxSegmentBytes else { return safe }
        var hasher = StableHasher()
        hasher.combine(name)
        let hash = hasher.value
        var cut = safe.utf8.index(safe.utf8.startIndex, offsetBy: maxSegmentBytes - 9)
        while cut > safe.utf8.startIndex, safe.utf8[cut] & 0xC0 == 0x80 { cut = safe.utf8.index(before: cut) }
        var head = String(safe[..<cut])
        while head.hasSuffix("-") { head.removeLast() }
        let hex = String(UInt32(truncatingIfNeeded: hash), radix: 16)
        return head + "-" + String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// An ASCII byte ``isIDScalar(_:)`` allows: a letter, a digit, `-`, `_` or `.`.
    static func isASCIIIDByte(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            return true
        default:
            return false
        }
    }

    /// A scalar an id segment may hold (the rule of ``Item/idProblem(_:)``).
    static func isIDScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": return true
        default:
            return !scalar.isASCII
                && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                    || scalar.properties.generalCategory == .nonspacingMark
                    || scalar.properties.generalCategory == .spacingMark)
        }
    }
}
