import FeedgenContent
import FeedgenDiagnostics
import FeedgenStorage
import Foundation

/// Two inputs must never write one output file, including paths that differ only in letter case
/// or Unicode normalisation (they collide on macOS and Windows file systems, and in URLs typed by
/// people). Each collision is an error naming both inputs. The `_previews/` folder belongs to
/// feedgen (``OutputPaths/previews``): nothing else may be written there.
enum OutputCollisions {
    /// The key under which two output paths count as the same file.
    static func key(_ path: String) -> String {
        let utf8 = path.utf8
        // Most paths are ASCII without capitals: their own key (no copy made).
        let plain = utf8.withContiguousStorageIfAvailable { bytes in
            var (ascii, capitals) = (true, false)
            for byte in bytes {
                ascii = ascii && byte < 0x80
                capitals = capitals || (byte >= 65 && byte <= 90)
            }
            return ascii && !capitals
        }
        if plain == true { return path }
        if utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII: normalisation is the identity; lower-case the bytes directly.
            return String(unsafeUninitializedCapacity: utf8.count) { buffer in
                for (i, byte) in utf8.enumerated() { buffer[i] = byte >= 65 && byte <= 90 ? byte + 32 : byte }
                return utf8.count
            }
        }
        return path.precomposedStringWithCanonicalMapping.lowercased()
    }

    /// The longest file or folder name in bytes that file systems take (`NAME_MAX` on Linux and
    /// macOS, ext4, APFS).
    static let maxNameBytes = 255

    /// The first `/`-separated name of `path` longer than ``maxNameBytes``, if any.
    static func longName(_ path: String) -> Substring? {
        let utf8 = path.utf8
        guard utf8.count > maxNameBytes else { return nil }
        var length = 0
        for byte in utf8 {
            length = byte == 0x2F ? 0 : length + 1
            if length > maxNameBytes {
                return path.split(separator: "/").first { $0.utf8.count > maxNameBytes }
            }
        }
        return nil
    }

    /// The output files feedgen generates itself, claimed first (so that a static file or page
    /// shadowing one is named).
    static func generatedClaims(_ site: PreparedSite) -> [(path: String, source: SourceLocation)] {
        let generated = SourceLocation(path: "feedgen itself")
        // Written by watch builds only, claimed by every build (so `--watch` never breaks one,
        // and never replaces a static file without a word).
        let watch = SourceLocation(path: "feedgen's watch mode")
        var files: [(path: String, source: SourceLocation)] = [
            (OutputPaths.layoutStylesheet, generated), (OutputPaths.themeStylesheet, generated),
            (OutputPaths.liveReloadScript, watch), (OutputPaths.buildID, watch),
        ]
        if site.site.config.baseURL != nil {
            files.append((OutputPaths.sitemap, generated))
            for feed in site.feeds where feed.isSyndicated {
                files.append((OutputPaths.atom(feed), generated))
                files.append((OutputPaths.json(feed), generated))
            }
        }
        return files
    }

    /// The image files, body files and static files copied to the output, claimed after the pages.
    static func copiedClaims(_ site: PreparedSite) -> [(path: String, source: SourceLocation)] {
        var files: [(path: String, source: SourceLocation)] = []
        var copied: Set<String> = []
        for image in site.imageFiles {
            if image.outputPath.hasPrefix("assets/") {
                copied.insert(image.outputPath)
                files.append((image.outputPath, SourceLocation(path: String(image.source.dropFirst(site.site.root.count + 1)))))
            }
        }
        for (path, source) in site.bodyFiles.sorted(by: { $0.key < $1.key }) where !copied.contains(path) {
            files.append((path, SourceLocation(path: String(source.dropFirst(site.site.root.count + 1)))))
        }
        for file in site.site.staticFiles {
            files.append((file, SourceLocation(path: "static/" + file)))
        }
        return files
    }

    /// Whether one of `folders` (of the claimed keys), or a folder above it, is a claimed key.
    static func fileIsFolder(_ folders: Set<Substring>, claimed: (String) -> Bool) -> Bool {
        folders.contains { folder in
            claimed(String(folder)) || folder.utf8.indices.contains { folder.utf8[$0] == UInt8(ascii: "/") && claimed(String(folder[..<$0])) }
        }
    }

    /// The index of the last `/` in `k`, if any.
    static func lastSlash(_ k: String) -> String.Index? {
        let utf8 = k.utf8
        let found = utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            var i = bytes.count
            while i > 0 {
                i -= 1
                if bytes[i] == UInt8(ascii: "/") { return i }
            }
            return nil
        }
        guard let found else { return utf8.lastIndex(of: UInt8(ascii: "/")) }
        return found.map { utf8.index(utf8.startIndex, offsetBy: $0) }
    }

    /// "page 2 of the section 'posts'", "the page of the tag 'soup'".
    static func describe(_ page: OwnPage) -> String {
        let (whose, name) = switch page.kind {
        case .section(let id): ("section", id)
        case .tag(let tag): ("tag", tag)
        }
        return page.number == 1 ? "the page of the \(whose) '\(name)'" : "page \(page.number) of the \(whose) '\(name)'"
    }

    static func check(_ site: PreparedSite, into diagnostics: inout Diagnostics) {
        var claimed: [String: (path: String, source: SourceLocation)] = [:]
        claimed.reserveCapacity(
            16 + 2 * site.feeds.count + site.images.count + site.site.staticFiles.count
                + site.feeds.reduce(0) { $0 + $1.sections.reduce(0) { $0 + $1.section.items.count } })
        let reserved = key(OutputPaths.previews)
        let reservedFolder = reserved + "/"
        var folders: Set<Substring> = []
        var lastFolder: Substring?
        func claim(_ path: String, by source: SourceLocation, page: OwnPage? = nil) { claim(path, key: key(path), by: source, page: page) }
        func claim(_ path: String, key k: String, by source: SourceLocation, page: OwnPage? = nil) {
            if k == reserved || k.hasPrefix(reservedFolder) {
                // Reserved whether or not --previews is given, so adding it never breaks a build.
                diagnostics.error(source, "this would write the output file '\(path)', but '\(OutputPaths.previews)/' is reserved for the section previews of 'feedgen build --previews'; rename or move it")
                return
            }
            if let long = longName(path) {
                // Else the write fails with ENAMETOOLONG, which blames the output folder (exit 2).
                diagnostics.error(
                    source,
                    "this would write an output file named '\(long.prefix(24))…\(long.suffix(12))' (\(long.utf8.count) bytes), over the file system's limit of \(maxNameBytes) bytes for a name; shorten the file or folder name (or the item's 'id')")
                return
            }
            if let first = claimed[k], let page {
                // A section's or tag's own page comes after every item's page (its feed is
                // appended last): the error names the page and the file, at both.
                let what = Self.describe(page)
                diagnostics.error(
                    source,
                    "\(what) would be the output file '\(path)', which \(first.source) writes too; rename that file (or its 'id') or the section's folder")
                diagnostics.error(
                    first.source,
                    "this would write the output file '\(first.path)', which is \(what) (\(source)); rename this file (or give it another 'id') or the section's folder")
            } else if let first = claimed[k] {
                // Byte-wise: Swift's `==` calls canonically equivalent strings equal (`café` in
                // NFC and NFD), and those are two different file names.
                let same =
                    first.path.utf8.elementsEqual(path.utf8)
                    ? "'\(path)'" : "'\(path)' and '\(first.path)' (they differ only in case or Unicode normalisation)"
                diagnostics.error(source, "this would write the output file \(same), which \(first.source) writes too; rename one of them")
            } else {
                claimed[k] = (path, source)
                // The folders of the keys, for the check of files that are folders below.
                // Consecutive paths are mostly in one folder: it is inserted once for them.
                if let slash = lastSlash(k) {
                    let folder = k[..<slash]
                    if folder != lastFolder {
                        folders.insert(folder)
                        lastFolder = folder
                    }
                }
            }
        }
        for file in generatedClaims(site) { claim(file.path, by: file.source) }
        for feed in site.feeds {
            claim(
                feed.pagePath, by: feed.ownPage?.source ?? SourceLocation(path: feed.feed.sourcePath ?? "content/" + feed.feed.folder),
                page: feed.ownPage)
            for s in feed.sections {
                // Detail pages are most of a site's files: their paths and keys are made on
                // every core for long sections, then claimed in order.
                let items = s.pageItems
                let make = { @Sendable (i: Int) -> (path: String, key: String)? in
                    guard items[i].hasBody else { return nil }
                    let path = feed.detailPath(items[i])
                    return (path, key(path))
                }
                let paths = items.count < 1024 ? items.indices.map(make) : parallelMap(items.count, make)
                for (i, p) in paths.enumerated() {
                    if let p { claim(p.path, key: p.key, by: items[i].location) }
                }
            }
        }
        for file in copiedClaims(site) { claim(file.path, by: file.source) }
        // A file cannot also be a folder: `feed.xml/q.html` beside the feed's `feed.xml` (else
        // the write fails with ENOTDIR, which blames the output folder, exit 2). The folders are
        // few: each is looked up once, and the keys are sorted (for the errors' order) only when
        // one of them is a file.
        guard fileIsFolder(folders, claimed: { claimed[$0] != nil }) else { return }
        for (k, entry) in claimed.sorted(by: { $0.key < $1.key }) {
            for i in k.utf8.indices where k.utf8[i] == UInt8(ascii: "/") {
                guard let file = claimed[String(k[..<i])] else { continue }
                diagnostics.error(
                    entry.source,
                    "this would write the output file '\(entry.path)' inside '\(file.path)', which \(file.source) writes as a file; rename one of them")
                break
            }
        }
    }
}
