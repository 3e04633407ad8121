import CFileSystem
import Dispatch
import Foundation
import Testing

/// `feedgen_link_tree`, which rebuilds a back buffer from the output by hard links
/// (OutputWriter.Session): trees linked at once on several threads each get exactly their own
/// files. Its nftw(3) callback kept the walk's folders in process-wide variables, so builds
/// running at once (the test suite's) linked files into each other's trees, and a build's
/// output lacked files its manifest listed.
@Suite struct LinkTreeTests {
    @Test func treesLinkedAtOnceGetTheirOwnFiles() throws {
        let root = temporaryFolder("link-tree")
        let count = 8
        for t in 0..<count {
            var files: [String: String] = [:]
            for f in 0..<300 { files["f\(f % 7)/file-\(t)-\(f).txt"] = "tree \(t) file \(f)" }
            writeSite(root + "/from-\(t)", files)
        }
        for round in 0..<4 {
            DispatchQueue.concurrentPerform(iterations: count) { t in
                _ = feedgen_link_tree(root + "/from-\(t)", root + "/to-\(round)-\(t)")
            }
            for t in 0..<count {
                let from = snapshot(root + "/from-\(t)")
                let to = snapshot(root + "/to-\(round)-\(t)")
                let same = to == from  // (not the trees themselves: 300 files each in a failure)
                #expect(same, "round \(round), tree \(t): \(to.count) files linked of \(from.count)")
            }
        }
    }
}
