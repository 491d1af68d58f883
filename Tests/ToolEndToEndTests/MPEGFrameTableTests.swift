import Carriers
import Foundation
import MediaBytes
import TestSupport
import Testing

/// The audio frames of MP3 and ADTS files as a table (`MPEGStreamFile.walkFrames`, the
/// inspector's `frames` table of the stream): every frame where ffprobe finds its packet, and
/// a stream cut short, holed or with a Xing count that disagrees reported by `check`.
@Suite struct MPEGFrameTableTests {
    static func make(_ name: String, _ codec: [String]) throws -> String {
        let path = try TemporaryFile.makeDirectory() + "/" + name
        try LongAudiobook.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:duration=3"] + codec + [path])
        return path
    }

    /// ffprobe's packets: offset and size of each.
    static func packets(_ path: String) throws -> [(offset: UInt64, size: Int)] {
        let result = try ChildProcess.run(OtherReaders.ffprobe, ["-v", "error", "-select_streams", "a", "-show_entries", "packet=pos,size", "-of", "csv=p=0:nk=0", "-show_packets", path])
        return String(decoding: result.standardOutput, as: UTF8.self).split(separator: "\n").compactMap { line in
            var size: Int?, offset: UInt64?
            for part in line.split(separator: ",") {
                if part.hasPrefix("size=") { size = Int(part.dropFirst(5)) }
                if part.hasPrefix("pos=") { offset = UInt64(part.dropFirst(4)) }
            }
            return offset.flatMap { offset in size.map { (offset, $0) } }
        }
    }

    static func frames(_ path: String) throws -> (frames: [MPEGStreamFile.FrameSummary], count: Int, diagnostics: [Diagnostic]) {
        try MPEGStreamFile(source: FileByteSource(path: path)).walkFrames()
    }

    @Test func everyFrameIsWhereFFprobeFindsItsPacket() throws {
        let mp3 = try Self.make("sine.mp3", ["-c:a", "libmp3lame", "-b:a", "64k"])
        let walked = try Self.frames(mp3)
        let packets = try Self.packets(mp3)
        #expect(packets.count > 100)
        // The first frame is the Info frame, which holds no audio: ffprobe has no packet for it.
        #expect(walked.frames.dropFirst().map(\.offset) == packets.map(\.offset))
        #expect(walked.frames.dropFirst().map { Int($0.size) } == packets.map(\.size))
        #expect(walked.count == walked.frames.count && walked.diagnostics.isEmpty, "\(walked.diagnostics)")
        #expect(walked.frames.allSatisfy { $0.bitrate == 64 || $0.offset == walked.frames[0].offset })

        let aac = try Self.make("sine.aac", ["-c:a", "aac", "-b:a", "64k", "-f", "adts"])
        let adts = try Self.frames(aac)
        #expect(adts.frames.map(\.offset) == (try Self.packets(aac)).map(\.offset))
        #expect(adts.diagnostics.isEmpty, "\(adts.diagnostics)")
    }

    @Test func aCutAHoleAndAWrongXingCountAreReported() async throws {
        let path = try Self.make("sine.mp3", ["-c:a", "libmp3lame", "-b:a", "64k"])
        let bytes = try TemporaryFile.read(path)
        let whole = try Self.frames(path)
        let folder = try TemporaryFile.makeDirectory()

        // Cut in the middle of the last frame.
        let cut = folder + "/cut.mp3"
        try Data(bytes.dropLast(100)).write(to: URL(fileURLWithPath: cut))
        let cutWalk = try Self.frames(cut)
        #expect(cutWalk.count == whole.count - 1)
        #expect(cutWalk.diagnostics.contains { $0.message.contains("the last frame claims") && $0.offset == whole.frames.last!.offset })

        // 333 bytes of junk between two frames: the frames go on after it.
        let holed = folder + "/hole.mp3"
        let at = Int(whole.frames[50].offset)
        try Data(bytes[..<at] + [UInt8](repeating: 0x55, count: 333) + bytes[at...]).write(to: URL(fileURLWithPath: holed))
        let holeWalk = try Self.frames(holed)
        #expect(holeWalk.count == whole.count)
        #expect(holeWalk.diagnostics.map(\.message) == ["333 bytes that are not an audio frame (a hole in the stream); the frames go on at byte offset \(at + 333)"])
        #expect(holeWalk.diagnostics.first?.offset == UInt64(at))

        // The Info header's frame count made wrong (it is right in ffmpeg's file).
        let xing = try #require(Self.firstIndex(of: Array("Info".utf8), in: bytes))
        var wrong = bytes
        wrong[xing + 8..<xing + 12] = [0, 0, 0x10, 0]
        let miscounted = folder + "/xing.mp3"
        try Data(wrong).write(to: URL(fileURLWithPath: miscounted))
        #expect(try Self.frames(miscounted).diagnostics.contains { $0.message.hasPrefix("the Info header says 4096 frames; the stream has \(whole.count - 1) after it") })

        // `check` says so, with the offset.
        for (file, words) in [(cut, "the last frame claims"), (holed, "333 bytes that are not an audio frame"), (miscounted, "says 4096 frames")] {
            let result = try await ToolRunner.run("atominspect", ["check", file])
            #expect((result.standardOutput + result.standardError).contains(words), "\(file): \(result.standardOutput) \(result.standardError)")
        }
        let clean = try await ToolRunner.run("atominspect", ["check", path])
        #expect(clean.status == 0 && clean.standardOutput.hasSuffix(": ok\n"), "\(clean.standardOutput)")
    }

    static func firstIndex(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}
