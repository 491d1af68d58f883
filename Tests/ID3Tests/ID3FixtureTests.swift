import Carriers
import ID3
import MediaBytes
import TestSupport
import Testing

func fixtureStream(_ name: String) throws -> MPEGStreamFile { try MPEGStreamFile(source: FileByteSource(path: TestFixtures.path(name))) }

func text(_ tag: ID3v2Tag?, _ id: String, _ index: Int = 0) -> [String]? {
    guard let frames = tag?.frames(id), index < frames.count else { return nil }
    return frames[index].textValues
}

let id3Fixtures = [
    "id3v24-full.mp3", "id3v23-utf16.mp3", "id3v22.mp3", "id3v23-unsynchronised.mp3", "id3v24-frame-unsync-compressed.mp3",
    "id3v24-nonsyncsafe-sizes.mp3", "id3v2-appended-footer.mp3", "ape-lyrics3-id3v1.mp3", "two-leading-tags-junk.mp3",
    "hls-timestamp.aac", "aiff-id3.aiff", "wav-id3-info.wav", "no-tags.mp3", "id3v1-only.mp3",
]

@Suite struct ID3FixtureTests {
    @Test func fullV24Tag() throws {
        let file = try fixtureStream("id3v24-full.mp3")
        let tag = try #require(file.primaryTag)
        #expect(tag.majorVersion == 4)
        #expect(tag.diagnostics.isEmpty)
        #expect(text(tag, "TIT2") == ["Fixture Title ♪"])
        #expect(text(tag, "TALB") == ["Fixture Älbum ✓"])
        #expect(text(tag, "TPE2") == ["Fixture Album Artist"])
        #expect(text(tag, "TCOM") == ["Composer One", "Composer Two"])
        #expect(text(tag, "TRCK") == ["3/12"])
        #expect(text(tag, "TDRC") == ["2021-06-01"])
        #expect(tag.frames("COMM").count == 2)
        #expect(tag.frames("APIC").count == 2)
        guard case (let id, let start, let end, _, _, let subframes)? = tag.frames("CHAP").last?.content.chapter else {
            Issue.record("no CHAP")
            return
        }
        #expect(id == "chp1" && start == 250 && end == 500)
        #expect(subframes.first?.id == "TIT2")
        // Embedded frames carry their own file offsets: CHAP at 761, header 10, "chp1\0", 16 bytes of times.
        #expect(subframes.first?.offset == 761 + 10 + 5 + 16)
        guard case (_, true, true, let children, _)? = tag.frames("CTOC").first?.content.tableOfContents else {
            Issue.record("no CTOC")
            return
        }
        #expect(children == ["chp0", "chp1"])
        guard case (_, let channels)? = tag.frames("RVA2").first?.content.relativeVolume else {
            Issue.record("no RVA2")
            return
        }
        #expect(channels.first?.adjustment == -2.5)
        #expect(file.id3v1?.track == 3)
        #expect(file.id3v1?.genreIndex == 52)
        #expect(file.kind == .mp3)
        #expect(file.xingHeader?.tag == "Info")
    }

    @Test func v23WithUTF16AndDateSplit() throws {
        let tag = try #require(try fixtureStream("id3v23-utf16.mp3").primaryTag)
        #expect(tag.majorVersion == 3)
        #expect(text(tag, "TIT2") == ["UTF-16 Títle ♫"])
        #expect(text(tag, "TYER") == ["2019"])
        #expect(text(tag, "TDAT") == ["0703"])
        #expect(text(tag, "TIME") == ["1430"])
        #expect(text(tag, "TCON").map { $0.flatMap(ID3Genres.parse) } == ["Pop"])
        #expect(tag.paddingSize == 1024)
    }

    @Test func v22IsMappedWithItsPicture() throws {
        let tag = try #require(try fixtureStream("id3v22.mp3").primaryTag)
        #expect(tag.majorVersion == 2)
        #expect(tag.frames.map(\.storedID).contains("TT2"))
        #expect(text(tag, "TIT2") == ["v2.2 Títle"])
        #expect(text(tag, "TRCK") == ["7/9"])
        guard case (_, let mime, 3, "Cover", let data)? = tag.frames("APIC").first?.content.picture else {
            Issue.record("no PIC")
            return
        }
        #expect(mime == "image/jpeg")
        #expect(try data.bytes().starts(with: [0xFF, 0xD8]))
    }

    @Test func unsynchronisedV23TagReadsItsBinaryExactly() throws {
        let tag = try #require(try fixtureStream("id3v23-unsynchronised.mp3").primaryTag)
        #expect(tag.isUnsynchronised)
        #expect(tag.frames("PRIV").first?.content == .privateData(owner: "org.example.sync", data: [0xFF, 0xFB, 0x90, 0x64, 0xFF, 0x00, 0xFF, 0xE0, 0xFF]))
    }

