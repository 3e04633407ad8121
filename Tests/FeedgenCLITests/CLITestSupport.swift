import Foundation

/// The CLI tests' helpers beyond TestSupport.swift (shared with FeedgenBuildTests): the `feedgen`
/// executable built beside this test bundle, run as a child process, and a small site.
let feedgenExecutable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    .deletingLastPathComponent().appendingPathComponent("feedgen").path

/// Runs `feedgen arguments` to its end: its exit status and standard error.
func runFeedgen(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
    try runProcess(feedgenExecutable, arguments)
}

/// One grid section of 12 cards below `root` (13 pages).
func makeCardSite(_ root: String) {
    var files = ["content/cards/_section.md": "---\ntitle: Cards\nlayout: grid\n---\n"]
    for i in 0..<12 { files["content/cards/card-\(i).md"] = "---\ntitle: Card \(i)\nweight: \(i)\n---\nThe body of card \(i).\n" }
    writeSite(root, files)
}
