import Foundation
import Testing

@testable import FeedgenBuild
@testable import FeedgenEmit
@testable import FeedgenIncremental

/// The patch build's edits of an eager card of a long list (``DeferredCards/Fold``): patched
/// when no card of the page changes from eager to deferred or back, the usual path when one
/// does; each output a clean build's, byte for byte.
@Suite struct PatchEagerCardTests {
    /// A home page of two long lists (`a`, then `b`: a later stack) and a feed `g` whose long
    /// list is followed by a long grid (no stack), short cards showing their bodies, its files
    /// older than the racy margin.
    static func makeSite() throws -> String {
        let site = temporaryFolder("feedgen-eager") + "/site"
        var files = [
            "feedgen.yaml": "title: Eager\n",
            "content/_feed.md": "---\ntitle: Home\n---\n",
            "content/g/_feed.md": "---\ntitle: G\n---\n",
            "Templates/cards/card.mustache": "<article class=\"card\"><h3>{{title}}</h3>{{{html}}}</article>\n",
        ]
        for (folder, layout) in [("a", "list"), ("b", "list"), ("g/l", "list"), ("g/m", "grid")] {
            files["content/\(folder)/_section.md"] = "---\ntitle: \(folder.uppercased())\nlayout: \(layout)\n---\n"
            for i in 0..<40 {
                files[String(format: "content/\(folder)/e-%02d.md", i)] =
                    "---\ntitle: Entry \(i)\nweight: \(i + 1)\n---\nEntry \(i): \(String(repeating: "word ", count: 3 + i % 5))\n"
            }
        }
        writeSite(site, files)
        Thread.sleep(forTimeInterval: Double(BuildSnapshot.racyMargin) / 1e9 + 0.2)
        return site
    }

    /// How many cards of the page `path` (output-relative) render eagerly.
    static func eagerCards(_ site: String, _ path: String) throws -> Int {
        let page = try String(contentsOfFile: site + "/../public/" + path, encoding: .utf8)
        return page.components(separatedBy: "<div class=\"cl-item\" role=\"listitem\">").count - 1
    }

    /// `path`'s text without its last paragraph.
    static func dropLastParagraph(_ site: String, _ path: String) throws {
        let text = try String(contentsOfFile: site + "/" + path, encoding: .utf8)
        let kept = text.trimmingCharacters(in: .newlines).components(separatedBy: "\n\n").dropLast().joined(separator: "\n\n")
        try (kept + "\n").write(toFile: site + "/" + path, atomically: false, encoding: .utf8)
    }

    @Test func eagerCardEditsArePatchedUnlessACardFlips() throws {
        let site = try Self.makeSite()
        #expect(!PatchBuildTests.buildAndCompare(site, "first build", minimumFiles: 5).patched)
        var eager = try Self.eagerCards(site, "index.html")
        // The premise: several eager cards in `a`, and deferred ones after them.
        #expect(eager >= 4)
        #expect(try String(contentsOfFile: site + "/../public/index.html", encoding: .utf8).contains("cl-cv"))

        // The first card grows a line at a time, then shrinks: the cards below move. Patched
        // exactly when no card changes from eager to deferred or back (the usual path then).
        let first = "content/a/e-00.md"
        var (patched, flipped) = (0, 0)
        for round in 0..<16 {
            if round < 8 {
                try PatchBuildTests.append(site, first, "\nMore \(round).\n")
            } else {
                try Self.dropLastParagraph(site, first)
            }
            let report = PatchBuildTests.buildAndCompare(site, "round \(round)", minimumFiles: 5)
            let now = try Self.eagerCards(site, "index.html")
            #expect(report.patched == (now == eager), "round \(round): \(eager) → \(now) eager cards")
            if report.patched { patched += 1 } else { flipped += 1 }
            eager = now
        }
        #expect(patched >= 4 && flipped >= 2, "\(patched) patched, \(flipped) flipped")

        // Two eager cards at once, then the last eager one.
        try PatchBuildTests.append(site, first, "\nOne more line.\n")
        try PatchBuildTests.append(site, "content/a/e-01.md", "\nOne more line.\n")
        var report = PatchBuildTests.buildAndCompare(site, "two eager cards", minimumFiles: 5)
        #expect(report.patched == (try Self.eagerCards(site, "index.html") == eager))
        eager = try Self.eagerCards(site, "index.html")
        try PatchBuildTests.append(site, String(format: "content/a/e-%02d.md", eager - 1), "\nOne more line.\n")
        #expect(PatchBuildTests.buildAndCompare(site, "last eager card grows", minimumFiles: 5).patched)

        // A deferred card changes: patched; the later list's tops are then unknown, so the next
        // edit of an eager card takes the usual path (which records them again).
        try PatchBuildTests.append(site, "content/a/e-30.md", "\nA new paragraph.\n")
        #expect(PatchBuildTests.buildAndCompare(site, "deferred card grows", minimumFiles: 5).patched)
        try Self.dropLastParagraph(site, "content/a/e-01.md")
        #expect(!PatchBuildTests.buildAndCompare(site, "eager card after a deferred one", minimumFiles: 5).patched)
        try PatchBuildTests.append(site, "content/a/e-01.md", "\nOne more line.\n")
        report = PatchBuildTests.buildAndCompare(site, "eager card again", minimumFiles: 5)
        #expect(report.patched == (try Self.eagerCards(site, "index.html") == eager))

        // A list followed by a long grid (no stack): its eager cards' edits take the usual path.
        try PatchBuildTests.append(site, "content/g/l/e-00.md", "\nOne more line.\n")
        #expect(!PatchBuildTests.buildAndCompare(site, "eager card above a grid", minimumFiles: 5).patched)
    }

