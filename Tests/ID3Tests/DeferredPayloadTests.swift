import Carriers
import ID3
import MediaBytes
import MediaToolSupport
import TagLibOracle
import TestSupport
import Testing

/// An MP3 whose v2.`version` tag holds a title, a `size`-byte front cover and an artist after
/// it, then 512 bytes of padding, then audio.
func mp3WithLargeCover(version: UInt8 = 4, size: Int = 1_000_000) throws -> (path: String, cover: [UInt8]) {
    let cover = [0xFF, 0xD8, 0xFF, 0xE0] + (0..<size - 4).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    let frames = [
        I.frame("TIT2", I.text(["Big Cover"], encoding: version == 4 ? 3 : 0), version: version),
        I.frame("APIC", [0] + Array("image/jpeg".utf8) + [0, 3] + Array("Front".utf8) + [0] + cover, version: version),
        I.frame("TPE1", I.text(["After The Cover"], encoding: 0), version: version),
    ]
    let tag = I.tag(version: version, frames: frames, padding: 512)
    let audio = try TemporaryFile.read(TestFixtures.path("no-tags.mp3"))
    return (try TemporaryFile.write(tag + audio, name: "big-cover-v2\(version).mp3"), cover)
}

@Suite struct DeferredPayloadTests {
    @Test(arguments: [UInt8(3), UInt8(4)])
    func largeCoverStaysInTheFileUntilAsked(_ version: UInt8) throws {
        let (path, cover) = try mp3WithLargeCover(version: version)
        let source = RecordingByteSource(try FileByteSource(path: path))
        let file = try MPEGStreamFile(source: source)
        let tag = try #require(file.primaryTag)
        #expect(tag.diagnostics.isEmpty)
        #expect(tag.frames.map(\.id) == ["TIT2", "APIC", "TPE1"])
        #expect(tag.frames("TPE1").first?.textValues == ["After The Cover"])
        guard case (_, "image/jpeg", 3, "Front", let data)? = tag.frames("APIC").first?.content.picture else {
            Issue.record("no APIC")
            return
        }
        #expect(!data.isLoaded)
        #expect(data.count == cover.count)
        // Offsets are the file's: the cover, and the frame after it.
        let bytes = try TemporaryFile.read(path)
        let apic = try #require(tag.frames("APIC").first)
        let coverOffset = try #require(data.fileOffset)
        #expect(Array(bytes[Int(coverOffset)..<Int(coverOffset) + 4]) == [0xFF, 0xD8, 0xFF, 0xE0])
        #expect(apic.storedSize == 10 + 1 + 11 + 1 + 6 + cover.count)
        let after = try #require(tag.frames("TPE1").first)
        #expect(after.offset == apic.offset + UInt64(apic.storedSize))
        #expect(Array(bytes[Int(after.offset)..<Int(after.offset) + 4]) == Array("TPE1".utf8))
        let readBytes = source.reads.reduce(0) { $0 + $1.count }
        // The prefetched 64 KiB, the frames around the cover, the end of the file: not the cover.
        #expect(readBytes < 100_000, "read \(readBytes) bytes for a \(cover.count)-byte cover")
        // The padding after the frames is counted from the bytes read around them, and no byte
        // is read twice (the padding was read up to four times, the first frame's start twice).
        #expect(tag.paddingSize == 512)
        let reads = source.reads.sorted { $0.lowerBound < $1.lowerBound }
        #expect(zip(reads, reads.dropFirst()).allSatisfy { $0.upperBound <= $1.lowerBound }, "overlapping reads: \(reads)")
        #expect(Array(try data.bytes()) == cover)
    }

    @Test func savingKeepsTheDeferredCoverExact() throws {
        let (path, cover) = try mp3WithLargeCover()
        let tag = try #require(try MPEGStreamFile(source: FileByteSource(path: path)).primaryTag)
        // In place: a shorter title fits.
        var shorter = tag
        shorter.frames[0].content = .text(encoding: .utf8, values: ["Big"])
        #expect(try MPEGStreamFile.save(shorter, to: path).method == .inPlace)
        // Rewritten: a title longer than the padding.
        var longer = try #require(try MPEGStreamFile(source: FileByteSource(path: path)).primaryTag)
        longer.frames[0].content = .text(encoding: .utf8, values: [String(repeating: "Longer ", count: 200)])
        #expect(try MPEGStreamFile.save(longer, to: path).method == .rewritten)
        let saved = try #require(try MPEGStreamFile(source: FileByteSource(path: path)).primaryTag)
        guard case (_, _, _, _, let data)? = saved.frames("APIC").first?.content.picture else {
            Issue.record("no APIC")
            return
        }
        #expect(Array(try data.bytes()) == cover)
        #expect(saved.frames("TPE1").first?.textValues == ["After The Cover"])
        #expect(try crossCheck(path, requireTagLib: true) == [])
    }

