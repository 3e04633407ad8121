import Foundation
import Testing

@testable import FeedgenCLI
import FeedgenDiagnostics

/// GitHub annotations name files from the working folder; text diagnostics from the site.
@Suite struct DiagnosticPathTests {
    func printed(siteRoot: String, format: Terminal.ErrorFormat) -> String {
        var terminal = Terminal(environment: ["NO_COLOR": "1"])
        terminal.errorFormat = format
        terminal.showPaths(fromSiteRoot: siteRoot)
        var diagnostics = Diagnostics()
        diagnostics.warning(SourceLocation(path: "content/s/a.md", line: 3, column: 8), "check this")
        diagnostics.append(.note(SourceLocation(path: "."), "about the site"))
        return terminal.text(of: diagnostics)
    }

    @Test func annotationsOfASiteInASubfolderNameFilesFromTheWorkingFolder() {
        #expect(
            printed(siteRoot: "docs/site", format: .github) == """
                .: note: about the site
                ::notice file=docs/site::about the site
                content/s/a.md:3:8: warning: check this
                ::warning file=docs/site/content/s/a.md,line=3,col=8::check this

                """)
    }

    @Test func textDiagnosticsStayRelativeToTheSite() {
        let cwd = FileManager.default.currentDirectoryPath
        let expected = ".: note: about the site\ncontent/s/a.md:3:8: warning: check this\n"
        #expect(printed(siteRoot: "docs/site", format: .text) == expected)
        #expect(printed(siteRoot: cwd, format: .github).contains("::warning file=content/s/a.md,line=3,col=8::check this\n"))
        #expect(printed(siteRoot: "/nonexistent/site", format: .github).contains("::warning file=/nonexistent/site/content/s/a.md,"))
    }

}
