import ISOBMFF
import MediaBytes
import TestSupport
import Testing

/// The QuickTime chapter track, read from the fixture ffmpeg wrote and from movies built here,
/// hostile ones included.
@Suite struct ChapterTrackTests {
    typealias B = AtomBuilder

    /// A movie of two tracks: track 1 (sound) names `chapterTarget` in its `tref/chap`; track 2
    /// is a `text` track of `titles` samples, one second each (timescale 1000), stored in an
    /// `mdat` after the `moov`. `claimedSamples` overrides the `stsz` count.
    static func movie(titles: [[UInt8]], chapterTarget: UInt32 = 2, handler: FourCC = "text", claimedSamples: UInt32? = nil,
                      firstOffsetShift: UInt64 = 0) -> [UInt8] {
        let samples = titles.map { B.be(UInt64($0.count), width: 2) + $0 }
        func trak(id: UInt32, handler: FourCC, flags: UInt32, tref: [UInt8], stbl: [UInt8]) -> [UInt8] {
            let tkhd = B.fullBox("tkhd", flags: flags, B.be(0, width: 8) + B.be(UInt64(id), width: 4) + [UInt8](repeating: 0, count: 68))
            let mdhd = B.fullBox("mdhd", B.be(0, width: 8) + B.be(1000, width: 4) + B.be(UInt64(titles.count) * 1000, width: 4) + B.be(0, width: 4))
            let hdlr = B.fullBox("hdlr", B.be(0, width: 4) + handler.bytes + [UInt8](repeating: 0, count: 13))
            return B.container("trak", tkhd, tref, B.container("mdia", mdhd, hdlr, B.container("minf", stbl)))
        }
        func stbl(offsets: [UInt64], sizes: [Int], count: UInt32) -> [UInt8] {
            let stts = B.fullBox("stts", B.be(1, width: 4) + B.be(UInt64(count), width: 4) + B.be(1000, width: 4))
            let stsc = B.fullBox("stsc", B.be(1, width: 4) + B.be(1, width: 4) + B.be(1, width: 4) + B.be(1, width: 4))
            let stsz = B.fullBox("stsz", B.be(0, width: 4) + B.be(UInt64(count), width: 4) + sizes.flatMap { B.be(UInt64($0), width: 4) })
            let stco = B.fullBox("stco", B.be(UInt64(offsets.count), width: 4) + offsets.flatMap { B.be($0, width: 4) })
            return B.container("stbl", B.fullBox("stsd", B.be(0, width: 4)), stts, stsc, stsz, stco)
        }
        let ftyp = B.ftyp("M4B ")
        func build(offsets: [UInt64]) -> [UInt8] {
            let tref = B.container("tref", B.atom("chap", B.be(UInt64(chapterTarget), width: 4)))
            let sound = trak(id: 1, handler: "soun", flags: 1, tref: tref, stbl: stbl(offsets: [], sizes: [], count: 0))
            let text = trak(id: 2, handler: handler, flags: 0, tref: [],
                            stbl: stbl(offsets: offsets, sizes: samples.map(\.count), count: claimedSamples ?? UInt32(samples.count)))
            let mvhd = B.fullBox("mvhd", B.be(0, width: 8) + B.be(1000, width: 4) + B.be(UInt64(titles.count) * 1000, width: 4) + [UInt8](repeating: 0, count: 80))
            return B.container("moov", mvhd, sound, text)
        }
        // The offsets depend on the moov's size, which does not depend on their values.
        let moovSize = UInt64(build(offsets: samples.map { _ in 0 }).count)
        var offset = UInt64(ftyp.count) + moovSize + 8 + firstOffsetShift
        var offsets: [UInt64] = []
        for sample in samples {
            offsets.append(offset)
            offset += UInt64(sample.count)
        }
        return ftyp + build(offsets: offsets) + B.atom("mdat", samples.flatMap { $0 })
    }

    func read(_ bytes: [UInt8]) throws -> (tracks: [QuickTimeChapterTrack], problems: [QuickTimeChapterTrack.Problem]) {
        QuickTimeChapterTrack.read(try AtomTree(source: MemoryByteSource(bytes)))
    }