    @Test func unchangedTagWithADeferredCoverSerializesByteForByte() throws {
        let (path, _) = try mp3WithLargeCover()
        let original = try TemporaryFile.read(path)
        let tag = try #require(try MPEGStreamFile(source: FileByteSource(path: path)).primaryTag)
        let bytes = try tag.serialized(padding: tag.paddingSize).bytes
        #expect(bytes == Array(original.prefix(Int(tag.totalSize))))
    }

    @Test func inspectorShowsTheCoverSizeWithoutReadingIt() throws {
        let (path, cover) = try mp3WithLargeCover()
        let file = try FileInspection.open(path)
        #expect(file.node(at: "ID3v2/APIC")?.details.summary == "front cover image/jpeg \(cover.count) bytes \"Front\"")
        #expect(try crossCheck(path, requireTagLib: true) == [])
    }
}

@Suite struct DeferredPayloadEdgeTests {
    @Test func largeCoverInATagWithAFooter() throws {
        let cover = [UInt8](repeating: 0xAB, count: 200_000)
        var tag = I.tag(frames: [I.frame("APIC", [0] + Array("image/png".utf8) + [0, 3, 0] + cover), I.frame("TIT2", I.text(["After"]))])
        tag[5] |= 0x10
        tag += Array("3DI".utf8) + tag[3..<10]
        let path = try TemporaryFile.write(tag + (try TemporaryFile.read(TestFixtures.path("no-tags.mp3"))), name: "footer.mp3")
        let file = try MPEGStreamFile(source: FileByteSource(path: path))
        let read = try #require(file.primaryTag)
        #expect(read.diagnostics.isEmpty)
        #expect(read.frames("TIT2").first?.textValues == ["After"])
        #expect(read.totalSize == UInt64(tag.count))
        guard case (_, _, _, _, let data)? = read.frames("APIC").first?.content.picture else {
            Issue.record("no APIC")
            return
        }
        #expect(!data.isLoaded)
        #expect(Array(try data.bytes()) == cover)
        #expect(file.audio.lowerBound == UInt64(tag.count))
    }

    @Test func v24PlainSizedLargeFrameFallsBackToAWholeRead() throws {
        // 0x00030000 bytes: as syncsafe that reads 49152, over the deferral limit, so the
        // reader must notice that no frame starts where the syncsafe size ends.
        let cover = [UInt8](repeating: 0x11, count: 0x30000 - 14)
        let frames = I.frame("APIC", [0] + Array("image/png".utf8) + [0, 3, 0] + cover, plainSize: true) + I.frame("TIT2", I.text(["T"]), plainSize: true)
        let path = try TemporaryFile.write(I.tag(frames, padding: 16) + (try TemporaryFile.read(TestFixtures.path("no-tags.mp3"))), name: "plain.mp3")
        let read = try #require(try MPEGStreamFile(source: FileByteSource(path: path)).primaryTag)
        #expect(read.frames.map(\.id) == ["APIC", "TIT2"])
        guard case (_, _, _, _, let data)? = read.frames("APIC").first?.content.picture else {
            Issue.record("no APIC")
            return
        }
        #expect(Array(try data.bytes()) == cover)
    }
}

@Suite struct DeferredPayloadStateTests {
    func bigFrame(_ id: String, _ fill: UInt8, count: Int) -> [UInt8] {
        id == "GEOB"
            ? I.frame("GEOB", [0] + Array("application/octet-stream".utf8) + [0] + Array("f.bin".utf8) + [0, 0] + [UInt8](repeating: fill, count: count))
            : I.frame("APIC", [0] + Array("image/png".utf8) + [0, 4, 0] + [UInt8](repeating: fill, count: count))
    }

    func write(_ frames: [[UInt8]], name: String) throws -> String {
        try TemporaryFile.write(I.tag(frames: frames, padding: 100) + (try TemporaryFile.read(TestFixtures.path("no-tags.mp3"))), name: name)
    }

