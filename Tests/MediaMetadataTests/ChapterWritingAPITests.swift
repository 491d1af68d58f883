import Foundation
@testable import MediaMetadata
import TestSupport
import Testing

/// `MediaFile.setChapters` and `removeChapters`: the forms written, what is adjusted and said,
/// what is refused, and the chapters read back after the save.
@Suite struct ChapterWritingAPITests {
    func copy(_ fixture: String) throws -> String {
        try TemporaryFile.write(TemporaryFile.read(TestFixtures.path(fixture)), name: fixture)
    }

    @Test func bothMP4FormsAreWrittenAndReadBackExactly() throws {
        let path = try copy("moov-after-mdat.m4a")
        var file = try MediaFile(path: path)
        #expect(file.chapterForms == [.quickTime, .nero])
        let chapters = [Chapter(start: .milliseconds(0), title: "A"), Chapter(start: ChapterTime(441, timescale: 1470), title: "B")]
        #expect(try file.setChapters(chapters).isEmpty)
        // The edit shows before the save.
        #expect(file.chapterLists.map(\.form) == [.quickTime, .nero])
        #expect(file.hasChanges)
        try file.save()
        let read = try MediaFile(path: path)
        let lists = read.chapterLists
        #expect(lists.map(\.form) == [.quickTime, .nero])
        #expect(lists.allSatisfy { $0.notes.isEmpty }, "\(lists.map(\.notes))")
        // The track's timescale holds every time exactly: the least common multiple of 1000
        // (the movie's duration) and 1470.
        #expect(lists[0].chapters.map(\.start) == chapters.map(\.start))
        #expect(lists[0].chapters[1].start.timescale == 147_000)
        #expect(lists[0].chapters.last?.end == ChapterTime(1000, timescale: 1000))
        #expect(lists[1].chapters.map(\.title) == ["A", "B"])
    }

    @Test func aFirstChapterAfterZeroGetsAnUntitledOneBeforeIt() throws {
        var file = try MediaFile(path: try copy("moov-before-mdat.m4a"))
        let notes = try file.setChapters([Chapter(start: .milliseconds(400), title: "Late"), Chapter(start: .milliseconds(200), title: "Early")])
        #expect(notes.contains { $0.contains("put in order") })
        #expect(notes.contains { $0.contains("untitled chapter from 0") })
        #expect(file.chapterLists.first?.chapters.map(\.title) == ["", "Early", "Late"])
    }

    @Test func aboveTwoHundredFiftyFiveChaptersNeroIsLeftOutAndSaid() throws {
        let path = try copy("moov-after-mdat.m4a")
        var file = try MediaFile(path: path)
        let many = (0..<300).map { Chapter(start: .milliseconds(UInt64($0) * 3), title: "c\($0)") }
        let notes = try file.setChapters(many)
        #expect(notes.contains { $0.contains("Nero chapters (chpl) are left out") })
        try file.save()
        let lists = try MediaFile(path: path).chapterLists
        #expect(lists.map(\.form) == [.quickTime])
        #expect(lists.first?.chapters.count == 300)
        // Nero alone cannot hold them: refused, nothing changed.
        var nero = try MediaFile(path: path)
        #expect(throws: MetadataError.self) { try nero.setChapters(many, forms: [.nero]) }
    }

    @Test func refusedChaptersLeaveTheEditsAsTheyWere() throws {
        var file = try MediaFile(path: try copy("id3v24-full.mp3"))
        #expect(file.chapterForms == [.id3])
        let same = [Chapter(start: .milliseconds(100), title: "A"), Chapter(start: .milliseconds(100), title: "B")]
        let error = try #require(throws: MetadataError.self) { try file.setChapters(same) }
        #expect(error.code == .badValue)
        #expect(throws: MetadataError.self) { try file.setChapters([Chapter(start: .milliseconds(0), title: "A")], forms: [.quickTime]) }
        #expect(!file.hasChanges)
    }

    /// ID3 `CHAP` frames keep each chapter's own end, gaps between chapters and all; an end
    /// past the next start, or none, becomes the next start. Before 2026-11-30 every end
    /// became the next start.
    @Test func id3ChaptersKeepTheirOwnEnds() throws {
        let path = try copy("no-tags.mp3")
        var file = try MediaFile(path: path)
        try file.setChapters([Chapter(start: .milliseconds(0), end: .milliseconds(100), title: "A"),
                              Chapter(start: .milliseconds(200), end: .milliseconds(400), title: "B"),
                              Chapter(start: .milliseconds(300), title: "C")])
        try file.save()
        let chapters = try #require(MediaFile(path: path).chapterLists.first).chapters
        #expect(chapters.map(\.end) == [.milliseconds(100), .milliseconds(300), .milliseconds(549)])
    }

    @Test func id3ChaptersKeepTheirSubframesAndElementIDs() throws {
        let path = try copy("no-tags.mp3")
        var file = try MediaFile(path: path)
        var first = Chapter(start: .milliseconds(0), title: "One", subtitle: "Sub", url: "https://example.org/1")
        first.elementID = "intro"
        first.image = MediaPicture(type: 3, mimeType: "image/png", data: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        try file.setChapters([first, Chapter(start: .milliseconds(200), title: "Two")])
        try file.save()
        let read = try MediaFile(path: path).chapterLists
        #expect(read.count == 1)
        #expect(read[0].notes.isEmpty)
        let chapters = read[0].chapters
        #expect(chapters.map(\.elementID) == ["intro", "chp1"])
        #expect(chapters[0].subtitle == "Sub" && chapters[0].url == "https://example.org/1")
        #expect(chapters[0].image?.data == first.image?.data)
        // The last chapter ends at the file's duration (from the MPEG headers).
        #expect(chapters[1].end == .milliseconds(549))
        var again = try MediaFile(path: path)
        #expect(again.removeChapters() == [.id3])
        try again.save()
        #expect(try MediaFile(path: path).chapterLists.isEmpty)
    }
}
