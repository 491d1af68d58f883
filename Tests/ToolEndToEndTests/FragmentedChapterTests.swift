import Foundation
import TestSupport
import Testing

/// Nero chapters in a fragmented movie (ffmpeg's `empty_moov`, whose `mvhd` says 0): the last
/// chapter ends at the audio's end, from its fragments. Before 2026-11-30 it ended at 0.
@Suite(.enabled(if: OtherReaders.hasFFprobe || OtherReaders.isRequired, "ffmpeg makes the file (.ci/run installs it)"))
struct FragmentedChapterTests {
    @Test func theLastChapterEndsAtTheAudiosEnd() async throws {
        let folder = try TemporaryFile.makeDirectory()
        let path = folder + "/fragments.m4a"
        try LongAudiobook.ffmpeg(["-f", "lavfi", "-i", "sine=duration=30", "-c:a", "aac", "-b:a", "32k",
                                  "-movflags", "frag_keyframe+empty_moov", "-frag_duration", "1000000", path])
        let list = folder + "/chapters.txt"
        try Data("CHAPTER01=00:00:00.000\nCHAPTER01NAME=A\nCHAPTER02=00:00:20.500\nCHAPTER02NAME=End part\n".utf8).write(to: URL(fileURLWithPath: list))
        let set = try await ToolRunner.run("tagedit", ["chapters", "set", "--forms", "nero", path, "--from", list])
        #expect(set.status == 0, "\(set.standardError)")
        let listed = try await ToolRunner.run("tagedit", ["chapters", "list", path])
        #expect(listed.standardOutput.contains("2  00:00:20.500-00:00:30.0"), "\(listed.standardOutput)")
        #expect(!listed.standardOutput.contains("-00:00:00.000  End part"))
    }
}
