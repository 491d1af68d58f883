import Carriers
import Foundation
import MediaMetadata
import TagLibOracle
import TestSupport
import Testing

/// Ogg Vorbis, Opus, FLAC-in-Ogg and Speex files edited with `tagedit` and read back by the
/// readers people use: vorbiscomment and opusinfo (the formats' own tools), ogginfo (every
/// page), ffprobe, mutagen and TagLib; the decoded audio is unchanged. `atominspect` shows
/// and checks the pages.
@Suite(.enabled(if: (OtherReaders.areAvailable && OtherReaders.hasOggTools) || OtherReaders.isRequired,
                "vorbiscomment, opusinfo, ogginfo, ffprobe and mutagen read the files back (.ci/run installs them)"))
struct OggToolTests {
    func tagedit(_ arguments: String...) async throws -> ToolRunner.Result { try await ToolRunner.run("tagedit", arguments) }
    func atominspect(_ arguments: String...) async throws -> ToolRunner.Result { try await ToolRunner.run("atominspect", arguments) }

    func copy(_ fixture: String) throws -> String {
        try TemporaryFile.write(TemporaryFile.read(TestFixtures.path(fixture)), name: fixture)
    }

    static let fixtures = ["ogg-vorbis-tags.ogg", "opus-tags-picture.opus", "ogg-flac.oga", "speex.spx"]
    /// A value that takes the comment header past one page (65,025 bytes), so the later pages
    /// are renumbered.
    static let pagesLong = String(repeating: "a lyric line that goes on ", count: 2700)

