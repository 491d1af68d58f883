import Foundation
import MediaBytes
import MediaMetadata
import TestSupport
import Testing

/// One truth per key in an MP3 with several ID3v2 tags (issue 31): ffmpeg reads every leading
/// tag (the first tag's frame wins), mutagen reads an ID3v1 tag that sits before an appended
/// ID3v2 tag. `tagedit` shows what they show, and a save writes one leading tag with every
/// frame a reader could see and removes the others, so that after `remove` or `clear` no
/// reader finds the old value anywhere.
@Suite(.enabled(if: OtherReaders.areAvailable, "ffprobe and mutagen read the results (.ci/run installs them)"))
struct SeveralID3TagsTests {
    func tagedit(_ arguments: String...) async throws -> ToolRunner.Result { try await ToolRunner.run("tagedit", arguments) }

    func copy(_ fixture: String) throws -> String {
        try TemporaryFile.write(try TemporaryFile.read(TestFixtures.path(fixture)), name: fixture)
    }

    /// The ID3v2 tags `atominspect` finds in the file, as its top-level nodes name them.
    func id3v2Tags(_ path: String) async throws -> Int {
        let tree = try await ToolRunner.run("atominspect", [path])
        return tree.standardOutput.split(separator: "\n").filter { $0.hasPrefix("ID3v2 @") }.count
    }

    /// An MD5 of the audio packets as ffmpeg demuxes them.
    func audioDigest(_ path: String) async throws -> String {
        let result = try await ToolRunner.runProgram(OtherReaders.ffmpeg, ["-v", "error", "-i", path, "-map", "0:a", "-c", "copy", "-f", "md5", "-"])
        #expect(result.status == 0, "\(result.standardError)")
        return result.standardOutput
    }

    @Test func aSecondLeadingTagShowsWhatFFmpegShows() async throws {
        let path = try copy("two-leading-tags-junk.mp3")
        let ffprobe = try await OtherReaders.ffprobeTags(path)
        #expect(ffprobe["album"] == "Second Tag Album" && ffprobe["title"] == "First Tag Title")
        let shown = try await tagedit("get", path, "ALBUM")
        #expect(shown.standardOutput == "Second Tag Album\n", "\(shown.standardError)")
        #expect(try await tagedit("get", path, "TITLE").standardOutput == "First Tag Title\n")
    }

