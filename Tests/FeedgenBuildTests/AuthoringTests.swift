import Foundation
import Testing

@testable import FeedgenBuild
@testable import FeedgenDiagnostics

/// Scaffolding, strict mode and the GitHub annotation format.
@Suite struct AuthoringTests {
    @Test func strictTurnsWarningsIntoErrors() {
        let root = temporaryFolder()
        writeSite(root, ["content/news/a.md": "---\ntitel: Typo\n---\nBody.\n"])
        let relaxed = build(root, output: temporaryFolder() + "/out")
        #expect(relaxed.exitStatus == 0)
        #expect(relaxed.diagnostics.warningCount == 1)
        let strict = build(root, output: temporaryFolder() + "/out", strict: true)
        #expect(strict.exitStatus == 1)
    }

    @Test func githubAnnotationFormat() {
        let d = Diagnostic.error(SourceLocation(path: "content/a,b.md", line: 3, column: 7), "bad value: 50%\nsecond line")
        #expect(d.description == "content/a,b.md:3:7: error: bad value: 50%\nsecond line")
        #expect(d.githubAnnotation == "::error file=content/a%2Cb.md,line=3,col=7::bad value: 50%25%0Asecond line")
        let w = Diagnostic.warning(SourceLocation(path: "feedgen.yaml"), "x")
        #expect(w.githubAnnotation == "::warning file=feedgen.yaml::x")
    }
}

/// Template lint reaches the build: a name no context provides is a warning, an error with --strict.
@Suite struct TemplateLintWiringTests {
    @Test func unknownTemplateVariableWarnsAndFailsUnderStrict() {
        let root = temporaryFolder()
        writeSite(root, [
            "content/news/a.md": "---\ntitle: A\n---\nBody.\n",
            "Templates/cards/card.mustache": "<article class=\"card\"><h3>{{title}}</h3>{{subtitel}}</article>\n",
        ])
        let relaxed = build(root, output: temporaryFolder() + "/public")
        #expect(relaxed.exitStatus == 0)
        let warnings = relaxed.diagnostics.items.filter { $0.severity == .warning }
        #expect(warnings.count == 1)
        #expect(warnings.first?.location.path == "Templates/cards/card.mustache")
        #expect(warnings.first?.message.contains("subtitel") == true)
        #expect(build(root, output: temporaryFolder() + "/public", strict: true).exitStatus == 1)
    }
}
