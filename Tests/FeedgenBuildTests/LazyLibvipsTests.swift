import Foundation
import Testing

@testable import FeedgenBuild

/// libvips is loaded with dlopen only for sites with item images (issue #7: linking it cost every
/// run about 120 shared libraries). These tests run the `feedgen` executable built beside the test
/// bundle, with glibc's `LD_DEBUG=files` listing every shared library the loader maps: in-process
/// checks would see the libvips other tests of this process load.
@Suite struct LazyLibvipsTests {
    /// `feedgen`, built beside this test bundle by `swift test`.
    static let feedgen = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("feedgen").path

    /// Runs `feedgen arguments` with `environment` added; its exit status and standard error.
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, stderr: String) {
        try #require(FileManager.default.isExecutableFile(atPath: Self.feedgen), "feedgen is built beside the tests: \(Self.feedgen)")
        return try runProcess(Self.feedgen, arguments, environment: environment)
    }

    /// The shared libraries of libvips, glib or gobject that `LD_DEBUG=files` output says were mapped.
    func vipsLibraries(_ loaderLog: String) -> [String] {
        loaderLog.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "file=") else { return nil }
            let name = line[range.upperBound...].prefix { $0 != " " }
            return ["libvips", "libglib", "libgobject"].contains { name.hasPrefix($0) } ? String(name) : nil
        }
    }

    @Test func aSiteWithoutImagesNeverLoadsLibvips() throws {
        let root = temporaryFolder()
        writeSite(root, [
            "content/notes/_section.md": "---\ntitle: Notes\nlayout: grid\n---\n",
            "content/notes/hello.md": "---\ntitle: Hello\n---\nA body, so that the item has its own page.\n",
        ])
        let result = try run(["build", root, "--output", root + "/public"], environment: ["LD_DEBUG": "files"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: root + "/public/index.html"))
        #expect(result.stderr.contains("file=libyaml"), "LD_DEBUG lists the libraries feedgen links")
        #expect(vipsLibraries(result.stderr) == [])
        // `--version` neither.
        let version = try run(["--version"], environment: ["LD_DEBUG": "files"])
        #expect(version.status == 0)
        #expect(vipsLibraries(version.stderr) == [])
    }

    @Test func aSiteWithAnImageLoadsLibvipsAndItsGlib() throws {
        let root = temporaryFolder()
        writeSite(root, ["content/gallery/_section.md": "---\ntitle: Gallery\nlayout: grid\n---\n",
                         "content/gallery/dusk.md": "---\ntitle: Dusk\nimage:\n  src: dusk.png\n  alt: A gradient\n---\n"])
        try Data(TestPNG.make(width: 400, height: 200)).write(to: URL(fileURLWithPath: root + "/content/gallery/dusk.png"))
        let result = try run(["build", root, "--output", root + "/public"], environment: ["LD_DEBUG": "files"])
        #expect(result.status == 0, "\(result.stderr)")
        let loaded = Set(vipsLibraries(result.stderr))
        #expect(loaded.isSuperset(of: ["libvips.so.42", "libglib-2.0.so.0", "libgobject-2.0.so.0"]), "\(loaded)")
        #expect(result.stderr.contains("file=libvips.so.42 [0];  dynamically loaded by "))
        #expect(FileManager.default.fileExists(atPath: root + "/public/images/dusk-" + String(ImageVariants.readSource(root + "/content/gallery/dusk.png")!.hash.prefix(8)) + "-400.webp"))
    }

    @Test func aMissingLibvipsIsAnErrorAndTheOutputIsKept() throws {
        let root = temporaryFolder()
        writeSite(root, ["content/gallery/_section.md": "---\ntitle: Gallery\nlayout: grid\n---\n",
                         "content/gallery/dusk.md": "---\ntitle: Dusk\nimage:\n  src: dusk.png\n  alt: A gradient\n---\n"])
        try Data(TestPNG.make(width: 400, height: 200)).write(to: URL(fileURLWithPath: root + "/content/gallery/dusk.png"))
        let out = root + "/public"
        #expect(try run(["build", root, "--output", out]).status == 0)
        let before = snapshot(out)
        // Files the loader finds first, which are not shared libraries: as if libvips42 were missing.
        let fake = temporaryFolder()
        for name in ["libvips.so.42", "libvips.so"] { try Data().write(to: URL(fileURLWithPath: fake + "/" + name)) }
        writeSite(root, ["content/gallery/dusk.md": "---\ntitle: Dusk at night\nimage:\n  src: dusk.png\n  alt: A gradient\n---\n"])
        let result = try run(["build", root, "--output", out, "--quiet"], environment: ["LD_LIBRARY_PATH": fake])
        #expect(result.status == 1)
        #expect(result.stderr == "feedgen: error: libvips could not start: cannot load libvips.so.42 (\(fake)/libvips.so.42: file too short); "
            + "image variants need Debian's libvips42 package (scripts/install-deps installs it)\n", "\(result.stderr)")
        #expect(snapshot(out) == before)
    }
}
