import Foundation
import MediaBytes
import MediaToolSupport
import TestSupport
import Testing

/// The codec configuration, protection and sample-group boxes of files ffmpeg's muxers make,
/// decoded field by field and checked against what ffprobe reports of the same streams (the
/// boxes showed no fields at all before 2026-11-29).
@Suite(.enabled(if: OtherReaders.isRequired || OtherReaders.hasFFprobe))
struct CodecConfigurationTests {
    /// A file ffmpeg makes from `arguments` (inputs and codecs), named `name`.
    static func make(_ name: String, _ arguments: [String]) throws -> String {
        let path = try TemporaryFile.makeDirectory() + "/" + name
        try LongAudiobook.ffmpeg(arguments + ["-fflags", "+bitexact", path])
        return path
    }

    static let video = ["-f", "lavfi", "-i", "testsrc=size=96x64:rate=10:duration=0.3"]
    static let audio = ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=0.3"]

    /// The first node of `type` in the file (inside one of `within` when given), and its
    /// decoded fields by name.
    static func decoded(_ path: String, _ type: String, within: String? = nil) throws -> (summary: String, fields: [String: JSONValue]) {
        let file = try FileInspection.open(path)
        var found: InspectionNode?
        func visit(_ nodes: [InspectionNode], parent: String?) {
            for node in nodes where found == nil {
                if node.type == type, within == nil || parent == within { found = node; return }
                visit(node.children, parent: node.type)
            }
        }
        visit(file.nodes, parent: nil)
        let node = try #require(found, "no \(type) in \(path)")
        let details = node.details
        #expect(details.diagnostics.isEmpty, "\(type): \(details.diagnostics)")
        return (details.summary, Dictionary(details.fields.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a }))
    }

    static func stream(_ path: String, _ kind: String) async throws -> [String: Any] {
        try #require(try await OtherReaders.ffprobeStreams(path).first { $0["codec_type"] as? String == kind })
    }

    static func int(_ value: Any?) -> Int? { (value as? Int) ?? (value as? String).flatMap { Int($0) } }

    static func array(_ value: JSONValue?) -> [JSONValue] {
        guard case .array(let values)? = value else { return [] }
        return values
    }

    @Test(arguments: [("yuv420p", "high", 100, "4:2:0", 8), ("yuv444p10le", "high444", 244, "4:4:4", 10)])
    func avcSequenceParameterSetGivesProfileChromaDepthAndSize(pixelFormat: String, profile: String, idc: Int, chroma: String, depth: Int) async throws {
        let path = try Self.make("h264-\(pixelFormat).mp4", Self.video + ["-pix_fmt", pixelFormat, "-c:v", "libx264", "-profile:v", profile, "-threads", "1"])
        let (summary, fields) = try Self.decoded(path, "avcC")
        let sps = try #require(Self.array(fields["sequenceParameterSets"]).first)
        let stream = try await Self.stream(path, "video")
        #expect(sps["width"] == .uint(UInt64(try #require(Self.int(stream["width"])))))
        #expect(sps["height"] == .uint(UInt64(try #require(Self.int(stream["height"])))))
        #expect(sps["profile"] == .uint(UInt64(idc)))
        #expect(sps["chromaFormat"] == .string(chroma))
        #expect(sps["bitDepthLuma"] == .uint(UInt64(depth)))
        #expect(summary.contains("96x64"), "\(summary)")
    }

    @Test func hevcConfigurationNamesItsParameterSetArrays() async throws {
        let path = try Self.make("hevc.mp4", Self.video + ["-pix_fmt", "yuv420p10le", "-c:v", "libx265", "-x265-params", "log-level=error:pools=1:frame-threads=1", "-tag:v", "hvc1"])
        let (summary, fields) = try Self.decoded(path, "hvcC")
        #expect(fields["bitDepthLuma"] == .uint(10))
        #expect(fields["chromaFormat"] == .string("4:2:0"))
        #expect(fields["profile"] == .uint(2))  // Main 10
        // x265 adds its settings as a prefix SEI after the parameter sets.
        #expect(Array(Self.array(fields["arrays"]).compactMap { $0["name"] }.prefix(3)) == [.string("VPS"), .string("SPS"), .string("PPS")])
        let stream = try await Self.stream(path, "video")
        #expect(stream["profile"] as? String == "Main 10", "\(stream)")
        #expect(summary.hasPrefix("Main 10"), "\(summary)")
    }

    @Test func av1ConfigurationGivesProfileAndChroma() async throws {
        let path = try Self.make("av1.mp4", Self.video + ["-pix_fmt", "yuv420p", "-c:v", "libaom-av1", "-cpu-used", "8", "-threads", "1", "-frames:v", "2"])
        let (summary, fields) = try Self.decoded(path, "av1C")
        #expect(fields["marker"] == .uint(1) && fields["version"] == .uint(1))
        #expect(fields["seqProfile"] == .uint(0) && fields["monochrome"] == .uint(0))
        #expect(fields["chromaSubsamplingX"] == .uint(1) && fields["chromaSubsamplingY"] == .uint(1))
        #expect(summary.hasPrefix("Main level index"), "\(summary)")
        #expect(summary.hasSuffix("4:2:0 8-bit"))
    }

    @Test func vp9ConfigurationGivesProfileAndDepth() async throws {
        let path = try Self.make("vp9.mp4", Self.video + ["-pix_fmt", "yuv420p", "-c:v", "libvpx-vp9", "-deadline", "realtime", "-threads", "1"])
        let (_, fields) = try Self.decoded(path, "vpcC")
        #expect(fields["profile"] == .uint(0))
        #expect(fields["bitDepth"] == .uint(8))
        let stream = try await Self.stream(path, "video")
        #expect(stream["profile"] as? String == "Profile 0")
    }

    @Test func opusFlacAc3AndEac3ConfigurationsAgreeWithFFprobe() async throws {
        let opus = try Self.make("opus.mp4", Self.audio + ["-ac", "2", "-c:a", "libopus"])
        let (_, dOps) = try Self.decoded(opus, "dOps")
        #expect(dOps["outputChannelCount"] == .uint(2))
        let padding = Self.int(try await Self.stream(opus, "audio")["initial_padding"]) ?? 312
        #expect(dOps["preSkip"] == .uint(UInt64(padding)))

        let flac = try Self.make("flac.mp4", Self.audio + ["-c:a", "flac", "-strict", "-2"])
        let (flacSummary, dfLa) = try Self.decoded(flac, "dfLa")
        #expect(dfLa["sampleRate"] == .uint(48000) && dfLa["channels"] == .uint(1) && dfLa["bitsPerSample"] == .uint(16))
        #expect(flacSummary == "48000 Hz, 1 ch, 16 bit")

        let ac3 = try Self.make("ac3.mp4", Self.audio + ["-ac", "2", "-c:a", "ac3", "-b:a", "192k"])
        let (ac3Summary, dac3) = try Self.decoded(ac3, "dac3")
        #expect(dac3["sampleRate"] == .uint(48000) && dac3["acmod"] == .uint(2))
        #expect(ac3Summary == "AC-3 2/0, 48000 Hz, 192 kbit/s")

        let eac3 = try Self.make("eac3.mp4", Self.audio + ["-ac", "6", "-c:a", "eac3", "-b:a", "384k"])
        let (eac3Summary, _) = try Self.decoded(eac3, "dec3")
        #expect(eac3Summary == "E-AC-3 3/2.1, 384 kbit/s", "\(eac3Summary)")
    }

    @Test func alacCookieGivesRateChannelsAndDepth() async throws {
        let path = TestFixtures.path("alac.m4a")
        let (summary, fields) = try Self.decoded(path, "alac", within: "alac")
        let stream = try await Self.stream(path, "audio")
        let rate = try #require(Self.int(stream["sample_rate"])), channels = try #require(Self.int(stream["channels"]))
        #expect(fields["sampleRate"] == .uint(UInt64(rate)) && fields["channels"] == .uint(UInt64(channels)))
        #expect(fields["frameLength"] == .uint(4096))
        #expect(summary == "ALAC \(rate) Hz, \(channels) ch, 16 bit", "\(summary)")
    }

    /// ffmpeg's CENC encryption: the scheme, the track's default key ID, and one IV per sample
    /// in `senc`, matching `saiz`.
    @Test func commonEncryptionBoxesAgreeWithEachOther() throws {
        let kid = "0123456789abcdef0123456789abcdef"
        let path = try Self.make("cenc.mp4", Self.audio + ["-c:a", "aac", "-encryption_scheme", "cenc-aes-ctr", "-encryption_key", "00112233445566778899aabbccddeeff",
                                                          "-encryption_kid", kid, "-movflags", "+frag_keyframe+empty_moov"])
        let (_, schm) = try Self.decoded(path, "schm")
        #expect(schm["schemeType"] == .string("cenc"))
        let (_, tenc) = try Self.decoded(path, "tenc")
        #expect(tenc["defaultKID"] == .string("01234567-89ab-cdef-0123-456789abcdef"))
        #expect(tenc["defaultIsProtected"] == .uint(1))
        let (_, senc) = try Self.decoded(path, "senc")
        let (_, saiz) = try Self.decoded(path, "saiz")
        #expect(senc["sampleCount"] == saiz["sampleCount"])
        #expect(senc["perSampleIVSize"] == tenc["defaultPerSampleIVSize"])
    }

    /// ffmpeg's Smooth Streaming muxer puts a `tfxd` `uuid` box in each fragment: its start and
    /// duration in the track's time scale (10^7): here one fragment of three frames at 10 fps.
    @Test func smoothStreamingFragmentTimeOfAnISMV() throws {
        let path = try Self.make("smooth.ismv", Self.video + ["-c:v", "mpeg4", "-f", "ismv"])
        let (summary, tfxd) = try Self.decoded(path, "uuid", within: "traf")
        #expect(tfxd["userTypeName"] == .string("Smooth Streaming fragment time (tfxd)"))
        #expect(tfxd["fragmentAbsoluteTime"] == .uint(0))
        #expect(tfxd["fragmentDuration"] == .uint(3_000_000))
        #expect(summary == "fragment at 0, lasting 3000000")
    }

    /// A QuickTime movie's `©xyz` (ffmpeg's `location`): the text ffprobe reports, read as a point.
    @Test func quickTimeLocationAgreesWithFFprobe() async throws {
        let path = try Self.make("located.mov", Self.audio + ["-c:a", "aac", "-metadata", "location=+48.8577+002.2950+035.000/"])
        let (summary, xyz) = try Self.decoded(path, "\u{A9}xyz")
        #expect(try await OtherReaders.ffprobeTags(path)["location"] == "+48.8577+002.2950+035.000/")
        #expect(xyz["latitude"] == .double(48.8577) && xyz["longitude"] == .double(2.295) && xyz["altitude"] == .double(35))
        #expect(summary == "latitude 48.8577, longitude 2.295, altitude 35.0 m")
    }

    /// A sample entry is read by its track's handler: QuickTime's `raw ` under `soun` is 8-bit
    /// audio, not an uncompressed video entry with false warnings (before 2026-11-29 it was).
    @Test func aRawSoundEntryIsAudio() async throws {
        let path = try Self.make("raw.mov", Self.audio + ["-c:a", "pcm_u8"])
        let file = try FileInspection.open(path)
        #expect(file.allDiagnostics().filter(\.isProblem).isEmpty, "\(file.allDiagnostics())")
        let (summary, fields) = try Self.decoded(path, "raw ")
        #expect(fields["sampleRate"] == .double(48000) || fields["sampleRate"] == .uint(48000), "\(fields)")
        #expect(fields["width"] == nil)
        #expect(summary.contains("48000"), "\(summary)")
    }

    /// ffmpeg marks AAC's pre-roll with a `roll` sample group.
    @Test func aacRollGroupIsDecoded() throws {
        let path = try Self.make("aac.mp4", Self.audio + ["-c:a", "aac"])
        let (summary, sgpd) = try Self.decoded(path, "sgpd")
        #expect(summary == "roll, 1 descriptions")
        #expect(Self.array(sgpd["entries"]).first?["rollDistance"] == .int(-1))
        let (_, sbgp) = try Self.decoded(path, "sbgp")
        #expect(sbgp["groupingType"] == .string("roll"))
    }
}

/// `diff` matches tracks by track ID: a track added after the first is one track added, not
/// the first removed and two added (as matching by path made it before 2026-11-29).
@Suite(.enabled(if: OtherReaders.isRequired || OtherReaders.hasFFprobe))
struct TrackMatchingDiffTests {
    @Test func anAddedTrackIsOneAddition() throws {
        let a = try CodecConfigurationTests.make("a.mp4", CodecConfigurationTests.audio + ["-c:a", "aac", "-map_metadata", "-1"])
        let b = try CodecConfigurationTests.make("b.mp4", ["-i", a] + CodecConfigurationTests.video
            + ["-map", "0:a", "-map", "1:v", "-c:a", "copy", "-c:v", "libx264", "-threads", "1", "-map_metadata", "-1"])
        let diff = InspectionDiff(try FileInspection.open(a), try FileInspection.open(b))
        let trackChanges = diff.changes.filter { $0.type == "trak" && ($0.kind == .added || $0.kind == .removed) }
        #expect(trackChanges.map(\.kind) == [.added], "\(diff.lines)")
        #expect(trackChanges.first?.path == "moov/trak[1]")
    }
}
