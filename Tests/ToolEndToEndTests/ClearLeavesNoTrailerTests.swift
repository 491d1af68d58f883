import Foundation
import TestSupport
import Testing

/// `clear` leaves nothing a demuxer takes for audio: an MP3 with APEv2, Lyrics3v2 and ID3v1 at
/// its end loses all three. Before 2026-11-27 the Lyrics3v2 block stayed, and ffmpeg demuxed it
/// as one more audio packet (75 packets became 76).
@Suite(.enabled(if: OtherReaders.hasFFprobe || OtherReaders.isRequired, "ffprobe counts the packets (.ci/run installs ffmpeg)"))
struct ClearLeavesNoTrailerTests {
    static func packets(_ path: String) async throws -> Int {
        let result = try await ToolRunner.runProgram(OtherReaders.ffprobe, ["-v", "error", "-count_packets", "-select_streams", "a:0",
                                                                            "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0", path])
        return try #require(Int(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)), "\(result.standardError)")
    }

    static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        return bytes.count >= needle.count && (0...(bytes.count - needle.count)).contains { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
    }

    @Test func clearRemovesAPELyrics3AndID3v1AndAddsNoPacket() async throws {
        let path = try TemporaryFile.write(try TemporaryFile.read(TestFixtures.path("ape-lyrics3-id3v1.mp3")), name: "trailers.mp3")
        let before = try TemporaryFile.read(path)
        #expect(Self.contains(before, "LYRICSBEGIN") && Self.contains(before, "APETAGEX"))
        // ffmpeg skips the three trailers of the original; the audio is the same after clear.
        let audioPackets = try await Self.packets(path)
        let result = try await ToolRunner.run("tagedit", ["clear", path, "-v"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("Lyrics3v2 block"), "\(result.standardError)")
        // The preview shows what the file holds after: nothing (the ID3v1 tag goes too; it
        // once showed the ID3v1 values as the new ones).
        #expect(result.standardOutput.contains("TITLE: \"Leading ID3v2.3 Title\" -> (none)"), "\(result.standardOutput)")
        #expect(!result.standardOutput.contains("ID3v1 Title"), "\(result.standardOutput)")
        let after = try TemporaryFile.read(path)
        #expect(!Self.contains(after, "LYRICSBEGIN") && !Self.contains(after, "APETAGEX") && !Self.contains(Array(after.suffix(128)), "TAG"))
        #expect(try await Self.packets(path) == audioPackets)
        #expect(try await ToolRunner.run("atominspect", ["check", path]).status == 0)
    }
}
