/// `BodyPaths.sortedOnce(_:)`: the files a site's body paths looked for and did not find
/// (``BodyPaths/Resolution/absent``), sorted and each once: a few per target, long paths.
import Foundation

extension BodyPaths {
    /// `paths` sorted, then the first of equal ones: by their bytes when every path is ASCII
    /// (then the String order, at a memcmp each), else as Strings.
    static func sortedOnce(_ paths: [String]) -> [String] {
        var looked = paths
        if looked.allSatisfy(isASCII) {
            looked.sort(by: bytesPrecede)
        } else {
            looked.sort()
        }
        var absent: [String] = []
        absent.reserveCapacity(looked.count)
        for path in looked where absent.last != path { absent.append(path) }
        return absent
    }

    /// Whether every byte of `s` is below 0x80 (eight at a time).
    static func isASCII(_ s: String) -> Bool {
        s.utf8.withContiguousStorageIfAvailable { b in
            var high: UInt64 = 0
            var i = 0
            let raw = UnsafeRawBufferPointer(b)
            while i + 8 <= b.count {
                high |= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                i += 8
            }
            while i < b.count {
                high |= UInt64(b[i])
                i += 1
            }
            return high & 0x8080_8080_8080_8080 == 0
        } ?? s.utf8.allSatisfy { $0 < 0x80 }
    }

    /// Whether `a`'s bytes precede `b`'s (memcmp; a prefix first): for ASCII strings, `a < b`.
    static func bytesPrecede(_ a: String, _ b: String) -> Bool {
        let order = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y -> Bool in
                let n = min(x.count, y.count)
                let c = n == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, n)
                return c != 0 ? c < 0 : x.count < y.count
            }
        }
        return (order ?? nil) ?? (a < b)
    }
}
