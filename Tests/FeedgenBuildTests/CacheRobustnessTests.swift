import FeedgenStorage
import Foundation
import Testing
import CFileSystem

@testable import FeedgenBuild
@testable import FeedgenIncremental
@testable import FeedgenContent

/// The build cache survives what other processes may leave in it (docs/content-format.md,
/// "Incremental builds and the build cache"): a FIFO, socket, folder or link in place of one of
/// its files never hangs or crashes a build, a log cut short while a build maps it ends the
/// build with a clear error instead of SIGBUS, and a seal written within its log's clock tick is
/// not trusted. After any of it the next build equals a `--clean` build.
///
/// The builds run the `feedgen` executable built beside this test bundle, in a child process
/// with a time limit: a build that blocks (as opening a FIFO did) fails its test instead of
/// hanging the test run.
@Suite struct CacheRobustnessTests {
    static let feedgen = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("feedgen").path

    struct Run {
        var status: Int32
        var stderr: String
        /// The build was still running after the time limit (it was killed).
        var timedOut: Bool
    }

    /// Runs `feedgen arguments` (with `environment` added) for at most `limit` seconds.
    static func run(_ arguments: [String], environment: [String: String] = [:], limit: Double = 60) throws -> Run {
        try #require(FileManager.default.isExecutableFile(atPath: feedgen), "feedgen is built beside the tests: \(feedgen)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: feedgen)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        try process.run()
        var timedOut = false
        if done.wait(timeout: .now() + limit) == .timedOut {
            timedOut = true
            kill(process.processIdentifier, SIGKILL)
            done.wait()
        }
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        return Run(status: process.terminationStatus, stderr: String(decoding: data, as: UTF8.self), timedOut: timedOut)
    }

    /// A small site; `image`: with an item image (so that the cache's `images` folder is used).
    static func makeSite(_ root: String, image: Bool = false) throws {
        var files = ["content/cards/_section.md": "---\ntitle: Cards\nlayout: grid\n---\n"]
        for i in 0..<12 {
            files["content/cards/card-\(i).md"] = "---\ntitle: Card \(i)\nweight: \(i)\n---\nThe body of card \(i).\n"
        }
        guard image else {
            writeSite(root, files)
            return
        }
        files["content/cards/pictured.md"] = "---\ntitle: Pictured\nweight: 99\nimage:\n  src: pic.png\n  alt: A gradient\n---\nBody.\n"
        writeSite(root, files)
        try Data(TestPNG.make(width: 64, height: 32)).write(to: URL(fileURLWithPath: root + "/content/cards/pic.png"))
    }

