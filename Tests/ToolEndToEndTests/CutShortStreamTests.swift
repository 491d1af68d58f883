import Foundation
import MediaMetadata
import TestSupport
import Testing

/// An MP3 cut short (a partial download or copy) is reported, and timed by what is there.
/// Before 2026-11-27 a VBR file cut to 5000 bytes showed its Xing header's 20 s and
/// `atominspect check` said ok, where ffprobe warns.
@Suite struct CutShortStreamTests {
    /// A 20 s VBR MP3 made by ffmpeg (LAME writes the Xing header's frame and byte counts).
    static func vbrMP3() async throws -> String {
        let path = try TemporaryFile.makeDirectory() + "/vbr.mp3"
        let made = try await ToolRunner.runProgram("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=d=20", "-c:a", "libmp3lame", "-q:a", "5", path])
        #expect(made.status == 0, "\(made.standardError)")
        return path
    }

    @Test func aVBRFileCutShortIsReportedAndTimedByWhatIsThere() async throws {
        let whole = try await Self.vbrMP3()
        let cut = try TemporaryFile.write(Array(try TemporaryFile.read(whole).prefix(5000)), name: "cut.mp3")

        let check = try await ToolRunner.run("atominspect", ["check", cut])
        #expect(check.status == 1)
        #expect(check.standardOutput.contains("warning: at byte offset 5000 (MPEG): the audio ends after") && check.standardOutput.contains("the file was cut short"), "\(check.standardOutput)")
        #expect(try await ToolRunner.run("atominspect", ["check", whole]).status == 0)

        let show = try await ToolRunner.run("tagedit", ["show", "--json", cut])
        #expect(show.standardError.contains("the file was cut short"), "\(show.standardError)")
        let file = try MediaFile(path: cut)
        let duration = try #require(file.properties.audio?.duration)
        #expect(duration > 0.5 && duration < 2, "a 5000-byte cut of a 20 s file at about 32 kbit/s plays about 1.2 s, not \(duration)")
        let wholeFile = try MediaFile(path: whole)
        #expect(abs((wholeFile.properties.audio?.duration ?? 0) - 20) < 0.1)
        // The average rate is the stream's, not inflated by the shorter duration.
        let rate = try #require(file.properties.audio?.bitrate)
        #expect(abs(rate - (wholeFile.properties.audio?.bitrate ?? 0)) <= 8000, "\(rate) bit/s")
    }
}
