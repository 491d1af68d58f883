import Foundation
import ISOBMFF
import MediaBytes
import MediaMetadata
import MediaToolSupport
import TestSupport
import Testing

/// A fragmented movie as live encoders and DASH/HLS packagers write it, at the size users
/// have: ten minutes of AAC made by ffmpeg with a fragment per AAC frame (`-frag_duration
/// 20000`: about 25,800 `moof`/`mdat` pairs, 51,700 top-level atoms, a `tfra` of 25,800
/// entries pointing at the fragments by file offset). No committed fixture takes these paths:
/// a top level of tens of thousands of atoms, a duration that is the sum of the fragments
/// (no `mehd`), and a rewrite that moves every fragment and must move every `tfra` offset.
@Suite(.enabled(if: OtherReaders.isRequired || OtherReaders.hasFFprobe, "ffmpeg makes the movie and ffprobe reads it (.ci/run installs ffmpeg)"))
struct ManyFragmentsTests {
    /// The movie, made once per test process (about 10 s of encoding); the error says why not.
    static let made: Result<String, any Error> = Result {
        let path = try TemporaryFile.makeDirectory() + "/fragments.m4a"
        try LongAudiobook.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=220:duration=600", "-c:a", "aac", "-b:a", "32k",
                                  "-movflags", "+frag_keyframe+empty_moov+default_base_moof", "-frag_duration", "20000", "-f", "mp4", path])
        return path
    }

    /// The `tfra` entries' `moof` offsets of the movie at `path` (version 0 or 1).
    func randomAccessOffsets(_ path: String) throws -> [UInt64] {
        let tree = try AtomTree(contentsOf: path)
        let tfra = try #require(tree.atom(at: AtomPath(parsing: "mfra/tfra")!))
        let body = Array(try tree.fieldBytes(of: tfra))
        var reader = ByteReader(body)
        let version = try reader.readUInt8()
        _ = try reader.readBytes(3)
        _ = try reader.readUInt32()
        let sizes = try reader.readUInt32()
        let count = try reader.readUInt32()
        let skip = Int((sizes >> 4) & 3) + Int((sizes >> 2) & 3) + Int(sizes & 3) + 3
        var offsets: [UInt64] = []
        for _ in 0..<count {
            if version == 1 {
                _ = try reader.readUInt64()
                offsets.append(try reader.readUInt64())
            } else {
                _ = try reader.readUInt32()
                offsets.append(UInt64(try reader.readUInt32()))
            }
            _ = try reader.readBytes(skip)
        }
        return offsets
    }

    @Test func tensOfThousandsOfFragmentsAreReadTimedAndRewrittenWithTheirOffsets() async throws {
        let original = try Self.made.get()
        let tree = try AtomTree(contentsOf: original)
        let fragments = tree.atoms.filter { $0.type == "moof" }
        #expect(fragments.count > 20_000, "\(fragments.count) fragments")
        #expect(tree.diagnostics.filter(\.isProblem).isEmpty)
        // The duration is the sum of the fragments' samples, as ffprobe gives it.
        let audio = try #require(try MediaFile(path: original).audio)
        let expected = try await OtherReaders.ffprobeDuration(original)
        #expect(abs(try #require(audio.duration) - expected) < 0.05, "\(audio.duration ?? 0) against ffprobe's \(expected)")

        // A title and a cover: the movie atom grows past what it has room for, so every
        // fragment moves, and every random-access entry with it.
        let path = try TemporaryFile.write(TemporaryFile.read(original), name: "fragments.m4a")
        let cover = try TemporaryFile.write([0xFF, 0xD8, 0xFF, 0xE0] + (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }, name: "cover.jpg")
        #expect(try await ToolRunner.run("tagedit", ["set", path, "TITLE=Many fragments"]).status == 0)
        let added = try await ToolRunner.run("tagedit", ["picture", "add", path, "--image", cover])
        #expect(added.status == 0, "\(added.standardError)")
        #expect(try await ToolRunner.run("atominspect", ["check", path]).status == 0)
        let written = try AtomTree(contentsOf: path)
        let moved = Set(written.atoms.filter { $0.type == "moof" }.map(\.offset))
        #expect(moved.count == fragments.count)
        let offsets = try randomAccessOffsets(path)
        #expect(offsets.count == (try randomAccessOffsets(original)).count)
        #expect(offsets.allSatisfy { moved.contains($0) }, "a tfra entry points at no moof")
        #expect(try await OtherReaders.ffprobeTags(path)["title"] == "Many fragments")
        #expect(try await LongAudiobook.packetChecksum(path) == (try await LongAudiobook.packetChecksum(original)))
        #expect(abs(try await OtherReaders.ffprobeDuration(path) - expected) < 0.001)
    }

    /// The track's table of samples runs across every fragment: as many rows as ffprobe
    /// reads packets, a page from the end in the right place; the conformance profiles of
    /// streaming find the decode times continuous and the fragments sound.
    @Test func theTrackListsEverySampleOfEveryFragment() async throws {
        let path = try Self.made.get()
        let file = try FileInspection.open(path)
        let trak = try #require(file.nodes.first { $0.type == "moov" }?.children.first { $0.type == "trak" })
        let table = try #require(trak.details.table)
        let packets = try await OtherReaders.ffprobePackets(path, stream: 0)
        #expect(table.rowCount == packets.count)
        let columns = table.columns
        let tail = table.rows(table.rowCount - 20..<table.rowCount)
        #expect(tail.count == 20)
        for (row, packet) in zip(tail, packets.suffix(20)) {
            #expect(row.values[columns.firstIndex(of: "offset")!] == .uint(packet.position ?? 0))
            #expect(row.values[columns.firstIndex(of: "size")!] == .uint(UInt64(packet.size)))
        }
        let fragments = try AtomTree(contentsOf: path).atoms.filter { $0.type == "moof" }.count
        #expect(tail.last?.values[columns.firstIndex(of: "fragment")!] == .uint(UInt64(fragments)))
        let check = try await ToolRunner.run("atominspect", ["check", "--profile", "web", "--profile", "hls", path])
        #expect(check.standardOutput == "\(path): ok\n", "\(check.standardOutput)")
    }
}
