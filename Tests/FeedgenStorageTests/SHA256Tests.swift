import FeedgenStorage
import Testing

/// SHA-256 of image sources (the cache names), Nettle's since it replaced a hand-written one in
/// C (which had replaced glib's g_compute_checksum_for_data): it must give the same digests.
@Suite struct SHA256Tests {
    func sha256(_ bytes: [UInt8]) -> String {
        SHA256.hex(bytes)
    }

    /// FIPS 180-4 SHA-256 test vectors (NIST's "Example Algorithms" SHA256.pdf and
    /// SHA2_Additional.pdf), which cover one-block, two-block and multi-block padding.
    @Test func sha256MatchesTheNISTVectors() {
        #expect(sha256(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(sha256([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(sha256(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(sha256(Array("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu".utf8))
            == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
        #expect(sha256([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        // Lengths around the padding boundary (55 fits one block, 56 needs two).
        #expect(sha256([UInt8](repeating: 0, count: 55)) == "02779466cdec163811d078815c633f21901413081449002f24aa3e80f0b88ef7")
        #expect(sha256([UInt8](repeating: 0, count: 64)) == "f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb4b")
    }
}
