import Foundation
import Testing

@testable import FeedgenBuild
import FeedgenDiagnostics

/// Unreadable files and folders are errors at their path, in `static/` as in `content/`. As
/// root every file is readable, so the build then runs as `nobody` through setpriv(1) (the test
/// is skipped, with its reason, where that cannot be done).
@Suite struct UnreadableFileTests {
    /// Runs the `feedgen` built beside the tests in `site` as a user who cannot read what mode
    /// 000 protects; nil (with a printed reason) when no such user is available.
    static func buildAsUnprivileged(_ site: String) throws -> (status: Int32, stderr: String)? {
        var executable = LazyLibvipsTests.feedgen
        var arguments = ["build", "--clean"]
        if geteuid() == 0 {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
                print("skipped: running as root without setpriv(1), so mode 000 cannot make a file unreadable")
                return nil
            }
            // `nobody` writes the output inside the site (temporary folders are mode 755).
            _ = chown(site, 65534, 65534)
            arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", executable] + arguments
            executable = "/usr/bin/setpriv"
        }
        let run = try runProcess(executable, arguments, in: site)
        if run.status != 0, run.stderr.isEmpty || run.stderr.contains("setpriv:") {
            print("skipped: cannot run feedgen as nobody: \(run.stderr)")
            return nil
        }
        return run
    }

    @Test(arguments: [
        ("static/locked.txt", "static/locked.txt", "static/locked.txt: error: cannot read the file: Permission denied"),
        ("static/locked/x.txt", "static/locked", "static/locked: error: cannot read this folder"),
    ])
    func anUnreadableStaticFileOrFolderIsAnErrorAtItsPath(file: String, locked: String, message: String) throws {
        let root = temporaryFolder()
        writeSite(root, ["content/s/a.md": "---\ntitle: A\n---\nA.\n", "static/ok.txt": "ok", file: "x"])
        chmod(root + "/" + locked, 0)
        guard let run = try Self.buildAsUnprivileged(root) else { return }
        #expect(run.status == 1)
        #expect(run.stderr.components(separatedBy: "\n").first == message)
        #expect(!FileManager.default.fileExists(atPath: root + "/public"))
    }
}