    @Test func removingAKeyOnlyTheSecondTagHasLeavesItNowhere() async throws {
        let path = try copy("two-leading-tags-junk.mp3")
        let audio = try await audioDigest(path)
        let result = try await tagedit("remove", path, "ALBUM")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("the second leading ID3v2 tag is merged into the first and removed"), "\(result.standardError)")
        #expect(result.standardError.contains("hidden from every reader by the first tag's frames of the same kind: TIT2"), "\(result.standardError)")
        let ffprobe = try await OtherReaders.ffprobeTags(path)
        #expect(ffprobe["album"] == nil && ffprobe["title"] == "First Tag Title" && ffprobe["artist"] == "First Tag Artist", "\(ffprobe)")
        #expect(try await OtherReaders.mutagenTags(path)["TALB"] == nil)
        #expect(try await id3v2Tags(path) == 1)
        #expect(try await audioDigest(path) == audio)
        #expect(try await ToolRunner.run("atominspect", ["check", path]).status == 0)
    }

    @Test func clearLeavesNoTagThatFFmpegReads() async throws {
        let path = try copy("two-leading-tags-junk.mp3")
        #expect(try await tagedit("clear", path).status == 0)
        #expect(try await OtherReaders.ffprobeTags(path).isEmpty)
        let shown = try await tagedit("show", path)
        #expect(shown.standardOutput.hasSuffix("  no tags\n"), "\(shown.standardOutput)")
    }

    @Test func anAppendedTagIsWrittenAtTheStartAndRemovedFromTheEnd() async throws {
        let path = try copy("id3v2-appended-footer.mp3")
        let result = try await tagedit("set", path, "TITLE=New Title")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("the ID3v2 tag appended at byte 2376 is written at the start of the file instead"), "\(result.standardError)")
        let bytes = try TemporaryFile.read(path)
        #expect(!ClearLeavesNoTrailerTests.contains(bytes, "3DI"), "no footer of an appended tag is left")
        #expect(try await id3v2Tags(path) == 1)
        for reader in [try await OtherReaders.ffprobeTags(path)["title"], try await OtherReaders.mutagenTags(path)["TIT2"]?.first] {
            #expect(reader == "New Title")
        }
        // What the appended tag had, and no reader showed but this package, is in the new tag.
        #expect(try await OtherReaders.ffprobeTags(path)["album"] == "Appended Album")
        // The audio is the audio (ffmpeg demuxed the appended tag as one more, broken, packet
        // before: its digest is not the measure here).
        let original = try TemporaryFile.read(TestFixtures.path("id3v2-appended-footer.mp3"))
        #expect(Array(bytes.dropLast(128).suffix(2376)) == Array(original[0..<2376]), "the audio, then the ID3v1 tag")
    }

    @Test func anID3v1TagBeforeAnAppendedTagIsReadAndKeptInStep() async throws {
        // The audio, an ID3v1 tag, then an ID3v2.4 tag with a footer (flag 0x10). No common
        // reader finds either where they are; once a save has removed the appended tag, the
        // ID3v1 tag is the file's last 128 bytes, where every reader looks: it must not keep the
        // old title there.
        var v1 = [UInt8](repeating: 0, count: 128)
        v1.replaceSubrange(0..<3, with: Array("TAG".utf8))
        v1.replaceSubrange(3..<3 + 8, with: Array("V1 Title".utf8))
        v1[127] = 255
        let body = ID3Builder.frame("TIT2", ID3Builder.text(["Appended Title"])) + ID3Builder.frame("TALB", ID3Builder.text(["Appended Album"]))
        let header = ID3Builder.tag(flags: 0x10, body)
        let footer = Array("3DI".utf8) + header[3..<10]
        let audio = (0..<20).flatMap { _ in ID3Builder.mp3Frame() }
        let path = try TemporaryFile.write(audio + v1 + header + footer, name: "v1-before-appended.mp3")
        let inspected = try await ToolRunner.run("atominspect", [path])
        #expect(inspected.standardOutput.contains("ID3v1 @\(audio.count) size=128"), "\(inspected.standardOutput)")

        let result = try await tagedit("remove", path, "TITLE")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try await OtherReaders.mutagenTags(path)["TIT2"] == nil)
        #expect(try await OtherReaders.ffprobeTags(path)["title"] == nil)
        #expect(try await tagedit("get", path, "TITLE").standardOutput.isEmpty)
        #expect(try await OtherReaders.ffprobeTags(path)["album"] == "Appended Album")
        // The ID3v1 tag is at the end again, and the audio is the audio.
        let bytes = try TemporaryFile.read(path)
        #expect(Array(bytes.suffix(128).prefix(3)) == Array("TAG".utf8))
        #expect(try await id3v2Tags(path) == 1)
        #expect(Array(bytes.dropLast(128).suffix(audio.count)) == audio, "the audio, then the ID3v1 tag, and nothing else at the end")
        let reread = try await ToolRunner.run("atominspect", ["check", path])
        #expect(reread.status == 0, "\(reread.standardOutput)\(reread.standardError)")
    }

    /// `aiff-id3.aiff` (an `ID3 ` chunk: "AIFF Title", "AIFF Artist"...) with an `id3 ` chunk
    /// added at the end of its form.
    func aiffWithALowercaseChunk(_ frames: [[UInt8]]) throws -> String {
        var bytes = try TemporaryFile.read(TestFixtures.path("aiff-id3.aiff"))
        let tag = ID3Builder.tag(frames: frames)
        func bigEndian(_ value: Int) -> [UInt8] { [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        let chunk = Array("id3 ".utf8) + bigEndian(tag.count) + tag + (tag.count % 2 == 1 ? [0] : [])
        let formSize = Int(bytes[4]) << 24 | Int(bytes[5]) << 16 | Int(bytes[6]) << 8 | Int(bytes[7])
        bytes.replaceSubrange(4..<8, with: bigEndian(formSize + chunk.count))
        return try TemporaryFile.write(bytes + chunk, name: "two-chunks.aiff")
    }

    @Test func anAIFFWithALowercaseID3ChunkBesideItsID3ChunkEndsWithOne() async throws {
        // ffmpeg reads only the `ID3 ` chunk of an AIFF; the `id3 ` chunk's title is hidden by
        // it, its composer is read by this package (and TagLib) only.
        let path = try aiffWithALowercaseChunk([ID3Builder.frame("TIT2", ID3Builder.text(["Lower Title"])),
                                                ID3Builder.frame("TCOM", ID3Builder.text(["Lower Composer"]))])
        #expect(try await OtherReaders.ffprobeTags(path)["title"] == "AIFF Title")
        #expect(try await tagedit("get", path, "TITLE").standardOutput == "AIFF Title\n")
        #expect(try await tagedit("get", path, "COMPOSER").standardOutput == "Lower Composer\n")

        let result = try await tagedit("set", path, "TITLE=New Title")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("1 further ID3 chunk is merged into the first and removed"), "\(result.standardError)")
        #expect(result.standardError.contains("hidden from every reader by the first chunk's frames of the same kind: TIT2"), "\(result.standardError)")
        let tree = try await ToolRunner.run("atominspect", [path])
        #expect(tree.standardOutput.contains("ID3  @") && !tree.standardOutput.contains("id3  @"), "\(tree.standardOutput)")
        let ffprobe = try await OtherReaders.ffprobeTags(path)
        #expect(ffprobe["title"] == "New Title" && ffprobe["composer"] == "Lower Composer" && ffprobe["artist"] == "AIFF Artist", "\(ffprobe)")
        #expect(try await OtherReaders.mutagenTags(path)["TIT2"] == ["New Title"])
        #expect(try await ToolRunner.run("atominspect", ["check", path]).status == 0)
    }

    @Test func anAIFFWhoseOnlyTagIsALowercaseChunkGetsTheNameFFmpegReads() async throws {
        // Without its `ID3 ` chunk: cut the fixture's form at the ID3 chunk (the last).
        let original = try TemporaryFile.read(TestFixtures.path("aiff-id3.aiff"))
        var bytes = Array(original[0..<4054])
        bytes.replaceSubrange(4..<8, with: [0, 0, 0x0F, 0xCE])  // 4054 - 8
        let tag = ID3Builder.tag(frames: [ID3Builder.frame("TIT2", ID3Builder.text(["Lower Title"]))])
        bytes += Array("id3 ".utf8) + [0, 0, UInt8(tag.count >> 8), UInt8(tag.count & 0xFF)] + tag + (tag.count % 2 == 1 ? [0] : [])
        let formSize = bytes.count - 8
        bytes.replaceSubrange(4..<8, with: [0, 0, UInt8(formSize >> 8), UInt8(formSize & 0xFF)])
        let path = try TemporaryFile.write(bytes, name: "lower.aiff")
        #expect(try await OtherReaders.ffprobeTags(path)["title"] == nil, "ffmpeg does not read it where it is")
        #expect(try await tagedit("get", path, "TITLE").standardOutput == "Lower Title\n")

        let result = try await tagedit("set", path, "ARTIST=Someone")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("the 'id3 ' chunk is written as 'ID3 '"), "\(result.standardError)")
        let ffprobe = try await OtherReaders.ffprobeTags(path)
        #expect(ffprobe["title"] == "Lower Title" && ffprobe["artist"] == "Someone", "\(ffprobe)")
        #expect(Array(try TemporaryFile.read(path)[0..<4054].dropFirst(8)) == Array(original[8..<4054]), "COMM and SSND as they were")
    }
}

