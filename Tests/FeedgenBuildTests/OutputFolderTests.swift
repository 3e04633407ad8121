import Foundation
import Testing

@testable import FeedgenBuild
@testable import FeedgenIncremental

/// The output folder and the build cache after builds that fail: a failed build leaves no
/// temporary file anywhere (issue #22, item 5); the user's deploy repository in the output
/// survives every build, and a file no build wrote stops the build (issue #22, item 1).
@Suite struct OutputFolderTests {
    /// An item whose output name is longer than the file system allows (an explicit 252-byte
    /// `id`, so a 257-byte `.html`; a long file name is shortened instead: LongNameTests) fails the
    /// first build with a content error (exit 1, not 2); the cache folder then holds no
    /// `*.tmp-<pid>` (the item cache's new log was left behind when the build stopped before
    /// writing).
    @Test func failedFirstBuildLeavesNoTemporaryFile() throws {
        let root = temporaryFolder("long-name")
        let id = String(repeating: "a", count: 252)
        writeSite(root, [
            "content/posts/long.md": "---\ntitle: Long\nid: \(id)\n---\nBody\n",
            "content/posts/ok.md": "---\ntitle: Ok\n---\nBody\n",
        ])
        let report = build(root)
        #expect(report.exitStatus == 1)
        let cache = try FileManager.default.contentsOfDirectory(atPath: root + "/.public.feedgen-cache").sorted()
        #expect(cache == ["back", "lock"])
        #expect(!FileManager.default.fileExists(atPath: root + "/public"))
    }

    /// `git` in `folder`; its standard output (runProcess keeps only standard error).
    static func git(_ folder: String, _ arguments: String) throws -> (status: Int32, out: String, err: String) {
        let file = folder + "/../git-out.txt"
        let result = try runProcess(
            "/bin/sh", ["-c", "/usr/bin/git -C '\(folder)' \(arguments) > '\(file)'"],
            environment: ["GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"])
        return (result.status, (try? String(contentsOfFile: file, encoding: .utf8)) ?? "", result.stderr)
    }

