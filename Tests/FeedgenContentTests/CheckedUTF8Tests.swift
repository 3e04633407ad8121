import Testing

@testable import FeedgenContent

/// `String(checkedUTF8:)` accepts exactly what `String(validating:as:)` accepts, and gives the same string.
@Suite struct CheckedUTF8Tests {
    static func same(_ bytes: [UInt8]) -> Bool {
        let checked = bytes.withUnsafeBufferPointer { String(checkedUTF8: $0) }
        let swift = String(validating: bytes, as: UTF8.self)
        return checked == swift && checked.map { Array($0.utf8) == bytes } ?? true
    }

    @Test func edgesOfTable3_7() {
        let sequences: [[UInt8]] = [
            [], [0x41], [0x7F], [0x80], [0xC1, 0xBF], [0xC2, 0x80], [0xDF, 0xBF], [0xDF], [0xE0, 0x9F, 0x80], [0xE0, 0xA0, 0x80],
            [0xE1, 0x80, 0x80], [0xEC, 0xBF, 0xBF], [0xED, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xEE, 0x80, 0x80], [0xEF, 0xBF, 0xBF],
            [0xEF, 0xBF], [0xF0, 0x8F, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF3, 0xBF, 0xBF, 0xBF], [0xF4, 0x8F, 0xBF, 0xBF],
            [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0xE2, 0x80, 0x41], [0xF0, 0x90, 0x80, 0x41],
        ]
        for s in sequences {
            // Alone, after sixteen ASCII bytes and more (the vector loop), and before them.
            let ascii = Array("0123456789abcdefghij".utf8)
            for bytes in [s, ascii + s, ascii.prefix(15) + s + ascii, s + ascii + s] {
                #expect(Self.same(Array(bytes)), "\(bytes)")
            }
        }
    }

    /// SplitMix64, seeded: the same byte strings on every run, so a failure can be repeated.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func randomBytes() {
        var generator = SeededGenerator(state: 20_261_204)
        let alphabet: [UInt8] = [0x20, 0x41, 0x7F, 0x80, 0x9F, 0xA0, 0xBF, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEF, 0xF0, 0xF4, 0xF5]
        for _ in 0..<3000 {
            let count = Int.random(in: 0..<40, using: &generator)
            let bytes = (0..<count).map { _ in alphabet.randomElement(using: &generator)! }
            #expect(Self.same(bytes), "\(bytes)")
        }
        #expect(Self.same(Array("Grüße, 世界 🎉 — \u{10FFFF}".utf8)))
    }
}
