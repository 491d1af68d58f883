import ID3
import MediaBytes

/// The audio format of an AIFF (`COMM` chunk, EA IFF 85 / Apple AIFF-C) or WAV (`fmt ` chunk,
/// Microsoft RIFF WAVE) file, as the chunk tree shows it.
public struct IFFAudioFormat: Sendable, Hashable {
    /// WAV format tag (1 PCM, 3 IEEE float, 0xFFFE extensible...), nil for AIFF.
    public var formatTag: UInt16?
    /// AIFF-C compression type (`NONE`, `sowt`, `fl32`...), nil otherwise.
    public var compressionType: FourCC?
    public var channels: Int
    public var sampleRate: Double
    public var bitsPerSample: Int
    /// AIFF: the number of sample frames.
    public var frameCount: UInt32?
    /// WAV: the average bytes per second `fmt ` declares (what times a compressed stream, such
    /// as MP3 in WAV, whose samples have no fixed width); nil for AIFF.
    public var byteRate: UInt32?

    /// Whether the samples are stored as they are (PCM, float, A-law, mu-law), each frame the
    /// same number of bytes.
    public var isUncompressed: Bool {
        if let formatTag { return [1, 3, 6, 7, 0xFFFE].contains(formatTag) && bitsPerSample > 0 }
        return true
    }

    /// Reads a `COMM` (big-endian) or `fmt ` (little-endian) chunk body.
    init?(chunk id: FourCC, data: [UInt8]) {
        if id == "COMM", data.count >= 18 {
            var reader = ByteReader(data)
            guard let channels = try? reader.readUInt16(), let frames = try? reader.readUInt32(),
                let bits = try? reader.readUInt16(), let rate = try? reader.readBytes(10)
            else { return nil }
            self.channels = Int(channels)
            frameCount = frames
            bitsPerSample = Int(bits)
            sampleRate = Self.extended80(rate)
            compressionType = data.count >= 22 ? FourCC(data[18], data[19], data[20], data[21]) : nil
            formatTag = nil
            byteRate = nil
        } else if id == "fmt ", data.count >= 16 {
            func le16(_ i: Int) -> Int { Int(data[i]) | Int(data[i + 1]) << 8 }
            func le32(_ i: Int) -> UInt32 { UInt32(data[i]) | UInt32(data[i + 1]) << 8 | UInt32(data[i + 2]) << 16 | UInt32(data[i + 3]) << 24 }
            formatTag = UInt16(le16(0))
            channels = le16(2)
            sampleRate = Double(le32(4))
            bitsPerSample = le16(14)
            byteRate = le32(8)
            frameCount = nil
            compressionType = nil
        } else {
            return nil
        }
    }

    /// An IEEE 754 80-bit extended float (AIFF sample rates).
    static func extended80(_ bytes: [UInt8]) -> Double {
        let exponent = Int(UInt16(bytes[0] & 0x7F) << 8 | UInt16(bytes[1])) - 16383
        let mantissa = bytes[2..<10].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard mantissa != 0, exponent > -1000, exponent < 1000 else { return 0 }
        let value = Double(mantissa) * pow2(exponent - 63)
        return bytes[0] & 0x80 != 0 ? -value : value
    }

    static func pow2(_ exponent: Int) -> Double {
        var result = 1.0
        if exponent >= 0 { for _ in 0..<exponent { result *= 2 } } else { for _ in 0..<(-exponent) { result /= 2 } }
        return result
    }
}
