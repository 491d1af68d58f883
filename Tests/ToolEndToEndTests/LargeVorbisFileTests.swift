import Foundation
import MediaMetadata
import TestSupport
import Testing

/// FLAC and Ogg Vorbis files of the size a long album track or an audiobook has, made by
/// ffmpeg from noise, which does not compress (the Ogg file ten seconds encoded once and
/// repeated by stream copy): the paths only large files take. A FLAC rewrite that moves 64 MiB or more grows its
/// padding so the audio moves by a multiple of 64 KiB (`CopyAlignment`); an Ogg header that
/// needs more pages renumbers thousands of pages, each sealed with a new CRC, through the page
/// walker's read-ahead buffer. The format's own tools and ffmpeg check the results.
@Suite(.enabled(if: (OtherReaders.areAvailable && OtherReaders.hasFLACTools && OtherReaders.hasOggTools) || OtherReaders.isRequired,
                "ffmpeg, flac and ogginfo make and check the files (.ci/run installs them)"))
struct LargeVorbisFileTests {
    struct Failure: Error { var message: String }

    /// A file of at least `mebibytes` made by looping ten seconds of `codec` output (`direct`:
    /// encoding all of it, for FLAC, whose STREAMINFO a stream copy would leave as the piece's,
    /// so that `flac -t` could not check the result).
    static func make(_ name: String, codec: [String], mebibytes: Int, direct: Bool = false) async throws -> String {
        let directory = try TemporaryFile.makeDirectory()
        if direct {
            // Noise at 48 kHz in stereo takes about 138 KB a second as FLAC.
            let path = directory + "/" + name
            let seconds = String(mebibytes << 20 / 130_000 + 1)
            let made = try await ToolRunner.runProgram(OtherReaders.ffmpeg, ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "anoisesrc=d=\(seconds):c=white:r=48000:a=0.5",
                                                                           "-ac", "2"] + codec + ["-metadata", "title=Large", path])
            guard made.status == 0 else { throw Failure(message: made.standardError) }
            return path
        }
        let piece = directory + "/piece." + (name as NSString).pathExtension
        let made = try await ToolRunner.runProgram(OtherReaders.ffmpeg, ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "anoisesrc=d=10:c=white:r=48000:a=0.5",
                                                                       "-ac", "2"] + codec + ["-metadata", "title=Large", piece])
        guard made.status == 0 else { throw Failure(message: made.standardError) }
        let size = try FileManager.default.attributesOfItem(atPath: piece)[.size] as? Int ?? 1
        let loops = mebibytes << 20 / max(size, 1)
        let path = directory + "/" + name
        let looped = try await ToolRunner.runProgram(OtherReaders.ffmpeg, ["-v", "error", "-nostdin", "-stream_loop", String(loops), "-i", piece,
                                                                         "-c", "copy", "-metadata", "title=Large", path])
        guard looped.status == 0 else { throw Failure(message: looped.standardError) }
        return path
    }

    /// The MD5 of the audio packets as ffmpeg demuxes them (no decoding: seconds, not minutes).
    static func packets(_ path: String) async throws -> String {
        let result = try await ToolRunner.runProgram(OtherReaders.ffmpeg, ["-v", "error", "-nostdin", "-i", path, "-map", "0:a", "-c", "copy", "-f", "md5", "-"])
        guard result.status == 0 else { throw Failure(message: result.standardError) }
        return result.standardOutput
    }

    @Test func aGrowingRewriteOfA70MiBFLACMovesTheAudioBy64KiBSteps() async throws {
        let path = try await Self.make("large.flac", codec: ["-c:a", "flac", "-sample_fmt", "s32"], mebibytes: 70, direct: true)
        #expect(try await OtherReaders.flacTestPasses(path))
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0 >= 64 << 20)
        let before = try await Self.packets(path)
        let audioBefore = try FLACTestSupport.audioOffset(path)
        let result = try await ToolRunner.run("tagedit", ["set", path, "COMMENT=" + String(repeating: "too long for the padding ", count: 2000), "--verbose"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("rewrite"))
        let audioAfter = try FLACTestSupport.audioOffset(path)
        #expect((Int64(audioAfter) - Int64(audioBefore)) % 65536 == 0, "the audio moved from \(audioBefore) to \(audioAfter)")
        #expect(try await Self.packets(path) == before)
        #expect(try await OtherReaders.flacTestPasses(path))
        #expect(try MediaFile(path: path).tags["COMMENT"]?.first?.count == 50_000)
    }

    @Test func aHeaderThatNeedsMorePagesRenumbersEveryPageOfA70MiBOggVorbis() async throws {
        let path = try await Self.make("large.ogg", codec: ["-c:a", "libvorbis", "-q:a", "10"], mebibytes: 70)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0 >= 64 << 20)
        let before = try await Self.packets(path)
        let result = try await ToolRunner.run("tagedit", ["set", path, "LYRICS=" + String(repeating: "a lyric line that goes on ", count: 5000), "--verbose"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("renumbered"), "\(result.standardError)")
        #expect(try await Self.packets(path) == before)
        #expect(try await OtherReaders.ogginfoProblems(path) == [])
        let check = try await ToolRunner.run("atominspect", ["check", path])
        #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
        #expect(try MediaFile(path: path).tags["LYRICS"]?.first?.count == 130_000)
    }
}

/// Where a FLAC file's audio frames begin, read from its block headers.
enum FLACTestSupport {
    static func audioOffset(_ path: String) throws -> UInt64 {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let bytes = [UInt8](try handle.read(upToCount: 1 << 20) ?? Data())
        var at = 4
        while at + 4 <= bytes.count {
            let last = bytes[at] & 0x80 != 0
            at += 4 + (Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]))
            if last { return UInt64(at) }
        }
        throw LargeVorbisFileTests.Failure(message: "no last FLAC metadata block in the first MiB")
    }
}
