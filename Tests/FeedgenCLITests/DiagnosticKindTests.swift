import Testing

@testable import FeedgenCLI
@testable import FeedgenDiagnostics

/// More than 200 problems: the first 200 are printed, errors first, then one line per kind with
/// its count, so that no kind hides behind the ones that sort first by path.
@Suite struct DiagnosticKindTests {
    @Test(arguments: [
        ("Liquid output '{{ site.repository }}' is left out of the page: feedgen does not run Liquid",
         "Liquid output '…' is left out of the page: feedgen does not run Liquid"),
        ("duplicate item id 's/c' (also used by content/s/2020-01-01-c.md:1:1)", "duplicate item id '…' (also used by …)"),
        ("param 'x' is already defined at line 12; this one is ignored", "param '…' is already defined at line …; this one is ignored"),
        ("the feed's title isn't \"A\" or 'B'", "the feed's title isn't '…' or '…'"),
        ("an unclosed 'quote stays", "an unclosed 'quote stays"),
        // After a non-ASCII letter a quote is an apostrophe; after a space it opens a value.
        ("le fichier d'été 'a b' manque", "le fichier d'été '…' manque"),
        ("été'x' y", "été'x' y"),
        ("skipped: expired on 2026-11-29T10:00 (use --expired to include)", "skipped: expired on … (use --expired to include)"),
        ("image 3.5 MiB over https://example.org/a.png, see docs/limits.md.", "image … MiB over …, see ….")
    ])
    func kindLeavesOutTheValues(message: String, kind: String) {
        #expect(Diagnostic.kind(of: message) == kind)
        #expect(Diagnostic.warning(SourceLocation(path: "a.md", line: 1), message).kind == "warning: " + kind)
    }

