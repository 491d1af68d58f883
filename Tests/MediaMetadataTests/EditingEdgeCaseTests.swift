import Foundation
import Carriers
import ID3
import MediaBytes
import MediaMetadata
import TagLibOracle
import TestSupport
import Testing

/// Edge cases of editing and migrating, each found by a review of the first version.
@Suite struct EditingEdgeCaseTests {
    /// A WAV file whose only tags are a `LIST`/`INFO` chunk (as ffmpeg writes it).
    static func infoOnlyWAV() -> [UInt8] {
        func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> ($0 * 8)) & 0xFF) } }
        func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] { Array(id.utf8) + le32(body.count) + body + (body.count % 2 == 1 ? [0] : []) }
        let format = chunk("fmt ", [1, 0, 1, 0] + le32(8000) + le32(16000) + [2, 0, 16, 0])
        let info = chunk("LIST", Array("INFO".utf8) + chunk("INAM", Array("Only INFO\0".utf8)))
        let data = chunk("data", [UInt8](repeating: 0, count: 1600))
        let body = Array("WAVE".utf8) + format + info + data
        return Array("RIFF".utf8) + le32(body.count) + body
    }

    @Test func clearingAWAVWithOnlyAnINFOListAddsNoID3Chunk() throws {
        let path = try TemporaryFile.write(Self.infoOnlyWAV(), name: "info-only.wav")
        var file = try MediaFile(path: path)
        #expect(file.tags["TITLE"] == ["Only INFO"])
        file.removeAll()
        try file.save()
        let chunks = try IFFChunkFile(source: FileByteSource(path: path)).root.children.map(\.id.description)
        #expect(chunks == ["fmt ", "data"])
        #expect(try MediaFile(path: path).tags.isEmpty)
    }

    /// Only a `----` item is freeform: an item of another type that holds `mean` and `name`
    /// children (a damaged `----`, found by the differential fuzz target) is that type's item
    /// and gives no custom key named by its `name`; TagLib, ffmpeg and mutagen skip it too.
    @Test func anItemOfAnotherTypeWithNameChildrenIsNotFreeform() throws {
        typealias A = AtomBuilder
        func freeform(_ type: FourCC, name: String, value: String) -> [UInt8] {
            A.atom(type, A.atom("mean", [0, 0, 0, 0] + Array("com.apple.iTunes".utf8)) + A.atom("name", [0, 0, 0, 0] + Array(name.utf8))
                + A.atom("data", [0, 0, 0, 1, 0, 0, 0, 0] + Array(value.utf8)))
        }
        var movie = MovieBuilder()
        movie.userData = [MovieBuilder.itemListMeta([freeform("----", name: "Session", value: "Take 3"), freeform("okrt", name: "Mood Two", value: "x")])]
        let file = try MediaFile(path: try TemporaryFile.write(movie.build(), name: "okrt.m4a"))
        #expect(file.tags["SESSION"] == ["Take 3"])
        #expect(file.tags["MOOD TWO"] == nil)
        let other = try #require(file.items.first { $0.nativeKey == "okrt" })
        #expect(other.key == nil)
        #expect(other.values == ["x"])
    }

    @Test func copyingACustomKeyKeepsTheOtherFreeformItems() throws {
        let mp3 = try copyOfFixture("no-tags.mp3")
        var source = try MediaFile(path: mp3)
        try source.set("id3/TXXX:Session", ["Take 3"])
        try source.save()
        let m4a = try copyOfFixture("aac-itunes-tags-cover.m4a")
        var destination = try MediaFile(path: m4a)
        _ = try destination.copyMetadata(from: MediaFile(path: mp3))
        try destination.save()
        let reread = try MediaFile(path: m4a)
        #expect(reread.tags["MUSICBRAINZ_TRACKID"] == ["8f3b2a5e-0000-4000-8000-000000000001"])
        #expect(reread.tags["SESSION"] == ["Take 3"])
    }

    /// A musician credit (ID3 `TMCL`, a role with no name of its own) copied into Vorbis
    /// comments and back keeps its key: before 2026-11-30 it became `PERFORMER:PERFORMER:GUITAR`.
    @Test func aMusicianCreditCopiedAcrossFamiliesKeepsItsKey() throws {
        let mp3 = try copyOfFixture("no-tags.mp3")
        var source = try MediaFile(path: mp3)
        try source.set("PERFORMER:GUITAR", ["Jimi"])
        try source.save()
        let flac = try copyOfFixture("flac-tags-picture.flac")
        var destination = try MediaFile(path: flac)
        _ = try destination.copyMetadata(from: MediaFile(path: mp3))
        try destination.save()
        let reread = try MediaFile(path: flac)
        #expect(reread.tags["PERFORMER:GUITAR"] == ["Jimi"])
        #expect(try reread.values("vorbis/PERFORMER:GUITAR") == ["Jimi"])
        #expect(reread.tags.keys.allSatisfy { !$0.hasPrefix("PERFORMER:PERFORMER") })
        let back = try copyOfFixture("no-tags.mp3")
        var again = try MediaFile(path: back)
        _ = try again.copyMetadata(from: reread)
        try again.save()
        #expect(try MediaFile(path: back).tags["PERFORMER:GUITAR"] == ["Jimi"])
    }

    /// MP4 cover art has no picture types and players show the first image: a copy puts the
    /// front cover first, whatever order the source kept (before 2026-11-30 a back cover stored
    /// first became the artwork shown).
    @Test func aCopyToMP4PutsTheFrontCoverFirst() throws {
        let mp3 = try copyOfFixture("no-tags.mp3")
        var source = try MediaFile(path: mp3)
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0]
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10] + Array("JFIF".utf8) + [0, 1, 2, 3]
        try source.addPicture(MediaPicture(type: .backCover, mimeType: "image/png", data: png))
        try source.addPicture(MediaPicture(type: .frontCover, mimeType: "image/jpeg", data: jpeg))
        try source.save()
        #expect(try MediaFile(path: mp3).pictures.map(\.type) == [.backCover, .frontCover])
        let m4a = try copyOfFixture("aac-itunes-tags-cover.m4a")
        var destination = try MediaFile(path: m4a)
        _ = try destination.copyMetadata(from: MediaFile(path: mp3))
        try destination.save()
        #expect(try MediaFile(path: m4a).pictures.map(\.data) == [jpeg, png])
    }

    @Test func writingAsVersion23KeepsKeysThatHaveNoV23Frame() throws {
        let path = try copyOfFixture("id3v24-full.mp3")
        var file = try MediaFile(path: path)
        file.id3Version = 3
        try file.set("DISCSUBTITLE", ["Disc A"])
        try file.set("PERFORMER:GUITAR", ["Someone"])
        try file.save()
        let reread = try MediaFile(path: path)
        #expect(reread.tags["MOOD"] == ["Calm"])
        #expect(reread.tags["DISCSUBTITLE"] == ["Disc A"])
        #expect(reread.tags["PRODUCER"] == ["Fixture Producer"])
        #expect(reread.tags["PERFORMER:GUITAR"] == ["Someone"])
        #expect(TagLibReading.read(path)?.id3v2Version == 3)
    }

    /// A credit (`PRODUCER`, a `TIPL` role) set on a file reads back, beside the credits it
    /// had, in v2.4 `TIPL` and v2.3 `IPLS`: `set` used to remove the list it had just written
    /// as another item holding the key. A name with a comma reads back as two, as TagLib
    /// splits credits, and `set` says so.
    @Test func aCreditSetOnAFileReadsBack() throws {
        for version: UInt8 in [3, 4] {
            let path = try copyOfFixture("id3v24-full.mp3")
            var file = try MediaFile(path: path)
            file.id3Version = version
            try file.set("PRODUCER", ["Someone", "Someone Else"])
            // (TagLib reads a v2.3 IPLS as credits only: a musician in it makes TagLib drop the
            // list, so musicians are set in v2.4 alone here.)
            if version == 4 {
                try file.set("PERFORMER:HORNS", ["Earth, Wind & Fire"])
                #expect(file.notes.contains { $0.contains("a name with a comma reads back as two names") })
            }
            let plan = try file.save()
            // (IPLS is a list of pairs in v2.3: no note says its strings were joined.)
            #expect(!plan.notes.contains { $0.contains("IPLS:") })
            let tags = try MediaFile(path: path).tags
            #expect(tags["PRODUCER"] == ["Someone", "Someone Else"])
            let theirs = TagLibReading.read(path)?.properties
            #expect(theirs?["PRODUCER"] == ["Someone", "Someone Else"])
            if version == 4 {
                #expect(tags["PERFORMER:HORNS"] == ["Earth", "Wind & Fire"])
                #expect(theirs?["PERFORMER:HORNS"] == ["Earth", " Wind & Fire"])
            }
        }
    }

    @Test func restoredFramesAreConvertedToTheTagsVersion() throws {
        let native = try MediaFile(path: TestFixtures.path("id3v24-full.mp3")).nativeItems()
        let path = try copyOfFixture("id3v23-utf16.mp3")
        var file = try MediaFile(path: path)
        try file.replaceAll(with: native)
        try file.save()
        let ids = try #require(MPEGStreamFile(source: FileByteSource(path: path)).leadingTags.first).frames.map(\.id)
        #expect(ids.contains("TYER"))
        #expect(!ids.contains("TDRC") && !ids.contains("TMOO") && !ids.contains("RVA2"))
        #expect(try MediaFile(path: path).tags["DATE"] == ["2021-06-01"])
    }

    @Test func urlKeysAreUserURLFrames() throws {
        let path = try copyOfFixture("id3v24-full.mp3")
        var file = try MediaFile(path: path)
        try file.set("URL", ["https://example.org/plain"])
        try file.set("URL:Fixture homepage", ["https://example.org/new"])
        try file.save()
        var reread = try MediaFile(path: path)
        #expect(try reread.values("id3/WXXX") == ["https://example.org/plain"])
        #expect(try reread.values("id3/WXXX:Fixture homepage") == ["https://example.org/new"])
        #expect(reread.items.filter { $0.nativeKey.hasPrefix("WXXX") }.count == 2)
        #expect(try reread.remove("URL:FIXTURE HOMEPAGE"))
        #expect(reread.tags["URL:FIXTURE HOMEPAGE"] == nil)
    }

    @Test func anUnqualifiedIdentifierNamesOnlyTheItemWithoutDescription() throws {
        var file = try MediaFile(path: copyOfFixture("id3v24-full.mp3"))
        #expect(try file.remove("id3/COMM"))
        #expect(file.tags["COMMENT"] == nil)
        #expect(file.tags["COMMENT:FIXTURE NOTE"] == ["Ünïcödé note"])
        #expect(try file.remove("id3/APIC"))
        #expect(try file.pictures.isEmpty)
    }

    /// A description that starts with a combining mark (found by the differential fuzz target):
    /// `COMMENT:` followed by U+0655 is one Character, so a key parsed character by character
    /// had no colon. `remove COMMENT` left that comment, `set` dropped the mark or refused the
    /// key, and the identifier had no qualifier.
    @Test func aDescriptionThatStartsWithACombiningMarkIsStillADescription() throws {
        let mark = "\u{655}"
        let path = try copyOfFixture("id3v24-full.mp3")
        var file = try MediaFile(path: path)
        try file.set("COMMENT:\(mark)x", ["one"])
        try file.set("CUSTOM:\(mark)y", ["two"])
        try file.set("id3/TXXX:\(mark)w", ["three"])
        try file.save()
        var reread = try MediaFile(path: path)
        let comment = try #require(reread.items.first { $0.nativeKey == "COMM:\(mark)x" })
        #expect(comment.identifier.id3Parts.frame == "COMM")
        #expect(comment.identifier.id3Parts.qualifier == "\(mark)x")
        #expect(reread.tags["COMMENT:\(mark)X"] == ["one"])
        #expect(reread.items.contains { $0.nativeKey == "TXXX:\(mark)y" && $0.values == ["two"] })
        #expect(reread.items.contains { $0.nativeKey == "TXXX:\(mark)w" && $0.values == ["three"] })
        #expect(MetadataIdentifier(.iTunesLong, "com.apple.iTunes:\(mark)n").freeformParts?.name == "\(mark)n")
        // Removing the uniform key removes its described forms, this one too.
        #expect(try reread.remove("COMMENT"))
        #expect(!reread.tags.keys.contains { $0.hasKeyPrefix("COMMENT") })
        #expect(try reread.remove("id3/TXXX:*"))
        #expect(!reread.items.contains { $0.nativeKey.hasKeyPrefix("TXXX") })
    }

    @Test func importingTagsAcrossFamiliesReportsWhatDoesNotFit() throws {
        var file = try MediaFile(path: copyOfFixture("moov-before-mdat.m4a"))
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]
        let report = try file.importTags([("TITLE", ["T"]), ("ARTISTWEBPAGE", ["https://example.org"]), ("COMMENT:NOTE", ["n"])],
                                     pictures: [MediaPicture(mimeType: "image/png", data: png), MediaPicture(mimeType: "image/png", data: png + [4])])
        #expect(file.tags["TITLE"] == ["T"])
        // COMMENT:NOTE has no MP4 form; ARTISTWEBPAGE is the freeform item of its name.
        #expect(report.count(.notRepresentable) == 1)
        #expect(file.tags["ARTISTWEBPAGE"] == ["https://example.org"])
        #expect(try file.pictures.count == 2)
        var mp3 = try MediaFile(path: copyOfFixture("no-tags.mp3"))
        _ = try mp3.importTags([], pictures: [MediaPicture(mimeType: "image/png", data: png), MediaPicture(mimeType: "image/png", data: png + [4])])
        #expect(try mp3.pictures.count == 2)
    }

    @Test func outputNamingTheSourceIsRefused() throws {
        let path = try copyOfFixture("no-tags.mp3")
        var file = try MediaFile(path: path)
        try file.set("TITLE", ["x"])
        #expect(throws: MetadataError(.badValue)) { try file.save(MediaFile.SaveOptions(output: path)) }
    }

    @Test func clearRemovesTheID3v1TagToo() throws {
        let path = try copyOfFixture("id3v24-full.mp3")
        let size = try TemporaryFile.read(path).count
        var file = try MediaFile(path: path)
        file.removeAll()
        try file.save()
        let reread = try MediaFile(path: path)
        #expect(reread.tags.isEmpty)
        #expect(reread.items.isEmpty)
        #expect(try MPEGStreamFile(source: FileByteSource(path: path)).id3v1 == nil)
        #expect(try TemporaryFile.read(path).count < size)
    }

    @Test func settingOneKeyOnAnID3v1OnlyFileKeepsTheOthers() throws {
        let path = try copyOfFixture("id3v1-only.mp3")
        let before = try MediaFile(path: path).tags
        var file = try MediaFile(path: path)
        try file.set("TITLE", ["New"])
        try file.save()
        var expected = before
        expected["TITLE"] = ["New"]
        #expect(try MediaFile(path: path).tags == expected)
    }

    /// An ID3v1 field holding the text "0" is that text (TagLib, mutagen and exiftool read an
    /// artist "0"); only a year of "0" is no year. (Found by the differential fuzz target:
    /// every "0" field was dropped.)
    @Test func anID3v1FieldOfZeroIsText() throws {
        var bytes = try TemporaryFile.read(TestFixtures.path("id3v1-only.mp3"))
        let tag = bytes.count - 128
        #expect(Array(bytes[tag..<tag + 3]) == Array("TAG".utf8))
        func put(_ text: String, at offset: Int, width: Int) {
            bytes.replaceSubrange(tag + offset..<tag + offset + width, with: Array(text.utf8) + [UInt8](repeating: 0, count: width - text.utf8.count))
        }
        put("0", at: 3, width: 30)  // title
        put("0", at: 33, width: 30)  // artist
        put("0", at: 93, width: 4)  // year
        let path = try TemporaryFile.write(bytes, name: "zero.mp3")
        let tags = try MediaFile(path: path).tags
        #expect(tags["TITLE"] == ["0"])
        #expect(tags["ARTIST"] == ["0"])
        #expect(tags["DATE"] == nil)
    }

    @Test func settingTheSameValueChangesNothing() throws {
        for fixture in ["aac-itunes-tags-cover.m4a", "id3v24-full.mp3"] {
            var file = try MediaFile(path: copyOfFixture(fixture))
            try file.set("TITLE", file.tags["TITLE"] ?? [])
            #expect(!file.hasChanges, "\(fixture)")
        }
    }

    @Test func datesKeepOrDropTheirZoneAsTheFormatAllows() throws {
        let path = try copyOfFixture("id3v23-utf16.mp3")
        var file = try MediaFile(path: path)
        try file.set("DATE", ["2020-05-17T10:30+02:00"])
        let result = try file.save()
        #expect(result.notes.contains { $0.contains("time zone") })
        #expect(try MediaFile(path: path).tags["DATE"] == ["2020-05-17T10:30"])
        #expect(throws: MetadataError(.badValue)) { try file.set("DATE", ["2020-13-45"]) }
    }

    @Test func emptyValuesRemoveAndIdentifierValuesAreChecked() throws {
        var file = try MediaFile(path: copyOfFixture("aac-itunes-tags-cover.m4a"))
        try file.set("TITLE", [""])
        #expect(file.tags["TITLE"] == nil)
        #expect(throws: MetadataError(.badValue)) { try file.set("itsk/cpil", ["maybe"]) }
        try file.set("itsk/gnre", ["Rock"])
        #expect(file.tags["GENRE"] == ["Rock"])
        #expect(file.items.first { $0.nativeKey == "gnre" }?.dataType == "genre code")
    }
}
