import Foundation
import MediaMetadata
import TagLibOracle
import TestSupport
import Testing

/// FLAC files edited with `tagedit` and read back by the readers people use: metaflac and
/// `flac -t` (the format's own tools), ffprobe, mutagen, exiftool and TagLib; the decoded
/// audio is unchanged. `atominspect` shows, checks and dumps FLAC blocks.
@Suite(.enabled(if: (OtherReaders.areAvailable && OtherReaders.hasFLACTools) || OtherReaders.isRequired,
                "metaflac, flac, ffprobe, mutagen and exiftool read the files back (.ci/run installs them)"))
struct FLACToolTests {
    func tagedit(_ arguments: String...) async throws -> ToolRunner.Result { try await ToolRunner.run("tagedit", arguments) }
    func atominspect(_ arguments: String...) async throws -> ToolRunner.Result { try await ToolRunner.run("atominspect", arguments) }

    func copy(_ fixture: String) throws -> String {
        try TemporaryFile.write(TemporaryFile.read(TestFixtures.path(fixture)), name: fixture)
    }

    @Test(arguments: ["in place", "rewrite"])
    func afterASetEveryReaderSeesTheNewValues(way: String) async throws {
        let path = try copy("flac-tags-picture.flac")
        let audio = try await OtherReaders.decodeChecksum(path, map: "0:a")
        var arguments = ["set", path, "TITLE=Zürich ✓", "ARTIST=One", "TRACKNUMBER=7/9"]
        if way == "rewrite" { arguments.append("COMMENT=" + String(repeating: "long comment ", count: 1000)) }
        let result = try await ToolRunner.run("tagedit", arguments + ["--verbose"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains(way == "rewrite" ? "rewrite" : "in-place"))
        #expect(try await OtherReaders.metaflacTag(path, "TITLE") == ["Zürich ✓"])
        #expect(try await OtherReaders.metaflacTag(path, "TRACKNUMBER") == ["7"])
        #expect(try await OtherReaders.metaflacTag(path, "TRACKTOTAL") == ["9"])
        #expect(try await OtherReaders.flacTestPasses(path))
        #expect(try await OtherReaders.decodeChecksum(path, map: "0:a") == audio)
        let ffprobe = try await OtherReaders.ffprobeTags(path)
        #expect(ffprobe["title"] == "Zürich ✓")
        #expect(ffprobe["artist"] == "One")
        let mutagen = try await OtherReaders.mutagenTags(path)
        #expect(mutagen["title"] == ["Zürich ✓"] || mutagen["TITLE"] == ["Zürich ✓"], "\(mutagen)")
        #expect(try await OtherReaders.exiftoolTags(path, ["Title"])["Title"] == "Zürich ✓")
        let taglib = try #require(TagLibReading.read(path))
        #expect(taglib.properties["TITLE"] == ["Zürich ✓"])
        #expect(taglib.properties["TRACKNUMBER"] == ["7"])
        #expect(try await OtherReaders.metaflacBlocks(path) == ["STREAMINFO", "VORBIS_COMMENT", "PICTURE", "PADDING"])
    }

    @Test func removeAndClearLeaveNothingAnyReaderShows() async throws {
        let path = try copy("flac-tags-picture.flac")
        let audio = try await OtherReaders.decodeChecksum(path, map: "0:a")
        #expect(try await tagedit("remove", path, "TITLE").status == 0)
        #expect(try await OtherReaders.metaflacTag(path, "TITLE") == [])
        #expect(try await OtherReaders.ffprobeTags(path)["title"] == nil)
        #expect(try await tagedit("clear", path).status == 0)
        #expect(try await OtherReaders.mutagenTags(path).isEmpty)
        #expect(try await OtherReaders.metaflacBlocks(path) == ["STREAMINFO", "VORBIS_COMMENT", "PADDING"])
        #expect(TagLibReading.read(path)?.properties.isEmpty == true)
        #expect(try await OtherReaders.flacTestPasses(path))
        #expect(try await OtherReaders.decodeChecksum(path, map: "0:a") == audio)
    }

    @Test func clearRemovesTheID3TagBeforeTheStreamThatFFprobeReads() async throws {
        let path = try copy("flac-id3-leading.flac")
        #expect(try await tagedit("clear", path).status == 0)
        #expect(try await OtherReaders.ffprobeTags(path)["title"] == nil)
        #expect(try await OtherReaders.ffprobeTags(path)["artist"] == nil)
        #expect(Array(try TemporaryFile.read(path).prefix(4)) == Array("fLaC".utf8))
        #expect(try await OtherReaders.flacTestPasses(path))
    }

    @Test func anAddedPictureIsABlockMetaflacListsAndTageditExtracts() async throws {
        let path = try copy("flac-tags-picture.flac")
        let jpeg = try TemporaryFile.write([0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + Array("JFIF".utf8) + [0] + [UInt8](repeating: 1, count: 200) + [0xFF, 0xD9], name: "back.jpg")
        #expect(try await tagedit("picture", "add", path, "--image", jpeg, "--type", "back-cover").status == 0)
        #expect(try await OtherReaders.metaflacBlocks(path) == ["STREAMINFO", "VORBIS_COMMENT", "PICTURE", "PICTURE", "PADDING"])
        let listed = try await ToolRunner.runProgram(OtherReaders.metaflac, ["--list", "--block-type=PICTURE", path]).standardOutput
        #expect(listed.contains("type: 4 (Cover (back))"))
        #expect(listed.contains("MIME type: image/jpeg"))
        #expect(try await OtherReaders.flacTestPasses(path))
        let extracted = try TemporaryFile.makeDirectory()
        #expect(try await tagedit("picture", "extract", path, "--output", extracted).status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: extracted).sorted()
        #expect(names.count == 2, "\(names)")
    }

    /// A picture added to a FLAC (a PICTURE block) or an Opus file (a METADATA_BLOCK_PICTURE
    /// field) records the image's width, height, depth and colours from the image's header,
    /// as `metaflac --import-picture-from` does; before 2026-11-29 they were 0 (issue 32's user
    /// trial: players size artwork by them). Images made by ffmpeg, read back by metaflac.
    @Test(arguments: [("png", "rgb24", 24), ("png", "pal8", 8), ("jpg", "yuvj420p", 24), ("gif", "pal8", 8), ("bmp", "bgr24", 24)])
    func anAddedPictureRecordsItsDimensions(_ ext: String, _ pixels: String, _ depth: Int) async throws {
        let image = try TemporaryFile.makeDirectory() + "/cover." + ext
        let made = try await ToolRunner.runProgram(OtherReaders.ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=120x90", "-frames:v", "1", "-pix_fmt", pixels, image])
        #expect(made.status == 0, "\(made.standardError)")
        let path = try copy("flac-tags-picture.flac")
        #expect(try await tagedit("picture", "add", path, "--image", image, "--type", "back-cover").status == 0)
        let listed = try await ToolRunner.runProgram(OtherReaders.metaflac, ["--list", "--block-type=PICTURE", path]).standardOutput
        let back = try #require(listed.components(separatedBy: "METADATA block").first { $0.contains("type: 4 (Cover (back))") })
        #expect(back.contains("width: 120") && back.contains("height: 90"), "\(back)")
        #expect(back.contains("depth: \(depth)"), "\(back)")
        if pixels == "pal8" { #expect(!back.contains("colors: 0"), "\(back)") }
    }

    @Test func atominspectShowsChecksAndDumpsTheBlocks() async throws {
        let fixture = TestFixtures.path("flac-tags-picture.flac")
        let tree = try await atominspect(fixture)
        #expect(tree.status == 0)
        for name in ["fLaC", "STREAMINFO", "VORBIS_COMMENT", "PICTURE", "PADDING", "frames", "\"FLAC Title\""] {
            #expect(tree.standardOutput.contains(name), "\(name)")
        }
        let json = try await atominspect("--json", fixture)
        let nodes = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let top = try #require(nodes["atoms"] as? [[String: Any]], "\(nodes.keys)")
        #expect(top.compactMap { $0["type"] as? String }.contains("VORBIS_COMMENT"))
        #expect(try await atominspect("check", fixture).status == 0)
        // A block that claims more than the file has is named with its offset.
        var bytes = try TemporaryFile.read(fixture)
        bytes[42 + 1] = 0x7F  // the VORBIS_COMMENT length's high byte
        let damaged = try TemporaryFile.write(bytes, name: "damaged.flac")
        let check = try await atominspect("check", damaged)
        #expect(check.status != 0)
        #expect((check.standardOutput + check.standardError).contains("offset 42"), "\(check.standardOutput)\(check.standardError)")
        // tagedit refuses to write to it and leaves it as it was.
        let edit = try await tagedit("set", damaged, "TITLE=x")
        #expect(edit.status != 0)
        #expect(try TemporaryFile.read(damaged) == bytes)
    }

    @Test func aRecursiveRunSaysWhichAudioFilesItSkipped() async throws {
        let folder = try TemporaryFile.makeDirectory()
        for (fixture, name) in [("flac-tags-picture.flac", "a.flac"), ("id3v24-full.mp3", "b.mp3"), ("flac-id3-leading.flac", "c.wma"), ("no-tags.mp3", "d.ape"),
                                ("opus-tags-picture.opus", "e.opus")] {
            try Data(TemporaryFile.read(TestFixtures.path(fixture))).write(to: URL(fileURLWithPath: folder + "/" + name))
        }
        let result = try await tagedit("set", "-r", folder, "COMMENT=batch", "--verbose")
        #expect(result.status == 0)
        #expect(result.standardError.contains("3 files changed, 0 unchanged, 0 failed, 2 skipped (1 .ape, 1 .wma: formats tagedit does not edit)"), "\(result.standardError)")
        #expect(result.standardOutput.contains(folder + "/c.wma: skipped"))
        let shown = try await tagedit("show", "-r", folder)
        #expect(shown.standardError.contains("2 files skipped (1 .ape, 1 .wma)"))
        #expect(try await OtherReaders.metaflacTag(folder + "/a.flac", "COMMENT") == ["batch"])
    }

    @Test func copyFromFLACToM4AReportsNothingLost() async throws {
        let m4a = try copy("moov-before-mdat.m4a")
        let result = try await tagedit("copy", TestFixtures.path("flac-tags-picture.flac"), m4a)
        #expect(result.status == 0, "\(result.standardError)")
        #expect((result.standardOutput + result.standardError).contains("0 not representable"))
        let tags = try await OtherReaders.ffprobeTags(m4a)
        #expect(tags["title"] == "FLAC Title")
        #expect(tags["album_artist"] == "FLAC Album Artist")
        #expect(try await OtherReaders.ffprobeChapters(m4a).map(\.title) == ["Opening", "Second half"])
    }
}
