import Foundation
import MediaToolSupport
import TestSupport
import Testing

/// Runs the built `atominspect` and checks its output and exit codes.
@Suite struct AtomInspectTests {
    let fixture = TestFixtures.path("aac-itunes-tags-cover.m4a")

    func atominspect(_ arguments: String...) async throws -> ToolRunner.Result {
        try await ToolRunner.run("atominspect", arguments)
    }

    func jsonObject(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// A file name holding a line feed or an escape sequence is printed on its line, escaped:
    /// `check`'s one line per file stays one line (before 2026-11-30 the name was printed raw).
    @Test func namesWithControlCharactersStayOnTheirLine() async throws {
        let directory = try TemporaryFile.makeDirectory()
        let bytes = Data(try TemporaryFile.read(TestFixtures.path("alac.m4a")))
        try bytes.write(to: URL(fileURLWithPath: directory + "/new\nline.m4a"))
        try bytes.write(to: URL(fileURLWithPath: directory + "/esc\u{1B}[31mred.m4a"))
        let result = try await atominspect("check", "-r", directory)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("\(directory)/new\\nline.m4a: ok\n"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("\(directory)/esc\\x1B[31mred.m4a: ok\n"), "\(result.standardOutput)")
        #expect(result.standardOutput.split(separator: "\n").count == 2)
    }

    /// Parts that run past the end of the file span what is there: a WAV whose odd-sized last
    /// chunk has no pad byte (common), an MP3 cut inside its ID3v2 tag. `diff` finds such a
    /// file equal to itself and `extract` gives the bytes there are. Before 2026-11-30 both
    /// were sized past the end: `diff` reported a difference and `extract` failed (74).
    @Test func partsCutByTheEndOfTheFileSpanWhatIsThere() async throws {
        func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let format: [UInt8] = Array("fmt ".utf8) + le32(16) + [1, 0, 1, 0] + le32(8000) + le32(8000) + [1, 0, 8, 0]
        let body = Array("WAVE".utf8) + format + Array("data".utf8) + le32(17) + [UInt8](repeating: 0x80, count: 17)
        let wav = try TemporaryFile.write(Array("RIFF".utf8) + le32(body.count) + body, name: "nopad.wav")
        let tree = try await atominspect(wav)
        #expect(tree.standardOutput.contains("data @36 size=25 (no pad byte after its odd size: the file ends)"), "\(tree.standardOutput)")
        #expect(tree.standardOutput.hasPrefix("RIFF @0 size=61"), "\(tree.standardOutput)")
        let same = try await atominspect("diff", wav, wav)
        #expect(same.status == 0, "\(same.standardOutput)")
        let folder = try TemporaryFile.makeDirectory()
        let extracted = try await atominspect("extract", wav, "--path", "RIFF/data", "-o", folder + "/data.bin")
        #expect(extracted.status == 0, "\(extracted.standardError)")
        #expect(try TemporaryFile.read(folder + "/data.bin").count == 25)

        let whole = try TemporaryFile.read(TestFixtures.path("id3v24-full.mp3"))
        let cut = try TemporaryFile.write(Array(whole.prefix(300)), name: "cut-tag.mp3")
        let cutTree = try await atominspect(cut, "--depth", "1")
        #expect(cutTree.standardOutput.hasPrefix("ID3v2 @0 size=300 (declares 2758: truncated)"), "\(cutTree.standardOutput)")
        let tag = try await atominspect("extract", cut, "--path", "ID3v2", "-o", folder + "/tag.bin")
        #expect(tag.status == 0, "\(tag.standardError)")
        #expect(try TemporaryFile.read(folder + "/tag.bin") == Array(whole.prefix(300)))
    }

    /// Past the limit of a million atoms the rest of the file is not read: the tree says so,
    /// not that the bytes form no atom (before 2026-11-30 a valid `free` atom was called that).
    @Test func bytesPastTheAtomLimitAreNamedAsNotRead() async throws {
        var bytes: [UInt8] = [0, 0, 0, 16] + Array("ftypisom".utf8) + [0, 0, 0, 0]
        let free: [UInt8] = [0, 0, 0, 8] + Array("free".utf8)
        bytes.reserveCapacity(bytes.count + 8 * 1_000_002)
        for _ in 0..<1_000_001 { bytes += free }
        let path = try TemporaryFile.write(bytes, name: "many.mp4")
        let result = try await atominspect(path, "--max-nodes", "3")
        #expect(result.standardOutput.hasSuffix("(16 bytes at the end not read: past the limit on atoms)\n"), "\(result.standardOutput.suffix(300))")
        #expect(result.standardError.contains("more than 1000000 atoms"))
    }

    @Test func checkWalksFoldersWithRecursiveAndSumsUp() async throws {
        let directory = try TemporaryFile.makeDirectory()
        try FileManager.default.createDirectory(atPath: directory + "/sub", withIntermediateDirectories: true)
        for name in ["moov-before-mdat.m4a", "id3v24-full.mp3"] {
            try Data(TemporaryFile.read(TestFixtures.path(name))).write(to: URL(fileURLWithPath: directory + "/sub/" + name))
        }
        // A file cut inside its moov has findings; a text file is not picked up by the walk.
        let cut = try TemporaryFile.read(TestFixtures.path("moov-before-mdat.m4a"))
        try Data(cut.prefix(200)).write(to: URL(fileURLWithPath: directory + "/cut.m4a"))
        try Data("notes".utf8).write(to: URL(fileURLWithPath: directory + "/notes.txt"))
        let result = try await atominspect("check", "-r", directory)
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("\(directory)/sub/moov-before-mdat.m4a: ok\n"))
        #expect(result.standardOutput.contains("\(directory)/sub/id3v24-full.mp3: ok\n"))
        #expect(result.standardOutput.contains("\(directory)/cut.m4a: "))
        #expect(!result.standardOutput.contains("notes.txt"))
        #expect(result.standardError.hasSuffix("3 files checked: 2 sound, 1 with problems, 0 unreadable\n"))
        let quiet = try await atominspect("check", "-r", "--quiet", directory)
        #expect(!quiet.standardOutput.contains(": ok"))
        let folder = try await atominspect("check", directory)
        #expect(folder.status == 67)
        #expect(folder.standardError.contains("is a directory; add -r"))
        // On several jobs: the same lines, summary and exit code as one after another.
        for arguments in [["check", "-r", directory], ["check", directory, directory + "/cut.m4a", directory + "/missing.m4a", directory + "/sub"]] {
            let serial = try await ToolRunner.run("atominspect", arguments + ["--jobs", "1"])
            let parallel = try await ToolRunner.run("atominspect", arguments + ["--jobs", "3"])
            #expect(parallel.standardOutput == serial.standardOutput, "\(arguments)")
            #expect(parallel.standardError == serial.standardError, "\(arguments)")
            #expect(parallel.status == serial.status, "\(arguments)")
        }
    }

