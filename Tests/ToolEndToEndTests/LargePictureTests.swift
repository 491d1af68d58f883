import Foundation
import MediaBytes
import MediaToolSupport
import TestSupport
import Testing

/// A real 200 MB cover: an ffmpeg-made JPEG followed by 200 MB (image readers stop at its end
/// marker), attached by ffmpeg to an MP3 as an ID3v2.3 `APIC` frame. Every command that reads,
/// exports, extracts or keeps the picture stays under the 256 MiB the resource-bound suite
/// allows: the picture is never in memory at once (its digest and Base64 are computed a MiB
/// at a time, a save and an extraction copy it file to file). Before, `export` peaked at
/// 1.6 GB and `set` at 0.6-1.2 GB on this file.
@Suite(.enabled(if: LongAudiobook.isAvailable || OtherReaders.isRequired, "ffmpeg makes the file (.ci/run installs ffmpeg)"))
struct LargePictureTests {
    static let memoryLimitKiB = ResourceBoundTests.memoryLimitKiB

    /// The MP3 and its cover, made in a folder of their own.
    static func make() throws -> (folder: String, mp3: String, cover: String) {
        let folder = try TemporaryFile.makeDirectory()
        let small = folder + "/small.jpg", cover = folder + "/cover.jpg", audio = folder + "/plain.mp3", mp3 = folder + "/song.mp3"
        try ffmpeg(["-f", "lavfi", "-i", "testsrc=size=64x64", "-frames:v", "1", small])
        try ffmpeg(["-f", "lavfi", "-i", "sine=duration=3", "-c:a", "libmp3lame", "-b:a", "64k", audio])
        // 200 MB after the JPEG's end: a pattern that no run of zeros can shortcut.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: small))
        handle.seekToEndOfFile()
        let block = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })
        for _ in 0..<200 { handle.write(block) }
        handle.closeFile()
        try FileManager.default.moveItem(atPath: small, toPath: cover)
        try ffmpeg(["-i", audio, "-i", cover, "-map", "0:a", "-map", "1", "-c", "copy", "-id3v2_version", "3",
                    "-metadata", "title=Big", "-metadata:s:v", "title=cover", "-metadata:s:v", "comment=Cover (front)", mp3])
        return (folder, mp3, cover)
    }

    static func ffmpeg(_ arguments: [String]) throws { try LongAudiobook.ffmpeg(arguments) }

    static func sha256(_ path: String) throws -> String {
        let result = try ChildProcess.run("/usr/bin/sha256sum", [path])
        return String(String(decoding: result.standardOutput, as: UTF8.self).prefix(64))
    }

    /// Runs a tool under GNU time and checks it succeeded within the memory limit.
    static func bounded(_ tool: String, _ arguments: [String]) throws {
        let run = try ToolRunner.measure(tool, arguments)
        print("200 MB cover: \(tool) \(arguments.prefix(2).joined(separator: " ")): exit \(run.status), \(Int(run.seconds * 1000)) ms, \(run.peakMemoryKiB / 1024) MiB peak")
        #expect(run.status == 0, "\(tool) \(arguments): \(run.standardError)")
        #expect(run.peakMemoryKiB > 1024, "the measurement works")
        #expect(run.peakMemoryKiB < memoryLimitKiB, "\(tool) \(arguments.first ?? "") peaked at \(run.peakMemoryKiB / 1024) MiB")
    }

    /// The digest of the first picture `show --json --digests` reports.
    static func reportedDigest(_ path: String) async throws -> String? {
        let shown = try await ToolRunner.run("tagedit", ["show", "--json", "--digests", path])
        let document = try JSONSerialization.jsonObject(with: Data(shown.standardOutput.utf8)) as? [[String: Any]] ?? []
        return (document.first?["pictures"] as? [[String: Any]])?.first?["sha256"] as? String
    }

    @Test func everyCommandKeepsA200MBCoverOutOfMemoryAndIntact() async throws {
        let (folder, mp3, cover) = try Self.make()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let coverDigest = try Self.sha256(cover)

        // Reading: the listing, the digests (the whole picture hashed a MiB at a time).
        try Self.bounded("tagedit", ["show", "--json", "--digests", mp3])
        #expect(try await Self.reportedDigest(mp3) == coverDigest)
        try Self.bounded("atominspect", [mp3])

        // Export: the picture's Base64 is read and encoded as the document goes out, once (in
        // `pictures`; the APIC frame among the native items refers to it).
        let document = folder + "/export.json"
        try Self.bounded("tagedit", ["export", "--output", document, mp3])
        let check = try ChildProcess.run(OtherReaders.python, ["-c", """
            import base64, hashlib, json, mmap, sys
            with open(sys.argv[1], 'rb') as f:
                m = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
                start = m.find(b'"data": "') + 9
                end = m.find(b'"', start)
                print(hashlib.sha256(base64.b64decode(m[start:end])).hexdigest(), m.find(b'"picture": 0') > end, m.size())
            """, document])
        let checked = String(decoding: check.standardOutput, as: UTF8.self).split(separator: " ")
        #expect(checked.first.map(String.init) == coverDigest, "the exported picture decodes to the cover: \(String(decoding: check.standardError, as: UTF8.self))")
        #expect(checked.count == 3 && checked[1] == "True", "the APIC frame refers to the picture")
        #expect(checked.last.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }.map { $0 > Base64.encodedCount(209_715_200) && $0 < Base64.encodedCount(209_715_200) + 100_000 } == true,
                "the document holds the picture once")

        // Extraction: copied file to file.
        let pictures = folder + "/pictures"
        try FileManager.default.createDirectory(atPath: pictures, withIntermediateDirectories: true)
        try Self.bounded("tagedit", ["picture", "extract", mp3, "--output", pictures])
        #expect(try Self.sha256(pictures + "/song-1-front-cover.jpg") == coverDigest)

        // Saves: the first merges ffmpeg's tag layout and rewrites; a title of the same length
        // then goes in place (only the text frame written); a longer one moves the picture,
        // which a rewrite copies in the kernel. A backup is the export document, streamed.
        try Self.bounded("tagedit", ["set", mp3, "TITLE=Bog"])
        let sizeBefore = try FileManager.default.attributesOfItem(atPath: mp3)[.size] as? Int
        let inPlace = try ToolRunner.measure("tagedit", ["set", "-v", mp3, "TITLE=Bag"])
        #expect(inPlace.status == 0 && inPlace.peakMemoryKiB < Self.memoryLimitKiB, "in place: \(inPlace.peakMemoryKiB / 1024) MiB")
        let inPlaceOutput = try await ToolRunner.run("tagedit", ["set", "-v", mp3, "TITLE=Bug"])
        #expect(inPlaceOutput.standardOutput.contains("written: in-place"), "\(inPlaceOutput.standardOutput.prefix(300))")
        #expect(try FileManager.default.attributesOfItem(atPath: mp3)[.size] as? Int == sizeBefore)
        try Self.bounded("tagedit", ["set", "--backup", folder + "/backups", mp3, "TITLE=A title long enough to move the picture", "COMMENT=\(String(repeating: "c", count: 3000))"])
        #expect(try await OtherReaders.ffprobeTags(mp3)["title"] == "A title long enough to move the picture")
        #expect(try await Self.reportedDigest(mp3) == coverDigest, "the cover is intact after the saves")
    }
}
