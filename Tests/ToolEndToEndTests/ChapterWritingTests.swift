import Foundation
import TestSupport
import Testing

/// `tagedit chapters set`, `convert` and `remove`, `clear`, `copy` and `import` with chapters,
/// read back by ffprobe and mutagen, with the decoded audio checked unchanged by ffmpeg.
@Suite(.enabled(if: OtherReaders.areAvailable, "ffprobe, ffmpeg and mutagen cross-check the chapters (.ci/run installs them)"))
struct ChapterWritingTests {
    static let mp4chaps = "00:00:00.000 Intro\n00:00:00.300 Mitte – ü\n00:00:00.500 End = fin\n"
    static let titles = ["Intro", "Mitte – ü", "End = fin"]
    static let starts = [0.0, 0.3, 0.5]

    func tagedit(_ arguments: String...) async throws -> ToolRunner.Result {
        try await ToolRunner.run("tagedit", arguments)
    }

    /// A copy of a fixture, or of a long audiobook made by ffmpeg (`LongAudiobook`) by its name.
    func copy(_ fixture: String) throws -> String {
        if let book = LongAudiobook(rawValue: fixture) { return try book.copy() }
        return try TemporaryFile.write(TemporaryFile.read(TestFixtures.path(fixture)), name: fixture)
    }

    func chapterFile(_ text: String, name: String = "chapters.txt") throws -> String {
        try TemporaryFile.write(Array(text.utf8), name: name)
    }

    /// The forms `chapters list --form all --json` reports, with their titles.
    func forms(_ path: String) async throws -> [String: [String]] {
        let result = try await tagedit("chapters", "list", "--json", "--form", "all", path)
        #expect(result.status == 0, "\(result.standardError)")
        let documents = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        var forms: [String: [String]] = [:]
        for document in documents {
            guard let form = document["form"] as? String else { continue }
            forms[form] = (document["chapters"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
        }
        return forms
    }

    /// The small fixtures, and two-hour audiobooks whose `moov` is over the 1 MiB the parser
    /// reads whole (their tables are read from the file), with the movie last and first.
    @Test(arguments: ["moov-before-mdat.m4a", "moov-after-mdat.m4a", LongAudiobook.movieLast.rawValue, LongAudiobook.movieFirst.rawValue])
    func mp4ChaptersAreWrittenConvertedAndRemovedAsPlayersReadThem(_ fixture: String) async throws {
        let path = try copy(fixture)
        // The audio packets as stored: decoding two hours of AAC would take most of a minute.
        let audio = try await LongAudiobook.packetChecksum(path)
        // The last chapter ends with the movie.
        let duration = LongAudiobook(rawValue: fixture) == nil ? 1.0 : try await OtherReaders.ffprobeDuration(path)
        let chapters = try chapterFile(Self.mp4chaps)

        // Both forms by default: ffprobe reads them, mutagen reads chpl.
        var result = try await tagedit("chapters", "set", path, "--from", chapters)
        #expect(result.status == 0, "\(result.standardError)")
        var ffprobe = try await OtherReaders.ffprobeChapters(path)
        #expect(ffprobe.map(\.title) == Self.titles)
        #expect(ffprobe.map(\.start) == Self.starts)
        #expect(abs((ffprobe.last?.end ?? 0) - duration) < 0.05, "\(ffprobe.last?.end ?? 0)")
        var mutagen = try await OtherReaders.mutagenChapters(path)
        #expect(mutagen.chapters.map(\.title) == Self.titles)
        #expect(mutagen.chapters.map(\.start) == Self.starts)
        #expect(try await forms(path) == ["qt": Self.titles, "nero": Self.titles])
        #expect(try await LongAudiobook.packetChecksum(path) == audio)
        #expect(try await ToolRunner.run("atominspect", ["check", path]).status == 0)

        // Only the chapter track: ffprobe reads it, and no chpl is left for mutagen.
        result = try await tagedit("chapters", "set", path, "--from", chapters, "--forms", "qt")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try await forms(path) == ["qt": Self.titles])
        #expect(try await OtherReaders.ffprobeChapters(path).map(\.title) == Self.titles)
        #expect(try await OtherReaders.mutagenChapters(path).chapters.isEmpty)

        // Converted to Nero only: the track goes, chpl is read by ffprobe and mutagen.
        result = try await tagedit("chapters", "convert", path, "--to", "nero")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try await forms(path) == ["nero": Self.titles])
        ffprobe = try await OtherReaders.ffprobeChapters(path)
        #expect(ffprobe.map(\.title) == Self.titles)
        #expect(ffprobe.map(\.start) == Self.starts)
        mutagen = try await OtherReaders.mutagenChapters(path)
        #expect(mutagen.chapters.map(\.title) == Self.titles)

        // And back to both.
        result = try await tagedit("chapters", "convert", path, "--to", "both")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try await forms(path) == ["qt": Self.titles, "nero": Self.titles])
        #expect(try await LongAudiobook.packetChecksum(path) == audio)

