import CFileSystem
import FeedgenStorage
import Foundation
import Testing

@testable import FeedgenBuild
@testable import FeedgenIncremental
@testable import FeedgenContent
@testable import FeedgenEmit

/// Incremental builds (the build cache beside the output): after any edit, a build that reuses
/// the cache writes exactly the bytes a clean build writes, and a damaged cache is never trusted.
@Suite struct IncrementalBuildTests {
    /// A small site with two feeds, a content link, an image, a static file, feeds and a
    /// template override.
    static func baseSite() -> [String: String] {
        var files: [String: String] = [
            "feedgen.yaml": "title: Incremental\nbaseURL: https://example.org/\n",
            "content/_feed.md": "---\ntitle: Home\n---\n",
            "content/news/_section.md": "---\ntitle: News\nlayout: grid\n---\n",
            "content/notes/_section.md": "---\ntitle: Notes\nlayout: list\n---\n",
            "content/more/_feed.md": "---\ntitle: More\n---\n",
            "content/more/extra/_section.md": "---\ntitle: Extra\n---\n",
            "content/more/extra/one.md": "---\ntitle: One\n---\nSee [the first](../../news/item-00.md).\n",
            "static/robots.txt": "User-agent: *\n",
            "Templates/cards/card.mustache": "<article class=\"card\"><h3>{{title}}</h3>{{{html}}}</article>\n",
        ]
        for i in 0..<12 {
            let link = i == 3 ? "\nSee [seven](item-07.md) and [a note](../notes/note-1.md#top).\n" : ""
            files[String(format: "content/news/item-%02d.md", i)] =
                "---\ntitle: Item \(i)\nweight: \(i + 1)\ndate: 2026-11-\(String(format: "%02d", i + 1))\n---\n# Heading \(i)\n\nBody of item \(i) with *emphasis*.\(link)\n"
        }
        for i in 0..<4 {
            files["content/notes/note-\(i).md"] = "---\ntitle: Note \(i)\nkeywords: [a, b]\n---\nA note \(i).\n"
        }
        // A note without a body (no detail page) and one with an unknown key (a warning).
        files["content/notes/bare.md"] = "---\ntitle: Bare\n---\n"
        files["content/notes/odd.md"] = "---\ntitle: Odd\ntitel: red\n---\nOdd one.\n"
        return files
    }

    /// With `long`, also a `list` section of 40 cards (its off-screen cards are deferred, with
    /// estimates) in which every third card has an image (`static/pic.png`).
    static func makeSite(long: Bool = false) throws -> String {
        let site = temporaryFolder("feedgen-incremental") + "/site"
        writeSite(site, baseSite())
        let png = try Data(contentsOf: URL(fileURLWithPath: repositoryRoot + "/content/recipes/recipes/miso-soup.png"))
        try png.write(to: URL(fileURLWithPath: site + "/content/news/item-05.png"))
        if long {
            try png.write(to: URL(fileURLWithPath: site + "/static/pic.png"))
            var files = [
                "content/zlong/_section.md": "---\ntitle: Long\nlayout: list\n---\n",
                // The card shows its image, loaded eagerly or lazily by its place on the page.
                "Templates/cards/card.mustache":
                    "<article class=\"card\">{{#image}}<img src=\"{{src}}\" alt=\"{{alt}}\" width=\"{{width}}\" height=\"{{height}}\" loading=\"{{loading}}\"{{#fetchpriority}} fetchpriority=\"{{.}}\"{{/fetchpriority}}>{{/image}}<h3>{{title}}</h3>{{{html}}}</article>\n",
            ]
            for i in 0..<40 {
                let image = i % 3 == 0 ? "image: {src: /pic.png, alt: Picture \(i)}\n" : ""
                let words = String(repeating: "word ", count: 5 + (i * 7) % 30)
                files[String(format: "content/zlong/entry-%02d.md", i)] =
                    "---\ntitle: Entry \(i)\nweight: \(i + 1)\n\(image)---\nEntry \(i): \(words)\n"
            }
            writeSite(site, files)
        }
        let item5 = site + "/content/news/item-05.md"
        let text = try String(contentsOfFile: item5, encoding: .utf8)
        try text.replacingOccurrences(of: "---\n#", with: "image: {src: item-05.png, alt: Five}\n---\n#").write(toFile: item5, atomically: true, encoding: .utf8)
        return site
    }