/// A WAV file with two `LIST`/`INFO` chunks (issue 35): read as one list, an entry of the second
/// whose ID the first has hidden by it; a save (whatever key it changes) writes the one list,
/// without the hidden entries, and says so. Before 2026-11-27 the two were read as one list with
/// every entry twice, and a save wrote that.
@Suite struct SeveralInfoListsTests {
    /// `wav-id3-info.wav` with a second INFO list of `entries` after its ID3 chunk.
    static func wav(second entries: [(String, String)]) throws -> String {
        var bytes = try TemporaryFile.read(TestFixtures.path("wav-id3-info.wav"))
        var list = Array("INFO".utf8)
        for (id, value) in entries {
            var text = Array(value.utf8) + [0]
            if text.count % 2 == 1 { text.append(0) }
            list += Array(id.utf8) + le32(value.utf8.count + 1) + text
        }
        bytes += Array("LIST".utf8) + le32(list.count) + list
        bytes.replaceSubrange(4..<8, with: le32(bytes.count - 8))
        return try TemporaryFile.write(bytes, name: "two-lists.wav")
    }

    static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    @Test(arguments: ["TITLE=New", "COMPOSER=Someone"])
    func aSaveWritesOneListWithoutTheHiddenEntries(_ assignment: String) async throws {
        let path = try Self.wav(second: [("INAM", "Second Title"), ("ICOP", "Second Copyright")])
        let before = try MediaFile(path: path)
        #expect(before.items.filter { $0.identifier.description == "riff/INAM" }.map(\.values) == [["WAV INFO Title"]])
        #expect(before.items.contains { $0.identifier.description == "riff/ICOP" && $0.values == ["Second Copyright"] })

        let result = try await ToolRunner.run("tagedit", ["set", path, assignment])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("note: 1 further LIST/INFO chunk is merged into the first and removed"), "\(result.standardError)")
        #expect(result.standardError.contains("left out, hidden by the first INFO list's entries of the same ID: INAM"), "\(result.standardError)")
        let tree = try await ToolRunner.run("atominspect", [path])
        let lines = tree.standardOutput.split(separator: "\n")
        #expect(lines.filter { $0.contains("LIST @") }.count == 1, "\(tree.standardOutput)")
        #expect(lines.filter { $0.contains("IART @") }.count == 1, "\(tree.standardOutput)")
        #expect(lines.contains { $0.contains("ICOP @") && $0.contains("Second Copyright") })
        let exif = try await ToolRunner.runProgram(OtherReaders.exiftool, ["-s3", "-RIFF:Title", "-RIFF:Copyright", path])
        let title = assignment == "TITLE=New" ? "New" : "WAV INFO Title"
        #expect(exif.standardOutput == "\(title)\nSecond Copyright\n", "\(exif.standardOutput)")
    }
}
