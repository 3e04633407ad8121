import FeedgenDiagnostics
import Foundation
import Testing

@testable import FeedgenBuild
@testable import FeedgenCLI

/// Watch mode notices an edit, a new file in a new folder and a delete, with inotify and with
/// the polling fallback, and rebuilds the output after each. Nothing sleeps for seconds: every
/// wait polls for its result, with a time limit.
@Suite struct WatcherTests {
    static func site() -> String {
        let root = temporaryFolder()
        writeSite(root, [
            "feedgen.yaml": "title: Watched\n",
            "content/news/_section.md": "---\ntitle: News\nlayout: list\n---\n",
            "content/news/a.md": "---\ntitle: Alpha\nweight: 1\n---\nBody.\n",
            "content/news/b.md": "---\ntitle: Bravo\nweight: 2\n---\nBody.\n",
        ])
        return root
    }

    /// The changes `sources` reports until it has reported all of `expected` (or 20 s passed).
    static func changes(_ sources: SourceWatch, until expected: Set<String>) -> Set<String> {
        var seen = Set<String>()
        let deadline = Date().addingTimeInterval(20)
        while !seen.isSuperset(of: expected), Date() < deadline {
            seen.formUnion(sources.next(timeout: deadline.timeIntervalSinceNow) ?? [])
        }
        return seen
    }

    @Test(arguments: [false, true])
    func anEditANewFileInANewFolderAndADeleteAreEachNoticed(polling: Bool) throws {
        let root = Self.site()
        let said = SaidLines()
        let sources = SourceWatch(root: root, polling: polling, pollInterval: 0.02) { said.add($0) }
        #expect(sources.polling == polling)
        #expect(sources.next(timeout: 0.05) == nil)

        // Files beside the sources (the output, notes) are not sources.
        writeSite(root, ["public/index.html": "x", "notes.txt": "x", "content/news/a.md": "---\ntitle: Changed\n---\n"])
        let edit: Set = [root + "/content/news/a.md"]
        #expect(Self.changes(sources, until: edit) == edit)

        writeSite(root, ["content/news/deep/er/c.md": "---\ntitle: Charlie\n---\n"])
        let added: Set = [root + "/content/news/deep", root + "/content/news/deep/er", root + "/content/news/deep/er/c.md"]
        let seen = Self.changes(sources, until: added)
        // A write seen in two bursts may name the edited file once more.
        #expect(seen.isSuperset(of: added) && seen.subtracting(added).isSubset(of: edit), "\(seen.sorted())")

        try FileManager.default.removeItem(atPath: root + "/content/news/b.md")
        let deleted: Set = [root + "/content/news/b.md"]
        #expect(Self.changes(sources, until: deleted).isSuperset(of: deleted))
        // A file written into the new folder is seen too (its watch was added).
        writeSite(root, ["content/news/deep/er/d.md": "---\ntitle: Delta\n---\n"])
        let later: Set = [root + "/content/news/deep/er/d.md"]
        #expect(Self.changes(sources, until: later).isSuperset(of: later))
        #expect(said.lines == [])
    }

    /// A folder moved within the site keeps being watched at its new place.
    @Test func aMovedFolderIsWatchedAtItsNewPlace() throws {
        let root = Self.site()
        writeSite(root, ["content/news/old/e.md": "---\ntitle: Echo\n---\n"])
        let sources = SourceWatch(root: root, pollInterval: 0.02) { _ in }
        try FileManager.default.moveItem(atPath: root + "/content/news/old", toPath: root + "/content/news/new")
        let moved: Set = [
            root + "/content/news/old", root + "/content/news/old/e.md",
            root + "/content/news/new", root + "/content/news/new/e.md",
        ]
        #expect(Self.changes(sources, until: moved) == moved)
        writeSite(root, ["content/news/new/e.md": "---\ntitle: Echo again\n---\n"])
        let edit: Set = [root + "/content/news/new/e.md"]
        #expect(Self.changes(sources, until: edit) == edit)
    }

