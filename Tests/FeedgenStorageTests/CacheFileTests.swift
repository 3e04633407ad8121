import Foundation
import Testing

@testable import FeedgenStorage

/// `CacheFile.read` reads a regular file whole into one array, whatever its size, and reads
/// nothing else.
@Suite struct CacheFileTests {
    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "feedgen-cachefile-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }

    @Test(arguments: [0, 1, 4095, 4096, 65535, 65536, 65537, 200_000, 3 * 65536])
    func readsEveryByte(size: Int) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        try Data(bytes).write(to: URL(fileURLWithPath: folder + "/file"))
        #expect(CacheFile.read(folder + "/file") == bytes)
    }

    @Test func readsNoFolderLinkOrMissingFile() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: folder + "/file"))
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: folder + "/file")
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: false)
        #expect(CacheFile.read(folder + "/link") == nil)
        #expect(CacheFile.read(folder + "/sub") == nil)
        #expect(CacheFile.read(folder + "/missing") == nil)
    }
}