    /// Every file and folder below `root`: relative path → bytes (nil for a folder).
    static func tree(_ root: String) -> [String: Data?] {
        var result: [String: Data?] = [:]
        let fm = FileManager.default
        guard let walker = fm.enumerator(atPath: root) else { return result }
        for case let path as String in walker {
            var isDirectory: ObjCBool = false
            _ = fm.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory)
            result[path] = isDirectory.boolValue ? .some(nil) : fm.contents(atPath: root + "/" + path)
        }
        return result
    }

    static func build(_ site: String, _ output: String, useCache: Bool = true, drafts: Bool = false) -> BuildReport {
        var options = BuildOptions(siteRoot: site, output: output, now: fixedNow)
        options.useCache = useCache
        options.drafts = drafts
        return SiteBuilder.build(options)
    }

    /// Builds twice (both buffers of the cache filled), applies `edit`, builds again with the
    /// cache, and compares the output with a clean build's, file by file and folder by folder.
    /// Returns the incremental build's report.
    @discardableResult
    static func expectIdentical(
        long: Bool = false, _ edit: (String, String) throws -> Void, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> BuildReport {
        let site = try makeSite(long: long)
        let out = site + "/../public"
        #expect(build(site, out).exitStatus == 0, sourceLocation: sourceLocation)
        #expect(build(site, out).exitStatus == 0, sourceLocation: sourceLocation)
        try edit(site, out)
        let incremental = build(site, out)
        #expect(incremental.exitStatus == 0, "\(incremental.diagnostics.items)", sourceLocation: sourceLocation)
        let clean = site + "/../clean"
        let reference = build(site, clean, useCache: false)
        #expect(reference.exitStatus == 0, sourceLocation: sourceLocation)
        let a = tree(out)
        let b = tree(clean)
        #expect(a.keys.sorted() == b.keys.sorted(), sourceLocation: sourceLocation)
        for (path, bytes) in b where a[path] != bytes {
            Issue.record("\(path) differs from a clean build's", sourceLocation: sourceLocation)
        }
        #expect(a.count > 20, sourceLocation: sourceLocation)
        // The same problems are reported (warnings of cached items too).
        #expect(incremental.diagnostics.items.map(\.description) == reference.diagnostics.items.map(\.description), sourceLocation: sourceLocation)
        return incremental
    }

    static func replace(_ site: String, _ path: String, _ old: String, _ new: String) throws {
        let file = site + "/" + path
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains(old), "\(path) has no '\(old)'")
        try text.replacingOccurrences(of: old, with: new).write(toFile: file, atomically: false, encoding: .utf8)
    }

    /// The very first build (no output, no cache folder yet) fills the item cache.
    @Test func firstBuildFillsTheItemCache() throws {
        let site = try Self.makeSite()
        let out = site + "/../new/public"
        #expect(Self.build(site, out).cachedItems == 0)
        let second = Self.build(site, out)
        #expect(second.cachedItems == 19)
        #expect(second.filesWritten == 0)
    }

    /// `feedgen check` reads the cache but writes nothing, not even the cache folder.
    @Test func checkWritesNoCache() throws {
        let site = try Self.makeSite()
        var options = BuildOptions(siteRoot: site, output: site + "/../public", now: fixedNow)
        options.write = false
        #expect(SiteBuilder.build(options).exitStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: site + "/../.public.feedgen-cache"))
        #expect(Self.build(site, site + "/../public").exitStatus == 0)
        #expect(Self.build(site, site + "/../public").cachedItems == 19)
        #expect(SiteBuilder.build(options).cachedItems == 19)
    }

    @Test func unchangedSiteWritesNothingAndParsesNothing() throws {
        let report = try Self.expectIdentical { _, _ in }
        #expect(report.filesWritten == 0)
        // None: the two feed pages are kept by their keys when the build does not patch (the
        // site's tag pages no longer stop a patch, which applies once its files are 2 s older
        // than the last build).
        #expect(report.pagesRendered == 0)
        #expect(report.cachedItems == 19)
        // odd.md's 'titel' (did you mean 'title'?), from the cache.
        #expect(report.diagnostics.warningCount == 1, "\(report.diagnostics.items)")
    }

    @Test func itemBodyEdit() throws {
        let report = try Self.expectIdentical { site, _ in
            try Self.replace(site, "content/news/item-04.md", "Body of item 4", "A new body for item 4")
        }
        #expect(report.cachedItems == 18)
        // The detail page and the home feed page (the other one is kept by its key);
        // feed.xml/feed.json/sitemap hold no bodies.
        #expect(report.pagesRendered == 2)
        #expect(report.filesWritten == 4)  // item-04.html, index.html, feed.json (content_html), feed.xml
    }

    @Test func titleEdit() throws {
        try Self.expectIdentical { site, _ in try Self.replace(site, "content/news/item-02.md", "title: Item 2", "title: Second item") }
    }

    @Test func weightEditReorders() throws {
        try Self.expectIdentical { site, _ in try Self.replace(site, "content/news/item-09.md", "weight: 10", "weight: 0") }
    }

    @Test func addedItem() throws {
        try Self.expectIdentical { site, _ in
            writeSite(site, ["content/news/item-99.md": "---\ntitle: Added\nweight: 3\n---\nNew.\n"])
        }
    }

    @Test func deletedItemAndFolder() throws {
        try Self.expectIdentical { site, _ in
            try FileManager.default.removeItem(atPath: site + "/content/news/item-07.md")
            try Self.replace(site, "content/news/item-03.md", "[seven](item-07.md) and ", "")
            // A whole feed goes: its folder must go from the output too.
            try FileManager.default.removeItem(atPath: site + "/content/more")
        }
    }

    @Test func templateOverrideChange() throws {
        try Self.expectIdentical { site, _ in
            let item = try #require(TemplateSet.builtinFiles["item.mustache"])
            writeSite(site, ["Templates/item.mustache": item + "<!-- changed -->\n"])
            try Self.replace(site, "Templates/cards/card.mustache", "<h3>", "<h3 class=\"t\">")
        }
    }

    @Test func configChange() throws {
        try Self.expectIdentical { site, _ in
            writeSite(site, ["feedgen.yaml": "title: Renamed\nbaseURL: https://example.org/\ntheme:\n  cornerRadius: 4px\n"])
        }
    }

    @Test func sectionLayoutChange() throws {
        try Self.expectIdentical { site, _ in try Self.replace(site, "content/news/_section.md", "layout: grid", "layout: list") }
    }

    /// The link's source is unchanged, but its target's page moves: the linking page changes.
    @Test func contentLinkTargetMoves() throws {
        try Self.expectIdentical { site, _ in
            try Self.replace(site, "content/news/item-07.md", "title: Item 7", "id: seventh\ntitle: Item 7")
            try FileManager.default.moveItem(atPath: site + "/content/notes/note-1.md", toPath: site + "/content/notes/note-one.md")
            try Self.replace(site, "content/news/item-03.md", "note-1.md", "note-one.md")
        }
    }

    @Test func staticAndImageFilesChange() throws {
        try Self.expectIdentical { site, _ in
            writeSite(site, ["static/robots.txt": "User-agent: *\nDisallow: /\n", "static/new/file.txt": "x\n"])
        }
    }

    @Test func optionChange() throws {
        let site = try Self.makeSite()
        writeSite(site, ["content/notes/draft.md": "---\ntitle: Draft\ndraft: true\n---\nNot yet.\n"])
        let out = site + "/../public"
        #expect(Self.build(site, out).exitStatus == 0)
        #expect(Self.build(site, out, drafts: true).exitStatus == 0)
        #expect(Self.build(site, site + "/../clean", useCache: false, drafts: true).exitStatus == 0)
        #expect(Self.tree(out) == Self.tree(site + "/../clean"))
        #expect(FileManager.default.fileExists(atPath: out + "/notes/draft.html"))
    }

    /// `--previews` on, then an edit: the preview pages follow like every other file.
    @Test func previewsFollowEdits() throws {
        let site = try Self.makeSite()
        let out = site + "/../public"
        func build(_ output: String, useCache: Bool = true) -> BuildReport {
            var options = BuildOptions(siteRoot: site, output: output, now: fixedNow)
            options.previews = true
            options.useCache = useCache
            return SiteBuilder.build(options)
        }
        #expect(Self.build(site, out).exitStatus == 0)
        #expect(build(out).exitStatus == 0)
        try Self.replace(site, "content/news/_section.md", "layout: grid", "layout: list")
        #expect(build(out).exitStatus == 0)
        #expect(build(site + "/../clean", useCache: false).exitStatus == 0)
        #expect(Self.tree(out) == Self.tree(site + "/../clean"))
        #expect(FileManager.default.fileExists(atPath: out + "/_previews/index.html"))
        // Previews off again: they are deleted from the output.
        #expect(Self.build(site, out).exitStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: out + "/_previews"))
    }

    @Test func truncatedStateFallsBack() throws {
        let report = try Self.expectIdentical { site, out in
            try Self.replace(site, "content/news/item-04.md", "Body of item 4", "Changed")
            let state = BuildCache.folder(forOutput: out) + "/state"
            let data = try Data(contentsOf: URL(fileURLWithPath: state))
            try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: state))
        }
        #expect(report.filesWritten > 20)  // everything written again
    }

    @Test func modifiedBackBufferFileFallsBack() throws {
        let report = try Self.expectIdentical { site, out in
            try Self.replace(site, "content/news/item-04.md", "Body of item 4", "Changed")
            let page = BuildCache.folder(forOutput: out) + "/back/news/item-01.html"
            let text = try String(contentsOfFile: page, encoding: .utf8)
            // Same size, other bytes: the modification time gives it away.
            try text.replacingOccurrences(of: "Item 1", with: "Item X").write(toFile: page, atomically: false, encoding: .utf8)
        }
        // Unchanged files of the two buffers are hard links of each other, so the edit shows in
        // both: neither is trusted, everything is written again.
        #expect(report.filesWritten > 20)
    }

    @Test func extraFileInBackBufferFallsBack() throws {
        try Self.expectIdentical { _, out in
            writeSite(BuildCache.folder(forOutput: out) + "/back", ["stray/file.html": "x"])
        }
    }

    @Test func modifiedOutputFileIsNotKept() throws {
        // Someone edits a file of the output in place: the two buffers share that inode, so
        // neither is trusted and the build starts from nothing.
        try Self.expectIdentical { _, out in
            let handle = try #require(FileHandle(forWritingAtPath: out + "/news/item-01.html"))
            handle.seekToEndOfFile()
            handle.write(Data("<!-- edited -->".utf8))
            handle.closeFile()
        }
    }

    /// Flips bytes in the middle of a cache log (a record fails its checksum) and cuts its tail.
    static func damage(_ log: String) throws {
        var data = try Data(contentsOf: URL(fileURLWithPath: log))
        let middle = data.count / 2
        data[middle] ^= 0xFF
        data[middle + 1] ^= 0xFF
        try data.prefix(data.count - 7).write(to: URL(fileURLWithPath: log))
    }

    @Test func damagedItemLogIsIgnored() throws {
        try Self.expectIdentical { site, out in
            try Self.damage(BuildCache.folder(forOutput: out) + "/items.log")
            try Self.replace(site, "content/notes/note-2.md", "A note 2", "Another note")
        }
    }

    @Test func damagedSourceTableIsIgnored() throws {
        try Self.expectIdentical { site, out in
            try Self.damage(BuildCache.folder(forOutput: out) + "/sources")
            try Self.replace(site, "content/notes/note-2.md", "A note 2", "Another note")
        }
    }

    /// Item files whose stat is as the last build recorded, and older than the racy margin, are
    /// not read at all; an edit that keeps the size and the modification time is still seen
    /// (the change time moved).
    @Test func unchangedFilesAreNotReadAndSameSizeEditsAreSeen() throws {
        let report = try Self.expectIdentical { site, out in
            // The files were written within the racy margin of the first builds (unless those
            // were slow): once the margin has passed, a build records stats that are trusted.
            Thread.sleep(forTimeInterval: Double(SourceStats.racyMargin) / 1e9 + 0.2)
            #expect(Self.build(site, out).exitStatus == 0)
            let quiet = Self.build(site, out)
            #expect(quiet.unreadItems == 19)
            #expect(quiet.cachedItems == 19)
            let path = site + "/content/news/item-04.md"
            var info = stat()
            #expect(stat(path, &info) == 0)
            try Self.replace(site, "content/news/item-04.md", "Body of item 4", "Body of item X")
            var times = [info.st_atim, info.st_mtim]
            #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
            var after = stat()
            #expect(stat(path, &after) == 0)
            #expect(after.st_size == info.st_size)
            #expect(after.st_mtim.tv_sec == info.st_mtim.tv_sec && after.st_mtim.tv_nsec == info.st_mtim.tv_nsec)
        }
        #expect(report.unreadItems == 18)
        #expect(report.cachedItems == 18)
    }

    /// The `sources` table meets the item files in content-plan order: a file added before all
    /// the others and one removed shift the rest, whose records are then found by path, so they
    /// are still not read.
    @Test func addedAndRemovedFilesLeaveTheOthersUnread() throws {
        let report = try Self.expectIdentical { site, out in
            Thread.sleep(forTimeInterval: Double(SourceStats.racyMargin) / 1e9 + 0.2)
            #expect(Self.build(site, out).exitStatus == 0)
            #expect(Self.build(site, out).unreadItems == 19)
            writeSite(site, ["content/news/aaa.md": "---\ntitle: First\n---\nA new first item.\n"])
            try FileManager.default.removeItem(atPath: site + "/content/news/item-10.md")
        }
        #expect(report.unreadItems == 18)
        #expect(report.cachedItems == 18)
    }

    /// A `_feed.md` added above a section folder changes its items' section and names below it
    /// (their ids): an item file the `sources` table trusts is looked up with its new place.
    /// (Found in review: the table kept a key that hashed the old place.)
    @Test func newFeedAboveUnreadItemsChangesTheirPlace() throws {
        for adding in [true, false] {
            try Self.expectIdentical { site, out in
                writeSite(site, ["content/grp/sub/x.md": "---\ntitle: Hello\n---\nBody text here.\n"])
                if !adding { writeSite(site, ["content/grp/_feed.md": "---\ntitle: Group\n---\n"]) }
                Thread.sleep(forTimeInterval: Double(SourceStats.racyMargin) / 1e9 + 0.2)
                #expect(Self.build(site, out).exitStatus == 0)  // records x.md (racy: read)
                Thread.sleep(forTimeInterval: Double(SourceStats.racyMargin) / 1e9 + 0.2)
                #expect(Self.build(site, out).unreadItems > 0)  // trusted from here
                if adding {
                    writeSite(site, ["content/grp/_feed.md": "---\ntitle: Group\n---\n"])
                } else {
                    try FileManager.default.removeItem(atPath: site + "/content/grp/_feed.md")
                }
            }
        }
    }

    /// The inline items of one `_section.md` share its path: editing one that is not the last
    /// re-renders its card. (Found in review: fingerprints were keyed by path alone.)
    @Test func editedInlineItemIsRerendered() throws {
        try Self.expectIdentical { site, out in
            writeSite(site, ["content/chips/_section.md": "---\ntitle: Chips\nitems:\n  - {title: Curry}\n  - {title: Cake}\n---\n"])
            #expect(Self.build(site, out).exitStatus == 0)
            #expect(Self.build(site, out).exitStatus == 0)
            writeSite(site, ["content/chips/_section.md": "---\ntitle: Chips\nitems:\n  - {title: Korma}\n  - {title: Cake}\n---\n"])
        }
    }

    /// A build into an output whose cache another build holds waits for it (saying so), then
    /// builds; builds started together into one output all succeed, each output a whole build.
    /// (Found in review: the second of two concurrent builds failed with "…/back: File exists".)
    @Test func concurrentBuildsIntoOneOutputWait() throws {
        let site = try Self.makeSite()
        let out = site + "/../public"
        #expect(Self.build(site, out).exitStatus == 0)
        let holder = BuildLock()
        holder.acquire(cacheFolder: BuildCache.folder(forOutput: out), output: out, waiting: nil)
        final class Said: @unchecked Sendable {
            let lock = NSLock()
            var lines: [String] = []
        }
        let said = Said()
        var options = BuildOptions(siteRoot: site, output: out, now: fixedNow)
        options.onWaiting = { line in said.lock.withLock { said.lines.append(line) } }
        let done = DispatchSemaphore(value: 0)
        let result = Said()
        let waiting = options
        Thread {
            let report = SiteBuilder.build(waiting)
            result.lock.withLock { result.lines.append("exit \(report.exitStatus)") }
            done.signal()
        }.start()
        // The build says it waits (once it has loaded the configuration), and it keeps waiting.
        let deadline = Date().addingTimeInterval(60)
        while said.lock.withLock({ said.lines.isEmpty }), Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(done.wait(timeout: .now() + 0.5) == .timedOut)
        #expect(said.lock.withLock { said.lines } == ["feedgen: waiting for another feedgen build writing to \(URL(fileURLWithPath: out).standardizedFileURL.path) to finish\n"])
        holder.release()
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(result.lock.withLock { result.lines } == ["exit 0"])

        // Four builds at once, the site edited before them: all succeed, and the output is the
        // clean build's.
        writeSite(site, ["content/news/item-03.md": "---\ntitle: Edited three\n---\nNew body.\n"])
        let group = DispatchGroup()
        let statuses = Said()
        for _ in 0..<4 {
            DispatchQueue.global().async(group: group) {
                let status = Self.build(site, out).exitStatus
                statuses.lock.withLock { statuses.lines.append("exit \(status)") }
            }
        }
        group.wait()
        #expect(statuses.lines == Array(repeating: "exit 0", count: 4))
        let clean = site + "/../clean"
        #expect(Self.build(site, clean, useCache: false).exitStatus == 0)
        #expect(Self.tree(out) == Self.tree(clean))
    }

    /// The state file: a tree's lines as read are written back as they were (the output's
    /// manifest, unchanged by a build), and read again as the same manifest and line order;
    /// another tree is formatted from its manifest.
    @Test func stateLinesReadAreWrittenBack() throws {
        let path = temporaryFolder() + "/state"
        let e = { (n: UInt64) in ManifestEntry(hash: n, key: n * 3, size: Int64(n), mtime: -Int64(n), inode: n + 7) }
        var first = CacheState()
        first.trees[11] = ["b.html": e(1), "a/é.html": e(2), "c.css": e(3)]
        first.orders[11] = ["c.css", "b.html", "a/é.html"]
        first.trees[22] = ["index.html": e(4)]
        try first.write(path, salt: 5)
        let read = CacheState.read(path, salt: 5)
        #expect(read.trees == first.trees)
        #expect(read.orders[11] == ["c.css", "b.html", "a/é.html"])
        #expect(read.lines[11].map(Array.init) == Array("3 9 3 18446744073709551613 10 c.css\n1 3 1 18446744073709551615 8 b.html\n2 6 2 18446744073709551614 9 a/é.html\n".utf8))
        var second = CacheState()
        second.trees[11] = read.trees[11]
        second.orders[11] = read.orders[11]
        second.lines[11] = read.lines[11]
        second.trees[33] = ["index.html": e(5)]
        try second.write(path, salt: 5)
        let again = CacheState.read(path, salt: 5)
        #expect(again.trees == second.trees)
        #expect(again.orders[11] == read.orders[11])
        #expect(again.lines[11] == read.lines[11])
        #expect(CacheState.read(path, salt: 6).trees.isEmpty)
    }

    /// A back buffer 100 folders deep checks out (the listing holds two descriptors, not one per
    /// level), and any extra file makes it not check out.
    @Test func deepTreeIsListed() throws {
        let root = temporaryFolder()
        var path = ""
        for level in 0..<100 { path += (path.isEmpty ? "" : "/") + "d\(level)" }
        try FileManager.default.createDirectory(atPath: root + "/" + path, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/" + path + "/f.html"))
        var size: Int64 = 0, mtime: Int64 = 0
        var inode: UInt64 = 0
        #expect(feedgen_file_identity(root + "/" + path + "/f.html", &size, &mtime, &inode) == 0)
        let manifest = [path + "/f.html": ManifestEntry(hash: 1, key: 0, size: size, mtime: mtime, inode: inode)]
        #expect(CacheState.matches(root, manifest))
        try Data("y".utf8).write(to: URL(fileURLWithPath: root + "/d0/extra.html"))
        #expect(!CacheState.matches(root, manifest))
    }

    /// An output that is a symbolic link to a folder: the folder it points to gets the site
    /// (the link stays a link), builds after it are incremental, and the cache sits beside the
    /// folder. (Found in review: the first build swapped the link itself into the cache.)
    @Test func outputBehindASymbolicLink() throws {
        let site = try Self.makeSite()
        let target = site + "/../www/html"
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        let link = site + "/../public"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "www/html")
        #expect(Self.build(site, link).exitStatus == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "www/html")
        #expect(FileManager.default.fileExists(atPath: target + "/index.html"))
        #expect(FileManager.default.fileExists(atPath: site + "/../www/.html.feedgen-cache/state"))
        #expect(!FileManager.default.fileExists(atPath: site + "/../.public.feedgen-cache"))
        try Self.replace(site, "content/news/item-04.md", "Body of item 4", "A new body for item 4")
        let second = Self.build(site, link)
        #expect(second.exitStatus == 0)
        #expect(second.cachedItems == 18)
        #expect(try String(contentsOfFile: link + "/index.html", encoding: .utf8).contains("A new body for item 4"))
        let clean = Self.build(site, site + "/../clean", useCache: false)
        #expect(clean.exitStatus == 0)
        #expect(Self.tree(target) == Self.tree(site + "/../clean"))
    }

    @Test func cleanFlagIgnoresTheCache() throws {
        let site = try Self.makeSite()
        let out = site + "/../public"
        #expect(Self.build(site, out).exitStatus == 0)
        let report = Self.build(site, out, useCache: false)
        #expect(report.cachedItems == 0)
        #expect(report.filesWritten == Self.tree(out).values.count { $0 != nil })
        // The clean build started a new cache: the next build parses nothing.
        #expect(Self.build(site, out).cachedItems == 19)
        #expect(BuildCache.folder(forOutput: "/x/y/public") == "/x/y/.public.feedgen-cache")
    }

    /// A template error in an incremental build: nothing written, the output is the previous build.
    @Test func failedIncrementalBuildKeepsTheOutput() throws {
        let site = try Self.makeSite()
        let out = site + "/../public"
        #expect(Self.build(site, out).exitStatus == 0)
        #expect(Self.build(site, out).exitStatus == 0)
        let before = Self.tree(out)
        writeSite(site, ["Templates/item.mustache": "{{>nope}}\n"])
        #expect(Self.build(site, out).exitStatus == 1)
        #expect(Self.tree(out) == before)
        try FileManager.default.removeItem(atPath: site + "/Templates/item.mustache")
        try Self.replace(site, "content/news/item-04.md", "Body of item 4", "Changed")
        #expect(Self.build(site, out).exitStatus == 0)
        #expect(Self.build(site, site + "/../clean", useCache: false).exitStatus == 0)
        #expect(Self.tree(out) == Self.tree(site + "/../clean"))
    }

    // MARK: - Card fragments (`cards.log`): a stale fragment would show as a difference

    /// The long section defers its later cards: the premise of the card tests below.
    @Test func longSectionDefersCards() throws {
        // A section title: the home page is rendered again (its key changed), its cards not.
        let report = try Self.expectIdentical(long: true) { site, _ in
            try Self.replace(site, "content/zlong/_section.md", "title: Long", "title: Longer")
        }
        #expect(report.cardsRendered == 0)  // every card from cards.log
        #expect(report.pagesRendered == 1)
        let site = try Self.makeSite(long: true)
        #expect(Self.build(site, site + "/../public").exitStatus == 0)
        let page = try String(contentsOfFile: site + "/../public/index.html", encoding: .utf8)
        #expect(page.contains("--cl-est:"))
        #expect(page.contains("loading=\"lazy\""))
    }

    @Test func cardTitleEditRendersOneCard() throws {
        let report = try Self.expectIdentical(long: true) { site, _ in
            try Self.replace(site, "content/zlong/entry-20.md", "title: Entry 20", "title: Entry twenty, now with a much longer title")
        }
        #expect(report.cardsRendered == 1)
    }

    @Test func cardTemplateOnlyChange() throws {
        let report = try Self.expectIdentical(long: true) { site, _ in
            try Self.replace(site, "Templates/cards/card.mustache", "<h3>", "<h3 class=\"changed\">")
        }
        #expect(report.cardsRendered == report.cards)  // every card
    }

    @Test func cardPartialChange() throws {
        try Self.expectIdentical(long: true) { site, _ in
            try Self.replace(site, "Templates/cards/card.mustache", "{{{html}}}", "{{>byline}}{{{html}}}")
            writeSite(site, ["Templates/partials/byline.mustache": "<p class=\"by\">{{id}}</p>"])
        }
    }

    /// A card with an image moves from the first screen (eager, the first images of the page)
    /// to the end of its section (lazy), and another image takes its place.
    @Test func imageCardMovesFromEagerToLazy() throws {
        let report = try Self.expectIdentical(long: true) { site, _ in
            try Self.replace(site, "content/zlong/entry-03.md", "weight: 4", "weight: 90")
        }
        #expect(report.cardsRendered >= 2)  // entry-03 (now lazy) and entry-09 (now eager)
    }

    @Test func imageCardMovesFromLazyToFirst() throws {
        try Self.expectIdentical(long: true) { site, _ in
            try Self.replace(site, "content/zlong/entry-36.md", "weight: 37", "weight: 0")
        }
    }

    /// A neighbour's text grows: later cards keep their fragments but move down (deferral and
    /// estimates of the page change around unchanged cards).
    @Test func neighbourChanges() throws {
        let report = try Self.expectIdentical(long: true) { site, _ in
            try Self.replace(site, "content/zlong/entry-01.md", "Entry 1: ", "Entry 1: " + String(repeating: "longer text ", count: 200))
        }
        #expect(report.cardsRendered == 1)
    }

    @Test func longSectionLayoutChange() throws {
        try Self.expectIdentical(long: true) { site, _ in
            try Self.replace(site, "content/zlong/_section.md", "layout: list", "layout: grid")
        }
    }

    @Test func longSectionBecomesIneligible() throws {
        try Self.expectIdentical(long: true) { site, _ in
            try Self.replace(site, "content/zlong/_section.md", "layout: list", "layout: carousel")
        }
    }

    @Test func longSectionThemeAndConfigChange() throws {
        try Self.expectIdentical(long: true) { site, _ in
            writeSite(site, ["feedgen.yaml": "title: Renamed\nbaseURL: https://example.net/base/\nlanguage: fr\ntheme:\n  cornerRadius: 4px\n"])
        }
    }

    @Test func damagedCardLogIsIgnored() throws {
        try Self.expectIdentical(long: true) { site, out in
            try Self.damage(BuildCache.folder(forOutput: out) + "/cards.log")
        }
    }

    /// Flips two bytes in the middle of a log without changing its size (a record fails its
    /// checksum; only the log's times tell).
    static func damageKeepingSize(_ log: String) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: log))
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: size / 2)
        let bytes = try handle.read(upToCount: 2) ?? Data()
        try handle.seek(toOffset: size / 2)
        try handle.write(contentsOf: Data(bytes.map { $0 ^ 0xFF }))
        try handle.close()
    }

    /// Both logs are sealed by a build (``LogSeal``); a log damaged in place, even at the same
    /// size, no longer matches its seal, so its records are checked again and the damaged one
    /// is ignored.
    @Test func logsAreSealedAndADamagedLogIsCheckedAgain() throws {
        for log in ["items.log", "cards.log"] {
            var seen = false
            try Self.expectIdentical(long: true) { site, out in
                let path = BuildCache.folder(forOutput: out) + "/" + log
                let file = try #require(MappedFile(path: path))
                #expect(LogSeal.holds(file, path: path), "\(log) not sealed")
                // Later than the seal's timestamp tick, on file systems with coarse timestamps.
                usleep(50_000)
                try Self.damageKeepingSize(path)
                let damaged = try #require(MappedFile(path: path))
                #expect(!LogSeal.holds(damaged, path: path), "\(log) still sealed after damage")
                #expect(damaged.bytes.count == file.bytes.count)
                seen = true
                if log == "items.log" { try Self.replace(site, "content/notes/note-2.md", "A note 2", "Another note") }
            }
            #expect(seen)
        }
    }

    /// A fragment and its estimate survive the codec exactly.
    @Test func cardFragmentCodec() throws {
        let html = "<article class=\"card\"><img src=\"a.png\" width=\"40\" height=\"30\"><h3>Tïtle</h3><pre>a\nb</pre><p>text</p></article>"
        let fragment = CardFragment(html: html, estimate: CardHeightEstimate(html: html, preset: "list"))
        let bytes = fragment.encoded()
        let decoded = bytes.withUnsafeBytes { CardFragment(decoding: $0) }
        #expect(decoded == fragment)
        #expect(decoded?.estimate?.height(width: 390) == CardHeightEstimate(html: html, preset: "list").height(width: 390))
        let plain = CardFragment(html: html, estimate: nil)
        #expect(plain.encoded().withUnsafeBytes { CardFragment(decoding: $0) } == plain)
        #expect(Array(bytes.prefix(3)).withUnsafeBytes { CardFragment(decoding: $0) } == nil)
    }
}