    @Test func theTrackFFmpegWroteIsRead() throws {
        let (tracks, problems) = QuickTimeChapterTrack.read(try AtomTree(contentsOf: TestFixtures.path("audiobook-chapters.m4b")))
        #expect(problems.isEmpty)
        let track = try #require(tracks.first)
        #expect(tracks.count == 1)
        #expect(track.referencedBy == [1])
        #expect(track.trackID == 2)
        #expect(!track.isEnabled)
        #expect(track.samples.map(\.title) == ["Chapter 1: Opening", "Chapter 2: Middle", "Chapter 3: End"])
        #expect(track.samples.map { Double($0.start) / Double(track.timescale) } == [0, 1, 2])
        #expect(track.samples.map { Double($0.duration) / Double(track.timescale) } == [1, 1, 1])
    }

    @Test func aBuiltMovieReadsItsTitlesAndTimes() throws {
        let (tracks, problems) = try read(Self.movie(titles: [Array("One".utf8), Array("Two".utf8)]))
        #expect(problems.isEmpty)
        #expect(tracks.first?.samples == [.init(start: 0, duration: 1000, title: "One"), .init(start: 1000, duration: 1000, title: "Two")])
    }

    @Test func titlesAreDecodedByTheirMarkOrEncodingAtom() {
        func sample(_ text: [UInt8], atoms: [UInt8] = []) -> [UInt8] { AtomBuilder.be(UInt64(text.count), width: 2) + text + atoms }
        #expect(QuickTimeChapterTrack.title(of: sample([0xFE, 0xFF, 0x00, 0x41, 0x00, 0xE9])) == "Aé")
        #expect(QuickTimeChapterTrack.title(of: sample([0xFF, 0xFE, 0x41, 0x00, 0xE9, 0x00])) == "Aé")
        #expect(QuickTimeChapterTrack.title(of: sample(Array("Café ♪".utf8), atoms: AtomBuilder.atom("encd", [0, 0, 1, 0]))) == "Café ♪")
        // Not UTF-8 and no encoding atom: ISO Latin-1.
        #expect(QuickTimeChapterTrack.title(of: sample([0x43, 0x61, 0x66, 0xE9])) == "Café")
        // A length past the sample's end takes what there is.
        #expect(QuickTimeChapterTrack.title(of: [0x00, 0x09, 0x41, 0x42]) == "AB")
        #expect(QuickTimeChapterTrack.title(of: [0x00]) == "")
    }

    @Test func aTrackNamingItselfOrAMissingTrackIsReportedNotRead() throws {
        var result = try read(Self.movie(titles: [Array("One".utf8)], chapterTarget: 1))
        #expect(result.tracks.isEmpty)
        #expect(result.problems.map(\.message) == ["the track names itself as its chapter track; ignored"])
        #expect(result.problems.first?.path == "moov/trak[0]/tref/chap")
        result = try read(Self.movie(titles: [Array("One".utf8)], chapterTarget: 9))
        #expect(result.tracks.isEmpty)
        #expect(result.problems.first?.message.contains("no such track") == true)
    }

    @Test func aChapterTrackThatIsNotTextIsReportedNotRead() throws {
        let (tracks, problems) = try read(Self.movie(titles: [Array("One".utf8)], handler: "vide"))
        #expect(tracks.isEmpty)
        #expect(problems.first?.message.contains("'vide'") == true)
    }

    @Test func aTrackClaimingFourBillionSamplesReadsOnlyTheEntriesItHolds() throws {
        let titles = (0..<3).map { Array("Chapter \($0)".utf8) }
        let (tracks, _) = try read(Self.movie(titles: titles, claimedSamples: .max))
        let track = try #require(tracks.first)
        #expect(track.samples.map(\.title) == ["Chapter 0", "Chapter 1", "Chapter 2"])
    }

    @Test func moreChaptersThanTheBoundAreCutWithAProblem() throws {
        let titles = (0...QuickTimeChapterTrack.maximumSamples).map { _ in [UInt8(ascii: "c")] }
        let (tracks, problems) = try read(Self.movie(titles: titles))
        #expect(tracks.first?.samples.count == QuickTimeChapterTrack.maximumSamples)
        #expect(problems.map(\.message) == ["the chapter track claims \(titles.count) samples; the first \(QuickTimeChapterTrack.maximumSamples) are read"])
    }

    @Test func samplesPastTheEndOfTheFileAreReported() throws {
        let (tracks, problems) = try read(Self.movie(titles: [Array("One".utf8)], firstOffsetShift: 1 << 20))
        #expect(tracks.first?.samples.isEmpty == true)
        #expect(problems.first?.message == "chapter sample 1 lies past the end of the file")
    }
}
