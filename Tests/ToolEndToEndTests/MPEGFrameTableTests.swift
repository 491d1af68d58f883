import Carriers
import Foundation
import Synchronization
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

    /// More than a MiB that is not frames inside the stream ends the walk there (the search for
    /// the next frames is bounded), reported once; the Xing count is then not compared (the
    /// frames after the gap were not counted).
    @Test func aGapLongerThanTheSearchEndsTheWalkWithoutAWrongXingWarning() throws {
        let bytes = try TemporaryFile.read(try Self.make("sine.mp3", ["-c:a", "libmp3lame", "-b:a", "64k"]))
        let whole = try MPEGStreamFile(source: MemoryByteSource(bytes)).walkFrames()
        let at = Int(whole.frames[40].offset)
        let gapped = Array(bytes[..<at]) + [UInt8](repeating: 0, count: 1_500_000) + bytes[at...]
        let walk = try MPEGStreamFile(source: MemoryByteSource(gapped)).walkFrames()
        #expect(walk.count == 40)
        #expect(walk.diagnostics.map(\.message) == ["more than 1 MiB that is not audio frames starts here; the rest of the stream (\(gapped.count - at) bytes) is not walked"])
    }

    /// A source whose reads start failing (a bad sector, a file cut since it was opened).
    final class FailingSource: ByteSource {
        let bytes: [UInt8]
        let failing = Mutex(false)
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        var size: UInt64 { UInt64(bytes.count) }
        func read(at offset: UInt64, count: Int) throws(ByteSourceError) -> [UInt8] {
            if failing.withLock({ $0 }) { throw ByteSourceError(.io, offset: offset, reason: "input/output error") }
            return try MemoryByteSource(bytes).read(at: offset, count: count)
        }
        func slice(at offset: UInt64, count: Int) throws(ByteSourceError) -> ArraySlice<UInt8> { try read(at: offset, count: count)[...] }
    }

    /// A read that fails stops the walk at once with an I/O error naming the offset (no retry at
    /// every byte of a search), and no Xing warning follows.
    @Test func aFailedReadStopsTheWalkWithAnIOError() throws {
        let bytes = try TemporaryFile.read(try Self.make("sine.mp3", ["-c:a", "libmp3lame", "-b:a", "64k"]))
        let source = FailingSource(bytes)
        let file = try MPEGStreamFile(source: source)
        source.failing.withLock { $0 = true }
        let walk = file.walkFrames()
        #expect(walk.count == 0)
        #expect(walk.diagnostics.count == 1)
        #expect(walk.diagnostics.first?.message.hasPrefix("cannot read the stream here (") == true, "\(walk.diagnostics)")
        #expect(walk.diagnostics.first?.offset == file.audio.lowerBound)
    }

    static func firstIndex(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}