        // Removed: no form is left for any reader.
        result = try await tagedit("chapters", "remove", path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try await forms(path).isEmpty)
        #expect(try await OtherReaders.ffprobeChapters(path).isEmpty)
        #expect(try await OtherReaders.mutagenChapters(path).chapters.isEmpty)
        #expect(try await LongAudiobook.packetChecksum(path) == audio)
        #expect(try await ToolRunner.run("atominspect", ["check", path]).status == 0)
    }

    @Test(arguments: ["no-tags.mp3", "id3v24-full.mp3", "hls-timestamp.aac", "aiff-id3.aiff", "wav-id3-info.wav"])
    func id3ChaptersHaveAnOrderedTopLevelTable(_ fixture: String) async throws {
        let path = try copy(fixture)
        let audio = try await OtherReaders.decodeChecksum(path, map: "0:a")
        let chapters = try chapterFile(";FFMETADATA1\ntitle=ignored\n\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=100\ntitle=One\n\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=100\nEND=200\ntitle=Two \\= 2\n", name: "chapters.ffmeta")
        let result = try await tagedit("chapters", "set", path, "--from", chapters)
        #expect(result.status == 0, "\(result.standardError)")
        let ffprobe = try await OtherReaders.ffprobeChapters(path)
        #expect(ffprobe.map(\.title) == ["One", "Two = 2"])
        #expect(ffprobe.map(\.start) == [0, 0.1])
        #expect(ffprobe.map(\.end) == [0.1, 0.2])
        let mutagen = try await OtherReaders.mutagenChapters(path)
        #expect(mutagen.chapters.map(\.title) == ["One", "Two = 2"])
        #expect(mutagen.tables.count == 1)
        #expect(mutagen.tables.first?.topLevel == true && mutagen.tables.first?.ordered == true)
        #expect(mutagen.tables.first?.children == ["chp0", "chp1"])
        #expect(try await forms(path) == ["id3": ["One", "Two = 2"]])
        #expect(try await OtherReaders.decodeChecksum(path, map: "0:a") == audio)
        // An MP4 form is refused for an ID3 file, and the file is left as it is.
        let before = try TemporaryFile.read(path)
        let refused = try await tagedit("chapters", "set", path, "--from", chapters, "--forms", "qt")
        #expect(refused.status == 65)
        #expect(refused.standardError.contains("QuickTime chapter track"))
        #expect(try TemporaryFile.read(path) == before)
    }

    /// A Podcasting 2.0 chapter's `img` (issue 35: dropped before): kept in an MP3's ID3
    /// chapters as a linked picture (`APIC` with MIME type `-->`, as ID3v2 defines it, which
    /// mutagen reads), exported again as `img`; an M4B's forms hold no images, and the save
    /// says so.
    @Test func podcastChapterImagesAreKeptWhereTheFormHoldsThem() async throws {
        let json = try chapterFile("""
            {"version": "1.2.0", "chapters": [{"startTime": 0, "title": "One", "img": "https://example.org/one.jpg"}, {"startTime": 0.2, "title": "Two"}]}
            """, name: "chapters.json")
        let mp3 = try copy("no-tags.mp3")
        let set = try await tagedit("chapters", "set", mp3, "--from", json)
        #expect(set.status == 0, "\(set.standardError)")
        #expect(!set.standardError.contains("not kept"), "\(set.standardError)")
        let mutagen = try await ToolRunner.runProgram(OtherReaders.python, ["-c", """
            import sys, mutagen.id3
            tag = mutagen.id3.ID3(sys.argv[1])
            for chap in tag.getall('CHAP'):
                for pic in chap.sub_frames.getall('APIC'): print(chap.element_id, pic.mime, pic.data.decode())
            """, mp3])
        #expect(mutagen.standardOutput == "chp0 --> https://example.org/one.jpg\n", "\(mutagen.standardOutput)\(mutagen.standardError)")
        let exported = try await tagedit("chapters", "export", mp3, "--format", "podcast-json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(exported.standardOutput.utf8)) as? [String: Any])
        let chapters = try #require(object["chapters"] as? [[String: Any]])
        #expect(chapters.map { $0["img"] as? String } == ["https://example.org/one.jpg", nil])

        let m4b = try copy("moov-before-mdat.m4a")
        let noted = try await tagedit("chapters", "set", m4b, "--from", json, "--verbose")
        #expect(noted.status == 0, "\(noted.standardError)")
        let output = noted.standardOutput + noted.standardError
        #expect(output.contains("1 chapter's images not kept in the QuickTime chapter track: it holds no images"), "\(output)")
        #expect(output.contains("1 chapter's images not kept in the Nero chapters (chpl): it holds no images"), "\(output)")
    }

    @Test func aChapterFileThatDoesNotReadNamesTheLineAndWritesNothing() async throws {
        let path = try copy("moov-before-mdat.m4a")
        let before = try TemporaryFile.read(path)
        for (text, line) in [("00:00:00.000 One\n\n0:0x:01 Two\n", "line 3"), (";FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=abc\n", "line 4"),
                             ("{\"chapters\": [{\"start\": 0, \"title\": \"A\"},\n  {\"title\": \"no start\"}]}", "chapter 2"),
                             ("{\"chapters\": [\n{\"start\": 0,, }]}", "line 2")] {
            let file = try chapterFile(text)
            let result = try await tagedit("chapters", "set", path, "--from", file)
            #expect(result.status == 65)
            #expect(result.standardError.contains(line), "\(result.standardError)")
            #expect(try TemporaryFile.read(path) == before)
        }
        // A chapter after the end of the file.
        let late = try await tagedit("chapters", "set", path, "--from", try chapterFile("00:00:00.000 A\n00:00:05.000 B\n"))
        #expect(late.status == 65)
        #expect(late.standardError.contains("after the end of the file"))
        let missing = try await tagedit("chapters", "set", path, "--from", "/nonexistent/chapters.txt")
        #expect(missing.status == 66)
        #expect(try TemporaryFile.read(path) == before)
    }

    @Test func dryRunPlansAndWritesNothing() async throws {
        let path = try copy("moov-after-mdat.m4a")
        let before = try TemporaryFile.read(path)
        let result = try await tagedit("chapters", "set", path, "--from", try chapterFile(Self.mp4chaps), "--dry-run")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("would be written: movie-at-end"))
        #expect(result.standardOutput.contains("chapter track 2 added (3 samples"))
        #expect(try TemporaryFile.read(path) == before)
    }

    @Test func clearRemovesEveryFormOfChapters() async throws {
        let path = try copy("audiobook-chapters.m4b")
        #expect(try await OtherReaders.ffprobeChapters(path).count == 3)
        let result = try await tagedit("clear", path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try await OtherReaders.ffprobeChapters(path).isEmpty)
        #expect(try await forms(path).isEmpty)
        #expect(try await ToolRunner.run("atominspect", ["check", path]).status == 0)
    }

    @Test func copyCarriesChaptersBetweenMP3AndM4B() async throws {
        // M4B (both MP4 forms) to MP3: ID3 chapters.
        let mp3 = try copy("no-tags.mp3")
        let m4b = try copy("audiobook-chapters.m4b")
        let shortened = try chapterFile("00:00:00.000 Opening\n00:00:00.200 Middle\n")
        #expect(try await tagedit("chapters", "set", m4b, "--from", shortened).status == 0)
        var result = try await tagedit("copy", m4b, mp3)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("chapters: 2 chapters written as ID3 chapters"))
        #expect(!result.standardOutput.contains("udta/chpl"))
        #expect(try await OtherReaders.ffprobeChapters(mp3).map(\.title) == ["Opening", "Middle"])

        // MP3 to another M4A: both MP4 forms.
        let m4a = try copy("moov-after-mdat.m4a")
        result = try await tagedit("copy", mp3, m4a)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardOutput.contains("id3/CHAP"))
        #expect(try await forms(m4a) == ["qt": ["Opening", "Middle"], "nero": ["Opening", "Middle"]])
        #expect(try await OtherReaders.ffprobeChapters(m4a).map(\.start) == [0, 0.2])
    }

    @Test func exportAndImportCarryChaptersAcrossFamilies() async throws {
        let mp3 = try copy("id3v24-full.mp3")
        let document = try TemporaryFile.write(Array(try await tagedit("export", mp3).standardOutput.utf8), name: "export.json")
        let m4a = try copy("moov-before-mdat.m4a")
        let result = try await tagedit("import", m4a, document)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try await forms(m4a) == ["qt": ["Chapter 1", "Chapter 2"], "nero": ["Chapter 1", "Chapter 2"]])
        #expect(try await OtherReaders.ffprobeChapters(m4a).map(\.start) == [0, 0.25])
    }

    @Test func exportedChapterFilesSetTheSameChapters() async throws {
        for format in ["mp4chaps", "ffmetadata", "json", "podlove", "podcast-json"] {
            let exported = try await tagedit("chapters", "export", TestFixtures.path("id3v24-full.mp3"), "--format", format)
            #expect(exported.status == 0)
            let file = try chapterFile(exported.standardOutput, name: "chapters.\(format)")
            let path = try copy("moov-after-mdat.m4a")
            let result = try await tagedit("chapters", "set", path, "--from", file)
            #expect(result.status == 0, "\(format): \(result.standardError)")
            let ffprobe = try await OtherReaders.ffprobeChapters(path)
            #expect(ffprobe.map(\.title) == ["Chapter 1", "Chapter 2"], "\(format)")
            #expect(ffprobe.map(\.start) == [0, 0.25], "\(format)")
        }
    }
}