    /// A deploy repository in the output (`.git/` with a commit, `CNAME`, `.nojekyll`) is intact
    /// after a patch build, a full cached build and a `--clean` build, each after an edit; the
    /// rest of the output is a clean build's. (Old code: the second build that changes something
    /// deleted `.git/` and `CNAME`, moved into the back buffer by the first.)
    @Test func deployRepositoryInTheOutputSurvivesEveryBuild() throws {
        let site = try PatchBuildTests.makeSite()
        let out = site + "/../public"
        #expect(IncrementalBuildTests.build(site, out).exitStatus == 0)
        #expect(try Self.git(out, "init -q").status == 0)
        #expect(try Self.git(out, "add -A").status == 0)
        #expect(try Self.git(out, "commit -q -m deploy").status == 0)
        let head = try Self.git(out, "rev-parse HEAD").out
        #expect(head.count == 41)
        let cname = Data("www.example.org\n".utf8)
        try cname.write(to: URL(fileURLWithPath: out + "/CNAME"))
        try Data().write(to: URL(fileURLWithPath: out + "/.nojekyll"))
        let user: Set<String> = ["CNAME", ".nojekyll", ".git"]
        let edits: [(String, String, String, Bool)] = [
            ("content/news/item-02.md", "with *emphasis*", "with *emphases*", true),
            ("content/news/item-04.md", "title: Item 4", "title: Item Four", true),
            ("content/news/item-03.md", "with *emphasis*", "with _emphases_", false),
        ]
        for (round, (path, old, new, useCache)) in edits.enumerated() {
            try IncrementalBuildTests.replace(site, path, old, new)
            let report = IncrementalBuildTests.build(site, out, useCache: useCache)
            #expect(report.exitStatus == 0, "round \(round): \(report.diagnostics.items)")
            if round == 0 { #expect(report.patched) }
            if round == 1 { #expect(!report.patched) }
            #expect(try Self.git(out, "rev-parse HEAD").out == head, "round \(round)")
            let fsck = try Self.git(out, "fsck --full --strict")
            #expect(fsck.status == 0, "round \(round): \(fsck.err)")
            #expect(FileManager.default.contents(atPath: out + "/CNAME") == cname, "round \(round)")
            #expect(FileManager.default.contents(atPath: out + "/.nojekyll") == Data(), "round \(round)")
            let clean = site + "/../clean-\(round)"
            #expect(IncrementalBuildTests.build(site, clean, useCache: false).exitStatus == 0)
            let mine = IncrementalBuildTests.tree(out).filter { !user.contains(String($0.key.prefix { $0 != "/" })) }
            let reference = IncrementalBuildTests.tree(clean)
            #expect(mine.keys.sorted() == reference.keys.sorted(), "round \(round)")
            for (path, bytes) in reference where mine[path] != bytes { Issue.record("round \(round): \(path) differs") }
            // Nothing of the user's left in the cache either (the back buffer is the previous build's).
            let back = site + "/../.public.feedgen-cache/back"
            #expect(!FileManager.default.fileExists(atPath: back + "/.git"), "round \(round)")
        }
    }

    /// A file added to the output by hand (not a root dot-file or `CNAME`) stops the next build
    /// with an error naming it, exit 2 (as for an output folder feedgen did not write), and the
    /// output, that file included, is left as it was. (Old code: the build exited 0 and moved
    /// the file into the back buffer, where the next build deleted it.)
    @Test func strayFileInTheOutputStopsTheBuild() throws {
        let site = try PatchBuildTests.makeSite()
        let out = URL(fileURLWithPath: site + "/../public").standardizedFileURL.path
        #expect(IncrementalBuildTests.build(site, out).exitStatus == 0)
        try Data("mine\n".utf8).write(to: URL(fileURLWithPath: out + "/notes.txt"))
        let before = IncrementalBuildTests.tree(out)
        for (path, old, new) in [
            ("content/news/item-02.md", "with *emphasis*", "with *emphases*"),
            ("content/news/item-04.md", "title: Item 4", "title: Item Four"),
        ] {
            try IncrementalBuildTests.replace(site, path, old, new)
            let report = IncrementalBuildTests.build(site, out)
            #expect(report.exitStatus == 2)
            #expect(
                report.diagnostics.items.filter { $0.severity == .error }.map(\.description) == [
                    "\(out)/notes.txt: error: this file in the output folder was not written by feedgen; move it away or into static/"
                ])
            #expect(IncrementalBuildTests.tree(out) == before)
        }
    }

    /// A `static/` file named as the user's `CNAME` in the output is an error naming it, exit 2,
    /// the user's file left as it is. (Old code: static/CNAME replaced it, the user's went into the
    /// back buffer and was deleted by the next build.)
    @Test func staticFileNamedAsAUserEntryIsAnError() throws {
        let site = try PatchBuildTests.makeSite()
        let out = URL(fileURLWithPath: site + "/../public").standardizedFileURL.path
        #expect(IncrementalBuildTests.build(site, out).exitStatus == 0)
        try Data("user.example.org\n".utf8).write(to: URL(fileURLWithPath: out + "/CNAME"))
        try Data("static.example.org\n".utf8).write(to: URL(fileURLWithPath: site + "/static/CNAME"))
        let report = IncrementalBuildTests.build(site, out)
        #expect(report.exitStatus == 2)
        #expect(
            report.diagnostics.items.filter { $0.severity == .error }.map(\.description) == [
                "\(out): error: cannot write the output folder: CNAME: this entry of the output folder is not feedgen's, and static/ has a file of that name; move one of them away; check --output or the 'output' setting"
            ])
        #expect(FileManager.default.contents(atPath: out + "/CNAME") == Data("user.example.org\n".utf8))
    }

    /// A build with no source change writes again a page deleted and a page edited by hand in
    /// the output: its output is a clean build's (the old code wrote nothing, said "built", and
    /// left the page missing and the edit in place).
    @Test func aBuildWithNoSourceChangeRepairsTheOutput() throws {
        let site = try PatchBuildTests.makeSite()
        let out = site + "/../public"
        _ = PatchBuildTests.buildAndCompare(site, "first build")
        #expect(PatchBuildTests.buildAndCompare(site, "no change").patched)
        #expect(FileManager.default.fileExists(atPath: out + "/news/item-01.html"))
        try FileManager.default.removeItem(atPath: out + "/news/item-01.html")
        try PatchBuildTests.append(out, "index.html", "<!-- edited by hand -->\n")
        let repaired = PatchBuildTests.buildAndCompare(site, "after hand edits")
        #expect(!repaired.patched)
        #expect(FileManager.default.fileExists(atPath: out + "/news/item-01.html"))
        // And the build after it is patched again, with nothing to write.
        let next = PatchBuildTests.buildAndCompare(site, "no change again")
        #expect(next.patched)
        #expect(next.filesWritten == 0)
    }
}
