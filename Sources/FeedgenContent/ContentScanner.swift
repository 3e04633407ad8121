import FeedgenDiagnostics
import FeedgenStorage

/// The shape of `content/` found on disk (content-format §1), before any file is read.
struct ContentPlan: Sendable {
    var feeds: [FeedPlan] = []
    var diagnostics: [Diagnostic] = []
}

struct FeedPlan: Sendable {
    /// Relative to `content/` (`""` for the home feed).
    var path: String
    /// Site-relative folder (`content`, `content/recipes`).
    var folder: String
    /// Site-relative `_feed.md`, when present.
    var feedFile: String?
    /// In folder-name order.
    var sections: [SectionPlan] = []
    /// The `index.md` beside `_feed.md`, not read (``ContentScanner/homePageWarning(_:path:)``).
    var homeFile: String?
}

struct SectionPlan: Sendable {
    /// The folder name; ``Section/pagesID`` for the feed's pages (the files beside `_feed.md`).
    var id: String
    /// Site-relative folder.
    var folder: String
    /// Site-relative `_section.md`, when present.
    var sectionFile: String?
    /// Item files relative to the section folder (`a.md`, `sub/b.md`), in walk order.
    var itemFiles: [String] = []
    /// Each item file's stamp as listed (`ContentScanner.stampFiles`), else nil.
    var itemStamps: [FileStamp?] = []
    /// The item files whose default id keeps its date prefix (``ItemName/keepingDates(sectionID:fileNames:)``),
    /// found on the whole listing (a patch build reads only some files).
    var keepingDates: Set<String> = []
}

/// Walks `content/`: feeds are `content/` and every folder holding `_feed.md`; sections are the
/// other direct sub-folders of a feed; items are the Markdown files (``ItemName/extensions``) of a section, recursively. Names
/// starting with `.` or `_` are ignored (except `_feed.md` and `_section.md`). Directory
/// listings are sorted byte-wise, so the result does not depend on the file system's order.
struct ContentScanner {
    static let feedFileName = "_feed.md"
    static let sectionFileName = "_section.md"

    /// Absolute site folder.
    let root: String
    /// Whether every item file is stat'ed while its folder is listed (relative to the folder),
    /// for a ``ParsedItemStore`` that vouches for unchanged files: then no item file's path is
    /// looked up again to learn that it did not change.
    let stampFiles: Bool
    var plan = ContentPlan()
    private var visited: Set<FileSystem.NodeID> = []
    /// Markdown files seen so far (bounded by `Limits.maxContentFiles`).
    private var contentFiles = 0

    /// The site folder with symbolic links resolved: nothing is read from outside it.
    private let realRoot: String

    init(root: String, stampFiles: Bool = false) {
        self.root = root
        self.stampFiles = stampFiles
        self.realRoot = FileSystem.realPath(root) ?? root
    }

    /// The warning for a symbolic link at `path` whose target does not exist.
    static func brokenLinkWarning(_ path: String, shownAs shown: String) -> Diagnostic {
        let target = FileSystem.linkTarget(path) ?? "?"
        return .warning(SourceLocation(path: shown), "symbolic link skipped: its target '\(target)' does not exist")
    }

    static func isIgnored(_ name: String) -> Bool { name.hasPrefix(".") || name.hasPrefix("_") }

    /// A warning for a visible file with a Markdown extension that neither Jekyll nor Hugo reads
    /// by default and feedgen does not either (`.mdwn`, ikiwiki's; `.mdtxt`, `.mdtext`), in any
    /// case: its text would otherwise be dropped without a word.
    static func otherMarkdownWarning(_ name: String, path: String) -> Diagnostic? {
        guard !isIgnored(name), !ItemName.isItemFile(name), let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let suffix = name[dot...]
        guard suffix.utf8.count <= 7, [".mdwn", ".mdtxt", ".mdtext"].contains(suffix.lowercased()) else { return nil }
        return .warning(
            SourceLocation(path: path),
            "'\(name)' is not read: feedgen reads Markdown files ending in \(ItemName.extensions.map { "'\($0)'" }.joined(separator: ", ")) only; rename it to '\(name[..<dot]).md'")
    }

