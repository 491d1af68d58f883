import MediaBytes

/// Builds ID3v2 tags and frames for tests, so malformed tags are made in code.
public enum ID3Builder {
    /// A frame: 4-character ID (3 in v2.2), size (syncsafe in v2.4 unless `plainSize`), flags, body.
    public static func frame(_ id: String, _ body: [UInt8], version: UInt8 = 4, flags: (UInt8, UInt8) = (0, 0), plainSize: Bool = false) -> [UInt8] {
        var bytes = Array(id.utf8)
        if version == 2 {
            bytes += [UInt8(body.count >> 16 & 0xFF), UInt8(body.count >> 8 & 0xFF), UInt8(body.count & 0xFF)]
            return bytes + body
        }
        if version == 4 && !plainSize {
            bytes += SyncsafeInteger.encode(UInt32(body.count))!
        } else {
            bytes += AtomBuilder.be(UInt64(body.count), width: 4)
        }
        return bytes + [flags.0, flags.1] + body
    }

    /// A text frame body: encoding byte, then the values separated (and ended) by terminators.
    public static func text(_ values: [String], encoding: UInt8 = 3, terminate: Bool = false) -> [UInt8] {
        var body: [UInt8] = [encoding]
        for (i, value) in values.enumerated() {
            body += encode(value, encoding)
            if i < values.count - 1 || terminate { body += encoding == 1 || encoding == 2 ? [0, 0] : [0] }
        }
        return body
    }

    /// `text` in one of the ID3 encodings (UTF-16 with a little-endian BOM for 1).
    public static func encode(_ text: String, _ encoding: UInt8) -> [UInt8] {
        switch encoding {
        case 0: return text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
        case 1: return [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        case 2: return text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        default: return Array(text.utf8)
        }
    }

    /// A whole tag: header (version, flags, syncsafe size), `body` (frames), then `padding` zeros.
    public static func tag(version: UInt8 = 4, flags: UInt8 = 0, _ body: [UInt8], padding: Int = 0) -> [UInt8] {
        let size = body.count + padding
        return Array("ID3".utf8) + [version, 0, flags] + SyncsafeInteger.encode(UInt32(size))! + body + [UInt8](repeating: 0, count: padding)
    }

    /// A tag made of frames.
    public static func tag(version: UInt8 = 4, frames: [[UInt8]], padding: Int = 0) -> [UInt8] {
        tag(version: version, frames.flatMap { $0 }, padding: padding)
    }

    /// `data` as a zlib stream of stored (uncompressed) DEFLATE blocks: valid input for any
    /// inflater, made without a compressor.
    /// A DEFLATE stream (fixed Huffman codes) of `count` zero bytes: one literal, then matches
    /// of 258 bytes at distance 1, 13 bits each, about 160 to 1.
    public static func zlibZeros(_ count: Int) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var accumulator: UInt64 = 0
        var bits = 0
        func put(_ value: UInt64, _ width: Int, reversed: Bool = false) {
            var value = value
            if reversed { value = (0..<width).reduce(0) { $0 << 1 | (value >> UInt64($1) & 1) } }
            accumulator |= value << UInt64(bits)
            bits += width
            while bits >= 8 { out.append(UInt8(accumulator & 0xFF)); accumulator >>= 8; bits -= 8 }
        }
        put(1, 1)  // last block
        put(1, 2)  // fixed Huffman
        put(0x30, 8, reversed: true)  // literal 0
        var left = count - 1
        while left >= 258 {
            put(0b1100_0101, 8, reversed: true)  // length 258 (code 285)
            put(0, 5, reversed: true)  // distance 1
            left -= 258
        }
        for _ in 0..<left { put(0x30, 8, reversed: true) }
        put(0, 7)  // end of block (code 256)
        if bits > 0 { out.append(UInt8(accumulator & 0xFF)) }
        // Adler-32 of `count` zeros: a = 1, b = count mod 65521.
        let b = UInt32(count % 65521)
        return out + [UInt8(b >> 8), UInt8(b & 0xFF), 0, 1]
    }

    public static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var index = 0
        repeat {
            let count = min(65535, data.count - index)
            let last: UInt8 = index + count == data.count ? 1 : 0
            out += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[index..<index + count]
            index += count
        } while index < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        let adler = b << 16 | a
        return out + [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
    }

    /// A minimal valid MPEG-1 layer III frame header (128 kbit/s, 44.1 kHz, stereo) followed by
    /// zero bytes up to its 417-byte length.
    public static func mp3Frame() -> [UInt8] {
        [0xFF, 0xFB, 0x90, 0x00] + [UInt8](repeating: 0, count: 413)
    }
}
