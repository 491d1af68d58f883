import Foundation
@testable import ISOBMFF
import MediaBytes
import TestSupport
import Testing

/// Writing the QuickTime chapter track: its structure atom by atom, every save strategy,
/// replacing and removing a track, the reference in an existing `tref`, fragmented movies, and
/// offsets past 4 GiB.
@Suite struct ChapterTrackWritingTests {
    static let edit = ChapterTrackEdit(timescale: 1000, samples: [
        .init(start: 0, duration: 300, title: "Intro"), .init(start: 300, duration: 200, title: "Mitte – ü"),
        .init(start: 500, duration: 500, title: "End"),
    ])

    /// Saves `edit` into a copy of the fixture and returns the copy and the plan followed.
    func saved(_ fixture: String, _ edit: ChapterTrackEdit, options: MovieSaveOptions = MovieSaveOptions()) throws -> (path: String, plan: MovieSavePlan) {
        let path = try copyOfMovieFixture(fixture)
        var file = try MovieFile(path: path)
        file.chapterTrack = edit
        let plan = try file.save(options)
        return (path, plan)
    }

    func payload(_ tree: AtomTree, _ path: String) throws -> [UInt8] {
        Array(try tree.fieldBytes(of: try #require(tree.atom(at: AtomPath(parsing: path)!), "\(path)")))
    }

    func word(_ bytes: [UInt8], _ at: Int, _ width: Int = 4) -> UInt64 { bytes[at..<at + width].reduce(0) { $0 << 8 | UInt64($1) } }

    @Test func theAddedTrackHasTheStructureAVFoundationAccepts() throws {
        let (path, plan) = try saved("moov-before-mdat.m4a", Self.edit)
        let tree = try AtomTree(contentsOf: path)
        #expect(tree.diagnostics.isEmpty)
        let moov = try #require(tree.atoms.first { $0.type == "moov" })
        let traks = moov.children.filter { $0.type == "trak" }
        #expect(traks.count == 2)
        let chapter = try #require(traks.last)
        #expect(chapter.children.map(\.type) == ["tkhd", "edts", "mdia"])
        let base = "moov/trak[1]"
        // tkhd: version 0, in the movie but not enabled, track ID 2, the movie's duration.
        let tkhd = try payload(tree, base + "/tkhd")
        #expect(tkhd[0] == 0 && word(tkhd, 1, 3) == 2)
        #expect(word(tkhd, 12) == 2)
        let mvhd = try payload(tree, "moov/mvhd")
        let movieTimescale = word(mvhd, 12)
        #expect(word(tkhd, 20) == 1000 * movieTimescale / 1000)
        // mvhd's next track ID follows the new track.
        #expect(word(mvhd, 96) == 3)
        // One edit covering the movie from media time 0 at rate 1.
        let elst = try payload(tree, base + "/edts/elst")
        #expect(word(elst, 4) == 1 && word(elst, 8) == word(tkhd, 20) && word(elst, 12) == 0 && word(elst, 16) == 0x10000)
        #expect(try tree.atom(at: AtomPath(parsing: base + "/mdia")!)?.children.map(\.type) == ["mdhd", "hdlr", "minf"])
        let mdhd = try payload(tree, base + "/mdia/mdhd")
        #expect(word(mdhd, 12) == 1000 && word(mdhd, 16) == 1000)
        let hdlr = try payload(tree, base + "/mdia/hdlr")
        #expect(Array(hdlr[8..<12]) == Array("text".utf8))
        #expect(try tree.atom(at: AtomPath(parsing: base + "/mdia/minf")!)?.children.map(\.type) == ["gmhd", "dinf", "stbl"])
        #expect(try tree.atom(at: AtomPath(parsing: base + "/mdia/minf/gmhd")!)?.children.map(\.type) == ["gmin", "text"])
        let gmin = try payload(tree, base + "/mdia/minf/gmhd/gmin")
        #expect(gmin.count == 16 && word(gmin, 4, 2) == 0x40)
        #expect(try payload(tree, base + "/mdia/minf/gmhd/text").count == 36)
        // A self-contained data reference.
        #expect(word(try payload(tree, base + "/mdia/minf/dinf/dref"), 4) == 1)
        #expect(try tree.atom(at: AtomPath(parsing: base + "/mdia/minf/dinf/dref")!)?.children.map(\.type) == ["url "])
        #expect(try payload(tree, base + "/mdia/minf/dinf/dref/url ") == [0, 0, 0, 1])
        let stbl = base + "/mdia/minf/stbl"
        #expect(try tree.atom(at: AtomPath(parsing: stbl)!)?.children.map(\.type) == ["stsd", "stts", "stsc", "stsz", "stco"])
        #expect(word(try payload(tree, stbl + "/stsd"), 4) == 1)
        #expect(try tree.atom(at: AtomPath(parsing: stbl + "/stsd")!)?.children.map(\.type) == ["text"])
        // The QuickTime text sample description: data reference 1, no font table, 52 bytes.
        let entry = try #require(tree.atom(at: AtomPath(parsing: stbl + "/stsd/text")!))
        #expect(entry.payloadSize == 52)
        #expect(word(Array(try tree.bytes(at: entry.payloadOffset, count: 8)), 6, 2) == 1)
        // One stts entry per sample.
        let stts = try payload(tree, stbl + "/stts")
        #expect(word(stts, 4) == 3)
        #expect((0..<3).map { word(stts, 8 + 8 * $0) } == [1, 1, 1])
        #expect((0..<3).map { word(stts, 12 + 8 * $0) } == [300, 200, 500])
        let stsc = try payload(tree, stbl + "/stsc")
        #expect(word(stsc, 4) == 1 && word(stsc, 8) == 1 && word(stsc, 12) == 3 && word(stsc, 16) == 1)
        // Samples: 16-bit length, UTF-8, an encd atom saying UTF-8.
        let stsz = try payload(tree, stbl + "/stsz")
        let stco = try payload(tree, stbl + "/stco")
        var offset = word(stco, 8)
        #expect(offset == plan.addedTrack?.chunkOffset)
        for (index, sample) in Self.edit.samples.enumerated() {
            let size = Int(word(stsz, 12 + 4 * index))
            let bytes = try tree.source.read(at: offset, count: size)
            let text = Array(sample.title.utf8)
            #expect(bytes == [UInt8(text.count >> 8), UInt8(text.count & 0xFF)] + text + [0, 0, 0, 12] + Array("encd".utf8) + [0, 0, 1, 0])
            offset += UInt64(size)
        }
        // The enabled sound track names it in its one tref.
        let sound = try #require(traks.first)
        #expect(sound.children.filter { $0.type == "tref" }.count == 1)
        #expect(try payload(tree, "moov/trak[0]/tref/chap") == [0, 0, 0, 2])
        // The samples are in an mdat of their own, before the audio's.
        let mdats = tree.atoms.filter { $0.type == "mdat" }
        #expect(mdats.count == 2)
        #expect(mdats[0].payloadOffset == plan.addedTrack?.chunkOffset)
        #expect(try structureFindings(path).isEmpty)
        let read = QuickTimeChapterTrack.read(tree)
        #expect(read.problems.isEmpty)
        #expect(read.tracks.first?.samples == Self.edit.samples)
        #expect(read.tracks.first?.isEnabled == false)
    }

    @Test(arguments: [
        ("moov-before-mdat.m4a", false, MovieWriteStrategy.rewrite),
        ("moov-after-mdat.m4a", true, .movieAtEnd),
    ])
    func everyStrategyKeepsTheMediaAndWritesTheSamples(fixture: String, allowInPlace: Bool, strategy: MovieWriteStrategy) throws {
        let original = try mediaPayloads(try copyOfMovieFixture(fixture))
        let (path, plan) = try saved(fixture, Self.edit, options: MovieSaveOptions(allowInPlace: allowInPlace))
        #expect(plan.strategy == strategy)
        let tree = try AtomTree(contentsOf: path)
        #expect(QuickTimeChapterTrack.read(tree).tracks.map(\.samples) == [Self.edit.samples])
        // The audio mdat is carried over byte for byte; the chapter samples are an mdat of their own.
        let payloads = try mediaPayloads(path)
        #expect(payloads.filter { $0 != Self.edit.mediaData } == original)
        #expect(payloads.contains(Self.edit.mediaData))
        #expect(try structureFindings(path).isEmpty)
    }

    @Test func paddingAfterTheMovieTakesTheTrackAndItsSamplesInPlace() throws {
        var builder = MovieBuilder()
        builder.paddingAfterMovie = 4096
        let bytes = builder.build()
        let path = try TemporaryFile.write(bytes, name: "padded.m4a")
        let audio = try mediaPayloads(path)
        var file = try MovieFile(path: path)
        file.chapterTrack = Self.edit
        let plan = try file.save()
        #expect(plan.strategy == .inPlace)
        #expect(plan.newFileSize == UInt64(bytes.count))
        let tree = try AtomTree(contentsOf: path)
        #expect(QuickTimeChapterTrack.read(tree).tracks.map(\.samples) == [Self.edit.samples])
        // The samples sit in an mdat inside the old padding; the audio did not move.
        let payloads = try mediaPayloads(path)
        #expect(payloads == [Self.edit.mediaData] + audio)
        #expect(tree.atoms.map(\.type) == ["ftyp", "moov", "mdat", "free", "mdat"])
        #expect(try structureFindings(path).isEmpty)

        // Replaced in place again: the first samples' mdat is taken back into the region.
        var again = try MovieFile(path: path)
        again.chapterTrack = ChapterTrackEdit(timescale: 1000, samples: [.init(start: 0, duration: 1000, title: "Only")])
        #expect(try again.save().strategy == .inPlace)
        let tree2 = try AtomTree(contentsOf: path)
        #expect(tree2.atoms.map(\.type) == ["ftyp", "moov", "mdat", "free", "mdat"])
        #expect(QuickTimeChapterTrack.read(tree2).tracks.map { $0.samples.map(\.title) } == [["Only"]])
        #expect(try mediaPayloads(path).last == audio.last)
    }

    @Test func replacingATrackRemovesTheOldOneAndReusesTheReference() throws {
        let before = try AtomTree(contentsOf: TestFixtures.path("audiobook-chapters.m4b"))
        #expect(QuickTimeChapterTrack.read(before).tracks.map(\.trackID) == [2])
        let (path, plan) = try saved("audiobook-chapters.m4b", Self.edit)
        #expect(plan.removedTrackIDs == [2])
        let tree = try AtomTree(contentsOf: path)
        let traks = try #require(tree.atoms.first { $0.type == "moov" }).children.filter { $0.type == "trak" }
        #expect(traks.count == 2)
        let chapters = QuickTimeChapterTrack.read(tree).tracks
        #expect(chapters.map(\.trackID) == [3])
        #expect(chapters.first?.samples == Self.edit.samples)
        // The sound track's existing tref now names track 3, and there is still one tref.
        #expect(traks[0].children.filter { $0.type == "tref" }.count == 1)
        #expect(try payload(tree, "moov/trak[0]/tref/chap") == [0, 0, 0, 3])
        #expect(try structureFindings(path).isEmpty)
    }

    @Test func aReferenceToAChapterPictureTrackIsKept() throws {
        // Track 1 names track 2, a video track (chapter pictures, as in Apple's audiobooks).
        let bytes = ChapterTrackTests.movie(titles: [Array("x".utf8)], handler: "vide")
        let path = try TemporaryFile.write(bytes, name: "pictures.m4b")
        var file = try MovieFile(path: path)
        file.chapterTrack = Self.edit
        let plan = try file.save()
        #expect(plan.removedTrackIDs.isEmpty)
        let tree = try AtomTree(contentsOf: path)
        #expect(try payload(tree, "moov/trak[0]/tref/chap") == [0, 0, 0, 2, 0, 0, 0, 3])
        #expect(QuickTimeChapterTrack.read(tree).tracks.map(\.trackID) == [3])
        // Removing the chapters keeps the picture track's reference.
        var again = try MovieFile(path: path)
        again.chapterTrack = .remove
        #expect(try again.save().removedTrackIDs == [3])
        #expect(try payload(try AtomTree(contentsOf: path), "moov/trak[0]/tref/chap") == [0, 0, 0, 2])
    }

    @Test func removingDropsTheTrackItsReferenceAndItsOwnMediaData() throws {
        // Added by a rewrite (its own mdat before the audio), then removed.
        let (path, _) = try saved("moov-before-mdat.m4a", Self.edit, options: MovieSaveOptions(allowInPlace: false))
        let audio = try mediaPayloads(try copyOfMovieFixture("moov-before-mdat.m4a"))
        var file = try MovieFile(path: path)
        file.chapterTrack = .remove
        let plan = try file.save(MovieSaveOptions(allowInPlace: false))
        #expect(plan.removedTrackIDs == [2])
        let tree = try AtomTree(contentsOf: path)
        let moov = try #require(tree.atoms.first { $0.type == "moov" })
        #expect(moov.children.filter { $0.type == "trak" }.count == 1)
        #expect(tree.atom(at: AtomPath(parsing: "moov/trak/tref")!) == nil)
        #expect(QuickTimeChapterTrack.read(tree).tracks.isEmpty)
        #expect(try mediaPayloads(path) == audio)
        #expect(try structureFindings(path).isEmpty)
    }

    @Test func removingInPlaceLeavesNoTrackAndNoReference() throws {
        let (path, plan) = try saved("audiobook-chapters.m4b", .remove)
        #expect(plan.strategy == .inPlace)
        let tree = try AtomTree(contentsOf: path)
        #expect(QuickTimeChapterTrack.read(tree).tracks.isEmpty)
        #expect(tree.atom(at: AtomPath(parsing: "moov/trak/tref")!) == nil)
        #expect(try structureFindings(path).isEmpty)
    }

    @Test func aFragmentedMovieIsRefusedWithAReason() throws {
        let path = try copyOfMovieFixture("fragmented.mp4")
        var file = try MovieFile(path: path)
        file.chapterTrack = Self.edit
        let error = try #require(throws: AtomError.self) { try file.save() }
        #expect(error.code == .notWritable)
        #expect(error.message.contains("fragmented"))
        #expect(try TemporaryFile.read(path) == TemporaryFile.read(TestFixtures.path("fragmented.mp4")))
    }

    @Test func aChapterTrackInAFileOverFourGiBUsesSixtyFourBitOffsets() throws {
        // moov after a 5 GiB sparse mdat: the chapter samples go after moov, past 4 GiB. The
        // movie header gets a timescale of 1000 and a 10 s duration.
        let (directory, path) = try sparseMovieAfterLargeMedia(gap: 5 << 30) { movie in
            movie.replaceSubrange(28..<36, with: AtomBuilder.be(1000, width: 4) + AtomBuilder.be(10_000, width: 4))
        }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let audioOffsets = try MovieFile.storedOffsets(in: AtomTree(contentsOf: path)).map(\.values)

        var file = try MovieFile(path: path)
        file.chapterTrack = Self.edit
        let plan = try file.save()
        #expect(plan.strategy == .movieAtEnd)
        let added = try #require(plan.addedTrack)
        #expect(added.chunkOffset > UInt64(UInt32.max))
        let tree = try AtomTree(contentsOf: path)
        #expect(tree.diagnostics.isEmpty)
        let co64 = try #require(tree.atom(at: AtomPath(parsing: "moov/trak[1]/mdia/minf/stbl/co64")!))
        #expect(try FilePointers.offsets(type: "co64", payload: tree.fieldBytes(of: co64), atomEnd: co64.endOffset) == [added.chunkOffset])
        #expect(QuickTimeChapterTrack.read(tree).tracks.first?.samples == Self.edit.samples)
        // The audio track's offsets did not move.
        #expect(try MovieFile.storedOffsets(in: tree).filter { $0.trackID != added.trackID }.map(\.values) == audioOffsets)
    }

    @Test func theSamplesOfAnEditAreLengthTextAndEncoding() {
        let edit = ChapterTrackEdit(timescale: 600, samples: [.init(start: 0, duration: 600, title: "é")])
        #expect(edit.mediaData == [0, 2, 0xC3, 0xA9, 0, 0, 0, 12] + Array("encd".utf8) + [0, 0, 1, 0])
        // A title longer than 65,535 bytes is cut at a character boundary.
        let long = ChapterTrackEdit(timescale: 1000, samples: [.init(start: 0, duration: 1, title: String(repeating: "é", count: 40_000))])
        let data = long.mediaData
        let length = Int(data[0]) << 8 | Int(data[1])
        #expect(length == 65_534)
        #expect(String(validating: data[2..<2 + length], as: UTF8.self) != nil)
    }
}
