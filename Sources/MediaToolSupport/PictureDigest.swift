import Crypto
import MediaBytes

/// The SHA-256 of picture bytes as the tools print it (`show --json`, `chapters --json`): 64
/// lower-case hexadecimal digits. swift-crypto's SHA-256 (BoringSSL, with the processor's
/// SHA extensions where it has them) runs at memory speed, so a listing with covers costs
/// no more than one without (a hand-written one at ~65 MB/s made a 32 KB cover cost 0.5 ms).
public enum PictureDigest {
    public static func sha256Hex(_ bytes: [UInt8]) -> String {
        hex(SHA256.hash(data: bytes))
    }

    /// The SHA-256 of bytes that may still be in a file, read a MiB at a time.
    public static func sha256Hex(_ bytes: SplicedBytes) throws -> String {
        var hash = SHA256()
        try bytes.forEachChunk(size: 1 << 20) { hash.update(data: $0) }
        return hex(hash.finalize())
    }

    private static func hex(_ digest: SHA256.Digest) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in digest {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