    @Test func aTagKeptAfterAnInPlaceSaveRefusesToReadMovedBytes() throws {
        let (path, cover) = try mp3WithLargeCover()
        let tag = try #require(try MPEGStreamFile(source: FileByteSource(path: path)).primaryTag)
        var shorter = tag
        shorter.frames[0].content = .text(encoding: .utf8, values: ["B"])
        #expect(try MPEGStreamFile.save(shorter, to: path).method == .inPlace)
        // `shorter` still points into the file as it was: reading or saving it again must
        // fail, not return or write shifted bytes.
        guard case (_, _, _, _, let stale)? = shorter.frames("APIC").first?.content.picture else {
            Issue.record("no APIC")
            return
        }
        #expect(throws: ID3Error.self) { try stale.bytes() }
        let before = try TemporaryFile.read(path)
        #expect(throws: ID3Error.self) { try MPEGStreamFile.save(shorter, to: path) }
        #expect(try TemporaryFile.read(path) == before)
        // Read again, the cover is right.
        let fresh = try #require(try MPEGStreamFile(source: FileByteSource(path: path)).primaryTag)
        guard case (_, _, _, _, let data)? = fresh.frames("APIC").first?.content.picture else {
            Issue.record("no APIC")
            return
        }
        #expect(Array(try data.bytes()) == cover)
    }

    @Test func severalLargeFramesAndObjectsAreDeferredWithRightOffsets() throws {
        let frames = [I.frame("TIT2", I.text(["A"])), bigFrame("APIC", 1, count: 70_000), I.frame("TPE1", I.text(["B"])),
                      bigFrame("GEOB", 2, count: 50_000), I.frame("TALB", I.text(["C"]))]
        let path = try write(frames, name: "several.mp3")
        let bytes = try TemporaryFile.read(path)
        let tag = try #require(try MPEGStreamFile(source: FileByteSource(path: path)).primaryTag)
        #expect(tag.diagnostics.isEmpty)
        #expect(tag.paddingSize == 100)
        var expected = 10
        for (frame, raw) in zip(tag.frames, frames) {
            #expect(frame.offset == UInt64(expected), "\(frame.id)")
            #expect(Array(bytes[expected..<expected + 4]) == Array(frame.id.utf8))
            expected += raw.count
        }
        guard case (_, _, "f.bin", _, let object)? = tag.frames("GEOB").first?.content.object else {
            Issue.record("no GEOB")
            return
        }
        #expect(!object.isLoaded)
        #expect(Array(try object.bytes()) == [UInt8](repeating: 2, count: 50_000))
    }

    @Test func framesInsideACompressedChapterBeforeALargeCoverKeepTheirOffsets() throws {
        // A CHAP whose body is zlib-compressed (flags: compression + data length indicator).
        let title = I.frame("TIT2", I.text(["Chapter"]))
        let body: [UInt8] = Array("c".utf8) + [0] + [UInt8](repeating: 0, count: 16) + title
        let compressed = SyncsafeInteger.encode(UInt32(body.count))! + I.zlibStored(body)
        let chap = I.frame("CHAP", compressed, flags: (0, 0x09))
        let path = try write([chap, bigFrame("APIC", 3, count: 80_000)], name: "chap-compressed.mp3")
        let tag = try #require(try MPEGStreamFile(source: FileByteSource(path: path)).primaryTag)
        #expect(tag.diagnostics.isEmpty)
        guard case (_, _, _, _, _, let subframes)? = tag.frames("CHAP").first?.content.chapter else {
            Issue.record("no CHAP")
            return
        }
        #expect(subframes.first?.textValues == ["Chapter"])
        // Inside a compressed frame, embedded frames count from the frame's body (10 + 10),
        // plus "c\0" and 16 bytes of times; the cover after it must not move them.
        #expect(subframes.first?.offset == 10 + 10 + 18)
        #expect(tag.frames("APIC").first?.offset == UInt64(10 + chap.count))
    }

    @Test func aTagCutShortIsReadWholeAndReportsIt() throws {
        let frames = [bigFrame("APIC", 4, count: 100_000), I.frame("TIT2", I.text(["T"]))]
        let full = I.tag(frames: frames, padding: 10)
        let path = try TemporaryFile.write(Array(full.prefix(90_000)), name: "cut.mp3")
        let file = try MPEGStreamFile(source: FileByteSource(path: path))
        // The whole read says the tag is cut short (the sparse path would only see a frame too big).
        #expect(file.diagnostics.contains { $0.code == "truncated" })
    }
}
