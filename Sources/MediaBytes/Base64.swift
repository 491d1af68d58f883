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
    public static func decode(_ text: String) -> [UInt8]? { decode(Array(text.utf8)[...]) }

    /// The bytes that the Base64 characters `encoded` stand for (white space and `=` ignored);
    /// nil when a character is not Base64 or the count leaves a lone character.
    public static func decode(_ encoded: ArraySlice<UInt8>) -> [UInt8]? {
        encoded.withUnsafeBufferPointer { decode($0) }
    }

    private static func decode(_ encoded: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(encoded.count / 4 * 3 + 3)
        var word: UInt32 = 0, count = 0
        let table = decodingTable
        for byte in encoded {
            let value = table[Int(byte)]
            if value >= 64 {
                if value == skip { continue }
                return nil
            }
            word = word << 6 | UInt32(value)
            count += 1
            if count == 4 {
                out.append(UInt8(truncatingIfNeeded: word >> 16))
                out.append(UInt8(truncatingIfNeeded: word >> 8))
                out.append(UInt8(truncatingIfNeeded: word))
                word = 0
                count = 0
            }
        }
        switch count {
        case 0: break
        case 2: out.append(UInt8(truncatingIfNeeded: word >> 4))
        case 3:
            out.append(UInt8(truncatingIfNeeded: word >> 10))
            out.append(UInt8(truncatingIfNeeded: word >> 2))
        default: return nil
        }
        return out
    }

    /// Marks the characters `decode` passes over (`=`, white space); 255 marks the others
    /// that are not Base64.
    private static let skip: UInt8 = 254

    /// The value of each Base64 character, `skip`, or 255.
    private static let decodingTable: [UInt8] = {
        var table = [UInt8](repeating: 255, count: 256)
        for (index, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() { table[Int(character)] = UInt8(index) }
        for character in "= \n\r\t".utf8 { table[Int(character)] = skip }
        return table
    }()
}
