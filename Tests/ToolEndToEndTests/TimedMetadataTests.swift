import Foundation
import ISOBMFF
import MediaBytes
import MediaMetadata
import TestSupport
import Testing

/// `tagedit timed` and `TimedMetadata`: ID3 in transport streams (checked against ffprobe's
/// packet times), `emsg` v0 and v1 in fragmented MP4, QuickTime `mebx` tracks built in test
/// code, the packed-audio timestamp, and hostile variants of each.
@Suite struct TimedMetadataTests {
    func tagedit(_ arguments: String...) async throws -> ToolRunner.Result {
        try await ToolRunner.run("tagedit", arguments)
    }

    static func tag(_ title: String) -> [UInt8] {
        ID3Builder.tag(frames: [ID3Builder.frame("TIT2", ID3Builder.text([title]))])
    }

    /// A timed ID3 stream with three events, beside an audio stream.
    static func transportStream() -> [UInt8] {
        var builder = TransportStreamBuilder(audio: true)
        for (index, pts) in [UInt64(183_600), 273_600, 363_600].enumerated() {
            builder.addAudio([UInt8](repeating: 0, count: 200), pts: pts)
            builder.addID3(tag("Song \(index + 1)"), pts: pts)
        }
        return builder.bytes
    }

    @Test func transportStreamEventsAgreeWithFFprobePacketTimes() async throws {
        let path = try TemporaryFile.write(Self.transportStream(), name: "segment.ts")
        let result = try await tagedit("timed", "--json", path)
        #expect(result.status == 0, "\(result.standardError)")
        let documents = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        let events = try #require(documents.first?["events"] as? [[String: Any]])
        #expect(documents.first?["format"] as? String == "ts")
        #expect(events.map { $0["source"] as? String } == ["ts", "ts", "ts"])
        #expect(events.map { $0["identifier"] as? String } == ["id3/TIT2", "id3/TIT2", "id3/TIT2"])
        #expect(events.map { $0["key"] as? String } == ["TITLE", "TITLE", "TITLE"])
        #expect(events.map { $0["value"] as? [String] } == [["Song 1"], ["Song 2"], ["Song 3"]])
        let times = events.compactMap { $0["time"] as? Double }
        #expect(times == [2.04, 3.04, 4.04])
        if OtherReaders.isRequired || OtherReaders.hasFFprobe {
            let probe = try await ToolRunner.runProgram(OtherReaders.ffprobe, ["-v", "error", "-select_streams", "d", "-show_entries", "packet=pts_time", "-of", "csv=p=0", path])
            let ffprobe = probe.standardOutput.split(separator: "\n").compactMap { Double($0.split(separator: ",").first ?? "") }
            #expect(ffprobe == times)
        }
        // --from/--to select by time; text lists one line per event.
        let text = try await tagedit("timed", path, "--from", "3", "--to", "4")
        #expect(text.standardOutput == "\(path) (ts): 1 timed item\n  3.040 s  ts  id3/TIT2  TITLE  Song 2\n")
    }

