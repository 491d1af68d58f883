import Foundation
import APEv2
import Carriers
import ID3
import MediaBytes
import MediaMetadata
import TagLibOracle
import TestSupport
import Testing

/// APE tags in MP3 files through the key space: read as TagLib reads them, kept in step with
/// the ID3v2 tag on every edit, and preserved byte for byte otherwise.
@Suite struct APEInMP3Tests {
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10] + Array("JFIF".utf8) + [0, 1, 2, 3]

    static func ape(_ items: [APEItem]) -> [UInt8] { APETag(items: items).serialized() }

    /// An MP3: an ID3v2 tag holding `id3` frames (none: no tag), two MPEG frames, an APE tag, an ID3v1 tag.
    static func mp3(id3 frames: [[UInt8]]?, ape items: [APEItem], v1: Bool = false) throws -> String {
        var bytes = frames.map { ID3Builder.tag(frames: $0, padding: 64) } ?? []
        bytes += ID3Builder.mp3Frame() + ID3Builder.mp3Frame() + ape(items)
        if v1 { bytes += Array("TAG".utf8) + Array(("v1 title" + String(repeating: "\0", count: 30)).utf8.prefix(30)) + [UInt8](repeating: 0, count: 95) }
        return try TemporaryFile.write(bytes, name: "ape.mp3")
    }

    static let standardItems: [APEItem] = [.text("Title", ["APE Title"]), .text("Artist", ["APE Artist"]), .text("Track", ["4"]),
                                            .text("Year", ["2019"]), .text("Album Artist", ["Various"]), .text("Mood", ["Calm"]),
                                            .binary("Cover Art (Front)", Array("front.jpg".utf8) + [0] + jpeg)]

    @Test func anAPEOnlyFileReadsItsTagsAsTagLibDoes() throws {
        let path = try Self.mp3(id3: nil, ape: Self.standardItems)
        let file = try MediaFile(path: path)
        #expect(file.tags["TITLE"] == ["APE Title"])
        #expect(file.tags["TRACKNUMBER"] == ["4"])
        #expect(file.tags["DATE"] == ["2019"])
        #expect(file.tags["ALBUMARTIST"] == ["Various"])
        #expect(file.tags["MOOD"] == ["Calm"])
        #expect(try file.values("ape/Title") == ["APE Title"])
        let pictures = try file.pictures
        #expect(pictures.count == 1)
        #expect(pictures.first?.type == 3)
        #expect(pictures.first?.description == "front.jpg")
        #expect(pictures.first?.data == Self.jpeg)
        #expect(TagLibReading.read(path)?.properties["TITLE"] == ["APE Title"])
        #expect(TagLibReading.read(path)?.properties["TRACKNUMBER"] == ["4"])
    }

    @Test func theID3v2TagGivesTheTagsWhenThereIsOne() throws {
        let path = try Self.mp3(id3: [ID3Builder.frame("TIT2", ID3Builder.text(["ID3 Title"]))], ape: Self.standardItems)
        let file = try MediaFile(path: path)
        #expect(file.tags["TITLE"] == ["ID3 Title"])
        #expect(file.tags["ARTIST"] == nil)
        #expect(file.items.contains { $0.identifier.description == "ape/Artist" })
    }

    @Test func settingAKeyKeepsTheAPETagInStep() async throws {
        let path = try Self.mp3(id3: [ID3Builder.frame("TIT2", ID3Builder.text(["ID3 Title"]))], ape: Self.standardItems)
        var file = try MediaFile(path: path)
        try file.set("TITLE", ["New Title"])
        try file.set("DATE", ["2024"])
        try file.set("GENRE", ["Jazz"])
        try file.save()
        let reread = try MediaFile(path: path)
        #expect(try reread.values("ape/Title") == ["New Title"])
        #expect(try reread.values("ape/Year") == ["2024"])
        #expect(try reread.values("ape/Genre") == ["Jazz"])
        #expect(try reread.values("id3/TIT2") == ["New Title"])
        // Untouched items keep their bytes, including the cover.
        #expect(try reread.pictures.first?.data == Self.jpeg)
        if OtherReaders.areAvailable {
            let script = "from mutagen.apev2 import APEv2; import sys; t = APEv2(sys.argv[1]); print(t['Title'], t['Year'], t['Genre'])"
            let result = try await ToolRunner.runProgram(OtherReaders.python, ["-c", script, path])
            #expect(result.standardOutput == "New Title 2024 Jazz\n", "\(result.standardError)")
        }
    }

    @Test func editingAnAPEOnlyFileWritesBothTags() throws {
        let path = try Self.mp3(id3: nil, ape: Self.standardItems)
        var file = try MediaFile(path: path)
        try file.set("TITLE", ["Edited"])
        try file.save()
        let reread = try MediaFile(path: path)
        #expect(reread.tags["TITLE"] == ["Edited"])
        // The new ID3v2 tag took the APE tag's other values, so nothing disappears.
        #expect(reread.tags["ARTIST"] == ["APE Artist"])
        #expect(try reread.values("ape/Title") == ["Edited"])
        #expect(TagLibReading.read(path)?.properties["TITLE"] == ["Edited"])
    }

    /// The new ID3v2 tag takes the APE tag's keys outside the table too (`TXXX` frames named
    /// as the APE items are), so that editing one key hides none of them: before 2026-11-30
    /// `set TITLE=x` on an APE-only MP3 made `PUBLISHER` and `TEST` disappear from `tags`.
    @Test func editingAnAPEOnlyFileKeepsItsCustomKeysVisible() throws {
        let path = try Self.mp3(id3: nil, ape: Self.standardItems + [.text("Publisher", ["abc publishing"]), .text("TEST", ["xxx"])])
        #expect(try MediaFile(path: path).tags["PUBLISHER"] == ["abc publishing"])
        var file = try MediaFile(path: path)
        try file.set("TITLE", ["Edited"])
        try file.save()
        let reread = try MediaFile(path: path)
        #expect(reread.tags["TITLE"] == ["Edited"])
        #expect(reread.tags["PUBLISHER"] == ["abc publishing"])
        #expect(reread.tags["TEST"] == ["xxx"])
        #expect(try reread.values("id3/TXXX:Publisher") == ["abc publishing"])
        #expect(try reread.values("ape/Publisher") == ["abc publishing"])
        let taglib = TagLibReading.read(path)?.properties
        #expect(taglib?["PUBLISHER"] == ["abc publishing"] && taglib?["TEST"] == ["xxx"])
    }

    @Test func removingAndClearingReachTheAPETag() throws {
        let path = try Self.mp3(id3: [ID3Builder.frame("TIT2", ID3Builder.text(["ID3 Title"]))], ape: Self.standardItems, v1: true)
        var file = try MediaFile(path: path)
        #expect(try file.remove("TITLE"))
        #expect(try file.remove("ape/Mood"))
        try file.save()
        var reread = try MediaFile(path: path)
        #expect(try reread.values("ape/Title") == nil)
        #expect(try reread.values("ape/Mood") == nil)
        #expect(try reread.values("ape/Artist") == ["APE Artist"])
        reread.removeAll()
        try reread.save()
        let cleared = try MediaFile(path: path)
        #expect(cleared.items.isEmpty)
        let stream = try MPEGStreamFile(source: FileByteSource(path: path))
        #expect(stream.apeTag == nil && stream.id3v1 == nil)
    }

    @Test func anAPEItemIsSetByIdentifier() throws {
        let path = try Self.mp3(id3: [ID3Builder.frame("TIT2", ID3Builder.text(["T"]))], ape: Self.standardItems)
        var file = try MediaFile(path: path)
        try file.set("ape/Catalog", ["CAT-1"])
        try file.save()
        #expect(try MediaFile(path: path).values("ape/Catalog") == ["CAT-1"])
        var noAPE = try MediaFile(path: OneTruthPerKeyTests.mp3([ID3Builder.frame("TIT2", ID3Builder.text(["T"]))]))
        #expect(throws: MetadataError(.notRepresentable)) { try noAPE.set("ape/Catalog", ["x"]) }
    }

    @Test func anUnchangedAPETagKeepsItsBytes() throws {
        let path = try Self.mp3(id3: [ID3Builder.frame("TIT2", ID3Builder.text(["T"]))], ape: [.text("Foo", ["bar"])])
        let before = try MPEGStreamFile(source: FileByteSource(path: path))
        let apeBytes = Array(try TemporaryFile.read(path)[Int(before.apeBlock!.lowerBound)..<Int(before.apeBlock!.upperBound)])
        var file = try MediaFile(path: path)
        try file.set("id3/TXXX:Other", ["x"])  // an ID3 frame by identifier: the APE tag is not touched
        try file.save()
        let after = try MPEGStreamFile(source: FileByteSource(path: path))
        #expect(Array(try TemporaryFile.read(path)[Int(after.apeBlock!.lowerBound)..<Int(after.apeBlock!.upperBound)]) == apeBytes)
    }

    @Test func aKeyTheAPETagLacksIsAddedToIt() throws {
        let path = try Self.mp3(id3: [ID3Builder.frame("TIT2", ID3Builder.text(["T"]))], ape: [.text("Foo", ["bar"])])
        var file = try MediaFile(path: path)
        try file.set("ARTIST", ["Someone"])
        try file.save()
        // A player that reads the APE tag first sees the new artist too.
        #expect(try MediaFile(path: path).values("ape/Artist") == ["Someone"])
    }

    @Test func exportAndImportRestoreTheAPETag() throws {
        let path = try Self.mp3(id3: [ID3Builder.frame("TIT2", ID3Builder.text(["T"]))], ape: Self.standardItems)
        let native = try MediaFile(path: path).nativeItems()
        let before = try MPEGStreamFile(source: FileByteSource(path: path)).apeTag
        var file = try MediaFile(path: path)
        file.removeAll()
        try file.replaceAll(with: native)
        try file.save()
        let after = try MPEGStreamFile(source: FileByteSource(path: path)).apeTag
        #expect(after?.items.map(\.key) == before?.items.map(\.key))
        #expect(after?.items.map(\.value) == before?.items.map(\.value))
    }
}
