/// The snapshot's diagnostics (``SnapshotDiagnostics``): a table of texts and fixed-width records
/// that read back byte for byte, tell changes apart, and refuse damage.
import FeedgenDiagnostics
import FeedgenStorage
import Testing

@testable import FeedgenIncremental

@Suite struct SnapshotDiagnosticsTests {
    /// Sorted as a build's report: paths repeat, a message repeats across files, and two
    /// messages are canonically equivalent but not the same bytes.
    static let list: [Diagnostic] = [
        .warning(SourceLocation(path: "content/a.md", line: 1, column: 1), "'g' names no file"),
        .warning(SourceLocation(path: "content/a.md", line: 3, column: 7), "caf\u{E9}"),
        .note(SourceLocation(path: "content/a.md", line: 3, column: 9), "cafe\u{301}"),
        .warning(SourceLocation(path: "content/b.md", line: 2, column: 1), "'g' names no file"),
        .error(SourceLocation(path: "content/c.md", line: 0, column: 0), ""),
    ]

    static func packed(_ list: [Diagnostic]) -> (bytes: [UInt8], read: SnapshotDiagnostics?) {
        var w = ByteWriter()
        w.int(list.count)
        w.snapshotDiagnostics(list)
        let bytes = w.bytes
        let read = bytes.withUnsafeBytes { buffer -> SnapshotDiagnostics? in
            var r = ByteReader(bytes: buffer)
            guard let read = SnapshotDiagnostics(&r, bytes: bytes), r.offset == bytes.count else { return nil }
            return read
        }
        return (bytes, read)
    }

    @Test func readBackByteForByte() throws {
        let read = try #require(Self.packed(Self.list).read)
        #expect(read.count == Self.list.count)
        #expect(read.texts.count == 7, "each path and message once")
        #expect(read.width == 4)
        #expect(PatchBuild.sameBytes(read.all, Self.list))
        #expect(PatchBuild.sameBytes(read.diagnostics(in: 1..<3), Self.list[1..<3]))
        #expect(read.location(at: 3) == Self.list[3].location)
        #expect(read.severities == Self.list.map(\.severity))
        #expect(read.matches(Self.list))
    }

    @Test func wideLinesAndColumns() throws {
        var list = Self.list
        list.append(.warning(SourceLocation(path: "content/d.md", line: Int(UInt32.max) + 1, column: -1), "far"))
        let read = try #require(Self.packed(list).read)
        #expect(read.width == 8)
        #expect(PatchBuild.sameBytes(read.all, list))
    }

    @Test func changesAreToldApart() throws {
        let read = try #require(Self.packed(Self.list).read)
        var list = Self.list
        list.remove(at: 1)
        list.insert(.warning(SourceLocation(path: "content/b.md", line: 5, column: 1), "new"), at: 3)
        let changes = try #require(read.changes(to: list, atMost: 4))
        #expect(changes.removed == [1])
        #expect(changes.added == [3])
        #expect(read.changes(to: list, atMost: 1) == nil)
        #expect(!read.matches(list))
        // Canonically equivalent is not the same.
        var equivalent = Self.list
        equivalent[1] = .warning(SourceLocation(path: "content/a.md", line: 3, column: 7), "cafe\u{301}")
        #expect(!read.matches(equivalent))
    }

    @Test func damageReadsAsNone() {
        let (bytes, _) = Self.packed(Self.list)
        // The first record's path place (after the count, the table and the width).
        let tableEnd = bytes.count - Self.list.count * SnapshotDiagnostics.stride(width: 4)
        for (offset, value) in [(tableEnd, UInt8(3)), (tableEnd + 1, 7), (tableEnd + 5, 0xFF), (tableEnd - 1, 5)] {
            var bad = bytes
            bad[offset] = value
            let read = bad.withUnsafeBytes { buffer -> SnapshotDiagnostics? in
                var r = ByteReader(bytes: buffer)
                return SnapshotDiagnostics(&r, bytes: bad)
            }
            #expect(read == nil, "damage at \(offset) read")
        }
    }
}