    /// Builds `site` into `output`; the build must finish (exit 0) within the limit.
    static func build(_ site: String, _ output: String, clean: Bool = false, environment: [String: String] = [:]) throws -> Run {
        let result = try run(["build", site, "--output", output, "--quiet"] + (clean ? ["--clean"] : []), environment: environment)
        #expect(!result.timedOut, "the build of \(output) did not finish within its time limit")
        return result
    }

    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case fifo, socket, folder, link, regularFile
        var testDescription: String { rawValue }
    }

    /// Puts a `kind` at `path`, whatever was there removed. A link points at a regular file
    /// outside the cache (`decoy`), which must never be written through.
    static func place(_ kind: Kind, at path: String, decoy: String) throws {
        _ = feedgen_remove_any(path)
        switch kind {
        case .fifo: try #require(mkfifo(path, 0o644) == 0)
        case .socket:
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            try #require(fd >= 0)
            defer { close(fd) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            // Bound at a short path, then moved into place: a socket's path has at most 107
            // bytes, and `path` may be longer (a deep TMPDIR).
            let short = NSTemporaryDirectory() + "s-\(UInt32.random(in: 0...UInt32.max))"
            let bytes = Array(short.utf8)
            try #require(bytes.count < MemoryLayout.size(ofValue: address.sun_path), "socket path too long: \(short)")
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
            let status = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            try #require(status == 0, "bind: \(String(cString: strerror(errno)))")
            try #require(rename(short, path) == 0, "rename: \(String(cString: strerror(errno)))")
        case .folder:
            try FileManager.default.createDirectory(atPath: path + "/inside", withIntermediateDirectories: true)
            try Data("x".utf8).write(to: URL(fileURLWithPath: path + "/inside/file"))
        case .link: try #require(symlink(decoy, path) == 0)
        case .regularFile: try Data("not what feedgen wrote\n".utf8).write(to: URL(fileURLWithPath: path))
        }
    }

    /// Every name the cache uses (files, the `back` and `images` folders, temporary files of a
    /// killed build), each replaced by each other kind of file: the next build finishes, equals
    /// a `--clean` build, never writes through a link, and the build after it too.
    @Test(arguments: [
        "items.log", "items.log.seal", "cards.log", "cards.log.seal", "state", "sources", "dirty", "lock", "back",
        "images", "state.tmp-999999", "items.log.tmp-999999", "cards.log.tmp-999999", "sources.tmp-999999",
    ])
    func somethingElseInPlaceOfACacheFileIsReplaced(name: String) throws {
        let root = temporaryFolder("k")  // short: a socket's path has at most 107 bytes
        let site = root + "/site"
        let output = root + "/o"
        let cache = BuildCache.folder(forOutput: output)
        try Self.makeSite(site, image: name == "images")
        let decoy = root + "/decoy"
        try Data("decoy\n".utf8).write(to: URL(fileURLWithPath: decoy))
        #expect(try Self.build(site, root + "/clean", clean: true).status == 0)
        let reference = snapshot(root + "/clean")
        #expect(try Self.build(site, output).status == 0)
        let folders = ["back", "images"]
        for kind in Kind.allCases where !(kind == .folder && folders.contains(name)) && !(kind == .regularFile && !folders.contains(name)) {
            try Self.place(kind, at: cache + "/" + name, decoy: decoy)
            let damaged = try Self.build(site, output)
            #expect(damaged.status == 0, "\(name) as a \(kind): \(damaged.stderr)")
            #expect(snapshot(output) == reference, "\(name) as a \(kind): the output is a clean build's")
            #expect(try String(contentsOfFile: decoy, encoding: .utf8) == "decoy\n", "\(name) as a \(kind): nothing written through a link")
            let next = try Self.build(site, output)
            #expect(next.status == 0, "\(name) as a \(kind), the build after: \(next.stderr)")
            #expect(snapshot(output) == reference, "\(name) as a \(kind), the build after: the output is a clean build's")
            var info = stat()
            if lstat(cache + "/" + name, &info) == 0, name != "images" {
                let isFolder = (info.st_mode & S_IFMT) == S_IFDIR
                let isFile = (info.st_mode & S_IFMT) == S_IFREG
                #expect(name == "back" ? isFolder : isFile && !name.contains(".tmp-"), "\(name) as a \(kind): replaced after a build")
            }
        }
    }

    /// The cache folder itself replaced by something that is not a folder: the build stops
    /// with an error naming it (exit 2, like the output's other refusals), removes nothing and
    /// leaves the output as it was; a link to a folder is used.
    @Test(arguments: Kind.allCases.filter { $0 != .folder } + [nil])
    func somethingElseInPlaceOfTheCacheFolderIsAnError(kind: Kind?) throws {
        let root = temporaryFolder("k")  // short: a socket's path has at most 107 bytes
        let site = root + "/site"
        let output = root + "/o"
        let cache = BuildCache.folder(forOutput: output)
        try Self.makeSite(site)
        let decoy = root + "/decoy"
        try Data("decoy\n".utf8).write(to: URL(fileURLWithPath: decoy))
        #expect(try Self.build(site, output).status == 0)
        let before = snapshot(output)
        if let kind {
            try Self.place(kind, at: cache, decoy: decoy)
        } else {
            _ = feedgen_remove_any(cache)
            try #require(symlink(root + "/nowhere", cache) == 0)
        }
        let result = try Self.build(site, output)
        let what =
            switch kind {
            case .fifo, .socket: "not a folder (a FIFO, socket or device)"
            case .link, .regularFile: "a file, not a folder"  // the link leads to a file
            case nil: "a link that leads nowhere (its target is missing, or a loop of links), not a folder"
            case .folder: ""
            }
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix(
                "\(output): error: '\(cache)', the build cache folder of this output, is \(what); remove it (feedgen makes the folder again) or choose another --output folder\n"),
            "\(result.stderr)")
        #expect(snapshot(output) == before)
        #expect(try String(contentsOfFile: decoy, encoding: .utf8) == "decoy\n")
        // Removed, it is made again; a link to a folder is used as the folder.
        _ = feedgen_remove_any(cache)
        try FileManager.default.createDirectory(atPath: root + "/elsewhere", withIntermediateDirectories: true)
        try #require(symlink(root + "/elsewhere", cache) == 0)
        #expect(try Self.build(site, output).status == 0)
        #expect(FileManager.default.fileExists(atPath: root + "/elsewhere/items.log"))
    }

    /// Image variants kept in the cache's `images` folder, each replaced by a FIFO: made again,
    /// not waited on.
    @Test func aFIFOInPlaceOfACachedImageVariantIsMadeAgain() throws {
        let root = temporaryFolder("images-fifo")
        try Self.makeSite(root + "/site", image: true)
        #expect(try Self.build(root + "/site", root + "/clean", clean: true).status == 0)
        #expect(try Self.build(root + "/site", root + "/out").status == 0)
        let images = BuildCache.folder(forOutput: root + "/out") + "/images"
        let variants = try FileManager.default.contentsOfDirectory(atPath: images)
        #expect(variants.count >= 2, "the picture has variants: \(variants)")
        for variant in variants {
            unlink(images + "/" + variant)
            try #require(mkfifo(images + "/" + variant, 0o644) == 0)
        }
        let result = try Self.build(root + "/site", root + "/out")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(snapshot(root + "/out") == snapshot(root + "/clean"))
    }

    /// Opening a FIFO, a folder or a link as a cache file neither blocks nor follows the link,
    /// and writing one replaces it by a regular file (the build's own temporary files included).
    @Test func cacheFilesNeverWaitOnAFIFO() throws {
        let root = temporaryFolder("cache-fifo")
        let fifo = root + "/items.log.tmp-\(getpid())"
        try #require(mkfifo(fifo, 0o644) == 0)
        #expect(CacheFile.read(fifo) == nil)
        #expect(MappedFile(path: fifo) == nil)
        #expect(CacheFile.write(Array("new".utf8), to: fifo))
        #expect(CacheFile.read(fifo) == Array("new".utf8))
        try #require(mkdir(root + "/folder", 0o755) == 0 && symlink(fifo, root + "/link") == 0)
        #expect(CacheFile.read(root + "/folder") == nil)
        #expect(CacheFile.read(root + "/link") == nil, "a link is not followed")
        #expect(CacheFile.write(Array("b".utf8), to: root + "/link"))
        #expect(CacheFile.read(fifo) == Array("new".utf8), "the link was replaced, not written through")
        try Data("temporary".utf8).write(to: URL(fileURLWithPath: root + "/moved"))
        #expect(CacheFile.rename(root + "/moved", over: root + "/folder"), "a folder in the way is removed")
        #expect(CacheFile.read(root + "/folder") == Array("temporary".utf8))
        try #require(mkfifo(root + "/lock", 0o644) == 0)
        let lock = feedgen_open_lock_file(root + "/lock")
        #expect(lock >= 0)
        close(lock)
        var info = stat()
        #expect(lstat(root + "/lock", &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG)
    }

    /// A log truncated by another process while a build maps it (`FEEDGEN_TEST_CUT_LOG`
    /// truncates it right after mapping, as such a process would): the build ends with exit 1
    /// and a clear error instead of SIGBUS, the previous output is untouched, and the next
    /// build equals a `--clean` build.
    @Test(arguments: ["items.log", "cards.log"])
    func aLogCutShortWhileMappedIsAClearError(log: String) throws {
        let root = temporaryFolder("cache-sigbus")
        let site = root + "/site"
        let output = root + "/out"
        try Self.makeSite(site)
        #expect(try Self.build(site, output).status == 0)
        let previous = snapshot(output)
        writeSite(site, ["content/cards/card-3.md": "---\ntitle: Card 3, edited\nweight: 3\n---\nA new body.\n"])
        let cut = try Self.build(site, output, environment: ["FEEDGEN_TEST_CUT_LOG": log])
        let path = BuildCache.folder(forOutput: output) + "/" + log
        #expect(cut.status == 1)
        #expect(
            cut.stderr
                == "feedgen: error: \(path) was cut short by another process while this build read it; nothing was written to the output; run the build again\n"
        )
        #expect(snapshot(output) == previous, "the previous output is untouched")
        #expect(try Self.build(site, output).status == 0)
        #expect(try Self.build(site, root + "/clean", clean: true).status == 0)
        #expect(snapshot(output) == snapshot(root + "/clean"))
    }

    /// The same after the output was exchanged (the build still reads `items.log` to save the
    /// cache): exit 1, the message says the output was written whole, and it is this build's.
    @Test func aLogCutShortAfterTheOutputWasExchangedSaysSo() throws {
        let root = temporaryFolder("cache-sigbus-late")
        let site = root + "/site"
        let output = root + "/out"
        try Self.makeSite(site)
        #expect(try Self.build(site, output).status == 0)
        writeSite(site, ["content/cards/card-5.md": "---\ntitle: Card 5, edited\nweight: 5\n---\nAnother body.\n"])
        let cut = try Self.build(site, output, environment: ["FEEDGEN_TEST_CUT_LOG": "items.log after commit"])
        let path = BuildCache.folder(forOutput: output) + "/items.log"
        #expect(cut.status == 1)
        #expect(
            cut.stderr
                == "feedgen: error: \(path) was cut short by another process while this build read it; the output was already written whole, but the build cache was not saved; run the build again\n"
        )
        #expect(try Self.build(site, root + "/clean", clean: true).status == 0)
        let clean = snapshot(root + "/clean")
        #expect(snapshot(output) == clean, "the output is this build's, whole")
        #expect(try Self.build(site, output).status == 0)
        #expect(snapshot(output) == clean)
    }

    // MARK: - Racy seals

    /// A log of two records, written and sealed; returns its path and the second record's key.
    static func sealedLog(_ root: String) throws -> (path: String, key: UInt64) {
        let path = root + "/items.log"
        var bytes = RecordLog.header(magic: ItemCache.magic, formatVersion: ItemCache.formatVersion, salt: 7)
        for (key, text) in [(1 as UInt64, "first payload"), (2, "second payload")] {
            Array(text.utf8).withUnsafeBytes { RecordLog.append(key, $0, to: &bytes) }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (path, 2)
    }

    /// Sets the modification time of `path` to `ns` (ns since 1970).
    static func setModificationTime(_ path: String, _ ns: Int64) throws {
        let omit = (1 << 30) - 2  // UTIME_OMIT: the access time is left alone
        let times = [timespec(tv_sec: 0, tv_nsec: omit), timespec(tv_sec: Int(ns / 1_000_000_000), tv_nsec: Int(ns % 1_000_000_000))]
        let status = utimensat(AT_FDCWD, path, times, AT_SYMLINK_NOFOLLOW)
        try #require(status == 0)
    }

    static func stamp(_ path: String) -> FileStamp {
        var info = stat()
        lstat(path, &info)
        return FileStamp(info)
    }

    /// Git's "racy clean" rule: damage that keeps the log's size and stat (a change within the
    /// clock tick of the seal) goes unseen by a trusted seal, so a seal whose file is not
    /// strictly newer than the log's change time is not trusted, and the checksums catch it.
    @Test func aRacySealIsNotTrustedAndChecksumsCatchSameSizeDamage() throws {
        let root = temporaryFolder("racy-seal")
        let (path, key) = try Self.sealedLog(root)
        // Damage of one byte in place (same size), before the seal records the log's stat: as
        // if it had happened after the seal within the same clock tick.
        let fd = open(path, O_WRONLY)
        try #require(fd >= 0)
        let size = Int(Self.stamp(path).size)
        #expect(pwrite(fd, "X", 1, off_t(size - 1)) == 1)
        close(fd)
        LogSeal.seal(path, settling: false)  // so that no build's settling touches it meanwhile
        let ctime = Self.stamp(path).ctime
        let seal = LogSeal.path(for: path)

        // The seal file one second newer than the log's change: trusted, the damage unseen.
        try Self.setModificationTime(seal, ctime + 1_000_000_000)
        let trusted = RecordLog(path: path, magic: ItemCache.magic, formatVersion: ItemCache.formatVersion, salt: 7)
        #expect(trusted.sealed)
        #expect(trusted.payload(of: key) != nil, "a trusted seal skips the checksum")

        // The seal file's time equal to the log's change time (both within one tick): racy.
        try Self.setModificationTime(seal, ctime)
        let racy = RecordLog(path: path, magic: ItemCache.magic, formatVersion: ItemCache.formatVersion, salt: 7)
        #expect(!racy.sealed)
        #expect(racy.payload(of: key) == nil, "the checksum pass runs and finds the damaged record")
        #expect(racy.payload(of: 1) != nil)
        // Older than the log's change: racy too.
        try Self.setModificationTime(seal, ctime - 1)
        #expect(!RecordLog(path: path, magic: ItemCache.magic, formatVersion: ItemCache.formatVersion, salt: 7).sealed)
    }

    /// A racy seal of an unchanged log is made trustworthy at the end of a build (``LogSeal/settle()``:
    /// touched once the clock is past the log's times); one whose log changed meanwhile is removed.
    @Test func settlingMakesARacySealTrustworthyOnlyForAnUnchangedLog() throws {
        let root = temporaryFolder("racy-settle")
        let (path, _) = try Self.sealedLog(root)
        let seal = LogSeal.path(for: path)
        let log = { RecordLog(path: path, magic: ItemCache.magic, formatVersion: ItemCache.formatVersion, salt: 7) }
        LogSeal.seal(path)
        try Self.setModificationTime(seal, Self.stamp(path).ctime)  // racy
        #expect(!log().sealed)
        LogSeal.seal(path)  // the log is as sealed: the seal is kept, and settled at the end
        LogSeal.settle()
        // Another test's build may be settling this seal on another thread: wait for it.
        for _ in 0..<200 where !log().sealed { usleep(5000) }
        #expect(log().sealed)
        #expect(Self.stamp(seal).mtime > Self.stamp(path).ctime)

        // Racy again, and the log changes (same size) before the build ends: the seal goes.
        try Self.setModificationTime(seal, Self.stamp(path).ctime)
        LogSeal.seal(path)
        let fd = open(path, O_WRONLY)
        #expect(pwrite(fd, "Y", 1, 20) == 1)
        close(fd)
        try Self.setModificationTime(seal, Self.stamp(path).ctime)
        LogSeal.settle()
        for _ in 0..<200 where FileManager.default.fileExists(atPath: seal) { usleep(5000) }
        #expect(!FileManager.default.fileExists(atPath: seal))
        #expect(!log().sealed)
    }
}
