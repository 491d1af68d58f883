import Carriers
import Foundation
import ID3
import MediaBytes
import TestSupport
import Testing

/// `TransportStreamFile`: programs, streams and timed ID3 events of MPEG-2 transport streams
/// built in test code, checked against ffprobe, and damaged ones read to diagnostics.
@Suite struct TransportStreamTests {
    static func tag(_ title: String) -> [UInt8] {
        ID3Builder.tag(frames: [ID3Builder.frame("TIT2", ID3Builder.text([title])),
                                ID3Builder.frame("TXXX", [3] + Array("program\0".utf8) + Array("id-\(title.count)".utf8))])
    }

    /// Three events at 10, 11.5 and 13 s beside an audio stream.
    static func sample(audio: Bool = true) -> TransportStreamBuilder {
        var builder = TransportStreamBuilder(audio: audio)
        for (index, pts) in [UInt64(900_000), 1_035_000, 1_170_000].enumerated() {
            if audio { builder.addAudio([UInt8](repeating: 0xAA, count: 300), pts: pts) }
            builder.addID3(tag("Now playing \(index + 1)"), pts: pts)
        }
        return builder
    }

    @Test func readsProgramsStreamsAndTimedID3Events() throws {
        let file = try TransportStreamFile(source: MemoryByteSource(Self.sample().bytes))
        #expect(file.packetSize == 188)
        #expect(file.diagnostics.isEmpty, "\(file.diagnostics)")
        let program = try #require(file.programs.first)
        #expect(file.programs.count == 1 && program.number == 1 && program.pmtPID == 0x100)
        #expect(program.descriptors.map(\.tag) == [0x25])
        #expect(program.streams.map(\.pid) == [0x101, 0x102])
        #expect(program.streams.map(\.streamType) == [0x0F, 0x15])
        #expect(program.streams.map(\.isID3) == [false, true])
        #expect(program.streams[0].pesCount == 3 && program.streams[0].firstPTS == 900_000 && program.streams[0].lastPTS == 1_170_000)
        #expect(file.events.map(\.pts) == [900_000, 1_035_000, 1_170_000])
        #expect(file.events.map(\.time) == [10, 11.5, 13])
        #expect(file.events.compactMap { $0.tag?.frames("TIT2").first?.textValues?.first } == ["Now playing 1", "Now playing 2", "Now playing 3"])
    }

    @Test func m2tsPacketsOf192BytesAreRead() throws {
        let plain = Self.sample(audio: false).bytes
        var m2ts: [UInt8] = []
        for start in stride(from: 0, to: plain.count, by: 188) { m2ts += [0, 0, 0, 0] + plain[start..<start + 188] }
        let file = try TransportStreamFile(source: MemoryByteSource(m2ts))
        #expect(file.packetSize == 192 && file.syncOffset == 4)
        #expect(file.events.map(\.time) == [10, 11.5, 13])
        // Tags keep their file offsets: each packet before theirs (and their own) gained 4 bytes.
        let plainTags = try TransportStreamFile(source: MemoryByteSource(plain)).events.compactMap { $0.tag?.offset }
        #expect(file.events.compactMap { $0.tag?.offset } == plainTags.map { $0 + 4 * ($0 / 188 + 1) })
    }

    @Test(.enabled(if: OtherReaders.isRequired || OtherReaders.hasFFprobe, "ffprobe checks the generated stream (.ci/run installs ffmpeg)"))
    func ffprobeSeesATimedID3StreamAtTheSamePacketTimes() async throws {
        let path = try TemporaryFile.write(Self.sample().bytes, name: "segment.ts")
        let streams = try await OtherReaders.ffprobeStreams(path)
        #expect(streams.contains { $0["codec_name"] as? String == "timed_id3" }, "\(streams.map { $0["codec_name"] ?? "?" })")
        let result = try await ToolRunner.runProgram(OtherReaders.ffprobe, ["-v", "error", "-select_streams", "d", "-show_entries", "packet=pts_time", "-of", "csv=p=0", path])
        // One line per packet (`10.000000,`: a side-data column follows).
        let times = result.standardOutput.split(separator: "\n").compactMap { Double($0.split(separator: ",").first ?? "") }
        let file = try TransportStreamFile(source: FileByteSource(path: path))
        #expect(times == file.events.compactMap(\.time))
        #expect(times.count == 3)
    }