    @Test func atominspectShowsProgramsStreamsAndEventsOfATransportStream() async throws {
        let path = try TemporaryFile.write(Self.transportStream(), name: "segment.ts")
        let tree = try await ToolRunner.run("atominspect", [path])
        #expect(tree.status == 0, "\(tree.standardError)")
        #expect(tree.standardOutput.hasPrefix("program @188 size=188  program 1, PMT PID 256, 2 streams, metadata pointer to ID3\n"), "\(tree.standardOutput)")
        #expect(tree.standardOutput.contains("  stream @188 size=188  PID 258 metadata in PES (timed ID3), "))
        #expect(tree.standardOutput.contains("\nID3 @1316 size=188  PID 258 PTS 273600 (3.040 s), ID3v2.4, 1 frames\n"))
        // A PES in one packet ends the packet (stuffing comes first): its 41 bytes start at
        // 1316 + 188 - 41, the tag after the 14-byte PES header, TIT2 after the tag's header.
        #expect(tree.standardOutput.contains("\n  TIT2 @1487 size=17  \"Song 2\"\n"))
        let json = try await ToolRunner.run("atominspect", [path, "--json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(document["format"] as? String == "ts")
        let check = try await ToolRunner.run("atominspect", ["check", path])
        #expect(check.standardOutput == "\(path): ok\n")
        let event = try await ToolRunner.run("atominspect", [path, "--path", "ID3[2]/TIT2"])
        #expect(event.standardOutput.contains("\"Song 3\""))
    }

    /// `fragmented.mp4` with an `emsg` v1 before its first `moof` and a v0 before its third.
    static func segmentWithEventMessages() throws -> (bytes: [UInt8], thirdMoofStart: Double) {
        let original = try TemporaryFile.read(TestFixtures.path("fragmented.mp4"))
        let tree = try AtomTree(source: MemoryByteSource(original))
        let moofs = tree.atoms.filter { $0.type == "moof" }
        let third = moofs[2]
        let tfdt: FragmentFieldsBox = try #require(tree.payload(of: third.child("traf")?.child("tfdt"), parent: "traf"))
        let decodeTime = try #require({ () -> UInt64? in
            if case .unsigned(let value)? = tfdt.fields.first?.value { return value }
            return nil
        }())
        let scheme = Array("https://aomedia.org/emsg/ID3".utf8) + [0]
        let v1 = AtomBuilder.fullBox("emsg", version: 1, AtomBuilder.be(90_000, width: 4) + AtomBuilder.be(45_000, width: 8)
            + AtomBuilder.be(9_000, width: 4) + AtomBuilder.be(1, width: 4) + scheme + [0] + tag("Ad break"))
        let v0 = AtomBuilder.fullBox("emsg", version: 0, scheme + [0] + AtomBuilder.be(1000, width: 4) + AtomBuilder.be(250, width: 4)
            + AtomBuilder.be(0xFFFF_FFFF, width: 4) + AtomBuilder.be(2, width: 4) + tag("Now playing"))
        var bytes = Array(original[..<Int(moofs[0].offset)]) + v1
        bytes += original[Int(moofs[0].offset)..<Int(third.offset)] + v0 + original[Int(third.offset)...]
        return (bytes, Double(decodeTime) / 10240)
    }

    @Test func eventMessagesAreTimedOnTheSegmentTimeline() async throws {
        let (bytes, thirdStart) = try Self.segmentWithEventMessages()
        let path = try TemporaryFile.write(bytes, name: "segment.mp4")
        let report = try TimedMetadata.read(path: path)
        #expect(report.diagnostics.filter { $0.isProblem }.isEmpty, "\(report.diagnostics)")
        #expect(report.events.map(\.source) == [.eventMessage, .eventMessage])
        #expect(report.events.map(\.values) == [["Ad break"], ["Now playing"]])
        // v1: 45000 / 90000; v0: the third fragment's tfdt plus 250 / 1000.
        #expect(report.events.map(\.time) == [0.5, thirdStart + 0.25])
        #expect(thirdStart > 0)
        #expect(report.events.map(\.duration) == [0.1, nil])
        // The inspector decodes the box.
        let inspect = try await ToolRunner.run("atominspect", [path, "--path", "emsg"])
        #expect(inspect.standardOutput.hasPrefix("emsg @"))
        #expect(inspect.standardOutput.contains("https://aomedia.org/emsg/ID3 time=45000/90000 id=1"))
        #expect(inspect.standardOutput.contains("\n  TIT2 @"))
        #expect(inspect.standardOutput.contains("\"Ad break\""))
    }

    @Test func anEventMessageWithUnterminatedStringsIsADiagnostic() throws {
        let box = AtomBuilder.fullBox("emsg", version: 0, Array("https://aomedia.org/emsg/ID3".utf8))  // no NUL, nothing after
        let ftyp = AtomBuilder.ftyp("iso6", compatible: ["iso6"])
        let path = try TemporaryFile.write(ftyp + box, name: "broken.mp4")
        let report = try TimedMetadata.read(path: path)
        #expect(report.events.isEmpty)
        #expect(report.diagnostics.contains { $0.offset == UInt64(ftyp.count) && $0.message.contains("no NUL terminator") }, "\(report.diagnostics)")
    }