    @Test(arguments: fixtures, ["small", "rewrite", "more pages"])
    func afterASetEveryReaderSeesTheNewValues(fixture: String, size: String) async throws {
        let path = try copy(fixture)
        let audio = try await OtherReaders.decodeChecksum(path, map: "0:a")
        var arguments = ["set", path, "TITLE=Zürich ✓", "ARTIST=One", "TRACKNUMBER=7/9"]
        if size == "rewrite" { arguments.append("COMMENT=" + String(repeating: "long comment ", count: 300)) }
        if size == "more pages" { arguments.append("LYRICS=" + Self.pagesLong) }
        let result = try await ToolRunner.run("tagedit", arguments + ["--verbose"])
        #expect(result.status == 0, "\(result.standardError)")
        if size != "small" { #expect(result.standardOutput.contains("rewrite"), "\(result.standardOutput)") }
        if size == "more pages" { #expect(result.standardError.contains("renumbered"), "\(result.standardError)") }
        #expect(try await OtherReaders.decodeChecksum(path, map: "0:a") == audio)
        #expect(try await OtherReaders.ogginfoProblems(path).filter { !$0.contains("zero size packet") } == [], "\(fixture)")
        let ffprobe = try await OtherReaders.ffprobeStreamTags(path)
        #expect(ffprobe["title"] == "Zürich ✓", "\(ffprobe)")
        #expect(ffprobe["artist"] == "One")
        let mutagen = try await OtherReaders.mutagenTags(path)
        #expect(mutagen["title"] == ["Zürich ✓"] || mutagen["TITLE"] == ["Zürich ✓"], "\(mutagen)")
        #expect(mutagen["tracknumber"] == ["7"] || mutagen["TRACKNUMBER"] == ["7"], "\(mutagen)")
        let taglib = try #require(TagLibReading.read(path))
        #expect(taglib.properties["TITLE"] == ["Zürich ✓"])
        #expect(taglib.properties["TRACKNUMBER"] == ["7"])
        #expect(taglib.properties["TRACKTOTAL"] == ["9"])
        if size == "more pages" { #expect(taglib.properties["LYRICS"] == [Self.pagesLong]) }
        switch fixture {
        case "ogg-vorbis-tags.ogg":
            let fields = try await OtherReaders.vorbiscommentFields(path)
            #expect(fields.contains("title=Zürich ✓") || fields.contains("TITLE=Zürich ✓"), "\(fields)")
            #expect(fields.contains("TRACKTOTAL=9"), "\(fields)")
        case "opus-tags-picture.opus":
            let fields = try await OtherReaders.opusinfoFields(path)
            #expect(fields.contains("title=Zürich ✓") || fields.contains("TITLE=Zürich ✓"), "\(fields)")
        default: break
        }
    }

    @Test(arguments: fixtures)
    func removeAndClearLeaveNothingAnyReaderShows(fixture: String) async throws {
        let path = try copy(fixture)
        let audio = try await OtherReaders.decodeChecksum(path, map: "0:a")
        #expect(try await tagedit("remove", path, "TITLE").status == 0)
        #expect(try await OtherReaders.ffprobeStreamTags(path)["title"] == nil)
        #expect(try await tagedit("clear", path).status == 0)
        #expect(try await OtherReaders.mutagenTags(path).isEmpty)
        #expect(TagLibReading.read(path)?.properties.isEmpty == true)
        #expect(try await OtherReaders.decodeChecksum(path, map: "0:a") == audio)
        #expect(try await OtherReaders.ogginfoProblems(path).filter { !$0.contains("zero size packet") } == [])
    }

    @Test func anAddedPictureIsAFieldMutagenReadsAndTageditExtracts() async throws {
        let path = try copy("speex.spx")
        let jpeg = try TemporaryFile.write([0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + Array("JFIF".utf8) + [0] + [UInt8](repeating: 1, count: 200) + [0xFF, 0xD9], name: "back.jpg")
        #expect(try await tagedit("picture", "add", path, "--image", jpeg, "--type", "back-cover").status == 0)
        let script = """
            import sys, base64, mutagen
            from mutagen.flac import Picture
            f = mutagen.File(sys.argv[1])
            for value in f.tags.get('metadata_block_picture', []):
                p = Picture(base64.b64decode(value))
                print(p.type, p.mime, len(p.data))
            """
        let listed = try await ToolRunner.runProgram(OtherReaders.python, ["-c", script, path])
        #expect(listed.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "4 image/jpeg 213", "\(listed.standardOutput)\(listed.standardError)")
        let extracted = try TemporaryFile.makeDirectory()
        #expect(try await tagedit("picture", "extract", path, "--output", extracted).status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: extracted)
        #expect(names.count == 1, "\(names)")
        #expect(try TemporaryFile.read(extracted + "/" + names[0]) == TemporaryFile.read(jpeg))
    }

    /// The legacy cover old Vorbis encoders wrote, `COVERART` (the image in Base64) with
    /// `COVERARTMIME`, added here by vorbiscomment: shown and extracted as a front cover, as
    /// TagLib reads it (issue 32's user trial: it was a field of Base64); a save writes it as a
    /// `METADATA_BLOCK_PICTURE` with the image's dimensions and drops the legacy pair, and
    /// mutagen reads the picture back with the same bytes.
    @Test func aLegacyCoverArtFieldIsAPicture() async throws {
        let path = try copy("ogg-vorbis-tags.ogg")
        let image = try TemporaryFile.makeDirectory() + "/cover.png"
        #expect(try await ToolRunner.runProgram(OtherReaders.ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=32x24", "-frames:v", "1", image]).status == 0)
        let bytes = try TemporaryFile.read(image)
        let added = try await ToolRunner.runProgram(OtherReaders.vorbiscomment, ["-a", "-t", "COVERART=" + Data(bytes).base64EncodedString(), "-t", "COVERARTMIME=image/png", path])
        #expect(added.status == 0, "\(added.standardError)")
        let shown = try await tagedit("show", "--json", path)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(shown.standardOutput.utf8)) as? [[String: Any]])
        let pictures = try #require(document.first?["pictures"] as? [[String: Any]])
        #expect(pictures.contains { $0["size"] as? Int == bytes.count && $0["mimeType"] as? String == "image/png" && $0["type"] as? String == "front-cover" }, "\(pictures)")
        #expect(try await tagedit("set", path, "TITLE=Converted").status == 0)
        let fields = try await OtherReaders.vorbiscommentFields(path)
        #expect(!fields.contains { $0.uppercased().hasPrefix("COVERART") }, "\(fields)")
        let mutagen = try await ToolRunner.runProgram(OtherReaders.python, ["-c", """
            import sys, base64, hashlib, mutagen
            from mutagen.flac import Picture
            for b in mutagen.File(sys.argv[1]).get('metadata_block_picture', []):
                p = Picture(base64.b64decode(b)); print(p.type, p.mime, p.width, p.height, hashlib.sha256(p.data).hexdigest())
            """, path])
        let digest = try await ToolRunner.runProgram("/usr/bin/sha256sum", [image]).standardOutput.prefix(64)
        #expect(mutagen.standardOutput.contains("3 image/png 32 24 \(digest)"), "\(mutagen.standardOutput)\(mutagen.standardError)")
    }

    /// `copy` from an Opus file leaves out what describes the source's encoding (issue 32's
    /// user trial: `ENCODER` and the Opus `R128` gains became M4A freeform items that said
    /// something false of the M4A), says so, and still carries ReplayGain.
    @Test func copyLeavesOutTheKeysOfTheSourcesEncoding() async throws {
        let opus = try copy("opus-tags-picture.opus")
        #expect(try await tagedit("set", opus, "ENCODER=opusenc 1.3", "R128_TRACK_GAIN=-512", "REPLAYGAIN_TRACK_GAIN=-3.20 dB").status == 0)
        let m4a = try TemporaryFile.write(TemporaryFile.read(TestFixtures.path("moov-before-mdat.m4a")), name: "dest.m4a")
        let result = try await tagedit("copy", opus, m4a)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("left out: ENCODER: the program that encoded the source's audio, not this file's; not copied"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("left out: R128_TRACK_GAIN: an Opus gain"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("3 left out"), "\(result.standardOutput)")  // (and the fixture's ENCODER_OPTIONS)
        let tags = try await OtherReaders.mutagenTags(m4a)
        #expect(!tags.keys.contains { $0.uppercased().contains("R128") || $0.uppercased().hasSuffix(":ENCODER") }, "\(tags.keys.sorted())")
        #expect(try await tagedit("get", m4a, "REPLAYGAIN_TRACK_GAIN").standardOutput == "-3.20 dB\n")
        // MP4's encoding tool (`©too`, ENCODEDBY as TagLib names it) is left out too; ID3's
        // ENCODEDBY (TENC) is a person and travels.
        #expect(try await tagedit("set", m4a, "ENCODEDBY=Lavf60.3.100").status == 0)
        let mp3 = try TemporaryFile.write(TemporaryFile.read(TestFixtures.path("no-tags.mp3")), name: "dest.mp3")
        let toMP3 = try await tagedit("copy", m4a, mp3)
        #expect(toMP3.standardOutput.contains("left out: ENCODEDBY: the tool that encoded the source's audio (MP4's ©too)"), "\(toMP3.standardOutput)")
        #expect(try await tagedit("get", mp3, "ENCODEDBY").status == 1)
        #expect(try await tagedit("set", mp3, "ENCODEDBY=A. Person").status == 0)
        let flac = try TemporaryFile.write(TemporaryFile.read(TestFixtures.path("flac-tags-picture.flac")), name: "dest.flac")
        #expect(try await tagedit("copy", mp3, flac).status == 0)
        #expect(try await tagedit("get", flac, "ENCODEDBY").standardOutput == "A. Person\n")
    }

    /// A stream whose last page lacks the end-of-stream flag (a file cut short on a page
    /// boundary, or a writer that never finished): `check` reports it, as ogginfo does
    /// (issue 32's user trial: `check` said ok). Built from a fixture in code, the last page's
    /// flag cleared and its CRC made again.
    @Test func checkReportsAStreamWithoutItsEndOfStreamPage() async throws {
        var bytes = try TemporaryFile.read(TestFixtures.path("ogg-vorbis-tags.ogg"))
        let last = try #require((0...(bytes.count - 4)).last { Array(bytes[$0..<$0 + 4]) == Array("OggS".utf8) })
        let segments = Int(bytes[last + 26])
        let end = last + 27 + segments + bytes[last + 27..<last + 27 + segments].reduce(0) { $0 + Int($1) }
        #expect(bytes[last + 5] & 4 != 0)
        bytes[last + 5] &= ~4
        bytes.replaceSubrange(last + 22..<last + 26, with: [0, 0, 0, 0])
        let crc = OggCRC.checksum(bytes[last..<end])
        bytes.replaceSubrange(last + 22..<last + 26, with: (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * $0)) })
        let path = try TemporaryFile.write(bytes, name: "no-eos.ogg")
        #expect(try await OtherReaders.ogginfoProblems(path).contains { $0.contains("EOS not set") })
        let check = try await atominspect("check", path)
        #expect(check.status == 1)
        #expect(check.standardOutput.contains("ends without an end-of-stream page"), "\(check.standardOutput)")
        // Reading and editing go on: the audio is all there.
        #expect(try await tagedit("set", path, "TITLE=Still edited").status == 0)
        #expect(try await OtherReaders.vorbiscommentFields(path).contains { $0.uppercased() == "TITLE=STILL EDITED" })
    }

    /// A chain whose second link reuses the first's serial number (`cat a.ogg a.ogg`): `check`
    /// says so once, as ogginfo warns, instead of a sequence gap and a page "after the end of
    /// the stream" on every page of the second link (issue 32's user trial); a save that
    /// repaginates the first link's header leaves the second link's pages as they were and
    /// the decoded audio unchanged.
    @Test func aChainThatReusesASerialIsReadAsTwoLinks() async throws {
        let one = try TemporaryFile.read(TestFixtures.path("ogg-vorbis-tags.ogg"))
        let path = try TemporaryFile.write(one + one, name: "chain.ogg")
        let audio = try await OtherReaders.decodeChecksum(path, map: "0:a")
        let check = try await atominspect("check", path)
        #expect(check.status == 1)
        #expect(check.standardOutput.contains("1 problem") && check.standardOutput.contains("a new link of the chain reuses the serial number 0x0"), "\(check.standardOutput)")
        #expect(try await tagedit("set", path, "TITLE=" + Self.pagesLong).status == 0)
        let after = try await atominspect("check", path)
        #expect(after.standardOutput.contains("1 problem"), "\(after.standardOutput)")
        let written = try TemporaryFile.read(path)
        #expect(Array(written.suffix(one.count)) == one, "the second link's pages, byte for byte")
        #expect(try await OtherReaders.decodeChecksum(path, map: "0:a") == audio)
    }

    @Test func atominspectShowsAndChecksThePages() async throws {
        let fixture = TestFixtures.path("ogg-vorbis-tags.ogg")
        let tree = try await atominspect(fixture)
        #expect(tree.status == 0)
        for name in ["OggS", "Vorbis identification header", "comment header", "Vorbis setup header", "pages", "\"Vorbis Title\""] {
            #expect(tree.standardOutput.contains(name), "\(name): \(tree.standardOutput)")
        }
        let json = try await atominspect("--json", fixture)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let top = try #require(document["atoms"] as? [[String: Any]])
        #expect(top.compactMap { $0["type"] as? String } == ["OggS", "OggS", "pages"])
        #expect(try await atominspect("check", fixture).status == 0)
        // An audio page whose CRC does not match its bytes is named with its offset.
        var bytes = try TemporaryFile.read(fixture)
        let lastPage = try #require((0..<bytes.count - 4).last { bytes[$0..<$0 + 4].elementsEqual("OggS".utf8) })
        bytes[bytes.count - 1] ^= 0xFF
        let damaged = try TemporaryFile.write(bytes, name: "damaged.ogg")
        let check = try await atominspect("check", damaged)
        #expect(check.status != 0)
        #expect((check.standardOutput + check.standardError).contains("offset \(lastPage)") && (check.standardOutput + check.standardError).contains("CRC"),
                "\(check.standardOutput)\(check.standardError)")
        // `--strict` refuses it too, though the damage is in an audio page.
        let strict = try await atominspect("--strict", damaged)
        #expect(strict.status == 68, "\(strict.standardError)")
        // A damaged header page: tagedit reads what it can, refuses to write, and leaves the file.
        var header = try TemporaryFile.read(fixture)
        header[60 + 30] ^= 0x01  // a byte of the comment header page's body
        let broken = try TemporaryFile.write(header, name: "broken.ogg")
        let edit = try await tagedit("set", broken, "TITLE=x")
        #expect(edit.status != 0)
        #expect(edit.standardError.contains("offset 58"), "\(edit.standardError)")
        #expect(try TemporaryFile.read(broken) == header)
    }

    @Test func copyFromOpusToM4AAndFLACToOggCarryTagsPicturesAndChapters() async throws {
        let m4a = try copy("moov-before-mdat.m4a")
        let result = try await tagedit("copy", TestFixtures.path("opus-tags-picture.opus"), m4a)
        #expect(result.status == 0, "\(result.standardError)")
        let tags = try await OtherReaders.ffprobeTags(m4a)
        #expect(tags["title"] == "Opus Title")
        #expect(tags["album"] == "Opus Album")
        #expect(try MediaFile(path: m4a).pictures.count == 1)
        let ogg = try copy("ogg-flac.oga")
        #expect(try await tagedit("copy", TestFixtures.path("flac-tags-picture.flac"), ogg).status == 0)
        let copied = try MediaFile(path: ogg)
        #expect(copied.tags["TITLE"] == ["FLAC Title"])
        #expect(copied.tags["TRACKNUMBER"] == ["3/12"])
        #expect(try copied.pictures.map(\.type) == [.frontCover])
        #expect(copied.chapters.map(\.title) == ["Opening", "Second half"])
        #expect(TagLibReading.read(ogg)?.properties["ALBUMARTIST"] == ["FLAC Album Artist"])
    }
}
