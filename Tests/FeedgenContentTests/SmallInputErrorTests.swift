import Foundation
import Testing

@testable import FeedgenContent

/// Small input mistakes that were accepted without a word (issue 22, item 10).
@Suite struct SmallInputErrorTests {
    @Test func feedFolderSkippedAsALoopMakesNoFeed() throws {
        // The old scanner kept the skipped folder as a second, empty feed 'blog/again'.
        let site = try TestSite(["content/blog/_feed.md": "---\ntitle: Blog\n---\n", "content/blog/s/a.md": "A"])
        try FileManagerSymlink(at: site.root + "/content/blog/again", to: site.root + "/content/blog")
        let (s, diagnostics) = site.load()
        #expect(
            diagnostics == [
                "content/blog/again: warning: folder skipped: it was already read through another path (a symbolic link loop?)"
            ])
        #expect(s?.feeds.map(\.path) == ["", "blog"])
    }

    @Test func themeTokenWithAnUnclosedStringOrCommentIsAnError() throws {
        let site = try TestSite([
            "feedgen.yaml": "theme:\n  font: '\"Inter, sans-serif'\n  accent: '#f00 /* x'\n  ok: \"'O\\\"Reilly', serif\"\n  radius: 4px\n"
        ])
        let (s, diagnostics) = site.load()
        let hint = "has an unbalanced quote or a '/*', which would void the tokens after it in the stylesheet; close the string (\"Inter\", sans-serif)"
        #expect(
            diagnostics == [
                "feedgen.yaml:2:9: error: theme token 'font' \(hint)", "feedgen.yaml:3:11: error: theme token 'accent' \(hint)",
            ])
        #expect(s == nil)
    }

    @Test func configFileThatIsAFolderIsAnError() throws {
        // The old loader read a folder named feedgen.yaml as no file: the site built on the defaults.
        let site = try TestSite(["content/s/a.md": "A"])
        try FileManager.default.createDirectory(atPath: site.root + "/feedgen.yaml", withIntermediateDirectories: true)
        let (s, diagnostics) = site.load()
        #expect(diagnostics == ["feedgen.yaml: error: cannot read the file: not a regular file (a folder)"])
        #expect(s == nil)
    }
}