    /// The error for a FIFO, socket or device in a site's folders (`shownAs`: site-relative):
    /// it cannot be read, and skipping it would drop content without a word.
    static func specialFileError(shownAs path: String) -> Diagnostic {
        .error(
            SourceLocation(path: path),
            "cannot read: not a regular file (a FIFO, socket or device); replace it with a file or remove it")
    }

    /// Whether a FIFO, socket or device by this name is reported: any name but a hidden one
    /// (`.…`, `_…`), and the section and feed files whatever their name.
    static func isReported(special name: String) -> Bool {
        !isIgnored(name) || name == sectionFileName || name == feedFileName
    }

    private func absolute(_ relative: String) -> String { root + "/" + relative }

    /// The error for a file or folder whose name is not valid UTF-8 (it is shown with U+FFFD
    /// for the bad bytes): its content would otherwise be lost without a word.
    static func invalidNameError(shownAs path: String) -> Diagnostic {
        .error(
            SourceLocation(path: path),
            "this name is not valid UTF-8 (its bad bytes are shown as \u{FFFD}), so it cannot be part of the site; rename it")
    }

    private func hasFeedFile(_ folder: String) -> Bool {
        FileSystem.isFile(absolute(folder) + "/" + Self.feedFileName)
    }

    /// Lists `folder`, noting an unreadable folder or a folder reached twice (a link loop): nil then.
    private mutating func list(_ folder: String) -> [FileSystem.Entry]? {
        guard let (entries, id) = FileSystem.list(absolute(folder), stampFiles: stampFiles) else {
            plan.diagnostics.append(.error(SourceLocation(path: folder), "cannot read this folder"))
            return nil
        }
        guard visited.insert(id).inserted else {
            plan.diagnostics.append(
                .warning(
                    SourceLocation(path: folder),
                    "folder skipped: it was already read through another path (a symbolic link loop?)"))
            return nil
        }
        // Containment: a symbolic link that leads outside the site folder is not followed.
        return entries.filter { entry in
            if entry.isSpecial {
                if Self.isReported(special: entry.name) {
                    plan.diagnostics.append(Self.specialFileError(shownAs: folder + "/" + entry.name))
                }
                return false
            }
            if entry.hasInvalidName, !Self.isIgnored(entry.name) {
                plan.diagnostics.append(Self.invalidNameError(shownAs: folder + "/" + entry.name))
                return false
            }
            if entry.isBrokenLink {
                if !Self.isIgnored(entry.name) {
                    plan.diagnostics.append(Self.brokenLinkWarning(absolute(folder) + "/" + entry.name, shownAs: folder + "/" + entry.name))
                }
                return false
            }
            guard entry.isLink, !Self.isIgnored(entry.name) else { return true }
            let target = FileSystem.realPath(absolute(folder) + "/" + entry.name) ?? ""
            if target == realRoot || target.hasPrefix(realRoot + "/") { return true }
            plan.diagnostics.append(
                .warning(
                    SourceLocation(path: folder + "/" + entry.name),
                    "symbolic link skipped: it leads outside the site folder (to \(target)); copy the files into the site instead"))
            return false
        }
    }

    mutating func scan() {
        scanFeed(folder: "content")
        plan.feeds.sort { a, b in
            if a.path.isEmpty != b.path.isEmpty { return a.path.isEmpty }
            return a.path.utf8.lexicographicallyPrecedes(b.path.utf8)
        }
    }

