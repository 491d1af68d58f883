import Foundation
import TestSupport
import Testing

// Notes a save prints about what it changes beyond the keys set.

/// Every save keeps an MP3's ID3v1 tag holding what its ID3v2 tag says. Values only the ID3v1
/// tag held (a year, comment, track or genre the ID3v2 tag lacks) go with that: the save says
/// so, naming them. Before 2026-11-30 they went without a word.
@Suite struct ID3v1MirrorNoteTests {
    @Test func valuesOnlyTheID3v1TagHeldAreNamedWhenTheyGo() async throws {
        // ID3v2.3 title, artist and album; APE, Lyrics3v2; ID3v1 with a year, comment, track
        // and genre of its own.
        let path = try TemporaryFile.write(try TemporaryFile.read(TestFixtures.path("ape-lyrics3-id3v1.mp3")), name: "v1.mp3")
        let result = try await ToolRunner.run("tagedit", ["set", path, "TITLE=Changed"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains(#"which gives no ID3v1 year, comment, track, genre: dropped year "2022", comment "after APE and Lyrics3", track "4", genre "Ambient""#), "\(result.standardError)")
        let v1 = try await ToolRunner.run("tagedit", ["show", "--native", path])
        #expect(v1.standardOutput.contains("id3v1/title") && !v1.standardOutput.contains("id3v1/year"), "\(v1.standardOutput)")
    }

    /// The Lyrics3v2 block's lyrics follow the tag's (`LYR`, lines ended by CR LF), as its
    /// title and artist do: exiftool showed the old lyrics before 2026-11-30.
    @Test func theLyrics3LyricsFollowTheTag() async throws {
        let path = try TemporaryFile.write(try TemporaryFile.read(TestFixtures.path("ape-lyrics3-id3v1.mp3")), name: "lyr.mp3")
        let result = try await ToolRunner.run("tagedit", ["set", path, "LYRICS=new\nline"])
        #expect(result.status == 0 && result.standardError.contains("LYR follow the tag"), "\(result.standardError)")
        let bytes = try TemporaryFile.read(path)
        let field = Array("LYR00009new\r\nline".utf8)
        #expect((0...(bytes.count - field.count)).contains { bytes[$0..<$0 + field.count].elementsEqual(field) })
    }

    @Test func anID3v1TagInStepGetsNoNote() async throws {
        let path = try TemporaryFile.write(try TemporaryFile.read(TestFixtures.path("id3v24-full.mp3")), name: "v24.mp3")
        let result = try await ToolRunner.run("tagedit", ["set", path, "TITLE=Changed", "DATE="])
        #expect(result.status == 0, "\(result.standardError)")
        // The year goes from both tags because DATE was removed, not behind the user's back.
        #expect(!result.standardError.contains("ID3v1"), "\(result.standardError)")
    }
}

/// A multiplexed Ogg file (a Theora video with Vorbis audio, as ffmpeg writes `.ogv`): `set`
/// changes the audio stream's comment header, and says that the video stream keeps comments
/// of its own, which readers showing that stream (mutagen, ffprobe's stream tags) still show.
/// Before 2026-11-30 it said nothing.
@Suite(.enabled(if: OtherReaders.hasFFprobe || OtherReaders.isRequired, "ffmpeg makes the file (.ci/run installs it)"))
struct MultiplexedOggNoteTests {
    @Test func theVideoStreamsOwnCommentsAreNamed() async throws {
        let folder = try TemporaryFile.makeDirectory()
        let path = folder + "/video.ogg"
        let made = try await ToolRunner.runProgram(OtherReaders.ffmpeg, [
            "-v", "error", "-f", "lavfi", "-i", "testsrc=size=32x32:rate=5:duration=0.4", "-f", "lavfi", "-i", "sine=duration=0.4",
            "-c:v", "libtheora", "-c:a", "libvorbis", "-metadata", "title=Old", "-f", "ogg", path])
        #expect(made.status == 0, "\(made.standardError)")
        let result = try await ToolRunner.run("tagedit", ["set", path, "TITLE=New"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("the file's Theora stream (serial ") && result.standardError.contains("has comments of its own"), "\(result.standardError)")
        #expect(try await ToolRunner.run("tagedit", ["get", path, "TITLE"]).standardOutput == "New\n")
    }
}

/// An ID3v2 tag before `fLaC` is kept as it is (as TagLib, metaflac and mutagen keep it); an
/// edit says so, naming its frames, since exiftool still shows their values.
@Suite struct LeadingID3InFLACNoteTests {
    @Test func anEditNamesTheTagItLeavesAsItWas() async throws {
        let path = try TemporaryFile.write(try TemporaryFile.read(TestFixtures.path("flac-id3-leading.flac")), name: "lead.flac")
        let result = try await ToolRunner.run("tagedit", ["set", path, "TITLE=New"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("the ID3v2 tag before fLaC (not part of FLAC) is kept as it was, with its TIT2, TPE1"), "\(result.standardError)")
        let unchanged = try await ToolRunner.run("tagedit", ["set", path, "TITLE=New"])
        #expect(!unchanged.standardError.contains("before fLaC"), "no note when nothing is written: \(unchanged.standardError)")
    }
}
