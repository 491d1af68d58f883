import Foundation
import ISOBMFF
import MediaBytes
import MediaMetadata
import TestSupport
import Testing

/// Audio properties where the sample entry is not the whole story, on files ffmpeg makes here
/// (or a fixture patched in code), against ffprobe: the rate of FLAC in MP4 is in `dfLa`'s
/// STREAMINFO (the entry's 16.16 field cannot hold 96000), and an `esds` whose
/// AudioSpecificConfig says another rate than the entry is followed, as decoders do. Before
/// 2026-11-27 both reported the entry's rate.
@Suite(.enabled(if: OtherReaders.isRequired || OtherReaders.hasFFprobe, "ffmpeg makes the files and ffprobe reads them (.ci/run installs ffmpeg)"))
struct MediaPropertiesOfMadeFilesTests {
    func sampleRate(byFFprobe path: String) async throws -> Double? {
        let streams = try await OtherReaders.ffprobeStreams(path)
        return (streams.first { $0["codec_type"] as? String == "audio" }?["sample_rate"] as? String).flatMap(Double.init)
    }

    @Test func flacInMP4At96kHzReportsTheRateOfItsStreamInfo() async throws {
        let path = try TemporaryFile.makeDirectory() + "/hi-res.mp4"
        let made = try await ToolRunner.runProgram(OtherReaders.ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "sine=r=96000:d=1", "-ac", "2",
                                                                          "-c:a", "flac", "-sample_fmt", "s32", "-strict", "-2", path])
        #expect(made.status == 0, "\(made.standardError)")
        let audio = try #require(try MediaFile(path: path).audio)
        #expect(audio.codec == "flac")
        #expect(audio.sampleRate == 96000)
        #expect(try await sampleRate(byFFprobe: path) == 96000)
        #expect(audio.channels == 2)
        #expect(audio.bitsPerSample == 24)
    }

    /// An MP3 or ADTS stream after junk at the very start (no ID3v2 tag to say what follows:
    /// a cut download, a stream captured mid-frame): recognised by three frames in a row in
    /// its first 64 KiB, as ffprobe finds it, with ffprobe's properties; a save puts a tag in
    /// front and every reader sees it. Before 2026-11-29 it was "not a format this package
    /// reads" (issue 35); junk that hides no stream is still refused.
    @Test(arguments: [("libmp3lame", "mp3"), ("aac", "adts")])
    func aStreamAfterJunkIsFoundAsFFprobeFindsIt(_ codec: String, _ container: String) async throws {
        let directory = try TemporaryFile.makeDirectory()
        let clean = directory + "/clean." + (container == "adts" ? "aac" : "mp3")
        let made = try await ToolRunner.runProgram(OtherReaders.ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "sine=d=2", "-c:a", codec, "-f", container, clean])
        #expect(made.status == 0, "\(made.standardError)")
        var generator = SystemRandomNumberGenerator()
        let junk = (0..<5000).map { _ in UInt8.random(in: 0...0xFF, using: &generator) }
        let path = try TemporaryFile.write(junk + TemporaryFile.read(clean), name: "junk-first." + (container == "adts" ? "aac" : "mp3"))
        var file = try MediaFile(path: path)
        #expect(file.format == (container == "adts" ? .aac : .mp3))
        let audio = try #require(file.audio)
        let stream = try #require(try await OtherReaders.ffprobeStreams(path).first { $0["codec_type"] as? String == "audio" })
        #expect(audio.sampleRate.map(String.init) == stream["sample_rate"] as? String)
        #expect(audio.channels == stream["channels"] as? Int)
        let duration = try #require(audio.duration)
        #expect(abs(duration - 2) < 0.1, "\(duration)")
        try file.set("TITLE", ["After junk"])
        try file.save()
        let saved = try MediaFile(path: path)
        #expect(saved.tags["TITLE"] == ["After junk"])
        #expect(saved.format == file.format, "the tag before the junk does not change what the stream is")
        #expect(try await OtherReaders.ffprobeTags(path)["title"] == "After junk")
        // Junk alone is not taken for audio, nor are audio packets of another container: an
        // MPEG program stream's packs of three frames each, between pack headers.
        let none = try TemporaryFile.write(junk + junk, name: "junk-only.mp3")
        #expect(throws: MetadataError.self) { try MediaFile(path: none) }
        let cleanBytes: [UInt8] = try TemporaryFile.read(clean)
        let firstFrame: Int = try #require((0..<cleanBytes.count - 1).first { (at: Int) -> Bool in cleanBytes[at] == 0xFF && cleanBytes[at + 1] & 0xE0 == 0xE0 })
        let frameBytes = Array(cleanBytes[firstFrame...])
        var packs: [UInt8] = []
        for pack in 0..<20 {
            let piece = frameBytes.dropFirst(pack * 900).prefix(900)
            packs += [0, 0, 1, 0xBA] + [UInt8](repeating: 0x44, count: 10) + piece
        }
        let packed = try TemporaryFile.write(packs, name: "packed.mpg")
        #expect(MediaFormat.detect(try FileByteSource(path: packed)) == nil)
    }

    /// MP3 in WAV (format tag 0x55): timed by the `data` bytes over the average byte rate
    /// `fmt ` declares, as ffprobe times it (before 2026-11-27 it had no duration).
    @Test func mp3InWAVIsTimedByItsDeclaredByteRate() async throws {
        let path = try TemporaryFile.makeDirectory() + "/mp3.wav"
        let made = try await ToolRunner.runProgram(OtherReaders.ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "sine=d=3", "-c:a", "libmp3lame", "-b:a", "64k", path])
        #expect(made.status == 0, "\(made.standardError)")
        let audio = try #require(try MediaFile(path: path).audio)
        let stream = try #require(try await OtherReaders.ffprobeStreams(path).first { $0["codec_type"] as? String == "audio" })
        #expect(audio.codec == "mp3" && stream["codec_name"] as? String == "mp3")
        let duration = try #require(audio.duration)
        let expected = try #require((stream["duration"] as? String).flatMap { Double($0) })
        #expect(abs(duration - expected) < 0.05, "\(duration) against ffprobe's \(expected)")
        #expect(audio.bitrate.map(String.init) == stream["bit_rate"] as? String)
    }

    /// RF64 (and its twin BW64), the WAV for files over 4 GiB: its sizes are in the `ds64`
    /// chunk. Read (properties as ffprobe gives them, chunks not called truncated); a write is
    /// refused with exit 67 and the file left, until saves keep `ds64` in step. Before
    /// 2026-11-27 such files were not recognised at all.
    @Test func rf64IsReadAndItsWritesRefused() async throws {
        let path = try TemporaryFile.makeDirectory() + "/big.wav"
        let made = try await ToolRunner.runProgram(OtherReaders.ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "sine=d=2", "-c:a", "pcm_s16le", "-rf64", "always", path])
        #expect(made.status == 0, "\(made.standardError)")
        #expect(Array(try TemporaryFile.read(path).prefix(4)) == Array("RF64".utf8))
        let file = try MediaFile(path: path)
        #expect(file.format == .wav)
        let audio = try #require(file.audio)
        let stream = try #require(try await OtherReaders.ffprobeStreams(path).first { $0["codec_type"] as? String == "audio" })
        #expect(audio.codec == "pcm_s16le" && audio.sampleRate == 44100)
        let expected = try #require((stream["duration"] as? String).flatMap { Double($0) })
        #expect(abs((audio.duration ?? 0) - expected) < 0.001)
        let tree = try await ToolRunner.run("atominspect", [path])
        #expect(tree.status == 0 && !tree.standardOutput.contains("truncated") && tree.standardOutput.contains("ds64 @12"), "\(tree.standardOutput)")
        let before = try TemporaryFile.read(path)
        let set = try await ToolRunner.run("tagedit", ["set", path, "TITLE=x"])
        #expect(set.status == 67)
        #expect(set.standardError.contains("RF64 files (WAV over 4 GiB) are read; writing their tags is not supported yet"), "\(set.standardError)")
        #expect(try TemporaryFile.read(path) == before)
    }

    /// An RF64 file over 4 GiB, the size it exists for: ffmpeg's RF64 header and a `data`
    /// chunk of 5 GiB of silence (a sparse file: the sizes in `ds64` say 5 GiB, the disk holds
    /// a few KB). Its duration is the 64-bit size over the byte rate, as ffprobe gives it; no
    /// chunk is called truncated; a write is refused and leaves it as it was.
    @Test func rf64OverFourGiBIsTimedByItsSixtyFourBitSizes() async throws {
        let made = try TemporaryFile.makeDirectory() + "/small.wav"
        let result = try await ToolRunner.runProgram(OtherReaders.ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "sine=d=1", "-c:a", "pcm_s16le", "-rf64", "always", made])
        #expect(result.status == 0, "\(result.standardError)")
        var bytes = try TemporaryFile.read(made)
        let ds64 = try #require((12..<bytes.count - 4).first { Array(bytes[$0..<$0 + 4]) == Array("ds64".utf8) })
        let data = try #require((12..<bytes.count - 4).first { Array(bytes[$0..<$0 + 4]) == Array("data".utf8) })
        let dataSize: UInt64 = 5 << 30
        let fileSize = UInt64(data + 8) + dataSize
        func put(_ value: UInt64, at offset: Int) { bytes.replaceSubrange(offset..<offset + 8, with: (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }) }
        put(fileSize - 8, at: ds64 + 8)            // the RIFF size
        put(dataSize, at: ds64 + 16)               // the data size
        put(dataSize / 2, at: ds64 + 24)           // the sample count (16-bit mono)
        bytes.removeSubrange((data + 8)...)
        let path = try TemporaryFile.write(bytes, name: "huge.wav")
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: fileSize)    // sparse: zeros, silence
        try handle.close()
        let audio = try #require(try MediaFile(path: path).audio)
        let stream = try #require(try await OtherReaders.ffprobeStreams(path).first { $0["codec_type"] as? String == "audio" })
        let expected = try #require((stream["duration"] as? String).flatMap { Double($0) })
        #expect(abs(expected - Double(dataSize) / 88_200) < 0.01, "ffprobe: \(expected)")
        #expect(abs((audio.duration ?? 0) - expected) < 0.01, "\(String(describing: audio.duration)) against ffprobe's \(expected)")
        let tree = try await ToolRunner.run("atominspect", [path])
        #expect(tree.status == 0 && !tree.standardOutput.contains("truncated"), "\(tree.standardOutput)\(tree.standardError)")
        let set = try await ToolRunner.run("tagedit", ["set", path, "TITLE=x"])
        #expect(set.status == 67)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? UInt64 == fileSize)
        let reader = try #require(FileHandle(forReadingAtPath: path))
        #expect(Array(try reader.read(upToCount: bytes.count) ?? Data()) == bytes)
        try reader.close()
    }

    /// A WAV written as a stream, its `data` size never filled in (0 or 0xFFFFFFFF): the audio
    /// runs to the end of the file, as ffmpeg reads it, with a warning (which also keeps a save
    /// from writing to a file whose end is not known). The same with the `RIFF` size never
    /// filled in either (found by the differential fuzz target: a `RIFF` of 0 bytes was read
    /// as holding no chunk at all; TagLib and ffmpeg read on).
    @Test(arguments: [UInt32(0), UInt32.max])
    func aStreamedWAVRunsToTheEndOfTheFile(_ declared: UInt32) async throws {
        let made = try TemporaryFile.makeDirectory() + "/streamed.wav"
        let result = try await ToolRunner.runProgram(OtherReaders.ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "sine=d=2", "-c:a", "pcm_s16le", made])
        #expect(result.status == 0, "\(result.standardError)")
        var bytes = try TemporaryFile.read(made)
        let at = try #require((12..<bytes.count - 4).first { Array(bytes[$0..<$0 + 4]) == Array("data".utf8) })
        bytes.replaceSubrange(at + 4..<at + 8, with: (0..<4).map { UInt8(truncatingIfNeeded: declared >> (8 * $0)) })
        for riffToo in [false, true] {
            if riffToo { bytes.replaceSubrange(4..<8, with: (0..<4).map { UInt8(truncatingIfNeeded: declared >> (8 * $0)) }) }
            let path = try TemporaryFile.write(bytes, name: "streamed.wav")
            let audio = try #require(try MediaFile(path: path).audio)
            let stream = try #require(try await OtherReaders.ffprobeStreams(path).first { $0["codec_type"] as? String == "audio" })
            let expected = try #require((stream["duration"] as? String).flatMap { Double($0) })
            #expect(abs((audio.duration ?? 0) - expected) < 0.001, "\(String(describing: audio.duration)) against \(expected)")
            let show = try await ToolRunner.run("tagedit", ["show", path])
            #expect(show.standardError.contains("(a WAV written as a stream); read as the"), "\(show.standardError)")
        }
    }

    @Test func anAudioSpecificConfigThatDisagreesWithTheEntryIsFollowed() async throws {
        // moov-before-mdat.m4a: AAC LC, 22050 Hz mono in both the entry and the config; the
        // config's frequency index (7) becomes 44100's (4).
        var bytes = try TemporaryFile.read(TestFixtures.path("moov-before-mdat.m4a"))
        let tag: [UInt8] = [0x05, 0x80, 0x80, 0x80, 0x05]  // DecoderSpecificInfo of 5 bytes (ffmpeg writes lengths in four bytes)
        let at = try #require((0..<bytes.count - 7).first { Array(bytes[$0..<$0 + 5]) == tag }) + 5
        let old = try #require(AudioSpecificConfig([bytes[at], bytes[at + 1]]))
        #expect(old.samplingFrequency == 22050)
        let patched = UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1])
        let withIndex4 = patched & ~(0xF << 7) | (4 << 7)
        bytes[at] = UInt8(withIndex4 >> 8)
        bytes[at + 1] = UInt8(withIndex4 & 0xFF)
        let path = try TemporaryFile.write(bytes, name: "config-says-44100.m4a")
        let audio = try #require(try MediaFile(path: path).audio)
        #expect(audio.sampleRate == 44100)
        #expect(try await sampleRate(byFFprobe: path) == 44100)
    }
}