    private mutating func scanFeed(folder: String) {
        let path = folder == "content" ? "" : String(folder.dropFirst("content/".count))
        var feed = FeedPlan(path: path, folder: folder)
        // A skipped folder makes no feed (an empty page the home page would link to).
        guard let entries = list(folder) else {
            if folder == "content" { plan.feeds.append(feed) }  // the home feed is always there
            return
        }
        // The Markdown files beside `_feed.md`: the feed's pages (content-format §3).
        var pages = SectionPlan(id: Section.pagesID, folder: folder)
        for entry in entries {
            let child = folder + "/" + entry.name
            if !entry.isDirectory {
                if entry.name == Self.feedFileName {
                    feed.feedFile = child
                } else if entry.name == Self.sectionFileName {
                    plan.diagnostics.append(
                        .warning(
                            SourceLocation(path: child),
                            "'_section.md' is ignored in a feed folder; put it in a section folder below it"))
                } else if !Self.isIgnored(entry.name), ItemName.isItemFile(entry.name) {
                    if let warning = Self.homePageWarning(entry.name, path: child) {
                        plan.diagnostics.append(warning)
                        if feed.homeFile == nil { feed.homeFile = child }
                    } else if countContentFile(child) {
                        pages.itemFiles.append(entry.name)
                        pages.itemStamps.append(entry.stamp)
                    }
                } else if let warning = Self.otherMarkdownWarning(entry.name, path: child) {
                    plan.diagnostics.append(warning)
                }
                continue
            }
            if Self.isIgnored(entry.name) { continue }
            if hasFeedFile(child) {
                scanFeed(folder: child)
            } else if let section = scanSection(id: entry.name, folder: child) {
                feed.sections.append(section)
            }
        }
        if !pages.itemFiles.isEmpty {
            pages.keepingDates = ItemName.keepingDates(sectionID: pages.id, fileNames: pages.itemFiles)
            feed.sections.append(pages)
        }
        plan.feeds.append(feed)
    }

    /// A section, or nil when the folder has neither `_section.md` nor items.
    private mutating func scanSection(id: String, folder: String) -> SectionPlan? {
        var section = SectionPlan(id: id, folder: folder)
        collectItems(folder: folder, prefix: "", into: &section)
        section.keepingDates = ItemName.keepingDates(sectionID: id, fileNames: section.itemFiles)
        return section.sectionFile != nil || !section.itemFiles.isEmpty ? section : nil
    }

    /// Counts one more Markdown file; false (with an error at the first) past the limit.
    private mutating func countContentFile(_ path: @autoclosure () -> String) -> Bool {
        contentFiles += 1
        guard contentFiles > Limits.maxContentFiles else { return true }
        if contentFiles == Limits.maxContentFiles + 1 {
            plan.diagnostics.append(
                .error(
                    SourceLocation(path: path()),
                    "the site has more than \(Limits.maxContentFiles) Markdown files, the limit; this and later files are not read"))
        }
        return false
    }

    /// A warning for `index.md` beside `_feed.md` (any Markdown extension): the home page's text
    /// to MkDocs and Jekyll (Hugo's is `_index.md`, ignored as every `_` name), whose page would
    /// be the feed's own `index.html`; it is not read, and the warning says where its text goes.
    static func homePageWarning(_ name: String, path: String) -> Diagnostic? {
        let stem = name.utf8.dropLast(ItemName.extensionLength(name))
        guard String(decoding: stem, as: UTF8.self).lowercased() == "index" else { return nil }
        return .warning(
            SourceLocation(path: path),
            "'\(name)' is not read: it would be this feed's page, index.html, which feedgen writes from '_feed.md' (its title and intro); move its text into '_feed.md' (links to it lead to index.html)")
    }

    private mutating func collectItems(folder: String, prefix: String, into section: inout SectionPlan) {
        let entries = list(folder) ?? []
        section.itemFiles.reserveCapacity(section.itemFiles.count + entries.count)
        section.itemStamps.reserveCapacity(section.itemStamps.count + entries.count)
        for entry in entries {
            // The site-relative path, for what needs it (an item file keeps its name only).
            var child: String { folder + "/" + entry.name }
            if !entry.isDirectory {
                if entry.name == Self.sectionFileName {
                    if prefix.isEmpty {
                        section.sectionFile = child
                    } else {
                        plan.diagnostics.append(
                            .error(
                                SourceLocation(path: child),
                                "sections do not nest: this '_section.md' is inside section '\(section.id)'"))
                    }
                } else if !Self.isIgnored(entry.name), ItemName.isItemFile(entry.name) {
                    guard countContentFile(child) else { continue }
                    section.itemFiles.append(prefix.isEmpty ? entry.name : prefix + entry.name)
                    section.itemStamps.append(entry.stamp)
                } else if let warning = Self.otherMarkdownWarning(entry.name, path: child) {
                    plan.diagnostics.append(warning)
                }
                continue
            }
            if Self.isIgnored(entry.name) { continue }
            let subfolder = child
            if hasFeedFile(subfolder) {
                scanFeed(folder: subfolder)
            } else {
                collectItems(folder: subfolder, prefix: prefix + entry.name + "/", into: &section)
            }
        }
    }
}