    /// ``DeferredCards/folds(_:resizing:of:to:)``: a shift that leaves the edge's cards on their
    /// sides, by more than the margin, keeps the plan; one that crosses it, or lands on it, does not.
    @Test func foldsFollowAShift() {
        typealias Pair = DeferredCards.Fold.Pair
        let fold = DeferredCards.Fold(
            isStack: true, eagerHeights: [Pair(phone: 300, wide: 200), Pair(phone: 300, wide: 200)],
            lastEager: Pair(phone: 320, wide: 220), firstDeferred: Pair(phone: 950, wide: 920))
        let later = DeferredCards.Fold(isStack: true, firstDeferred: Pair(phone: 2000, wide: 1800))
        let folds: [DeferredCards.Fold?] = [fold, nil, later]
        // 10 px taller at both widths: the deferred tops move down, the card's height is recorded.
        let grown = DeferredCards.folds(folds, resizing: 0, of: 0, to: Pair(phone: 310, wide: 210))
        #expect(grown?[0]?.eagerHeights[0] == Pair(phone: 310, wide: 210))
        #expect(grown?[0]?.lastEager == Pair(phone: 330, wide: 230))
        #expect(grown?[0]?.firstDeferred == Pair(phone: 960, wide: 930))
        #expect(grown?[2]?.firstDeferred == Pair(phone: 2010, wide: 1810))
        // 20 px shorter at the wide width: the first deferred card would start at 900 (no margin).
        #expect(DeferredCards.folds(folds, resizing: 0, of: 0, to: Pair(phone: 300, wide: 180)) == nil)
        // The last eager card moves below the first screen at both widths.
        #expect(DeferredCards.folds(folds, resizing: 0, of: 0, to: Pair(phone: 1000, wide: 900)) == nil)
        // The last eager card's own height moves only the deferred ones.
        #expect(DeferredCards.folds(folds, resizing: 1, of: 0, to: Pair(phone: 900, wide: 900))?[0]?.lastEager == fold.lastEager)
        // A deferred card, a section without a stack after it, or none recorded: no answer.
        #expect(DeferredCards.folds(folds, resizing: 2, of: 0, to: Pair(phone: 1, wide: 1)) == nil)
        #expect(DeferredCards.folds([fold, .unknown], resizing: 0, of: 0, to: Pair(phone: 301, wide: 201)) == nil)
        #expect(DeferredCards.folds([], resizing: 0, of: 0, to: Pair(phone: 301, wide: 201)) == nil)
        // After another card's change the later stacks are unknown.
        #expect(DeferredCards.folds(folds, afterChangeIn: 0) == [fold, nil, .unknown])
    }
}
