import ISOBMFF
import MediaBytes
import TestSupport
import Testing

/// QuickTime user-data text under a Macintosh language code is in the Macintosh encoding (Mac
/// OS Roman for the Western languages), as QuickTime and ffmpeg read it; under a packed ISO
/// 639-2/T code it is UTF-8. Before 2026-11-29 every string was read as UTF-8: `8c 6c 62 75
/// 6d` under code 0 (English) showed as "�lbum", not "ålbum".
@Suite struct UserDataTextEncodingTests {
    static func payload(_ text: [UInt8], language: UInt16) -> [UInt8] {
        B.be(UInt64(text.count), width: 2) + B.be(UInt64(language), width: 2) + text
    }

    @Test func macintoshCodedTextIsMacRoman() throws {
        let item = UserDataItem(type: "©alb", payload: Self.payload([0x8C, 0x6C, 0x62, 0x75, 0x6D], language: 0))
        #expect(item.texts?.first?.text == "ålbum")
        let decoded = try #require(try decodeLeaf("©alb", Self.payload([0x8C, 0x6C, 0x62, 0x75, 0x6D], language: 0), parents: ["moov", "udta"]) as? UserDataTextAtom)
        #expect(decoded.entries.first?.text == "ålbum")
        #expect(decoded.entries.first?.language == "eng")
    }

    @Test func isoCodedTextIsUTF8() throws {
        let und = UserDataItem.LocalizedText.undetermined
        let item = UserDataItem(type: "©nam", payload: Self.payload(Array("ålbum".utf8), language: und))
        #expect(item.texts?.first?.text == "ålbum")
    }

    @Test func writingKeepsTheMacintoshCodeWhenMacRomanHoldsTheText() throws {
        let kept = UserDataItem.text("©nam", [.init("ålbum ™", languageCode: 0)])
        #expect(kept.payload == Self.payload([0x8C, 0x6C, 0x62, 0x75, 0x6D, 0x20, 0xAA], language: 0))
        #expect(kept.texts?.first?.text == "ålbum ™")
        // Text Mac OS Roman cannot hold goes as UTF-8 under `und`, not as bytes a reader
        // would take for Mac OS Roman.
        let moved = UserDataItem.text("©nam", [.init("日本", languageCode: 0)])
        #expect(moved.payload == Self.payload(Array("日本".utf8), language: UserDataItem.LocalizedText.undetermined))
        #expect(moved.texts?.first?.text == "日本")
    }
}