    /// `build --watch` rebuilds the output after each change and ends when its sources stop.
    @Test(arguments: [false, true])
    func theOutputFollowsEachChange(polling: Bool) throws {
        let root = Self.site()
        let out = root + "/public"
        var options = BuildOptions(siteRoot: root, output: out, now: fixedNow)
        options.onWaiting = nil
        var terminal = Terminal(environment: ["NO_COLOR": "1"])
        terminal.quiet = true
        let watcher = Watcher(options: options, interval: 0.02)
        let sources = watcher.sources(polling: polling, terminal: terminal)
        let ended = DispatchSemaphore(value: 0)
        let status = SaidLines()
        let shown = terminal
        Thread {
            status.add("\(watcher.run(terminal: shown, sources: sources))")
            ended.signal()
        }.start()
        func page(_ path: String) -> String? { try? String(contentsOfFile: out + "/" + path, encoding: .utf8) }
        func waitFor(_ what: String, _ condition: () -> Bool) {
            let deadline = Date().addingTimeInterval(30)
            while !condition(), Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            #expect(condition(), "\(what)")
        }
        waitFor("the first build") { page("index.html")?.contains("Bravo") == true }
        writeSite(root, ["content/news/a.md": "---\ntitle: Changed\nweight: 1\n---\nBody.\n"])
        waitFor("the edit") { page("news/a.html")?.contains("Changed") == true }
        writeSite(root, ["content/news/deep/er/c.md": "---\ntitle: Charlie\nweight: 3\n---\nBody.\n"])
        waitFor("the new page") { page("news/deep/er/c.html")?.contains("Charlie") == true }
        try FileManager.default.removeItem(atPath: root + "/content/news/b.md")
        waitFor("the delete") { page("news/b.html") == nil && page("index.html")?.contains("Bravo") == false }
        sources.stop()
        #expect(ended.wait(timeout: .now() + 30) == .success)
        #expect(status.lines == ["0"])
    }
}

/// A rebuild says each warning and note once, when it first appears, and every error each time.
@Suite struct WatcherOutputTests {
    @Test func warningsAreSaidOnceAndErrorsEachRebuild() {
        var first = Diagnostics()
        first.warning(SourceLocation(path: "content/a.md", line: 3, column: 1), "old warning")
        first.append(.note(SourceLocation(path: "feedgen.yaml", line: 1, column: 1), "no baseURL"))
        var said = Set(first.items.filter { $0.severity != .error }.map(\.description))
        var second = first
        second.error(SourceLocation(path: "content/b.md", line: 2, column: 7), "invalid date")
        second.warning(SourceLocation(path: "content/c.md", line: 5, column: 2), "new warning")
        #expect(
            Watcher.toSay(second, said: &said).items.map(\.description) == [
                "content/b.md:2:7: error: invalid date", "content/c.md:5:2: warning: new warning",
            ])
        #expect(Watcher.toSay(second, said: &said).items.map(\.description) == ["content/b.md:2:7: error: invalid date"])
    }
}

/// Lines said from another thread.
final class SaidLines: @unchecked Sendable {
    private let lock = NSLock()
    private var said: [String] = []
    func add(_ line: String) { lock.withLock { said.append(line) } }
    var lines: [String] { lock.withLock { said } }
}

/// Without inotify (here: its limit of watches reached), watch mode says so once and polls.
@Suite struct WatcherFallbackTests {
    @Test func aRefusedWatchFallsBackToPollingSayingSoOnce() throws {
        let root = WatcherTests.site()
        let said = SaidLines()
        // The site folder, content/ and content/news take three watches.
        let sources = SourceWatch(root: root, pollInterval: 0.02, watchLimit: 2) { said.add($0) }
        #expect(sources.polling)
        let seconds = "0.02"
        #expect(said.lines == [
            "feedgen: note: watching without inotify (cannot watch \(root)/content/news: the limit of watches is reached; raise fs.inotify.max_user_watches); looking for changes every \(seconds) s instead\n"
        ])
        writeSite(root, ["content/news/a.md": "---\ntitle: Changed\n---\n", "content/news/new/f.md": "F"])
        let changed: Set = [root + "/content/news/a.md", root + "/content/news/new/f.md", root + "/content/news/new"]
        #expect(WatcherTests.changes(sources, until: changed) == changed)
        #expect(said.lines.count == 1)
    }
}
