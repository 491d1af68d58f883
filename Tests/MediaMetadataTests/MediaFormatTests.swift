import MediaBytes
import MediaMetadata
import TestSupport
import Testing

@Suite struct MediaFormatTests {
    func ftyp(_ brand: String) -> [UInt8] { AtomBuilder.ftyp(FourCC(latin1: brand)!) + [UInt8](repeating: 0, count: 40) }

    @Test func brandsDecideTheAtomFormat() {
        #expect(MediaFormat.detect(prefix: ftyp("M4A ")) == .mp4)
        #expect(MediaFormat.detect(prefix: ftyp("qt  ")) == .mov)
        #expect(MediaFormat.detect(prefix: ftyp("3gp4")) == .threeGP)
        #expect(MediaFormat.detect(prefix: ftyp("heic")) == .heif)
    }

    @Test func classicQuickTimeWithoutFileTypeIsMov() {
        #expect(MediaFormat.detect(prefix: AtomBuilder.atom("wide") + AtomBuilder.atom("mdat", [0, 0, 0, 0])) == .mov)
    }

    @Test func riffAndAiffAreRecognised() {
        #expect(MediaFormat.detect(prefix: Array("RIFF\0\0\0\0WAVEfmt ".utf8)) == .wav)
        #expect(MediaFormat.detect(prefix: Array("FORM\0\0\0\0AIFCCOMM".utf8)) == .aiff)
    }

    @Test func mpegStreamsBehindAnID3TagAreTold() {
        let tag: [UInt8] = Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 2]  // 2-byte tag body
        #expect(MediaFormat.detect(MemoryByteSource(tag + [0, 0, 0xFF, 0xFB, 0x90, 0x00])) == .mp3)
        #expect(MediaFormat.detect(MemoryByteSource(tag + [0, 0, 0xFF, 0xF1, 0x50, 0x80])) == .aac)
    }

    @Test func unknownBytesAreNoFormat() {
        #expect(MediaFormat.detect(prefix: Array("hello, world".utf8)) == nil)
    }
}
