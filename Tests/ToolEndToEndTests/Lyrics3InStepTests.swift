import Carriers
import Foundation
import MediaBytes
import TestSupport
import Testing

/// The Lyrics3v2 block's title, artist and album (`ETT`, `EAR`, `EAL`, which exiftool reads)
/// follow the ID3v2 tag on `set` and `remove`, so no reader is left with a stale value; its
/// other fields (lyrics, indications) stay as they were, and a block left with no field goes.
@Suite(.enabled(if: OtherReaders.hasExiftool || OtherReaders.isRequired, "exiftool reads Lyrics3 (.ci/run installs it)"))
struct Lyrics3InStepTests {
    static func copy() throws -> String {
        try TemporaryFile.write(try TemporaryFile.read(TestFixtures.path("ape-lyrics3-id3v1.mp3")), name: "lyrics3.mp3")
    }

    static func lyrics3(_ path: String) throws -> Lyrics3Block? {
        try MPEGStreamFile(source: try FileByteSource(path: path)).lyrics3
    }

    @Test func setMakesTheBlocksTitleAndArtistTheTags() async throws {
        let path = try Self.copy()
        let before = try #require(try Self.lyrics3(path))
        let result = try await ToolRunner.run("tagedit", ["set", path, "TITLE=New Title", "ARTIST=Ünïcode ☃"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("Lyrics3v2 block's ETT, EAR follow the tag"), "\(result.standardError)")
        let exif = try await OtherReaders.exiftoolTags(path, ["Lyrics3:ExtendedTrackTitle", "Lyrics3:ExtendedArtistName", "Lyrics3:Lyrics"])
        #expect(exif["ExtendedTrackTitle"] == "New Title")
        #expect(exif["ExtendedArtistName"] == "Ünïcode ?", "ISO-8859-1: the snowman becomes ?")
        #expect(exif["Lyrics"] == "hello")
        let after = try #require(try Self.lyrics3(path))
        #expect(after.fields.map(\.id) == before.fields.map(\.id), "the fields keep their order")
        #expect(after.fields.first { $0.id == "IND" } == before.fields.first { $0.id == "IND" })
    }

    @Test func removeTakesTheFieldOutAndAnEmptiedBlockGoes() async throws {
        let path = try Self.copy()
        let result = try await ToolRunner.run("tagedit", ["remove", path, "TITLE"])
        #expect(result.status == 0, "\(result.standardError)")
        let exif = try await OtherReaders.exiftoolTags(path, ["Lyrics3:ExtendedTrackTitle", "Lyrics3:ExtendedArtistName"])
        #expect(exif["ExtendedTrackTitle"] == nil)
        #expect(exif["ExtendedArtistName"] == "Leading ID3v2.3 Artist", "one truth: the tag's artist")
        #expect(try Self.lyrics3(path)?.fields.contains { $0.id == "ETT" } == false)

        // A block holding only the title: removing the title removes the block.
        var bytes = try TemporaryFile.read(path)
        let block = try #require(try MPEGStreamFile(source: try FileByteSource(path: path)).lyrics3Block)
        let only = try #require(Lyrics3Block(Array("LYRICSBEGINETT00003abc000022LYRICS200".utf8)))
        bytes.replaceSubrange(Int(block.lowerBound)..<Int(block.upperBound), with: try #require(only.serialized))
        let onlyTitle = try TemporaryFile.write(bytes, name: "only-title.mp3")
        #expect(try Self.lyrics3(onlyTitle)?.fields.map(\.id) == ["ETT"])
        let set = try await ToolRunner.run("tagedit", ["set", onlyTitle, "TITLE=Back"])
        #expect(set.status == 0, "\(set.standardError)")
        #expect(try Self.lyrics3(onlyTitle)?.fields.first?.value == Array("Back".utf8))
        let removed = try await ToolRunner.run("tagedit", ["remove", onlyTitle, "TITLE"])
        #expect(removed.status == 0, "\(removed.standardError)")
        #expect(removed.standardError.contains("the block is removed"), "\(removed.standardError)")
        #expect(try MPEGStreamFile(source: try FileByteSource(path: onlyTitle)).lyrics3Block == nil)
    }

    @Test func aBlockWhoseSizesDoNotAddUpIsNotRead() {
        #expect(Lyrics3Block(Array("LYRICSBEGINETT00099abc000022LYRICS200".utf8)) == nil)
        #expect(Lyrics3Block(Array("LYRICSBEGINett00003abc000022LYRICS200".utf8)) == nil)
        let block = Lyrics3Block(Array("LYRICSBEGINETT00003abcEAR00001z000031LYRICS200".utf8))
        #expect(block?.fields.map(\.id) == ["ETT", "EAR"])
        #expect(block?.serialized == Array("LYRICSBEGINETT00003abcEAR00001z000031LYRICS200".utf8))
    }
}
