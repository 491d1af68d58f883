import Foundation
import MediaMetadata
import TestSupport
import Testing

/// An MP3's ID3v1 tag added or stripped on request (issue 35: before 2026-11-27 `remove FILE
/// 'id3v1/*'` was refused because the v1 tag mirrors v2, and there was no way to add one).
@Suite(.enabled(if: OtherReaders.areAvailable, "ffmpeg checks the audio (.ci/run installs it)"))
struct ID3v1ControlTests {
    func tagedit(_ arguments: String...) async throws -> ToolRunner.Result { try await ToolRunner.run("tagedit", arguments) }

    func audioDigest(_ path: String) async throws -> String {
        try await ToolRunner.runProgram(OtherReaders.ffmpeg, ["-v", "error", "-i", path, "-map", "0:a", "-c", "copy", "-f", "md5", "-"]).standardOutput
    }

    @Test func anID3v1TagIsAddedAsTheMirrorOfTheID3v2TagAndStripped() async throws {
        let path = try TemporaryFile.write(try TemporaryFile.read(TestFixtures.path("no-tags.mp3")), name: "plain.mp3")
        #expect(try await tagedit("set", path, "TITLE=Hello", "ARTIST=Me", "TRACKNUMBER=4").status == 0)
        let before = try TemporaryFile.read(path)
        let audio = try await audioDigest(path)

        let add = try await tagedit("convert", "--id3v1", "add", path)
        #expect(add.status == 0, "\(add.standardError)")
        let added = try TemporaryFile.read(path)
        #expect(added.count == before.count + 128)
        let v1 = Array(added.suffix(128))
        #expect(Array(v1.prefix(8)) == Array("TAGHello".utf8))
        #expect(v1[125] == 0 && v1[126] == 4, "ID3v1.1 track number")
        #expect(try MediaFile(path: path).items.contains { $0.identifier.description == "id3v1/artist" && $0.values == ["Me"] })
        #expect(try await audioDigest(path) == audio)
        // A second add changes nothing.
        #expect(try await tagedit("convert", "--id3v1", "add", path).status == 0)
        #expect(try TemporaryFile.read(path) == added)

        // A single field mirrors ID3v2 and is refused; the whole tag goes with id3v1/*.
        let field = try await tagedit("remove", path, "id3v1/title")
        #expect(field.status == 65 && field.standardError.contains("remove id3v1/* to strip the whole tag"), "\(field.standardError)")
        let strip = try await tagedit("remove", path, "id3v1/*")
        #expect(strip.status == 0, "\(strip.standardError)")
        #expect(try TemporaryFile.read(path) == before, "stripping the tag gives the file before it was added")
        #expect(try await tagedit("convert", "--id3v1", "remove", path).status == 0)
        #expect(try TemporaryFile.read(path) == before)
    }

    @Test func aFileWhoseTagsAreInChunksHasNoID3v1() async throws {
        let path = try TemporaryFile.write(try TemporaryFile.read(TestFixtures.path("wav-id3-info.wav")), name: "a.wav")
        let before = try TemporaryFile.read(path)
        let add = try await tagedit("convert", "--id3v1", "add", path)
        #expect(add.status == 65 && add.standardError.contains("only MP3 and AAC streams end with an ID3v1 tag"), "\(add.standardError)")
        #expect(try TemporaryFile.read(path) == before)
    }
}