    /// A movie with a timed metadata track: keys 1 (location, UTF-8), 2 (a float32) and 3 (an
    /// undeclared type), samples of 1 s at 600 per second, delayed 0.5 s by an empty edit.
    static func metadataTrackMovie(sampleCount declared: UInt32? = nil, keysBox: [UInt8]? = nil) -> [UInt8] {
        func key(_ id: UInt32, _ name: String, type: UInt32?) -> [UInt8] {
            var body = AtomBuilder.atom("keyd", Array("mdta".utf8) + Array(name.utf8))
            if let type { body += AtomBuilder.atom("dtyp", AtomBuilder.be(0, width: 4) + AtomBuilder.be(UInt64(type), width: 4)) }
            return AtomBuilder.atom(FourCC(rawValue: id), body)
        }
        let keys = keysBox ?? AtomBuilder.atom("keys", key(1, "com.apple.quicktime.location.ISO6709", type: 1)
            + key(2, "com.apple.quicktime.camera.focal_length", type: 23) + key(3, "org.example.raw", type: nil))
        let mebx = AtomBuilder.atom("mebx", [0, 0, 0, 0, 0, 0, 0, 1] + keys)
        func item(_ id: UInt32, _ value: [UInt8]) -> [UInt8] { AtomBuilder.be(UInt64(8 + value.count), width: 4) + AtomBuilder.be(UInt64(id), width: 4) + value }
        let samples: [[UInt8]] = [
            item(1, Array("+48.8577+002.2950+035.000/".utf8)) + item(2, [0x40, 0x80, 0x00, 0x00]),
            item(1, Array("+40.6892-074.0445/".utf8)),
            item(3, [1, 2, 3]),
        ]
        let ftyp = AtomBuilder.ftyp("qt  ", compatible: ["qt  "])
        func movie(_ mdatStart: UInt64) -> [UInt8] {
            var offsets: [UInt64] = []
            var position = mdatStart
            for sample in samples { offsets.append(position); position += UInt64(sample.count) }
            let count = UInt64(declared ?? UInt32(samples.count))
            let stsd = AtomBuilder.fullBox("stsd", AtomBuilder.be(1, width: 4) + mebx)
            let stts = AtomBuilder.fullBox("stts", AtomBuilder.be(1, width: 4) + AtomBuilder.be(count, width: 4) + AtomBuilder.be(600, width: 4))
            let stsc = AtomBuilder.fullBox("stsc", AtomBuilder.be(1, width: 4) + AtomBuilder.be(1, width: 4) + AtomBuilder.be(1, width: 4) + AtomBuilder.be(1, width: 4))
            let stsz = AtomBuilder.fullBox("stsz", AtomBuilder.be(0, width: 4) + AtomBuilder.be(count, width: 4) + samples.flatMap { AtomBuilder.be(UInt64($0.count), width: 4) })
            let stco = AtomBuilder.fullBox("stco", AtomBuilder.be(UInt64(samples.count), width: 4) + offsets.flatMap { AtomBuilder.be($0, width: 4) })
            let minf = AtomBuilder.container("minf", AtomBuilder.fullBox("nmhd"), AtomBuilder.container("stbl", stsd, stts, stsc, stsz, stco))
            let hdlr = AtomBuilder.fullBox("hdlr", [0, 0, 0, 0] + Array("meta".utf8) + [UInt8](repeating: 0, count: 13))
            let mdhd = AtomBuilder.fullBox("mdhd", [UInt8](repeating: 0, count: 8) + AtomBuilder.be(600, width: 4) + AtomBuilder.be(1800, width: 4) + [0x55, 0xC4, 0, 0])
            let elst = AtomBuilder.fullBox("elst", AtomBuilder.be(2, width: 4) + AtomBuilder.be(500, width: 4) + AtomBuilder.be(0xFFFF_FFFF, width: 4) + [0, 1, 0, 0]
                + AtomBuilder.be(3000, width: 4) + AtomBuilder.be(0, width: 4) + [0, 1, 0, 0])
            let tkhd = AtomBuilder.fullBox("tkhd", flags: 3, [UInt8](repeating: 0, count: 8) + AtomBuilder.be(7, width: 4) + [UInt8](repeating: 0, count: 68))
            let trak = AtomBuilder.container("trak", tkhd, AtomBuilder.container("edts", elst), AtomBuilder.container("mdia", mdhd, hdlr, minf))
            let mvhd = AtomBuilder.fullBox("mvhd", [UInt8](repeating: 0, count: 8) + AtomBuilder.be(1000, width: 4) + AtomBuilder.be(3500, width: 4) + [UInt8](repeating: 0, count: 80))
            return AtomBuilder.container("moov", mvhd, trak)
        }
        let probe = movie(0)
        let mdatStart = UInt64(ftyp.count + probe.count + 8)
        return ftyp + movie(mdatStart) + AtomBuilder.atom("mdat", samples.flatMap { $0 })
    }

