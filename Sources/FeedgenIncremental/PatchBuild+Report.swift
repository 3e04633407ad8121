/// What a patch build leaves: its report (the last build's counts and what the patch did) and
/// the snapshot it writes for the next build.
import FeedgenBuild
import FeedgenDiagnostics
import FeedgenStorage

extension PatchBuild {
    /// A patch's report: the last build's counts, `diagnostics`, and what the patch did.
    static func report(
        _ old: BuildSnapshot, diagnostics: Diagnostics, output: String, items: Int, changed: Int, pages: Int, written: Int
    ) -> BuildReport {
        var report = BuildReport()
        report.diagnostics = diagnostics
        report.pages = old.pages
        report.feeds = old.feedCount
        report.cards = old.cards
        report.outputPath = output
        report.patched = true
        report.cachedItems = items - changed
        report.unreadItems = items - changed
        report.filesWritten = written
        report.pagesRendered = pages
        report.cardsRendered = changed
        return report
    }
}

extension BuildSnapshot {
    /// The snapshot after a patch, recorded at `recorded`: the item files' stamps as the patch
    /// saw them (`files`, in the same order; the other sources' were checked equal), and its
    /// `diagnostics`.
    func restamped(_ files: [(path: String, stamp: FileStamp?)], diagnostics: Diagnostics, recorded: Int64) -> BuildSnapshot {
        var snapshot = self
        snapshot.recorded = recorded
        snapshot.diagnostics = diagnostics
        for (k, file) in files.enumerated() { snapshot.itemFiles[k].stamp = file.stamp }
        return snapshot
    }
}
