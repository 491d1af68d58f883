import Foundation
import MediaMetadata
import TagLibOracle
import TestSupport
import Testing

/// AIFF's own text chunks (`NAME`, `AUTH`, `(c) `, `ANNO`) are tags: shown, and kept in step on
/// `set`, `remove` and `clear`, so that exiftool and ffprobe (which read them) never show an
/// older value than tagedit, TagLib and mutagen (which read the ID3 chunk).
@Suite(.enabled(if: OtherReaders.areAvailable, "ffprobe and exiftool read the files back (.ci/run installs them)"))
struct AIFFTextChunkTests {
    func tagedit(_ arguments: String...) async throws -> ToolRunner.Result { try await ToolRunner.run("tagedit", arguments) }

    func copy() throws -> String {
        try TemporaryFile.write(TemporaryFile.read(TestFixtures.path("aiff-text-chunks.aiff")), name: "text.aiff")
    }

    /// The IDs of the file's top-level chunks, in order.
    func chunkIDs(_ path: String) throws -> [String] {
        let bytes = try TemporaryFile.read(path)
        var ids: [String] = []
        var at = 12
        while at + 8 <= bytes.count {
            ids.append(String(decoding: bytes[at..<at + 4], as: UTF8.self))
            let size = Int(bytes[at + 4]) << 24 | Int(bytes[at + 5]) << 16 | Int(bytes[at + 6]) << 8 | Int(bytes[at + 7])
            at += 8 + size + size % 2
        }
        return ids
    }

    @Test func aFileWithOnlyTextChunksShowsThemAsTags() async throws {
        let file = try MediaFile(path: TestFixtures.path("aiff-text-chunks.aiff"))
        #expect(file.tags["TITLE"] == ["AIFF Name"])
        #expect(file.tags["ARTIST"] == ["AIFF Author"])
        #expect(file.tags["COPYRIGHT"] == ["(C) 2026 Fixture"])
        #expect(file.tags["COMMENT"] == ["An annotation"])
        #expect(file.items.contains { $0.identifier.description == "riff/NAME" && $0.values == ["AIFF Name"] })
        let shown = try await tagedit("show", TestFixtures.path("aiff-text-chunks.aiff"))
        #expect(shown.standardOutput.contains("AIFF Name"), "\(shown.standardOutput)")
        #expect(!shown.standardOutput.contains("no tags"))
    }

    @Test func setRemoveAndClearKeepEveryReaderInStep() async throws {
        let path = try copy()
        let audio = try await OtherReaders.decodeChecksum(path, map: "0:a")
        #expect(try await tagedit("set", path, "TITLE=New Name", "ARTIST=New Author").status == 0)
        var exif = try await OtherReaders.exiftoolTags(path, ["Name", "Author", "Title", "Artist"])
        #expect(exif["Name"] == "New Name", "\(exif)")
        #expect(exif["Author"] == "New Author", "\(exif)")
        #expect(try await OtherReaders.ffprobeTags(path)["title"] == "New Name")
        #expect(TagLibReading.read(path)?.properties["TITLE"] == ["New Name"])
        #expect(try MediaFile(path: path).tags["TITLE"] == ["New Name"])
        // The chunks stay where they were, before COMM; the ID3 chunk is added at the end.
        #expect(try chunkIDs(path) == ["NAME", "AUTH", "(c) ", "ANNO", "COMM", "SSND", "ID3 "])

        #expect(try await tagedit("remove", path, "COMMENT").status == 0)
        #expect(try await OtherReaders.exiftoolTags(path, ["Annotation"])["Annotation"] == nil)
        #expect(try await OtherReaders.ffprobeTags(path)["comment"] == nil)
        #expect(try MediaFile(path: path).tags["COMMENT"] == nil)

        #expect(try await tagedit("clear", path).status == 0)
        exif = try await OtherReaders.exiftoolTags(path, ["Name", "Author", "Copyright", "Annotation"])
        #expect(exif.isEmpty, "\(exif)")
        let probe = try await OtherReaders.ffprobeTags(path)
        #expect(probe["title"] == nil && probe["author"] == nil && probe["copyright"] == nil, "\(probe)")
        // The text chunks are gone; the ID3 chunk the first set added stays, empty (its padding
        // for the next edit), as clear leaves an ID3 chunk.
        #expect(try chunkIDs(path) == ["COMM", "SSND", "ID3 "])
        #expect(TagLibReading.read(path)?.properties.isEmpty == true)
        #expect(try await OtherReaders.decodeChecksum(path, map: "0:a") == audio)
    }

    @Test func aTextChunkNotEditedIsCopiedByteForByte() throws {
        // The annotation in Mac OS Roman (é as one byte 0x8E), as classic Mac software wrote
        // it: read as Mac OS Roman, as exiftool reads it (before 2026-11-29 as Latin-1, which
        // made it a control character), and kept as it is.
        var bytes = try TemporaryFile.read(TestFixtures.path("aiff-text-chunks.aiff"))
        let anno = try #require((0..<bytes.count - 4).first { bytes[$0..<$0 + 4].elementsEqual("ANNO".utf8) })
        let macRoman: [UInt8] = Array("An annotati".utf8) + [0x8E] + Array("n".utf8) + [0]
        bytes.replaceSubrange(anno + 8..<anno + 8 + macRoman.count, with: macRoman)
        let path = try TemporaryFile.write(bytes, name: "mac-roman.aiff")
        #expect(try MediaFile(path: path).tags["COMMENT"] == ["An annotati\u{E9}n"])
        var file = try MediaFile(path: path)
        try file.set("TITLE", ["Changed"])
        try file.save()
        let written = try TemporaryFile.read(path)
        let at = try #require((0..<written.count - 4).first { written[$0..<$0 + 4].elementsEqual("ANNO".utf8) })
        #expect(Array(written[at..<at + 8 + macRoman.count]) == Array(bytes[anno..<anno + 8 + macRoman.count]))
        #expect(try MediaFile(path: path).tags["TITLE"] == ["Changed"])
    }

    @Test func aTextChunkIsEditedByItsIdentifier() async throws {
        let path = try copy()
        #expect(try await tagedit("set", path, "riff/NAME=Only the chunk").status == 0)
        #expect(try await OtherReaders.exiftoolTags(path, ["Name"])["Name"] == "Only the chunk")
        // A chunk AIFF does not have is refused by name, and the file is left as it was.
        let before = try TemporaryFile.read(path)
        let refused = try await tagedit("set", path, "riff/IPRD=x")
        #expect(refused.status != 0)
        #expect(try TemporaryFile.read(path) == before)
    }
}
