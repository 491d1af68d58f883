/// The dimensions a FLAC `PICTURE` block records of its image, read from the image's own
/// header (as `metaflac --import-picture-from` fills them in): PNG, JPEG, GIF and BMP. Readers
/// such as players size their artwork by them; 0 means "not known", which is what they hold
/// for an image of another format or a header that does not read.
extension FLACPicture {
    /// The width, height, colour depth in bits per pixel and, for an indexed image, the number
    /// of colours of the image `data`; nil for a format not known or a header that does not
    /// read.
    public static func imageHeader(of data: [UInt8]) -> (width: UInt32, height: UInt32, colorDepth: UInt32, colorCount: UInt32)? {
        func u16be(_ at: Int) -> UInt32 { UInt32(data[at]) << 8 | UInt32(data[at + 1]) }
        func u32be(_ at: Int) -> UInt32 { u16be(at) << 16 | u16be(at + 2) }
        func u16le(_ at: Int) -> UInt32 { UInt32(data[at + 1]) << 8 | UInt32(data[at]) }
        func u32le(_ at: Int) -> UInt32 { u16le(at + 2) << 16 | u16le(at) }
        // PNG: the IHDR chunk comes first; an indexed image's colours are its PLTE's entries.
        if data.count >= 33, data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), data[12..<16].elementsEqual("IHDR".utf8) {
            let bits = UInt32(data[24])
            let channels: UInt32
            switch data[25] {
            case 0, 3: channels = 1
            case 2: channels = 3
            case 4: channels = 2
            case 6: channels = 4
            default: return nil
            }
            var colors: UInt32 = 0
            if data[25] == 3 {
                var at = 33
                while at + 8 <= data.count {
                    let length = Int(u32be(at))
                    if data[at + 4..<at + 8].elementsEqual("PLTE".utf8) { colors = UInt32(length / 3); break }
                    if data[at + 4..<at + 8].elementsEqual("IDAT".utf8) { break }
                    guard length <= data.count else { break }
                    at += 12 + length
                }
            }
            return (u32be(16), u32be(20), bits * channels, colors)
        }
        // JPEG: the first start-of-frame marker (SOF0-SOF15 but DHT, JPG and DAC).
        if data.count >= 4, data[0] == 0xFF, data[1] == 0xD8 {
            var at = 2
            while at + 9 < data.count {
                guard data[at] == 0xFF else { return nil }
                let marker = data[at + 1]
                if marker == 0xFF { at += 1; continue }
                if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { at += 2; continue }
                let length = Int(u16be(at + 2))
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                    return (u16be(at + 7), u16be(at + 5), UInt32(data[at + 4]) * UInt32(data[at + 9]), 0)
                }
                if marker == 0xD9 || marker == 0xDA || length < 2 { return nil }
                at += 2 + length
            }
            return nil
        }
        // GIF: the logical screen; its global colour table's size.
        if data.count >= 13, data.starts(with: "GIF8".utf8) {
            let packed = data[10]
            let bits = UInt32(packed & 0x07) + 1
            return (u16le(6), u16le(8), bits, packed & 0x80 != 0 ? 1 << bits : 0)
        }
        // BMP: the info header after the 14-byte file header (a negative height is top-down).
        if data.count >= 30, data.starts(with: "BM".utf8) {
            let height = Int32(bitPattern: u32le(22))
            return (u32le(18), height.magnitude, u16le(28), 0)
        }
        return nil
    }

    /// A picture of `type` holding the image `data`, its dimensions read from the image's
    /// header (0 where they cannot be).
    public init(type: UInt32, mimeType: String, description: String = "", image data: [UInt8]) {
        let header = Self.imageHeader(of: data)
        self.init(type: type, mimeType: mimeType, description: description, width: header?.width ?? 0, height: header?.height ?? 0,
                  colorDepth: header?.colorDepth ?? 0, colorCount: header?.colorCount ?? 0, data: data)
    }
}
