import Foundation
import TestSupport
import Testing

/// `tagedit chapters list` and `export`, checked against ffprobe and, for the chapter files,
/// against the programs that read them (ffmpeg for ffmetadata, Python's XML parser for Podlove).
@Suite(.enabled(if: OtherReaders.hasFFprobe || OtherReaders.isRequired, "ffprobe cross-checks the chapters (.ci/run installs ffmpeg)"))
struct ChaptersCommandTests {
    func tagedit(_ arguments: String...) async throws -> ToolRunner.Result {
        try await ToolRunner.run("tagedit", arguments)
    }

    func listed(_ path: String, form: String = "auto") async throws -> [[String: Any]] {
        let result = try await tagedit("chapters", "list", "--json", "--form", form, path)
        #expect(result.status == 0, "\(result.standardError)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
    }

    @Test(arguments: ["audiobook-chapters.m4b", "id3v24-full.mp3"])
    func listAgreesWithFFprobe(_ fixture: String) async throws {
        let path = TestFixtures.path(fixture)
        let document = try #require(try await listed(path).first)
        let chapters = try #require(document["chapters"] as? [[String: Any]])
        let ffprobe = try await OtherReaders.ffprobeChapters(path)
        #expect(!ffprobe.isEmpty)
        #expect(chapters.map { $0["title"] as? String } == ffprobe.map(\.title))
        #expect(chapters.map { $0["start"] as? Double } == ffprobe.map(\.start))
        #expect(chapters.map { $0["end"] as? Double } == ffprobe.map(\.end))
    }

    @Test func allFormsOfAnAudiobookWithTheirReaders() async throws {
        let documents = try await listed(TestFixtures.path("audiobook-chapters.m4b"), form: "all")
        #expect(documents.map { $0["form"] as? String } == ["qt", "nero"])
        let forms = try #require(documents.first?["forms"] as? [[String: Any]])
        #expect(forms.map { $0["form"] as? String } == ["qt", "nero"])
        #expect((forms.first?["readers"] as? String)?.contains("Apple Books") == true)
        let text = try await tagedit("chapters", "list", "--form", "all", TestFixtures.path("audiobook-chapters.m4b"))
        #expect(text.standardOutput.contains("QuickTime chapter track: 3 chapters"))
        #expect(text.standardOutput.contains("    2  00:00:01.000-00:00:02.000  Chapter 2: Middle"))
        #expect(text.standardOutput.contains("form nero: 3 chapters, read by VLC"))
    }

    /// `chapters export --format json --form all` lists every form as `chapters list --json
    /// --form all` does for the file, and `chapters set --from` reads it back (its first form).
    /// Other formats hold one list and refuse `--form all` (issue 35).
    @Test func jsonExportOfEveryFormIsTheListingAndReadsBack() async throws {
        let path = TestFixtures.path("audiobook-chapters.m4b")
        let exported = try await tagedit("chapters", "export", path, "--format", "json", "--form", "all")
        #expect(exported.status == 0, "\(exported.standardError)")
        let documents = try #require(try JSONSerialization.jsonObject(with: Data(exported.standardOutput.utf8)) as? [[String: Any]])
        let listed = try await listed(path, form: "all")
        #expect(documents.map { $0["form"] as? String } == listed.map { $0["form"] as? String })
        #expect(documents.map { ($0["chapters"] as? [[String: Any]])?.count } == [3, 3])
        let file = try TemporaryFile.write(Array(exported.standardOutput.utf8), name: "all.json")
        let target = try TemporaryFile.write(try TemporaryFile.read(path), name: "target.m4b")
        #expect(try await tagedit("chapters", "remove", target).status == 0)
        #expect((try await self.listed(target).first?["chapters"] as? [[String: Any]])?.isEmpty == true)
        let set = try await tagedit("chapters", "set", target, "--from", file)
        #expect(set.status == 0, "\(set.standardError)")
        let back = try #require(try await self.listed(target).first?["chapters"] as? [[String: Any]])
        #expect(back.map { $0["title"] as? String } == ["Chapter 1: Opening", "Chapter 2: Middle", "Chapter 3: End"])
        let refused = try await tagedit("chapters", "export", path, "--form", "all")
        #expect(refused.status == 64 && refused.standardError.contains("--form all takes --format json"), "\(refused.standardError)")
    }

