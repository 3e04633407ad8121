import Foundation

@testable import FeedgenBuild
import FeedgenIncremental

/// The repository root, found from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

/// `../shared` beside the repository, when present.
let sharedFolder: String? = {
    let path = URL(fileURLWithPath: repositoryRoot).deletingLastPathComponent().appendingPathComponent("shared").path
    return FileManager.default.fileExists(atPath: path) ? path : nil
}()

/// One folder per test process and test module holding every temporary folder, removed when
/// the process exits (tests never leave folders behind in /tmp). The module is in the name
/// because this file is compiled into two test modules of one test binary: with one shared
/// name, the second module's first use removed the folder the first module's running tests
/// were writing in (DifferentialBuildTests failed with "No such file or directory").
private let testProcessFolder: String = {
    let path = testProcessFolderPath()
    try? FileManager.default.removeItem(atPath: path)
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    atexit {
        // With the folder, a build cache beside it, should a test's build have made one.
        let path = testProcessFolderPath()
        try? FileManager.default.removeItem(atPath: path)
        try? FileManager.default.removeItem(atPath: BuildCache.folder(forOutput: path))
    }
    return path
}()

private func testProcessFolderPath() -> String {
    let module = #fileID.prefix { $0 != "/" }
    return NSTemporaryDirectory() + "feedgen-tests-\(module)-\(ProcessInfo.processInfo.processIdentifier)"
}

/// A fresh temporary folder (inside the test process's folder, removed at exit).
func temporaryFolder(_ name: String = "feedgen-test") -> String {
    let path = testProcessFolder + "/\(name)-\(UUID().uuidString)"
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Writes `files` (path → text) below `root`.
func writeSite(_ root: String, _ files: [String: String]) {
    for (path, text) in files {
        let url = URL(fileURLWithPath: root).appendingPathComponent(path)
        try! FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try! Data(text.utf8).write(to: url)
    }
}

/// A fixed "now" (2026-11-29T00:00:00Z) so that publishing rules never depend on the clock.
let fixedNow: Int64 = 1_795_910_400

func build(_ site: String, output: String? = nil, strict: Bool = false) -> BuildReport {
    var options = BuildOptions(siteRoot: site, output: output, now: fixedNow)
    options.strict = strict
    return SiteBuilder.build(options)
}

/// Every file below `root`, relative path → bytes.
func snapshot(_ root: String) -> [String: Data] {
    var result: [String: Data] = [:]
    let fm = FileManager.default
    guard let walker = fm.enumerator(atPath: root) else { return result }
    for case let path as String in walker {
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
            result[path] = fm.contents(atPath: root + "/" + path)
        }
    }
    return result
}

/// Runs `executable arguments` (with `environment` added, in `folder` when given) to its end:
/// its exit status and standard error (standard output is discarded).
func runProcess(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:], in folder: String? = nil
) throws -> (status: Int32, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let data = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
