import Foundation
import MediaMetadata
import TestSupport
import Testing

/// An MP3 cut short (a partial download or copy) is reported with how much of it is there.
/// Before 2026-11-27 a VBR file cut to 5000 bytes showed its Xing header's 20 s without a word
/// and `atominspect check` said ok, where ffprobe warns.
@Suite struct CutShortStreamTests {
    /// A 20 s VBR MP3 made by ffmpeg (LAME writes the Xing header's frame and byte counts).
    static func vbrMP3() async throws -> String {
        let path = try TemporaryFile.makeDirectory() + "/vbr.mp3"
        let made = try await ToolRunner.runProgram("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=d=20", "-c:a", "libmp3lame", "-q:a", "5", path])
        #expect(made.status == 0, "\(made.standardError)")
        return path
    }

    @Test func aVBRFileCutShortIsReportedWithHowMuchIsThere() async throws {
        let whole = try await Self.vbrMP3()
        let cut = try TemporaryFile.write(Array(try TemporaryFile.read(whole).prefix(5000)), name: "cut.mp3")

        let check = try await ToolRunner.run("atominspect", ["check", cut])
        #expect(check.status == 1)
        #expect(check.standardOutput.contains("warning: at byte offset 5000 (MPEG): the audio ends after") && check.standardOutput.contains("the file was cut short"), "\(check.standardOutput)")
        #expect(try await ToolRunner.run("atominspect", ["check", whole]).status == 0)

        let show = try await ToolRunner.run("tagedit", ["show", "--json", cut])
        #expect(show.standardError.contains("the file was cut short"), "\(show.standardError)")
        #expect(show.standardError.contains("(6% is there)"), "\(show.standardError)")
        // Timed as the header says, as ffprobe times it (the warning says how much is there).
        let file = try MediaFile(path: cut)
        let duration = try #require(file.properties.audio?.duration)
        let probed = try await OtherReaders.ffprobeStreams(cut).first { $0["codec_type"] as? String == "audio" }
        let expected = try #require((probed?["duration"] as? String).flatMap { Double($0) })
        #expect(abs(duration - expected) < 0.05, "\(duration) against ffprobe's \(expected)")
    }
}