    @Test func damageBecomesDiagnosticsWithOffsets() throws {
        // A PES that claims 64 KiB in a file of a few packets.
        var short = TransportStreamBuilder(audio: false)
        short.addRaw(pid: TransportStreamBuilder.id3PID, payload: TransportStreamBuilder.pes(streamID: 0xBD, pts: 90_000, payload: Self.tag("x"), declaredLength: 65_535))
        let claimed = try TransportStreamFile(source: MemoryByteSource(short.bytes))
        #expect(claimed.events.isEmpty)
        #expect(claimed.diagnostics.contains { $0.message.contains("declares 65535 bytes") && $0.offset == 376 })

        // A PMT whose section length runs past its packet and the file.
        var pmt = Self.sample(audio: false).bytes
        let pointer = 188 + 5 + Int(pmt[188 + 4])  // after the PMT packet's stuffing
        pmt[pointer + 2] = 0xB3  // section_length 0x3E8: 1000 bytes, far past the packet
        pmt[pointer + 3] = 0xE8
        let cut = try TransportStreamFile(source: MemoryByteSource(Array(pmt.prefix(188 * 2))))
        #expect(cut.programs.first?.streams.isEmpty == true)
        #expect(cut.diagnostics.contains { $0.offset == 188 && $0.message.contains("cut short by the end of the file") })

        // Lost sync: 50 bytes of junk between packets.
        var junk = Self.sample(audio: false).bytes
        junk.insert(contentsOf: [UInt8](repeating: 0x11, count: 50), at: 188 * 3)
        let resynced = try TransportStreamFile(source: MemoryByteSource(junk))
        #expect(resynced.events.count == 3)
        #expect(resynced.diagnostics.contains { $0.message.contains("lost sync: 50 bytes skipped") && $0.offset == 564 })

        // A lost packet inside a PES (continuity counter jump): that event is dropped, not misread.
        var builder = TransportStreamBuilder(audio: false)
        builder.addID3(Self.tag(String(repeating: "long title ", count: 40)), pts: 90_000)
        builder.addID3(Self.tag("after"), pts: 180_000)
        var lost = builder.bytes
        lost.removeSubrange(188 * 3..<188 * 4)  // the second packet of the first PES
        let gap = try TransportStreamFile(source: MemoryByteSource(lost))
        #expect(gap.events.compactMap { $0.tag?.frames("TIT2").first?.textValues?.first } == ["after"])
        #expect(gap.diagnostics.contains { $0.message.contains("continuity counter jumps") })

        // Not a transport stream at all.
        #expect(throws: CarrierError.self) { try TransportStreamFile(source: MemoryByteSource([UInt8](repeating: 0x47, count: 100) + [1, 2, 3])) }
    }

    @Test func everyByteOfAStreamSetTo0x00Or0xFFReadsToAResult() throws {
        let bytes = Self.sample().bytes
        var damaged = 0
        for index in bytes.indices {
            for value: UInt8 in [0x00, 0xFF] where bytes[index] != value {
                var copy = bytes
                copy[index] = value
                guard let file = try? TransportStreamFile(source: MemoryByteSource(copy)) else { continue }
                #expect(file.events.count <= 4, "byte \(index) = \(value)")
                #expect(file.diagnostics.allSatisfy { $0.offset <= UInt64(copy.count) })
                if !file.diagnostics.isEmpty { damaged += 1 }
            }
        }
        #expect(damaged > 100)
    }

    @Test func everyCutOfAStreamReadsToAResultOrAnError() throws {
        let bytes = Self.sample().bytes
        let whole = try TransportStreamFile(source: MemoryByteSource(bytes)).events.map(\.pts)
        for length in stride(from: 1, through: bytes.count, by: 7) {
            let cut = MemoryByteSource(Array(bytes.prefix(length)))
            guard length >= 188 else {
                // Less than one packet is not a transport stream.
                #expect(throws: CarrierError.self, "cut at \(length)") { try TransportStreamFile(source: cut) }
                continue
            }
            // One packet or more reads, and has the first events of the whole stream, never another.
            let file = try TransportStreamFile(source: cut)
            #expect(file.events.map(\.pts) == Array(whole.prefix(file.events.count)), "cut at \(length)")
        }
    }
}