    @Test func metadataTrackSamplesAreDecodedByTheirDeclaredTypes() async throws {
        let path = try TemporaryFile.write(Self.metadataTrackMovie(), name: "camera.mov")
        let result = try await tagedit("timed", "--json", path)
        #expect(result.status == 0, "\(result.standardError)")
        let events = try #require((try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])?.first?["events"] as? [[String: Any]])
        #expect(events.map { $0["identifier"] as? String } == [
            "mdta/com.apple.quicktime.location.ISO6709", "mdta/com.apple.quicktime.camera.focal_length",
            "mdta/com.apple.quicktime.location.ISO6709", "mdta/org.example.raw",
        ])
        #expect(events.map { $0["source"] as? String } == ["track", "track", "track", "track"])
        // Times through the edit list: an empty edit of 0.5 s first.
        #expect(events.map { $0["time"] as? Double } == [0.5, 0.5, 1.5, 2.5])
        #expect(events.map { $0["duration"] as? Double } == [1, 1, 1, 1])
        #expect(events.map { $0["value"] as? [String] } == [["+48.8577+002.2950+035.000/"], ["4.0"], ["+40.6892-074.0445/"], ["AQID"]])
        // No uniform key stands for a location (the key table has none).
        #expect(events.allSatisfy { $0["key"] is NSNull })
        // The inspector shows the declarations.
        let tree = try await ToolRunner.run("atominspect", [path])
        #expect(tree.standardOutput.contains("keyd @"))
        #expect(tree.standardOutput.contains("namespace=\"mdta\" key=\"com.apple.quicktime.location.ISO6709\""))
        #expect(tree.standardOutput.contains("namespace=\"well-known\" type=23"))
    }

    @Test func aMetadataTrackClaimingFourBillionSamplesReadsWhatIsThere() throws {
        let path = try TemporaryFile.write(Self.metadataTrackMovie(sampleCount: UInt32.max), name: "claims.mov")
        let report = try TimedMetadata.read(path: path)
        // The three samples the tables really hold, with their four items; nothing made up.
        #expect(report.events.count == 4, "\(report.events.map(\.identifier)) \(report.diagnostics)")
        #expect(report.events.map(\.time) == [0.5, 0.5, 1.5, 2.5])
    }

    @Test func aKeyTableNestedInItselfEndsAtTheDepthLimit() throws {
        // keys -> local key -> keys -> local key ... 200 deep: the parser stops at its depth limit.
        var nested = AtomBuilder.atom("keyd", Array("mdta".utf8) + Array("deep".utf8))
        for _ in 0..<200 { nested = AtomBuilder.atom("keys", AtomBuilder.atom(FourCC(rawValue: 1), nested)) }
        let path = try TemporaryFile.write(Self.metadataTrackMovie(keysBox: nested), name: "loop.mov")
        let report = try TimedMetadata.read(path: path)
        // Local key 1 holds another `keys`, not a `keyd`: no key is declared, so no item of a
        // sample can be named, and each says so.
        #expect(report.events.isEmpty, "\(report.events)")
        #expect(report.diagnostics.contains { $0.message.contains("declares no key (keyd)") }, "\(report.diagnostics)")
        #expect(report.diagnostics.contains { $0.message.contains("which the sample entry does not declare") })
    }

    @Test func aPackedAudioSegmentIsTimedByItsTransportStreamTimestamp() throws {
        let report = try TimedMetadata.read(path: TestFixtures.path("hls-timestamp.aac"))
        #expect(report.format == "aac")
        let stamp = try #require(report.events.first { $0.identifier == "id3/PRIV:com.apple.streaming.transportStreamTimestamp" })
        #expect(stamp.source == .packedAudio)
        #expect(abs(stamp.time - 8_589_934_000 / 90_000) < 1e-6)
    }

    @Test func aFileWithoutTimedMetadataListsNoneAndOtherFormatsAreRefused() async throws {
        let none = try await tagedit("timed", TestFixtures.path("aac-itunes-tags-cover.m4a"))
        #expect(none.status == 0)
        #expect(none.standardOutput.hasSuffix("(mp4): 0 timed items\n"))
        let wav = try await tagedit("timed", TestFixtures.path("wav-id3-info.wav"))
        #expect(wav.status == 67)
    }
}