    @Test func treePrintsOneIndentedLinePerAtom() async throws {
        let result = try await atominspect(fixture)
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty)
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.first?.hasPrefix("ftyp @0 size=28  major=M4A ") == true)
        #expect(lines.contains { $0.hasPrefix("  mvhd @44 size=108  timescale=1000") })
        #expect(lines.contains { $0.hasPrefix("        ©nam @") })
        #expect(lines.contains { $0.contains("data @") && $0.contains("utf8 \"Fixture Title\"") })
    }

    @Test func anAPETagIsShownWithItsItems() async throws {
        let result = try await atominspect(TestFixtures.path("ape-lyrics3-id3v1.mp3"))
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("APEv2 @2499 size=541  APEv2, 10 items\n"))
        #expect(result.standardOutput.contains("  Artist @2554 size=44  \"APE Artist One\", \"APE Artist Two\"\n"))
        #expect(result.standardOutput.contains("  Cover Art (Front) @2783 size=225  cover \"cover.png\", 189 bytes\n"))
    }

    /// `--ranges` adds each node's payload and its fields' own bytes: `avcC`'s fields, each
    /// from where the one before it ended, cover its payload, and the profile is one byte.
    @Test func rangesGiveEachFieldItsBytes() async throws {
        let result = try await atominspect("tree", TestFixtures.path("video-h264-aac.mp4"), "--json", "--ranges", "--path", "moov/trak[0]/mdia/minf/stbl/stsd/avc1/avcC")
        #expect(result.status == 0)
        let node = try #require((try jsonObject(result.standardOutput)["atoms"] as? [[String: Any]])?.first)
        let payload = try #require(node["payloadRange"] as? [Int])
        let ranges = try #require(node["fieldRanges"] as? [String: [Int]])
        #expect(ranges["profile"] == [payload[0] + 1, payload[0] + 2])
        let sorted = ranges.values.sorted { ($0[0], $0[1]) < ($1[0], $1[1]) }
        #expect(sorted.first?[0] == payload[0] && sorted.map { $0[1] }.max() == payload[1])
        let refused = try await atominspect("tree", TestFixtures.path("video-h264-aac.mp4"), "--ranges")
        #expect(refused.status == 64 && refused.standardError.contains("--ranges goes with --json"))
    }

    @Test func jsonFollowsThePinnedShape() async throws {
        let result = try await atominspect(fixture, "--json")
        #expect(result.status == 0)
        let document = try jsonObject(result.standardOutput)
        #expect(document["path"] as? String == fixture)
        #expect(document["format"] as? String == "mp4")
        #expect(document["fileSize"] as? Int == 6925)
        #expect((document["diagnostics"] as? [Any])?.isEmpty == true)
        let atoms = try #require(document["atoms"] as? [[String: Any]])
        #expect(atoms.map { $0["type"] as? String } == ["ftyp", "free", "moov", "mdat"])
        let moov = atoms[2]
        #expect(moov["offset"] as? Int == 36)
        #expect(moov["headerSize"] as? Int == 8)
        #expect(moov["path"] as? String == "moov")
        let udta = try #require((moov["children"] as? [[String: Any]])?.first { $0["type"] as? String == "udta" })
        let meta = try #require((udta["children"] as? [[String: Any]])?.first)
        let ilst = try #require((meta["children"] as? [[String: Any]])?.last)
        let title = try #require((ilst["children"] as? [[String: Any]])?.first { $0["type"] as? String == "©nam" })
        #expect(title["path"] as? String == "moov/udta/meta/ilst/©nam")
        let data = try #require((title["children"] as? [[String: Any]])?.first)
        let fields = try #require(data["fields"] as? [String: Any])
        #expect(fields["value"] as? String == "Fixture Title")
        #expect(fields["typeName"] as? String == "utf8")
    }

    @Test func pathAndDepthLimitTheOutput() async throws {
        let result = try await atominspect(fixture, "--path", "moov/trak/mdia", "--depth", "2")
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "mdia @288 size=505")
        #expect(lines.contains { $0.hasPrefix("  minf @") })
        #expect(!lines.contains { $0.hasPrefix("    ") })
    }

    /// `--max-nodes` stops the listing after that many nodes with a line (a node in JSON)
    /// counting the rest and a `listingCut` note on standard error; 0 lists every node, and
    /// a negative count is a usage error.
    @Test func maxNodesCutsTheListingAndSaysWhere() async throws {
        let count = 5000
        let bytes = AtomBuilder.ftyp() + (0..<count).flatMap { _ in AtomBuilder.atom("free", [0, 0, 0, 0]) }
        let path = try TemporaryFile.write(bytes, name: "free-run.mp4")
        let cut = try await atominspect(path, "--max-nodes", "10")
        #expect(cut.status == 0)
        let lines = cut.standardOutput.split(separator: "\n")
        #expect(lines.count == 11)
        #expect(lines.last == "… @\(24 + 9 * 12) size=\((count - 9) * 12) (\(count - 9) more, from #10, not listed)  \(count - 9) more siblings, not listed: the listing stopped at its limit of nodes")
        #expect(cut.standardError.contains("note: at byte offset \(24 + 9 * 12) (…10): the listing stops after 10 nodes (--max-nodes)"))

        let json = try jsonObject(try await atominspect(path, "--json", "--max-nodes", "10").standardOutput)
        let atoms = try #require(json["atoms"] as? [[String: Any]])
        #expect(atoms.count == 11)
        #expect(atoms.last?["type"] as? String == "…")
        #expect((atoms.last?["fields"] as? [String: Any])?["more"] as? Int == count - 9)
        let notes = try #require(json["diagnostics"] as? [[String: Any]])
        #expect(notes.last?["code"] as? String == "listingCut")

        let whole = try await atominspect(path, "--max-nodes", "0")
        #expect(whole.standardOutput.split(separator: "\n").count == count + 1)
        #expect(!whole.standardError.contains("listingCut") && !whole.standardError.contains("--max-nodes"))
        let bad = try await atominspect(path, "--max-nodes", "-1")
        #expect(bad.status == 64)
    }

    @Test func uuidAtomsReportTheirExtendedTypeInJSON() async throws {
        var bytes: [UInt8] = [0, 0, 0, 16] + Array("ftypisom".utf8) + [0, 0, 0, 0]
        bytes += [0, 0, 0, 26] + Array("uuid".utf8) + Array(0..<16) + [1, 2]
        let path = try TemporaryFile.write(bytes, name: "uuid.mp4")
        let document = try jsonObject(try await atominspect(path, "--json").standardOutput)
        let atoms = try #require(document["atoms"] as? [[String: Any]])
        #expect(atoms[1]["uuid"] as? String == "000102030405060708090a0b0c0d0e0f")
    }

    @Test func hexDumpsOneAtom() async throws {
        let result = try await atominspect("hex", fixture, "--path", "moov/mvhd", "--limit", "16")
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("        44  00 00 00 6c 6d 76 68 64  "))
        #expect(result.standardOutput.contains("|...lmvhd"))
        #expect(result.standardOutput.contains("92 more bytes"))
    }

    @Test func extractWritesTheAtomBytes() async throws {
        let directory = try TemporaryFile.makeDirectory()
        let output = directory + "/ilst.bin"
        let result = try await atominspect("extract", fixture, "--path", "moov/udta/meta/ilst", "--output", output)
        #expect(result.status == 0)
        let original = try TemporaryFile.read(fixture)
        let extracted = try TemporaryFile.read(output)
        #expect(extracted.count == 1696)
        #expect(Array(original[918..<918 + 1696]) == extracted)
    }

    @Test func payloadOnlyOfAnItemValueIsTheValueItself() async throws {
        // The covers of the fixture, as tagedit extracts them, and as the data atoms' values.
        let directory = try TemporaryFile.makeDirectory()
        let cover = TestFixtures.path("aac-itunes-tags-cover.m4a")
        let pictures = try await ToolRunner.run("tagedit", ["picture", "extract", cover, "--output", directory])
        #expect(pictures.status == 0, "\(pictures.standardError)")
        let files = pictures.standardOutput.split(separator: "\n").map(String.init)
        #expect(files.count == 2)
        for (index, file) in files.enumerated() {
            let output = directory + "/value-\(index)"
            let result = try await atominspect("extract", cover, "--path", "moov/udta/meta/ilst/covr/data[\(index)]", "--output", output, "--payload-only")
            #expect(result.status == 0)
            #expect(try TemporaryFile.read(output) == TemporaryFile.read(file))
        }
        #expect(try TemporaryFile.read(directory + "/value-0").starts(with: [0xFF, 0xD8, 0xFF]))
        // Into a folder that does not exist: said so, exit 66.
        let missing = try await ToolRunner.run("tagedit", ["picture", "extract", cover, "--output", directory + "/absent"])
        #expect(missing.status == 66)
        #expect(missing.standardError.contains("no such folder"))
    }

    @Test func checkPassesSoundFilesAndListsProblems() async throws {
        let sound = try await atominspect("check", fixture, TestFixtures.path("co64-chunk-offsets.m4a"))
        #expect(sound.status == 0)
        #expect(sound.standardOutput.contains(": ok"))

        var broken = try TemporaryFile.read(fixture)
        broken += [1, 2, 3]
        let path = try TemporaryFile.write(broken, name: "trailing.m4a")
        let result = try await atominspect("check", path)
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("1 problem"))
        #expect(result.standardOutput.contains("bytes at the end of the file form no atom"))
    }

    /// Exit codes are the table both tools share (`ToolExitCode`): 66 for a missing file, as
    /// tagedit says (before 2026-11-27 atominspect said 2).
    @Test func missingFileExits66WithOneLine() async throws {
        let result = try await atominspect("/nonexistent/missing.m4a")
        #expect(result.status == 66)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError == "atominspect: /nonexistent/missing.m4a: no such file\n")
    }

    @Test func directoryExits67() async throws {
        let result = try await atominspect(TestFixtures.directory)
        #expect(result.status == 67)
        #expect(result.standardError.contains("is a directory"))
    }

    /// A file no format recognises is refused in the words of the format its name gives: an
    /// empty MP3, or one of junk, is not "too short for an atom header" or "not an
    /// ISO-BMFF/QuickTime file" (before 2026-11-29 it was).
    @Test func anUnrecognizedFileIsRefusedAsTheFormatItsNameGives() async throws {
        let empty = try await atominspect(try TemporaryFile.write([], name: "empty.mp3"))
        #expect(empty.status == 67)
        #expect(empty.standardError.hasSuffix("empty.mp3: the file is empty\n"), "\(empty.standardError)")
        let junk = try await atominspect(try TemporaryFile.write([0x00, 0x11, 0x22, 0x33] + [UInt8](repeating: 0x20, count: 500), name: "song.mp3"))
        #expect(junk.status == 67)
        #expect(junk.standardError.contains("its name says MP3, but no MP3 file begins as it does (its first bytes: 00 11 22 33 20 20 20 20; 504 bytes)"),
                "\(junk.standardError)")
        #expect(!junk.standardError.contains("atom header") && !junk.standardError.contains("ISO-BMFF"))
        let check = try await atominspect("check", try TemporaryFile.write([0x00, 0x11], name: "stream.flac"))
        #expect(check.standardError.contains("its name says FLAC"), "\(check.standardError)")
    }

    @Test func unsupportedFileExits67WithOneLine() async throws {
        let path = try TemporaryFile.write(Array("MThd".utf8) + [0, 0, 0, 6] + [UInt8](repeating: 0, count: 60), name: "sound.mid")
        let result = try await atominspect(path)
        #expect(result.status == 67)
        #expect(result.standardError.contains("not an ISO-BMFF/QuickTime file"))
        #expect(result.standardError.contains("\"MThd\""))
        #expect(result.standardError.split(separator: "\n").count == 1)
        // An Ogg file of a codec without a comment header read here (Theora alone) is
        // unsupported too; one whose first page is not a stream's first is damaged.
        let theora: [UInt8] = Array("OggS".utf8) + [0, 2] + [UInt8](repeating: 0, count: 8) + [1, 0, 0, 0] + [UInt8](repeating: 0, count: 8) + [1, 8]
            + [0x80] + Array("theora".utf8) + [3]
        let video = try await atominspect(try TemporaryFile.write(theora, name: "video.ogv"))
        #expect(video.status == 67, "\(video.standardError)")
        #expect(video.standardError.contains("no Vorbis, Opus, FLAC or Speex stream"), "\(video.standardError)")
        let broken = try await atominspect(try TemporaryFile.write(Array("OggS".utf8) + [UInt8](repeating: 0, count: 60), name: "sound.ogg"))
        #expect(broken.status == 68, "\(broken.standardError)")
        #expect(broken.standardError.contains("offset 0"), "\(broken.standardError)")
    }

    @Test func mp3ShowsTagsFramesStreamAndID3v1() async throws {
        let result = try await atominspect(TestFixtures.path("id3v24-full.mp3"), "--json")
        #expect(result.status == 0)
        let document = try jsonObject(result.standardOutput)
        #expect(document["format"] as? String == "mp3")
        let nodes = try #require(document["atoms"] as? [[String: Any]])
        #expect(nodes.map { $0["type"] as? String } == ["ID3v2", "mpeg", "ID3v1"])
        let frames = try #require(nodes[0]["children"] as? [[String: Any]])
        let title = try #require(frames.first)
        #expect(title["type"] as? String == "TIT2")
        #expect(title["offset"] as? Int == 10)
        #expect(title["headerSize"] as? Int == 10)
        #expect((title["fields"] as? [String: Any])?["values"] as? [String] == ["Fixture Title ♪"])
        #expect((nodes[1]["fields"] as? [String: Any])?["sampleRate"] as? Int == 44100)
    }

    @Test func hexAndExtractWorkOnFrames() async throws {
        let hex = try await atominspect("hex", TestFixtures.path("id3v24-full.mp3"), "--path", "ID3v2/TIT2", "--limit", "16")
        #expect(hex.standardOutput.hasPrefix("        10  54 49 54 32 "))
        let output = try TemporaryFile.makeDirectory() + "/cover.bin"
        let extract = try await atominspect("extract", TestFixtures.path("id3v24-full.mp3"), "--path", "ID3v2/APIC[1]", "--output", output)
        #expect(extract.status == 0)
        #expect(try TemporaryFile.read(output).count == 1345)
    }

    @Test func checkReadsID3Files() async throws {
        let sound = try await atominspect("check", TestFixtures.path("id3v24-full.mp3"), TestFixtures.path("aiff-id3.aiff"))
        #expect(sound.status == 0)
        var bytes = ID3Builder.tag(frames: [ID3Builder.frame("TIT2", ID3Builder.text(["x"])), [0, 0, 7, 0]])
        bytes += ID3Builder.mp3Frame() + ID3Builder.mp3Frame()
        let path = try TemporaryFile.write(bytes, name: "junk-padding.mp3")
        let broken = try await atominspect("check", path)
        #expect(broken.status == 1)
        #expect(broken.standardOutput.contains("at byte offset 22 (ID3v2"))  // header 10 + TIT2 12
    }

    @Test func malformedFileInStrictModeExitsFourNamingOffsetAndPath() async throws {
        var bytes = try TemporaryFile.read(fixture)
        // Make udta's meta claim 16 more bytes than udta holds.
        let metaSizeOffset = 801
        let size = UInt32(bytes[metaSizeOffset]) << 24 | UInt32(bytes[metaSizeOffset + 1]) << 16 | UInt32(bytes[metaSizeOffset + 2]) << 8 | UInt32(bytes[metaSizeOffset + 3])
        let bigger = size + 16
        bytes[metaSizeOffset + 2] = UInt8((bigger >> 8) & 0xFF)
        bytes[metaSizeOffset + 3] = UInt8(bigger & 0xFF)
        let path = try TemporaryFile.write(bytes, name: "overrun.m4a")

        let lenient = try await atominspect(path)
        #expect(lenient.status == 0)
        #expect(lenient.standardError.contains("warning: at byte offset 801 (moov/udta/meta)"))

        let strict = try await atominspect(path, "--strict")
        #expect(strict.status == 68)
        #expect(strict.standardError.contains("offset 801"))
        #expect(strict.standardError.contains("moov/udta/meta"))
    }

    @Test func unknownPathExits65() async throws {
        let result = try await atominspect(fixture, "--path", "moov/zzzz")
        #expect(result.status == 65)
        #expect(result.standardError.contains("no atom, chunk, tag or frame at path 'moov/zzzz'"))
    }

    @Test func badArgumentsExitWithUsageError() async throws {
        let result = try await atominspect(fixture, "--depth", "0")
        #expect(result.status == 64)
    }

    @Test func truncatedFileStillShowsATree() async throws {
        let bytes = try TemporaryFile.read(fixture)
        let path = try TemporaryFile.write(Array(bytes.prefix(1500)), name: "cut.m4a")
        let result = try await atominspect(path, "--json")
        #expect(result.status == 0)
        let document = try jsonObject(result.standardOutput)
        let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.first?["path"] as? String == "moov")
        #expect(diagnostics.first?["offset"] as? Int == 36)
        #expect((diagnostics.first?["message"] as? String)?.contains("truncated") == true)
    }
}

/// One exit-code table for both tools, from `ToolExitCode`: both `--help`s print it, and the
/// README and the tools' DocC article give it as generated.
@Suite struct SharedExitCodeTests {
    @Test func bothHelpsTheReadmeAndTheDocsGiveTheOneTable() async throws {
        for tool in ["atominspect", "tagedit"] {
            let help = try await ToolRunner.run(tool, ["--help"])
            let text = help.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            for code in ToolExitCode.allCases {
                #expect(text.contains("\(code.rawValue) \(code.meaning.split(separator: "`").joined())".split(whereSeparator: \.isWhitespace).joined(separator: " ")),
                        "\(tool) --help lacks \(code.rawValue)")
            }
        }
        let readme = try String(contentsOfFile: TestFixtures.directory + "/../README.md", encoding: .utf8)
        #expect(readme.contains(ToolExitCode.markdownTable), "the README's table is not ToolExitCode.markdownTable")
        let article = try String(contentsOfFile: TestFixtures.directory + "/../Sources/MediaMetadata/MediaMetadata.docc/TagEditTool.md", encoding: .utf8)
        #expect(article.contains(ToolExitCode.markdownTable), "the TagEditTool article's table is not ToolExitCode.markdownTable")
    }
}