    @Test func frameUnsynchronisationAndCompression() throws {
        let tag = try #require(try fixtureStream("id3v24-frame-unsync-compressed.mp3").primaryTag)
        #expect(tag.diagnostics.isEmpty)
        let lyrics = try #require(tag.frames("USLT").first)
        #expect(lyrics.flags.compressed)
        guard case (_, _, _, let text)? = lyrics.content.comment else {
            Issue.record("no USLT")
            return
        }
        #expect(text.hasPrefix("Line 01"))
        let picture = try #require(tag.frames("APIC").first)
        #expect(picture.flags.unsynchronised)
        // The data length indicator gives the body's length once unsynchronisation is undone.
        #expect(picture.body.count == Int(picture.flags.dataLength ?? 0))
        #expect(picture.storedSize > picture.body.count + 10)
        #expect(tag.frames("TXXX").first?.flags.readOnly == true)
    }

    @Test func plainSizesInV24AreTolerated() throws {
        let tag = try #require(try fixtureStream("id3v24-nonsyncsafe-sizes.mp3").primaryTag)
        guard case (_, "Long Value", let values)? = tag.frames("TXXX").first?.content.userText else {
            Issue.record("no TXXX")
            return
        }
        #expect(values == [String(repeating: "x", count: 188)])
        guard case (_, _, "Long", let comment)? = tag.frames("COMM").first?.content.comment else {
            Issue.record("no COMM")
            return
        }
        #expect(comment == String(repeating: "y", count: 291))
        #expect(text(tag, "TALB") != nil)
    }

    @Test func appendedTagAndTrailingBlocks() throws {
        let appended = try fixtureStream("id3v2-appended-footer.mp3")
        #expect(appended.leadingTags.isEmpty)
        #expect(appended.appendedTag?.offset == 2376)
        #expect(text(appended.primaryTag, "TIT2") == ["Appended Title"])
        #expect(appended.id3v1?.title == "ID3v1 Title")

        let blocks = try fixtureStream("ape-lyrics3-id3v1.mp3")
        #expect(blocks.apeBlock?.lowerBound == 2499)
        #expect(blocks.lyrics3Block?.lowerBound == 3040)
        #expect(blocks.id3v1?.track == 4)
        #expect(blocks.audio.upperBound == 2499)
    }

    @Test func twoLeadingTagsAndJunk() throws {
        let file = try fixtureStream("two-leading-tags-junk.mp3")
        #expect(file.leadingTags.map(\.offset) == [0, 63])
        #expect(text(file.leadingTags.last, "TIT2") == ["Second Tag Title"])
        #expect(file.junkBeforeAudio == 135..<142)
        #expect(file.audio.lowerBound == 142)
    }

    @Test func hlsPackedAudioTimestamp() throws {
        let file = try fixtureStream("hls-timestamp.aac")
        #expect(file.kind == .aac)
        #expect(file.adtsHeader?.sampleRate == 22050)
        #expect(file.primaryTag?.transportStreamTimestamp == 8_589_934_000)
    }

    @Test func aiffAndWavCarryTheirTags() throws {
        let aiff = try IFFChunkFile(source: FileByteSource(path: TestFixtures.path("aiff-id3.aiff")))
        #expect(text(aiff.id3Tag, "TIT2") == ["AIFF Title"])
        let wav = try IFFChunkFile(source: FileByteSource(path: TestFixtures.path("wav-id3-info.wav")))
        #expect(text(wav.id3Tag, "TIT2") == ["WAV ID3 Title"])
        #expect(wav.info?.entries.first { $0.id == "INAM" }?.value == "WAV INFO Title")
        #expect(wav.info?.entries.first { $0.id == "ITRK" }?.value == "7")
    }

    @Test func untaggedAndV1OnlyFiles() throws {
        let none = try fixtureStream("no-tags.mp3")
        #expect(none.leadingTags.isEmpty && none.id3v1 == nil && none.appendedTag == nil)
        #expect(none.kind == .mp3)
        let v1 = try fixtureStream("id3v1-only.mp3")
        #expect(v1.id3v1?.track == nil)
        #expect(v1.id3v1?.year == "1999")
        #expect(v1.id3v1?.genre == "Rock")
    }

    @Test(arguments: id3Fixtures)
    func fixtureAgreesWithTagLib(_ name: String) throws {
        #expect(try crossCheck(TestFixtures.path(name)) == [])
    }
}

@Suite struct ID3ValueTests {
    @Test func recordingDateFromTDRCOrTheV23Split() throws {
        #expect(try fixtureStream("id3v24-full.mp3").primaryTag?.recordingDate == "2021-06-01")
        #expect(try fixtureStream("id3v23-utf16.mp3").primaryTag?.recordingDate == "2019-03-07T14:30")
        #expect(try fixtureStream("id3v22.mp3").primaryTag?.recordingDate == "2018")
        #expect(try fixtureStream("id3v24-full.mp3").primaryTag?.originalReleaseDate == "2020")
    }

    @Test func positions() {
        #expect(ID3v2Tag.position("3/12") == (3, 12))
        #expect(ID3v2Tag.position("7") == (7, nil))
        #expect(ID3v2Tag.position("/9") == (nil, 9))
        #expect(ID3v2Tag.position(" 4 / 10 ") == (4, 10))
        #expect(ID3v2Tag.position("x") == (nil, nil))
    }
}
