/// Base64 (RFC 4648 section 4, with padding), for binary values in JSON documents.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    public static func encode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        if let text = bytes.withContiguousStorageIfAvailable({ encode(UnsafeRawBufferPointer($0)) }) { return text }
        return Array(bytes).withUnsafeBytes { encode($0) }
    }

    /// The number of characters the Base64 of `count` bytes takes.
    public static func encodedCount(_ count: Int) -> Int { (count + 2) / 3 * 4 }

    /// Appends the Base64 of `bytes` to `out` (as ASCII bytes), encoded in place: no string
    /// in between, for writers that build a document as bytes.
    public static func append<C: Collection>(_ bytes: C, to out: inout [UInt8]) where C.Element == UInt8 {
        let length = encodedCount(bytes.count)
        guard length > 0 else { return }
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: length))
        out.withUnsafeMutableBufferPointer { buffer in
            let target = UnsafeMutableBufferPointer(rebasing: buffer[start..<start + length])
            if bytes.withContiguousStorageIfAvailable({ encode(UnsafeRawBufferPointer($0), into: target) }) == nil {
                _ = Array(bytes).withUnsafeBytes { encode($0, into: target) }
            }
        }
    }

    private static func encode(_ data: UnsafeRawBufferPointer) -> String {
        let length = encodedCount(data.count)
        guard length > 0 else { return "" }
        return String(unsafeUninitializedCapacity: length) { encode(data, into: $0) }
    }

    /// Every 12-bit value's two characters, the first in the low byte (so that a little-endian
    /// store writes them in order).
    private static let pairs: [UInt16] = (0..<4096).map { UInt16(alphabet[$0 >> 6]) | UInt16(alphabet[$0 & 0x3F]) << 8 }

    /// Writes the Base64 of `data` into `out` (at least `encodedCount(data.count)` bytes);
    /// returns the number written.
    ///
    /// Six bytes at a time: one unaligned 8-byte load, four look-ups of two characters each
    /// (12 bits), one 8-byte store; then groups of three, then the padded end. Covers in
    /// `tagedit export` are most of its output, and this runs at about twice the speed of a
    /// character at a time.
    public static func encode(_ data: UnsafeRawBufferPointer, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        precondition(out.count >= encodedCount(data.count), "Base64 output buffer too small")
        guard let input = data.baseAddress, let output = UnsafeMutableRawPointer(out.baseAddress) else { return 0 }
        return pairs.withUnsafeBufferPointer { pairs in
            alphabet.withUnsafeBufferPointer { alphabet in
                let count = data.count
                var i = 0, o = 0
                while i + 8 <= count {
                    let word = UInt64(bigEndian: input.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                    let first = UInt64(pairs[Int(truncatingIfNeeded: word >> 52)]) | UInt64(pairs[Int(truncatingIfNeeded: word >> 40 & 0xFFF)]) << 16
                    let second = UInt64(pairs[Int(truncatingIfNeeded: word >> 28 & 0xFFF)]) | UInt64(pairs[Int(truncatingIfNeeded: word >> 16 & 0xFFF)]) << 16
                    output.storeBytes(of: (first | second << 32).littleEndian, toByteOffset: o, as: UInt64.self)
                    i += 6
                    o += 8
                }
                while i + 3 <= count {
                    let word = UInt32(data[i]) << 16 | UInt32(data[i + 1]) << 8 | UInt32(data[i + 2])
                    out[o] = alphabet[Int(word >> 18)]
                    out[o + 1] = alphabet[Int(word >> 12 & 0x3F)]
                    out[o + 2] = alphabet[Int(word >> 6 & 0x3F)]
                    out[o + 3] = alphabet[Int(word & 0x3F)]
                    i += 3
                    o += 4
                }
                if i < count {
                    let b0 = data[i], b1 = i + 1 < count ? data[i + 1] : 0
                    out[o] = alphabet[Int(b0 >> 2)]
                    out[o + 1] = alphabet[Int((b0 & 0x3) << 4 | b1 >> 4)]
                    out[o + 2] = i + 1 < count ? alphabet[Int((b1 & 0xF) << 2)] : UInt8(ascii: "=")
                    out[o + 3] = UInt8(ascii: "=")
                    o += 4
                }
                return o
            }
        }
    }

    /// The bytes of `text` (white space ignored, padding optional); nil when it is not Base64.
    public static func decode(_ text: String) -> [UInt8]? {
        var values: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): values.append(byte - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): values.append(byte - UInt8(ascii: "a") + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): values.append(byte - UInt8(ascii: "0") + 52)
            case UInt8(ascii: "+"): values.append(62)
            case UInt8(ascii: "/"): values.append(63)
            case UInt8(ascii: "="), UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): continue
            default: return nil
            }
        }
        guard values.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 3 / 4)
        var i = 0
        while i < values.count {
            let n = min(4, values.count - i)
            let v = (0..<4).map { $0 < n ? UInt32(values[i + $0]) : 0 }
            let word = v[0] << 18 | v[1] << 12 | v[2] << 6 | v[3]
            out.append(UInt8(word >> 16))
            if n > 2 { out.append(UInt8(truncatingIfNeeded: word >> 8)) }
            if n > 3 { out.append(UInt8(truncatingIfNeeded: word)) }
            i += 4
        }
        return out
    }
}