    @Test func longListsEndWithACountPerKind() {
        var diagnostics = Diagnostics()
        for n in 0..<230 {
            diagnostics.warning(SourceLocation(path: "content/a/\(1000 + n).md", line: 3, column: 1), "Liquid output '{{ x\(n) }}' is left out of the page")
        }
        for n in 0..<4 { diagnostics.error(SourceLocation(path: "content/z/\(n).md", line: 2, column: 7), "invalid date '2023-\(n)'") }
        diagnostics.warning(SourceLocation(path: "content/z/last.md", line: 9, column: 1), "raw HTML omitted")
        var terminal = Terminal(environment: ["NO_COLOR": "1"])
        terminal.color = false
        let text = terminal.text(of: diagnostics)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 200 + 5)
        // Over the limit, the errors (last by path) come first, then warnings in path order.
        #expect(
            Array(lines.prefix(5)) == [
                "content/z/0.md:2:7: error: invalid date '2023-0'",
                "content/z/1.md:2:7: error: invalid date '2023-1'",
                "content/z/2.md:2:7: error: invalid date '2023-2'",
                "content/z/3.md:2:7: error: invalid date '2023-3'",
                "content/a/1000.md:3:1: warning: Liquid output '{{ x0 }}' is left out of the page",
            ])
        #expect(
            Array(lines.suffix(5)) == [
                "feedgen: 35 more problems not shown (4 errors and 231 warnings in all)",
                "feedgen: problems by kind (3 kinds):",
                "feedgen: 230 × warning: Liquid output '…' is left out of the page",
                "feedgen: 4 × error: invalid date '…'",
                "feedgen: 1 × warning: raw HTML omitted",
            ])
        // --strict counts warnings as errors; 200 problems or fewer get no summary.
        #expect(terminal.text(of: diagnostics, strict: true).contains("feedgen: 230 × error: Liquid output '…' is left out of the page\n"))
        var few = Diagnostics()
        for n in 0..<200 { few.warning(SourceLocation(path: "p\(n).md", line: 1), "w '\(n)'") }
        #expect(!terminal.text(of: few).contains("by kind"))
    }

    /// A list packed as a snapshot's (here kept as values).
    final class Packed: PackedDiagnostics, @unchecked Sendable {
        let all: [Diagnostic]
        init(_ all: [Diagnostic]) { self.all = all }
        var count: Int { all.count }
        var severities: [Severity] { all.map(\.severity) }
        func location(at index: Int) -> FeedgenDiagnostics.SourceLocation { all[index].location }
        func diagnostics(in range: Range<Int>) -> [Diagnostic] { Array(all[range]) }
    }

    /// A packed list, with notes appended to it and with a tally of its kinds counted in
    /// another order, prints as the same list of values: kinds equal as Strings (é composed or
    /// not) are printed as the first one printed.
    @Test(arguments: [false, true]) func packedListsPrintAsLists(equivalentKinds: Bool) {
        var plain = Diagnostics()
        for n in 0..<230 {
            let word = equivalentKinds && n % 3 == 1 ? "cafe\u{301}" : n % 7 == 0 ? "bar" : "caf\u{E9}"
            plain.warning(SourceLocation(path: "content/a/\(1000 + n % 150).md", line: n, column: 1), "\(word) 'x\(n)' is missing")
        }
        for n in 0..<3 { plain.error(SourceLocation(path: "content/z/\(n).md", line: 2, column: 7), "invalid date '2023-\(n)'") }
        for n in 0..<5 { plain.append(.note(SourceLocation(path: "content/b/\(n).md"), "skipped draft")) }
        plain.sort()
        var tally = KindTally.counting(plain.items.reversed() + [.warning(SourceLocation(path: "x"), "gone")])
        tally.remove(.warning(SourceLocation(path: "x"), "gone"))
        var packed = Diagnostics(packed: Packed(plain.items), kinds: tally)
        var uncounted = Diagnostics(packed: Packed(plain.items), kinds: nil)
        for note in [Diagnostic.note(SourceLocation(path: "."), "no 'baseURL'"), .note(SourceLocation(path: "content/a/1003.md"), "late")] {
            plain.append(note)
            packed.append(note)
            uncounted.append(note)
        }
        plain.sort()
        packed.sort()
        #expect(packed.items == plain.items)
        #expect(packed.errorCount == 3 && packed.warningCount == 230)
        for quiet in [false, true] {
            for format in [Terminal.ErrorFormat.text, .github] {
                var terminal = Terminal(environment: ["NO_COLOR": "1"])
                terminal.color = false
                terminal.quiet = quiet
                terminal.errorFormat = format
                for strict in [false, true] {
                    let expected = terminal.text(of: plain, strict: strict)
                    #expect(terminal.text(of: packed, strict: strict) == expected)
                    #expect(terminal.text(of: uncounted, strict: strict) == expected)
                }
            }
        }
    }

    /// Sorting ranks the distinct paths: the same order as comparing the locations of each two
    /// (paths equal as Strings, é composed or not, are one path), equal locations in the
    /// order found; a few appended to a sorted list are merged in so too.
    @Test func sortingIsAStableSortByLocation() {
        var generator = SystemRandomNumberGenerator()
        let paths = ["content/a.md", "content/caf\u{E9}.md", "content/cafe\u{301}.md", "content/b/c.md", ".", "feedgen.yaml", "content/a.md"]
        func random(_ n: Int) -> [Diagnostic] {
            (0..<n).map { k in
                let path = paths[Int.random(in: 0..<paths.count, using: &generator)]
                return .warning(SourceLocation(path: path, line: Int.random(in: 0..<4, using: &generator), column: Int.random(in: 0..<3, using: &generator)), "w\(k)")
            }
        }
        func reference(_ list: [Diagnostic]) -> [Diagnostic] {
            list.enumerated().sorted { a, b in
                let (x, y) = (a.element.location, b.element.location)
                if x.path != y.path { return x.path < y.path }
                if x.line != y.line { return x.line < y.line }
                if x.column != y.column { return x.column < y.column }
                return a.offset < b.offset
            }.map(\.element)
        }
        for n in [0, 1, 5, 40, 300] {
            var list = Diagnostics()
            let first = random(n)
            list.append(contentsOf: first)
            #expect(list.sorted == reference(first))
            list.sort()
            let more = random(n / 20 + 1)
            list.append(contentsOf: more)
            #expect(list.sorted == reference(reference(first) + more))
        }
    }
}