    @Test func mp4chapsIsOneLineAChapter() async throws {
        let result = try await tagedit("chapters", "export", TestFixtures.path("audiobook-chapters.m4b"))
        #expect(result.status == 0)
        #expect(result.standardOutput == "00:00:00.000 Chapter 1: Opening\n00:00:01.000 Chapter 2: Middle\n00:00:02.000 Chapter 3: End\n")
    }

    @Test func ffmetadataIsReadByFFmpegAsTheSameChapters() async throws {
        let directory = try TemporaryFile.makeDirectory()
        let metadata = directory + "/chapters.txt"
        let result = try await tagedit("chapters", "export", TestFixtures.path("audiobook-chapters.m4b"), "--format", "ffmetadata", "--output", metadata)
        #expect(result.status == 0)
        // ffmpeg puts the chapter file's chapters on a copy of an MP3 that has none.
        let output = directory + "/out.mp3"
        let ffmpeg = try await ToolRunner.runProgram("/usr/bin/ffmpeg", ["-v", "error", "-i", TestFixtures.path("no-tags.mp3"), "-i", metadata,
                                                                         "-map", "0", "-map_chapters", "1", "-c", "copy", output])
        #expect(ffmpeg.status == 0, "\(ffmpeg.standardError)")
        let chapters = try await OtherReaders.ffprobeChapters(output)
        #expect(chapters.map(\.title) == ["Chapter 1: Opening", "Chapter 2: Middle", "Chapter 3: End"])
        #expect(chapters.map(\.start) == [0, 1, 2])
    }

    @Test func podloveAndPodcastJSONAreWellFormed() async throws {
        let path = TestFixtures.path("id3v24-full.mp3")
        let xml = try await tagedit("chapters", "export", path, "--format", "podlove")
        #expect(xml.status == 0)
        let file = try TemporaryFile.write(Array(xml.standardOutput.utf8), name: "chapters.xml")
        let parsed = try await ToolRunner.runProgram(OtherReaders.python, ["-c", """
            import sys, xml.etree.ElementTree as E
            root = E.parse(sys.argv[1]).getroot()
            for c in root: print(c.get('start'), c.get('title'))
            """, file])
        #expect(parsed.status == 0, "\(parsed.standardError)")
        #expect(parsed.standardOutput == "00:00:00.000 Chapter 1\n00:00:00.250 Chapter 2\n")

        let json = try await tagedit("chapters", "export", path, "--format", "podcast-json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(object["version"] as? String == "1.2.0")
        let chapters = try #require(object["chapters"] as? [[String: Any]])
        #expect(chapters.map { $0["startTime"] as? Double } == [0, 0.25])
        #expect(chapters.map { $0["title"] as? String } == ["Chapter 1", "Chapter 2"])
    }

    @Test func aFileWithoutChaptersAndBadOptions() async throws {
        let none = try await listed(TestFixtures.path("aac-itunes-tags-cover.m4a"))
        #expect((none.first?["chapters"] as? [Any])?.isEmpty == true)
        #expect((none.first?["forms"] as? [Any])?.isEmpty == true)
        #expect(try await tagedit("chapters", "list", "--form", "matroska", TestFixtures.path("id3v24-full.mp3")).status == 64)
        #expect(try await tagedit("chapters", "export", "--format", "cue", TestFixtures.path("id3v24-full.mp3")).status == 64)
        #expect(try await tagedit("chapters", "list", "/nonexistent/x.m4b").status == 66)
    }
}
