import Foundation
import ID3
@testable import MediaMetadata
import TestSupport
import Testing

/// Chapters in every form, as `MediaFile` lists them: the QuickTime chapter track, Nero `chpl`,
/// ID3 `CHAP` ordered by `CTOC`; what each form's list notes.
@Suite struct ChapterReadingTests {
    /// The audiobook fixture with `patch` applied to its `chpl` atom's bytes (from its size field).
    func audiobook(patchingNero patch: (inout [UInt8], Int) -> Void) throws -> MediaFile {
        var bytes = try TemporaryFile.read(TestFixtures.path("audiobook-chapters.m4b"))
        let type = Array("chpl".utf8)
        let at = try #require((0..<bytes.count - 4).first { Array(bytes[$0..<$0 + 4]) == type }) - 4
        patch(&bytes, at)
        return try MediaFile(path: try TemporaryFile.write(bytes, name: "patched.m4b"))
    }

    /// A QuickTime chapter track players cannot use (no samples; its chunk past the end of the
    /// file) is passed over for the Nero chapters, as players do, with a note saying so.
    /// Before 2026-11-27 `chapters` came back empty where ffprobe listed the Nero chapters.
    @Test(arguments: ["no samples", "chunk past the end"])
    func anUnusableChapterTrackGivesWayToTheNeroChapters(_ damage: String) throws {
        var bytes = try TemporaryFile.read(TestFixtures.path("audiobook-chapters.m4b"))
        // The chapter track is the second `trak`; its `stsz` and `stco` follow the first ones.
        func offsets(_ type: String) -> [Int] {
            let name = Array(type.utf8)
            return (4..<bytes.count - 4).filter { Array(bytes[$0..<$0 + 4]) == name }.map { $0 - 4 }
        }
        if damage == "no samples" {
            let stsz = try #require(offsets("stsz").dropFirst().first)
            bytes.replaceSubrange(stsz + 16..<stsz + 20, with: [0, 0, 0, 0])
        } else {
            let stco = try #require(offsets("stco").dropFirst().first)
            bytes.replaceSubrange(stco + 16..<stco + 20, with: [0x7F, 0xFF, 0xFF, 0x00])
        }
        let file = try MediaFile(path: try TemporaryFile.write(bytes, name: "damaged.m4b"))
        let shown = try #require(file.shownChapterList)
        #expect(shown.form == .nero)
        #expect(shown.chapters.map(\.title) == ["Chapter 1: Opening", "Chapter 2: Middle", "Chapter 3: End"])
        #expect(file.chapters == shown.chapters)
        #expect(shown.notes.contains("the QuickTime chapter track has no chapters players can read; they show these Nero chapters (chpl) instead, as this list does"), "\(shown.notes)")
        let quickTime = file.chapterLists.first { $0.form == .quickTime }
        #expect(quickTime == nil || quickTime?.chapters.isEmpty == true)
    }

    @Test func bothMP4FormsAreListedAndAgree() throws {
        let file = try MediaFile(path: TestFixtures.path("audiobook-chapters.m4b"))
        let lists = file.chapterLists
        #expect(lists.map(\.form) == [.quickTime, .nero])
        #expect(lists.allSatisfy { $0.notes.isEmpty })
        #expect(lists[0].chapters.map(\.title) == lists[1].chapters.map(\.title))
        #expect(lists[0].chapters.map(\.start) == lists[1].chapters.map(\.start))
        // Exact: the track's own timescale, Nero's 100 ns.
        #expect(lists[1].chapters[1].start == ChapterTime(10_000_000, timescale: 10_000_000))
        #expect(lists[1].chapters[1].start.timescale == 10_000_000)
        #expect(file.chapters == lists[0].chapters, "players' choice: the QuickTime track")
    }

    @Test func formsThatDisagreeAreFlagged() throws {
        let file = try audiobook { bytes, at in
            // The second Nero title's first letter: "Chapter 2: Middle" becomes "Xhapter 2: Middle".
            let title = Array("Chapter 2".utf8)
            let found = (at..<bytes.count - title.count).first { Array(bytes[$0..<$0 + title.count]) == title }!
            bytes[found] = UInt8(ascii: "X")
        }
        let notes = file.chapterLists.flatMap(\.notes)
        #expect(notes == ["chapter 2 is \"Chapter 2: Middle\" in the QuickTime chapter track and \"Xhapter 2: Middle\" in the Nero chapters (chpl)"])
    }

    @Test func neroStartsInTheMovieTimescaleAreRecognised() throws {
        let file = try audiobook { bytes, at in
            // v1: size, type, version/flags, 4 reserved, count; then start (8), length (1), title.
            var entry = at + 17
            for start in [UInt64(0), 1000, 2000] {
                for i in 0..<8 { bytes[entry + i] = UInt8(truncatingIfNeeded: start >> (56 - 8 * i)) }
                entry += 9 + Int(bytes[entry + 8])
            }
        }
        let nero = try #require(file.chapterLists.first { $0.form == .nero })
        #expect(nero.chapters.map(\.start.seconds) == [0, 1, 2])
        #expect(nero.notes.first?.contains("movie timescale") == true)
    }

    @Test func aNeroCountLargerThanItsPayloadIsANoteNotACrash() throws {
        let file = try audiobook { bytes, at in bytes[at + 16] = 200 }
        let nero = try #require(file.chapterLists.first { $0.form == .nero })
        #expect(nero.chapters.isEmpty)
        #expect(nero.notes.first?.contains("damaged") == true)
        #expect(file.chapters.count == 3, "the QuickTime track still gives the chapters")
    }

