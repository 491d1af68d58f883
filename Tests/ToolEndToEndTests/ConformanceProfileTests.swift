import Foundation
import TestSupport
import Testing

/// `atominspect check --profile` on files the muxers people publish with make: ffmpeg's fast
/// start, CMAF and HLS fMP4 output and libheif's HEIC and AVIF conform to their profiles, and
/// what breaks a profile is named with its rule, offset, reason and source.
@Suite(.enabled(if: OtherReaders.isRequired || OtherReaders.hasFFprobe))
struct ConformanceProfileTests {
    static let videoInput = ["-f", "lavfi", "-i", "testsrc=size=96x64:rate=10:duration=2"]
    static let audioInput = ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=2"]
    static let videoCodec = ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "5"]
    static let video = videoInput + videoCodec
    static let audio = audioInput + ["-c:a", "aac"]
    static let both = videoInput + audioInput + videoCodec + ["-c:a", "aac"]

    func atominspect(_ arguments: [String]) async throws -> ToolRunner.Result {
        try await ToolRunner.run("atominspect", arguments)
    }

    /// ffmpeg's output in a new folder: `arguments` end with the output's name there.
    func make(_ arguments: [String], _ name: String) throws -> String {
        let directory = try TemporaryFile.makeDirectory()
        try LongAudiobook.ffmpeg(arguments + ["-fflags", "+bitexact", directory + "/" + name])
        return directory + "/" + name
    }

    @Test func fastStartFilesSuitTheWebAndApple() async throws {
        let fast = try make(Self.both + ["-movflags", "+faststart"], "fast.mp4")
        let result = try await atominspect(["check", "--profile", "web", "--profile", "apple", fast])
        #expect(result.status == 0, "\(result.standardOutput)")
        #expect(result.standardOutput == "\(fast): ok\n")

        let slow = try make(Self.both, "slow.mp4")
        let found = try await atominspect(["check", "--profile", "web", slow])
        #expect(found.status == 1)
        let lines = found.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "\(slow): 1 problem")
        #expect(lines.dropFirst().first?.hasPrefix("  warning: at byte offset ") == true)
        #expect(lines.dropFirst().first?.contains("(moov): [moov-before-mdat] 'moov' at byte ") == true)
        #expect(lines.dropFirst().first?.contains("Source: QuickTime File Format") == true)
        // Without a profile the same file is sound: the rules are asked for.
        #expect(try await atominspect(["check", slow]).status == 0)
    }

    @Test func cmafOutputIsACMAFTrackAndAnHLSStream() async throws {
        let cmaf = try make(Self.video + ["-movflags", "+cmaf"], "track.mp4")
        let result = try await atominspect(["check", "--profile", "cmaf", "--profile", "hls", "--profile", "web", cmaf])
        #expect(result.status == 0, "\(result.standardOutput)")
    }

    /// ffmpeg's HLS muxer: an initialization segment and media segments (`styp`, `sidx`,
    /// `moof`, `mdat`, no movie), each a sound part of an HLS stream.
    @Test func hlsSegmentsConformToHLS() async throws {
        let directory = try TemporaryFile.makeDirectory()
        try LongAudiobook.ffmpeg(Self.video + ["-f", "hls", "-hls_segment_type", "fmp4", "-hls_time", "1", "-fflags", "+bitexact", directory + "/stream.m3u8"])
        let segments = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".m4s") }.sorted()
        #expect(segments.count >= 2)
        let paths = [directory + "/init.mp4"] + segments.map { directory + "/" + $0 }
        let result = try await atominspect(["check", "--profile", "hls"] + paths)
        #expect(result.status == 0, "\(result.standardOutput)")
        #expect(result.standardOutput.split(separator: "\n").count == paths.count)
    }

    /// CENC-encrypted fragments: `senc` and `saiz` count the samples the runs hold.
    @Test func encryptedFragmentsCountTheirSamples() async throws {
        let path = try make(Self.audio + ["-encryption_scheme", "cenc-aes-ctr", "-encryption_key", "00112233445566778899aabbccddeeff",
                                          "-encryption_kid", "0123456789abcdef0123456789abcdef", "-movflags", "+frag_keyframe+empty_moov+default_base_moof"], "cenc.mp4")
        let result = try await atominspect(["check", "--profile", "cmaf", path])
        #expect(!result.standardOutput.contains("aux-info-count"), "\(result.standardOutput)")
        #expect(!result.standardOutput.contains("tfdt"), "\(result.standardOutput)")
    }

    /// libheif's HEIC and AVIF images conform to the HEIF profile.
    @Test(.enabled(if: OtherReaders.isRequired || FileManager.default.isExecutableFile(atPath: "/usr/bin/heif-enc")))
    func libheifImagesConformToHEIF() async throws {
        let directory = try TemporaryFile.makeDirectory()
        try LongAudiobook.ffmpeg(["-f", "lavfi", "-i", "testsrc=size=64x64", "-frames:v", "1", directory + "/image.png"])
        for (flags, name) in [([String](), "image.heic"), (["-A"], "image.avif")] {
            let made = try ChildProcess.run("/usr/bin/heif-enc", flags + ["-q", "30", "-o", directory + "/" + name, directory + "/image.png"], timeout: 120)
            #expect(made.status == 0, "\(String(decoding: made.standardError, as: UTF8.self))")
            let result = try await atominspect(["check", "--profile", "heif", directory + "/" + name])
            #expect(result.standardOutput == "\(directory)/\(name): ok\n")
        }
    }

    @Test func rulesAreListedAndUnknownProfilesRefused() async throws {
        let all = try await atominspect(["check", "--list-rules"])
        #expect(all.status == 0)
        let ids = all.standardOutput.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map { String($0.prefix { $0 != " " }) }
        #expect(ids.count == 29, "\(ids)")
        #expect(ids.contains("moov-before-mdat") && ids.contains("heif-ispe") && ids.contains("tfdt-continuity"))
        #expect(all.standardOutput.split(separator: "\n").filter { $0.hasPrefix("  Source: ") }.count == ids.count)

        let heif = try await atominspect(["check", "--list-rules", "--profile", "heif"])
        #expect(heif.standardOutput.split(separator: "\n").filter { !$0.hasPrefix(" ") }.allSatisfy { $0.hasPrefix("heif-") || $0.hasPrefix("ftyp-first") })

        let unknown = try await atominspect(["check", "--profile", "dash", TestFixtures.path("fragmented.mp4")])
        #expect(unknown.status == 64)
        #expect(unknown.standardError.contains("unknown profile 'dash'; the profiles are apple, web, hls, cmaf, heif, all"))
    }
}
