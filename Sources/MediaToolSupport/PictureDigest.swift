import MediaBytes

/// The SHA-256 of picture bytes as the tools print it (`show --json --digests`, `export
/// --digests`, `chapters --json`): 64 lower-case hexadecimal digits.
///
/// Written here in Swift (FIPS 180-4) rather than taken from swift-crypto: digests are printed
/// only when asked for, and a picture is hashed at a few hundred MB/s, while swift-crypto
/// made every fresh build compile BoringSSL (more than half of a first `swift run`'s build
/// steps). The README's "Why no swift-crypto" paragraph has the measurements.
public enum PictureDigest {
    public static func sha256Hex(_ bytes: [UInt8]) -> String {
        var hash = SHA256()
        bytes.withUnsafeBytes { hash.update($0) }
        return hex(hash.finalize())
    }

    /// The SHA-256 of bytes that may still be in a file, read a MiB at a time.
    public static func sha256Hex(_ bytes: SplicedBytes) throws -> String {
        var hash = SHA256()
        try bytes.forEachChunk(size: 1 << 20) { chunk in chunk.withUnsafeBytes { hash.update($0) } }
        return hex(hash.finalize())
    }

    private static func hex(_ digest: [UInt8]) -> String {
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

/// SHA-256 (FIPS 180-4, section 6.2), fed in pieces of any size.
public struct SHA256: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
    /// Bytes of a block not yet complete (fewer than 64).
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    public init() {}

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard var base = bytes.baseAddress, !bytes.isEmpty else { return }
        var count = bytes.count
        length &+= UInt64(count)
        if !pending.isEmpty {
            let take = min(64 - pending.count, count)
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base, count: take))
            base += take
            count -= take
            guard pending.count == 64 else { return }
            pending.withUnsafeBytes { compress($0.baseAddress!, blocks: 1) }
            pending.removeAll(keepingCapacity: true)
        }
        let blocks = count / 64
        if blocks > 0 { compress(base, blocks: blocks) }
        let rest = count - blocks * 64
        if rest > 0 { pending.append(contentsOf: UnsafeRawBufferPointer(start: base + blocks * 64, count: rest)) }
    }

    /// The digest: 32 bytes. The hash is spent (padding is added to it).
    public mutating func finalize() -> [UInt8] {
        let bitLength = length &* 8
        var tail: [UInt8] = [0x80]
        let used = (pending.count + 1) % 64
        tail += repeatElement(0, count: (used <= 56 ? 56 - used : 120 - used))
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        let savedLength = length
        tail.withUnsafeBytes { update($0) }
        length = savedLength
        precondition(pending.isEmpty)
        var digest: [UInt8] = []
        digest.reserveCapacity(32)
        for word in [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7] {
            digest += [UInt8(word >> 24), UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word)]
        }
        return digest
    }

    private mutating func compress(_ data: UnsafeRawPointer, blocks: Int) {
        var (h0, h1, h2, h3, h4, h5, h6, h7) = state
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            sha256RoundConstants.withUnsafeBufferPointer { k in
                for block in 0..<blocks {
                    let p = data + block * 64
                    for t in 0..<16 { w[t] = UInt32(bigEndian: p.loadUnaligned(fromByteOffset: t * 4, as: UInt32.self)) }
                    for t in 16..<64 {
                        let a = w[t - 15], b = w[t - 2]
                        let s0 = a.rotatedRight(7) ^ a.rotatedRight(18) ^ (a >> 3)
                        let s1 = b.rotatedRight(17) ^ b.rotatedRight(19) ^ (b >> 10)
                        w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
                    }
                    var a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7
                    // Eight rounds per pass with the variables' roles rotated instead of moved.
                    for t in stride(from: 0, to: 64, by: 8) {
                        sha256Round(a, b, c, &d, e, f, g, &h, k[t] &+ w[t])
                        sha256Round(h, a, b, &c, d, e, f, &g, k[t + 1] &+ w[t + 1])
                        sha256Round(g, h, a, &b, c, d, e, &f, k[t + 2] &+ w[t + 2])
                        sha256Round(f, g, h, &a, b, c, d, &e, k[t + 3] &+ w[t + 3])
                        sha256Round(e, f, g, &h, a, b, c, &d, k[t + 4] &+ w[t + 4])
                        sha256Round(d, e, f, &g, h, a, b, &c, k[t + 5] &+ w[t + 5])
                        sha256Round(c, d, e, &f, g, h, a, &b, k[t + 6] &+ w[t + 6])
                        sha256Round(b, c, d, &e, f, g, h, &a, k[t + 7] &+ w[t + 7])
                    }
                    h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d; h4 &+= e; h5 &+= f; h6 &+= g; h7 &+= h
                }
            }
        }
        state = (h0, h1, h2, h3, h4, h5, h6, h7)
    }
}

/// One round (FIPS 180-4, 6.2.2 step 3) with the roles of the eight working variables passed
/// in: `d` and `h` are the two that change.
@inline(__always)
private func sha256Round(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
                         _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32, _ constantPlusWord: UInt32) {
    let t1 = h &+ (e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)) &+ (g ^ (e & (f ^ g))) &+ constantPlusWord
    d &+= t1
    h = t1 &+ (a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)) &+ ((a & b) | (c & (a | b)))
}

private extension UInt32 {
    @inline(__always) func rotatedRight(_ count: UInt32) -> UInt32 { (self >> count) | (self << (32 - count)) }
}

private let sha256RoundConstants: [UInt32] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]
