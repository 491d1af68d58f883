import Foundation
import MediaMetadata
import TestSupport
import Testing

/// `MediaFile.properties` (and `show`'s `audio`/`video`) against ffprobe on every media fixture:
/// codec names, sample rates and channels agree exactly, durations within 10 ms, bit rates
/// within 1 %, and video sizes and frame rates exactly.
@Suite(.enabled(if: OtherReaders.isRequired || OtherReaders.hasFFprobe, "ffprobe cross-checks the stream properties (.ci/run installs ffmpeg)"))
struct MediaPropertiesTests {
    /// Every fixture with audio. ffprobe's durations of the first two count the trailing APE,
    /// Lyrics3 and appended ID3 tags as audio (it estimates from the file size), so only
    /// their other properties are compared. Fragmented movies are timed by the samples of
    /// their fragments, as ffprobe times them (before 2026-11-27 they reported no duration).
    static let fixtures = [
        "aac-itunes-tags-cover.m4a", "alac.m4a", "co64-chunk-offsets.m4a", "mdat-64bit-header.m4a", "mdat-size-zero.m4a",
        "moov-after-mdat.m4a", "moov-before-mdat.m4a", "audiobook-chapters.m4b", "ape-lyrics3-id3v1.mp3", "id3v1-only.mp3",
        "id3v2-appended-footer.mp3", "id3v22.mp3", "id3v23-unsynchronised.mp3", "id3v23-utf16.mp3", "id3v24-frame-unsync-compressed.mp3",
        "id3v24-full.mp3", "id3v24-nonsyncsafe-sizes.mp3", "no-tags.mp3", "two-leading-tags-junk.mp3", "hls-timestamp.aac",
        "aiff-id3.aiff", "wav-id3-info.wav", "quicktime-mdta-keys-moov-meta.mov", "quicktime-mdta-keys.mov",
        "quicktime-sound-v1-in24.mov", "quicktime-sound-v2-lpcm.mov", "quicktime-udta-text.mov", "fragmented-sidx.mp4",
        "fragmented.mp4", "video-h264-aac.mp4", "mobile.3gp",
    ]
    static let durationFromFileSize: Set<String> = ["ape-lyrics3-id3v1.mp3", "id3v2-appended-footer.mp3"]
    /// ffprobe's stream `bit_rate` for this movie with a `sidx` (1347) is not what the packets
    /// it demuxes add up to (3320 bytes in 1.2 s, 22133 bit/s): the packets are the reference.
    static let bitRateFromPackets: Set<String> = ["fragmented-sidx.mp4"]

    static func number(_ value: Any?) -> Double? {
        if let text = value as? String { return Double(text) }
        return (value as? NSNumber)?.doubleValue
    }

    static func rate(_ text: Any?) -> Double? {
        guard let parts = (text as? String)?.split(separator: "/"), parts.count == 2, let n = Double(parts[0]), let d = Double(parts[1]), d > 0 else { return nil }
        return n / d
    }

    @Test(arguments: fixtures)
    func audioAgreesWithFFprobe(_ fixture: String) async throws {
        let path = TestFixtures.path(fixture)
        let file = try MediaFile(path: path)
        let streams = try await OtherReaders.ffprobeStreams(path)
        let expected = try #require(streams.first { $0["codec_type"] as? String == "audio" }, "ffprobe finds audio in \(fixture)")
        let audio = try #require(file.audio, "\(fixture) has audio properties")
        #expect(audio.codec == expected["codec_name"] as? String)
        #expect(audio.sampleRate.map(Double.init) == Self.number(expected["sample_rate"]))
        #expect(audio.channels.map(Double.init) == Self.number(expected["channels"]))
        if !Self.durationFromFileSize.contains(fixture) {
            let duration = try #require(audio.duration)
            #expect(abs(duration - (Self.number(expected["duration"]) ?? -1)) < 0.01, "\(fixture): \(duration)")
        }
        if Self.bitRateFromPackets.contains(fixture) {
            let packets = try await ToolRunner.runProgram(OtherReaders.ffprobe, ["-v", "error", "-select_streams", "a:0", "-show_entries", "packet=size", "-of", "csv=p=0", path])
            let bytes = packets.standardOutput.split(separator: "\n").compactMap { Double($0) }.reduce(0, +)
            let bitrate = bytes * 8 / (Self.number(expected["duration"]) ?? 1)
            let ours = Double(try #require(audio.bitrate))
            #expect(abs(ours - bitrate) / bitrate < 0.01, "\(fixture): \(ours) against the packets' \(bitrate)")
        } else if let bitrate = Self.number(expected["bit_rate"]) {
            let ours = Double(try #require(audio.bitrate))
            #expect(abs(ours - bitrate) / bitrate < 0.01, "\(fixture): \(ours) against \(bitrate)")
        }
        // ffprobe names the width of PCM in bits_per_sample and of ALAC in bits_per_raw_sample.
        let bits = [Self.number(expected["bits_per_sample"]), Self.number(expected["bits_per_raw_sample"])].compactMap { $0 }.first { $0 > 0 }
        #expect(audio.bitsPerSample.map(Double.init) == bits, "\(fixture)")
    }

    @Test(arguments: fixtures)
    func videoAgreesWithFFprobe(_ fixture: String) async throws {
        let path = TestFixtures.path(fixture)
        let file = try MediaFile(path: path)
        let expected = try await OtherReaders.ffprobeStreams(path).filter {
            // Attached pictures (cover art) are video streams to ffprobe.
            $0["codec_type"] as? String == "video" && ($0["disposition"] as? [String: Any])?["attached_pic"] as? Int != 1
        }
        #expect(file.properties.video.map(\.codec) == expected.map { $0["codec_name"] as? String ?? "" })
        for (video, stream) in zip(file.properties.video, expected) {
            #expect(video.width.map(Double.init) == Self.number(stream["width"]))
            #expect(video.height.map(Double.init) == Self.number(stream["height"]))
            #expect(abs((video.frameRate ?? -1) - (Self.rate(stream["avg_frame_rate"]) ?? -2)) < 0.01, "\(fixture)")
        }
    }

    @Test func showPrintsTheAudioAndVideoBesideTheTags() async throws {
        let path = TestFixtures.path("video-h264-aac.mp4")
        let text = try await ToolRunner.run("tagedit", ["show", path])
        #expect(text.standardOutput.contains("  audio: aac, 22050 Hz, mono, 25 kb/s, 1.000 s\n"))
        #expect(text.standardOutput.contains("  video: h264, 64x48, 10 fps, 1.000 s\n"))
        let json = try await ToolRunner.run("tagedit", ["show", "--json", path])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]]).first
        let audio = try #require(document?["audio"] as? [String: Any])
        #expect(audio["codec"] as? String == "aac")
        #expect(audio["sampleRate"] as? Int == 22050)
        #expect(audio["channels"] as? Int == 1)
        #expect(audio["duration"] as? Double == 1.0)
        #expect(audio["bitsPerSample"] == nil)
        let video = try #require(document?["video"] as? [[String: Any]])
        #expect(video.count == 1)
        #expect(video.first?["width"] as? Int == 64)
    }
}
