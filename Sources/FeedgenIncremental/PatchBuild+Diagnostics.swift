/// The diagnostics of a patch build (the last build's, with those of the files it read again
/// replaced by theirs, in the order a full build reports them), and the rule for the body paths
/// that name nothing, which a patch keeps as the last build wrote them.
import FeedgenContent
import FeedgenDiagnostics
import FeedgenResolve
import FeedgenStorage
import Foundation

extension PatchBuild {
    /// `old` (the last build's diagnostics, in ``Diagnostics/sorted`` order) with the
    /// diagnostics at `paths` replaced by the ones found now: `fresh` (the load's and stage 3's
    /// of the files read again, in their order), each changed item's link warnings
    /// (``LinkWarnings``, from the pages its links led to in the last build), then `lint`'s.
    /// A full build finds a file's diagnostics in this order, and keeps its report sorted by
    /// location (``Diagnostics/sort()``), so the result is its report, line for line.
    ///
    /// The tally of their kinds is `old`'s, less the kinds of those replaced, plus those found.
    ///
    /// - Returns: the diagnostics, sorted; ``NotApplicable`` when one is an error (the usual
    ///   path reports it), when one is a warning with `--strict`, or when a link's warning needs
    ///   more of the site than the changed items.
    static func merged(
        _ old: Diagnostics, fresh: [Diagnostic], lint: [Diagnostic], paths: Set<String>, changes: [Change], feeds: [PreparedFeed],
        strict: Bool
    ) -> Result<Diagnostics, NotApplicable> {
        var found = fresh.filter { paths.contains($0.location.path) }
        for change in changes {
            let item = feeds[change.feed].sections[change.section].section.items[change.item]
            let pages = Dictionary(change.record.links.map { ($0.target, $0.page) }, uniquingKeysWith: { a, _ in a })
            guard let warnings = LinkWarnings.of(item, pages: pages) else {
                return .failure(NotApplicable(reason: "\(item.sourcePath) links with a #fragment to another page"))
            }
            found += warnings
        }
        found += lint.filter { paths.contains($0.location.path) }
        if let error = found.first(where: { $0.severity == .error }) {
            return .failure(NotApplicable(reason: "an error in \(error.location.path)"))
        }
        if strict, let warning = found.first(where: { $0.severity == .warning }) {
            return .failure(NotApplicable(reason: "a warning in \(warning.location.path) with --strict"))
        }
        // No file read again, or one with the diagnostics it had (the usual body edit): the
        // last build's list as it is (not made, copied and sorted again).
        if paths.isEmpty, found.isEmpty { return .success(old) }
        if paths.count == 1, let path = paths.first, let packed = old.packedOnly, sameBytes(found, packed.diagnostics(in: run(of: path, in: packed))) {
            return .success(old)
        }
        let list = old.items
        var all = Diagnostics()
        all.append(contentsOf: paths.isEmpty ? list : list.filter { !paths.contains($0.location.path) })
        all.append(contentsOf: found)
        all.sort()
        if var kinds = old.kinds {
            for d in list where paths.contains(d.location.path) { kinds.remove(d) }
            for d in found { kinds.add(d) }
            all.set(kinds: kinds)
            assert(kinds.sameCounts(as: KindTally.counting(all.items)), "a tally updated by a patch differs from a count")
        }
        return .success(all)
    }

    /// Where the diagnostics at `path` are in `list` (sorted by path first): found by halving.
    static func run(of path: String, in list: any PackedDiagnostics) -> Range<Int> {
        func first(_ isPast: (String) -> Bool) -> Int {
            var (low, high) = (0, list.count)
            while low < high {
                let mid = (low + high) / 2
                if isPast(list.location(at: mid).path) { high = mid } else { low = mid + 1 }
            }
            return low
        }
        let start = first { !($0 < path) }
        let end = first { path < $0 }
        return start..<max(start, end)
    }

    /// Whether the two lists hold the same diagnostics, byte for byte (Strings' `==` takes
    /// canonically equivalent texts for equal), in the same order.
    static func sameBytes<A: Collection<Diagnostic>, B: Collection<Diagnostic>>(_ a: A, _ b: B) -> Bool {
        a.count == b.count
            && zip(a, b).allSatisfy { x, y in
                x.severity == y.severity && x.location.line == y.location.line && x.location.column == y.location.column
                    && x.location.path.sameBytes(as: y.location.path) && x.message.sameBytes(as: y.message)
            }
    }

    /// Whether `item`'s body paths that name nothing are written as the last build wrote them.
    /// Such a path is kept in every page as the site's first link to it spells it
    /// (``BodyPaths/verbatim(_:)``), which may be this item's: each of its links to one must
    /// spell it so, and it must not drop one (another item's spelling could come first then).
    static func keepsDeadPaths(_ item: Item, record: BuildSnapshot.ItemRecord) -> Bool {
        var dead: [String: String] = [:]
        for link in record.links where BodyPaths.parse(link.page).verbatim { dead[link.target] = link.page }
        guard !dead.isEmpty else { return true }
        var kept: Set<String> = []
        for link in item.markdownLinks {
            guard let value = dead[link.target] else { continue }
            guard link.isPath, BodyPaths.verbatim(link.destination) == value else { return false }
            kept.insert(link.target)
        }
        return kept.count == dead.count
    }
}

extension PatchBuild {
    /// A full build's report, sorted, with the tally of its kinds (``Diagnostics/kinds``) for its
    /// snapshot and the terminal: the last snapshot's list when the report is that list byte for
    /// byte (a build that changed no diagnostic: its tally is kept, and the list stays packed);
    /// else the report, with the last tally less the kinds of the diagnostics it has not and
    /// plus those of its own (a few: an item added or removed), or counted.
    static func withKinds(_ report: Diagnostics, last: BuildSnapshot?) -> Diagnostics {
        var report = report
        if let last, let read = last.readFrom.parts?.diagnostics, last.diagnostics.packedOnly === read, var kinds = last.diagnostics.kinds {
            let list = report.items
            if let (removed, added) = read.changes(to: list, atMost: 64) {
                if removed.isEmpty, added.isEmpty { return last.diagnostics }
                for d in read.diagnostics(at: removed) { kinds.remove(d) }
                for j in added { kinds.add(list[j]) }
                report.set(kinds: kinds)
                assert(kinds.sameCounts(as: KindTally.counting(list)), "a tally updated by a build's changes differs from a count")
                return report
            }
        }
        report.countKinds()
        return report
    }
}
