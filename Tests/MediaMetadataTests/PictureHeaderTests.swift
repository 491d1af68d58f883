import Testing
import VorbisComment

/// The image header a FLAC `PICTURE` block's dimensions come from, built in code: PNG (truecolour
/// and indexed with its palette), JPEG (the frame header after other segments), GIF and a
/// top-down BMP; anything else, or a header cut short, gives nothing rather than a guess.
@Suite struct PictureHeaderTests {
    func be32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
    func le(_ value: UInt32, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    @Test func dimensionsComeFromEachFormatsHeader() {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        func png(colorType: UInt8, bits: UInt8, palette: Int?) -> [UInt8] {
            var bytes = signature + be32(13) + Array("IHDR".utf8) + be32(640) + be32(480) + [bits, colorType, 0, 0, 0] + be32(0)
            if let palette { bytes += be32(UInt32(palette * 3)) + Array("PLTE".utf8) + [UInt8](repeating: 7, count: palette * 3) + be32(0) }
            return bytes + be32(0) + Array("IDAT".utf8) + be32(0)
        }
        #expect(FLACPicture.imageHeader(of: png(colorType: 6, bits: 8, palette: nil))! == (640, 480, 32, 0))
        #expect(FLACPicture.imageHeader(of: png(colorType: 3, bits: 4, palette: 16))! == (640, 480, 4, 16))
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + Array("JFIF".utf8) + [UInt8](repeating: 0, count: 10)
            + [0xFF, 0xDB, 0, 4, 0, 0] + [0xFF, 0xC2, 0, 17, 8, 0x01, 0xE0, 0x02, 0x80, 3] + [UInt8](repeating: 0, count: 9) + [0xFF, 0xD9]
        #expect(FLACPicture.imageHeader(of: jpeg)! == (640, 480, 24, 0))
        let gif = Array("GIF89a".utf8) + le(320, 2) + le(200, 2) + [0xF7, 0, 0]
        #expect(FLACPicture.imageHeader(of: gif)! == (320, 200, 8, 256))
        let bmp = Array("BM".utf8) + [UInt8](repeating: 0, count: 16) + le(100, 4) + le(UInt32(bitPattern: -50), 4) + le(1, 2) + le(24, 2)
        #expect(FLACPicture.imageHeader(of: bmp)! == (100, 50, 24, 0))
        #expect(FLACPicture.imageHeader(of: Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == nil)
        #expect(FLACPicture.imageHeader(of: Array(jpeg.prefix(20))) == nil)
        let picture = FLACPicture(type: 3, mimeType: "image/png", image: png(colorType: 2, bits: 8, palette: nil))
        #expect((picture.width, picture.height, picture.colorDepth, picture.colorCount) == (640, 480, 24, 0))
    }
}
