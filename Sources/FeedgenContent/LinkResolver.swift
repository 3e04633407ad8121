import FeedgenStorage
import Foundation

/// How a link or image path written in content names a file of the site: one place for the
/// rules that front-matter `link`/`image`, body links and feed/section text share (issue #19 §3,
/// content-format §5). Today it reads site-root links (`link: files/a%20b.html?x=1#p`) and finds
/// files whatever Unicode normalization their names were written in.
public enum LinkResolver {
    /// A relative link split where its path ends: at the first `?` or `#`. The suffix (query and
    /// fragment, with their `?`/`#`) is kept as written; the path is what names a file.
    public static func split(_ link: String) -> (path: Substring, suffix: Substring) {
        // On bytes: a Character search cost more than the rest of a link's work. An ASCII link
        // (nearly every one) is searched in place, its characters being its bytes.
        func isEnd(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") }
        let found: String.Index?
        if let offset = link.withUTF8Bytes({ ByteScan.isASCII($0) ? $0.firstIndex(where: isEnd) ?? $0.count : nil }) {
            found = link.utf8.index(link.utf8.startIndex, offsetBy: offset)
        } else {
            found = link.firstASCIIIndex(where: isEnd)
        }
        let end = found ?? link.endIndex
        return (link[..<end], link[end...])
    }

    /// The output-root-relative file a front-matter `link` that has no scheme names: its path
    /// without a leading `/`, percent-decoded (`files/my%20report.html` → `files/my report.html`),
    /// with `index.html` after a trailing `/` or for an empty path. Nil when the path climbs
    /// above the output root with `..` (`../x.html`), which no page of the site can be.
    public static func outputFile(ofLink link: String) -> String? {
        // Decoded first: `%2F` is a `/` too (found by FuzzLinks: `%2Fx` became the absolute `/x`).
        var path = MarkdownLink.percentDecode(String(split(link).path))
        while path.hasPrefix("/") { path.removeFirst() }
        var depth = 0
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == ".." { depth -= 1 } else if part != "." { depth += 1 }
            if depth < 0 { return nil }
        }
        if path.isEmpty || path.hasSuffix("/") { path += "index.html" }
        return path
    }

    /// The path on disk of the file `path` names (absolute or relative to the working folder),
    /// comparing names in Unicode NFC: a file written `café.png` in NFD (as macOS writes names)
    /// is found from front matter written in NFC, and the other way round. Each component that
    /// is not found as written is looked up among its folder's entries, compared with String
    /// equality (canonical equivalence). Nil when there is no such file or folder.
    public static func existingPath(_ path: String) -> String? {
        let fm = FileManager.default
        if fm.fileExists(atPath: path) { return path }
        // Only a name that is not ASCII can have another normalization.
        guard !path.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        var found = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            let name = String(part)
            let candidate = found + "/" + name
            if fm.fileExists(atPath: candidate) {
                found = candidate
                continue
            }
            let folder = found.isEmpty ? "/" : found
            guard let entries = try? fm.contentsOfDirectory(atPath: folder),
                let match = entries.sorted().first(where: { $0 == name })
            else { return nil }
            found += "/" + match
        }
        return path.hasPrefix("/") ? found : String(found.dropFirst(2))
    }
}