    static func chap(_ id: String, _ start: UInt32, _ end: UInt32, _ title: String, extra: [ID3Frame] = []) -> ID3Frame {
        ID3Frame(id: "CHAP", content: .chapter(elementID: id, startTime: start, endTime: end, startOffset: .max, endOffset: .max,
                                               subframes: [ID3Frame(id: "TIT2", content: .text(encoding: .utf8, values: [title]))] + extra))
    }

    static func ctoc(_ id: String, top: Bool, _ children: [String]) -> ID3Frame {
        ID3Frame(id: "CTOC", content: .tableOfContents(elementID: id, isTopLevel: top, isOrdered: true, children: children, subframes: []))
    }

    func lists(_ frames: [ID3Frame]) -> [ChapterList] {
        ID3MetadataStore(tag: ID3v2Tag(majorVersion: 4, frames: frames), id3v1: nil, info: nil).chapterLists
    }

    @Test func id3ChaptersFollowTheTopLevelTableWithNestedTablesAndACycleCut() throws {
        let list = try #require(lists([
            Self.chap("a", 0, 1000, "A"), Self.chap("b", 1000, 2000, "B"), Self.chap("c", 2000, 3000, "C"), Self.chap("z", 3000, 4000, "Z"),
            Self.ctoc("part", top: false, ["a", "c", "toc"]), Self.ctoc("toc", top: true, ["b", "part"]),
        ]).first)
        #expect(list.chapters.map(\.title) == ["B", "A", "C", "Z"])
        #expect(list.notes.contains("CTOC toc lists itself through its children; the cycle is cut"))
        #expect(list.notes.contains { $0.hasPrefix("1 CHAP frames are in no table of contents (z)") })
    }

    @Test func withoutATopLevelTableChaptersAreInStartOrderWithANote() throws {
        let list = try #require(lists([Self.chap("two", 5000, 9000, "Two"), Self.chap("one", 0, 5000, "One")]).first)
        #expect(list.chapters.map(\.title) == ["One", "Two"])
        #expect(list.notes.first?.contains("no top-level CTOC") == true)
    }

    @Test func chapterSubframesGiveSubtitleURLAndImage() throws {
        let image: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 7, count: 20)
        let list = try #require(lists([
            Self.chap("a", 0, 0xFFFF_FFFF, "Opening", extra: [
                ID3Frame(id: "TIT3", content: .text(encoding: .utf8, values: ["the start"])),
                ID3Frame(id: "WXXX", content: .userURL(encoding: .latin1, description: "", url: "https://example.org/1")),
                ID3Frame(id: "APIC", content: .picture(encoding: .latin1, mimeType: "image/jpeg", pictureType: 3, description: "", data: ID3Payload(image))),
            ]),
            Self.chap("b", 60000, 120000, "Next"), Self.ctoc("toc", top: true, ["a", "b"]),
        ]).first)
        let first = try #require(list.chapters.first)
        #expect(first.subtitle == "the start")
        #expect(first.url == "https://example.org/1")
        #expect(first.image?.data == image)
        #expect(first.elementID == "a")
        // An end of 0xFFFFFFFF says nothing: the chapter ends where the next begins.
        #expect(first.end == .milliseconds(60000))
        #expect(list.notes.isEmpty)
    }

    @Test func timesCompareExactlyAcrossTimescales() {
        #expect(ChapterTime(44100, timescale: 44100) == ChapterTime(1000, timescale: 1000))
        #expect(ChapterTime(1, timescale: 3) < ChapterTime(334, timescale: 1000))
        #expect(ChapterTime(1, timescale: 3).converted(to: 1000) == 333)
        #expect(ChapterTime(2, timescale: 3).converted(to: 1000) == 667)
        #expect(ChapterTime(3_723_456, timescale: 1000).description == "01:02:03.456")
        #expect(ChapterTime(.max, timescale: 1).converted(to: 1000) == .max, "saturates rather than traps")
    }
}

/// Every corpus file's chapters against what ffprobe reported for it (`corpus/oracles`): the
/// chapters players are shown are ffmpeg's, start for start (to the millisecond) and title for
/// title, and a file ffprobe lists no chapters for has none here.
@Suite struct CorpusChapterTests {
    @Test(.enabled(if: FileManager.default.fileExists(atPath: TestFixtures.corpusDirectory + "/oracles/ffprobe-dump.json"),
                   "../shared/corpus is not beside the project"))
    func chaptersAgreeWithFFprobe() throws {
        let data = try #require(FileManager.default.contents(atPath: TestFixtures.corpusDirectory + "/oracles/ffprobe-dump.json"))
        let oracle = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]])
        var compared = 0, withChapters = 0
        for (file, report) in oracle.sorted(by: { $0.key < $1.key }) where report["error"] == nil {
            let expected = (report["chapters"] as? [[String: Any]] ?? []).map { chapter in
                (start: Int(((Double(chapter["start_time"] as? String ?? "") ?? -1) * 1000).rounded()),
                 title: (chapter["tags"] as? [String: String])?["title"] ?? "")
            }
            guard let media = try? MediaFile(path: TestFixtures.corpusDirectory + "/" + file) else { continue }
            let ours = media.chapters.map { (start: Int($0.start.converted(to: 1000)), title: $0.title) }
            #expect(ours.map(\.start) == expected.map(\.start), "\(file): starts")
            #expect(ours.map(\.title) == expected.map(\.title), "\(file): titles")
            compared += 1
            if !expected.isEmpty { withChapters += 1 }
        }
        #expect(withChapters >= 40, "the corpus has chapter files in every form")
        print("chapters: \(compared) corpus files compared with ffprobe, \(withChapters) with chapters")
    }
}
