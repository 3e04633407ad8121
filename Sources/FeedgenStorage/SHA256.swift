/// `SHA256`: the digest that names image sources in the build cache, from Debian's Nettle.
import CNettle

/// SHA-256 (FIPS 180-4) by Nettle (`nettle/sha2.h`). Image sources are named by it in the
/// build cache and their variants' names derive from it, so it must stay SHA-256: the names
/// are the same as those glib's `g_compute_checksum_for_data` gave before.
public enum SHA256 {
    /// The lowercase hex digest of `bytes` (64 characters).
    public static func hex(_ bytes: UnsafeRawBufferPointer) -> String {
        var context = sha256_ctx()
        nettle_sha256_init(&context)
        if let base = bytes.baseAddress {
            nettle_sha256_update(&context, bytes.count, base.assumingMemoryBound(to: UInt8.self))
        }
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_SIZE))
        nettle_sha256_digest(&context, digest.count, &digest)
        let hexDigits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in digest {
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func hex(_ bytes: [UInt8]) -> String { bytes.withUnsafeBytes { hex($0) } }
}
