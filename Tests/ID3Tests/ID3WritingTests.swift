import Carriers
import ID3
import MediaBytes
import TagLibOracle
import TestSupport
import Testing

/// The bytes of the first leading tag of a fixture, and the tag read from them.
func fixtureTag(_ name: String) throws -> (bytes: [UInt8], tag: ID3v2Tag) {
    let file = try TemporaryFile.read(TestFixtures.path(name))
    let tag = try read(file)
    return (Array(file.prefix(Int(tag.totalSize))), tag)
}

/// Writes `tag` in front of the audio of `no-tags.mp3` and returns the file's path.
func mp3(with tag: [UInt8], name: String = "written.mp3") throws -> String {
    try TemporaryFile.write(tag + (try TemporaryFile.read(TestFixtures.path("no-tags.mp3"))), name: name)
}

@Suite struct ID3SerializationTests {
    @Test func unchangedTagIsWrittenBackByteForByte() throws {
        for name in ["id3v24-full.mp3", "id3v23-utf16.mp3", "id3v24-nonsyncsafe-sizes.mp3"] {
            let (bytes, tag) = try fixtureTag(name)
            let written = try tag.serialized(padding: tag.paddingSize)
            #expect(written.notes.isEmpty, "\(name)")
            if name == "id3v24-nonsyncsafe-sizes.mp3" {
                // Plain sizes are corrected to syncsafe ones; everything else is the same.
                #expect(try written.bytes.count == bytes.count)
                #expect(try read(written.bytes).frames.map(\.content) == tag.frames.map(\.content))
            } else {
                #expect(try written.bytes == bytes, "\(name)")
            }
        }
    }

    @Test func changedFrameIsReencodedAndTheRestKept() throws {
        var (_, tag) = try fixtureTag("id3v24-full.mp3")
        let index = try #require(tag.frames.firstIndex { $0.id == "TIT2" })
        tag.frames[index].content = .text(encoding: .utf8, values: ["New Title"])
        let reread = try read(tag.serialized().bytes)
        #expect(reread.frames("TIT2").first?.textValues == ["New Title"])
        #expect(reread.frames.count == tag.frames.count)
        #expect(reread.frames.dropFirst(index + 1).map(\.content) == tag.frames.dropFirst(index + 1).map(\.content))
    }

    @Test func nothingIsWrittenUnsynchronised() throws {
        let (_, tag) = try fixtureTag("id3v24-frame-unsync-compressed.mp3")
        let bytes = try tag.serialized().bytes
        #expect(bytes[5] & 0x80 == 0)
        let reread = try read(bytes)
        #expect(reread.frames.allSatisfy { !$0.flags.unsynchronised })
        #expect(reread.frames.map(\.content) == tag.frames.map(\.content))
    }

    @Test func v24ToV23MapsDatesEncodingsAndReportsWhatIsLost() throws {
        let (_, tag) = try fixtureTag("id3v24-full.mp3")
        let written = try tag.serialized(version: 3)
        let v23 = try read(written.bytes)
        #expect(v23.majorVersion == 3)
        #expect(v23.frames("TYER").first?.textValues == ["2021"])
        #expect(v23.frames("TDAT").first?.textValues == ["0106"])
        #expect(v23.frames("TORY").first?.textValues == ["2020"])
        #expect(v23.frames("TDRC").isEmpty)
        #expect(v23.frames("TCOM").first?.textValues == ["Composer One/Composer Two"])
        // UTF-8 is not allowed in v2.3: non-Latin-1 text goes to UTF-16.
        guard case (let encoding, let values)? = v23.frames("TALB").first?.content.text else {
            Issue.record("no TALB")
            return
        }
        #expect(encoding == .utf16)
        #expect(values == ["Fixture Älbum ✓"])
        #expect(written.notes.contains("RVA2 dropped: ID3v2.4 only"))
        // A v2.4-only text frame with a v2.3 form in the key table is kept as that TXXX.
        #expect(written.notes.contains("TMOO becomes TXXX:MOOD (v2.3 has no TMOO)"), "\(written.notes)")
        #expect(v23.frames("TXXX").contains { $0.content.userText?.description == "MOOD" && $0.content.userText?.values == tag.frames("TMOO").first?.textValues })
        #expect(v23.frames("TMOO").isEmpty)
        #expect(written.notes.contains { $0.hasPrefix("TCOM: 2 values joined") })
        #expect(v23.frames("APIC").count == 2)
        #expect(v23.frames("CHAP").count == 2)
    }

    /// A full original date becomes TORY's year with a note saying so (before 2026-11-27 it
    /// was cut silently), and a TXXX the tag already has is not doubled.
    @Test func v24ToV23SaysWhatTheOriginalDateLosesAndKeepsReleaseDateAsUserText() throws {
        let tag = ID3v2Tag(majorVersion: 4, frames: [
            ID3Frame(id: "TDOR", content: .text(encoding: .utf8, values: ["1999-01-02"])),
            ID3Frame(id: "TDRL", content: .text(encoding: .utf8, values: ["2001-03-04"])),
            ID3Frame(id: "TDTG", content: .text(encoding: .utf8, values: ["2026-11-27"])),
            ID3Frame(id: "TXXX", content: .userText(encoding: .latin1, description: "TAGGINGDATE", values: ["2020"])),
        ])
        let written = try tag.serialized(version: 3)
        let v23 = try read(written.bytes)
        #expect(v23.frames("TORY").first?.textValues == ["1999"])
        #expect(written.notes.contains("TDOR \"1999-01-02\" becomes TORY \"1999\": v2.3 keeps the original release year only"), "\(written.notes)")
        #expect(v23.frames("TXXX").compactMap { $0.content.userText.map { "\($0.description)=\($0.values)" } } == ["RELEASEDATE=[\"2001-03-04\"]", "TAGGINGDATE=[\"2020\"]"])
        #expect(written.notes.contains("TDRL becomes TXXX:RELEASEDATE (v2.3 has no TDRL)"))
        #expect(written.notes.contains("TDTG dropped: ID3v2.4 only, and the tag has a TXXX:TAGGINGDATE already"))
    }

    @Test func v23ToV24JoinsTheDateSplit() throws {
        let (_, tag) = try fixtureTag("id3v23-utf16.mp3")
        let v24 = try read(tag.serialized(version: 4).bytes)
        #expect(v24.frames("TDRC").first?.textValues == ["2019-03-07T14:30"])
        #expect(v24.frames("TYER").isEmpty && v24.frames("TDAT").isEmpty && v24.frames("TIME").isEmpty)
    }

    @Test func v22IsWrittenAsV24() throws {
        let (_, tag) = try fixtureTag("id3v22.mp3")
        let written = try tag.serialized()
        let v24 = try read(written.bytes)
        #expect(v24.majorVersion == 4)
        #expect(v24.frames("TIT2").first?.textValues == ["v2.2 Títle"])
        #expect(v24.frames("TDRC").first?.textValues == ["2018"])
        guard case (_, "image/jpeg", 3, "Cover", let data)? = v24.frames("APIC").first?.content.picture else {
            Issue.record("no APIC")
            return
        }
        #expect(try data.bytes().starts(with: [0xFF, 0xD8]))
    }

    @Test func tagLevelUnsynchronisationIsUndoneWhenWritingBack() throws {
        let frame = I.frame("PRIV", ID3Unsynchronisation.encode(Array("o".utf8) + [0, 0xFF, 0xE1, 0xFF, 0x00]))
        let tag = try read(I.tag(version: 4, flags: 0x80, frame))
        let reread = try read(tag.serialized().bytes)
        #expect(reread.isUnsynchronised == false)
        #expect(reread.frames.map(\.content) == [.privateData(owner: "o", data: [0xFF, 0xE1, 0xFF, 0x00])])
    }

    @Test func involvedPeopleKeepTheirPairsInV23() throws {
        let tag = try read(I.tag(frames: [I.frame("TIPL", I.text(["producer", "P. Roducer", "mixer", "M. Ixer"]))]))
        let v23 = try read(tag.serialized(version: 3).bytes)
        #expect(v23.frames("IPLS").first?.textValues == ["producer", "P. Roducer", "mixer", "M. Ixer"])
    }

    @Test func versionOtherThan3Or4IsRefused() throws {
        let tag = try read(I.tag(frames: [I.frame("TIT2", I.text(["x"]))]))
        #expect(throws: ID3Error(.notWritable)) { try tag.serialized(version: 2) }
    }

    @Test func framesThatCannotBeReadAreDroppedWhenTheVersionChanges() throws {
        let tag = try read(I.tag(frames: [I.frame("TIT2", [0x80, 1, 2, 3], flags: (0, 0x04)), I.frame("TPE1", I.text(["A"]))]))
        let written = try tag.serialized(version: 3)
        #expect(written.notes.contains("TIT2 dropped: it cannot be written as ID3v2.3"))
        #expect(try read(written.bytes).frames.map(\.id) == ["TPE1"])
        // In its own version it is kept exactly as stored.
        #expect(try read(tag.serialized().bytes).frames.first?.flags.encryptionMethod == 0x80)
    }

    @Test func paddingIsAddedAfterTheFrames() throws {
        let tag = try read(I.tag(frames: [I.frame("TIT2", I.text(["x"]))]))
        let bytes = try tag.serialized(padding: 100).bytes
        #expect(try read(bytes).paddingSize == 100)
        #expect(bytes.suffix(100).allSatisfy { $0 == 0 })
    }
}

@Suite struct ID3WrittenFilesReadByTagLibTests {
    @Test(arguments: [UInt8(3), UInt8(4)])
    func tagLibReadsWhatWeWrite(_ version: UInt8) throws {
        let (_, tag) = try fixtureTag("id3v24-full.mp3")
        let path = try mp3(with: try tag.serialized(version: version).bytes, name: "v2\(version).mp3")
        #expect(try crossCheck(path, requireTagLib: true) == [])
        let reading = try #require(TagLibReading.read(path))
        #expect(reading.id3v2Version == Int(version))
        #expect(reading.properties["TITLE"] == ["Fixture Title ♪"])
        #expect(reading.properties["ALBUM"] == ["Fixture Älbum ✓"])
        #expect(reading.properties["DATE"] == ["2021-06-01"])
        #expect(reading.properties["TRACKNUMBER"] == ["3/12"])
        #expect(reading.properties["CATALOGNUMBER"] == ["FIX-0001"])
        let pictures = reading.id3v2Frames.filter { $0["id"] as? String == "APIC" }
        #expect(pictures.map { $0["size"] as? Int } == [189, 1316])
        let comments = reading.id3v2Frames.filter { $0["id"] as? String == "COMM" }
        #expect(comments.compactMap { $0["description"] as? String } == ["", "Fixture note"])
        #expect(comments.compactMap { $0["text"] as? String } == ["Generated test fixture", "Ünïcödé note"])
        if version == 4 {
            #expect(reading.properties["COMPOSER"] == ["Composer One", "Composer Two"])
        }
        let chapters = reading.id3v2Frames.filter { $0["id"] as? String == "CHAP" }
        #expect(chapters.count == 2)
    }
}

@Suite struct TagLibWrittenFilesReadHereTests {
    @Test(arguments: [3, 4])
    func weReadWhatTagLibWrites(_ version: Int) throws {
        let path = try copyOfFixture("no-tags.mp3")
        #expect(TagLibReading.writeSample(to: path, version: version))
        let tag = try #require(try MPEGStreamFile(source: FileByteSource(path: path)).primaryTag)
        #expect(tag.majorVersion == UInt8(version))
        #expect(tag.diagnostics.isEmpty)
        #expect(tag.frames("TIT2").first?.textValues == ["TagLib Títle"])
        let artists = try #require(tag.frames("TPE1").first?.textValues)
        // TagLib separates several values with NUL in v2.3 too (the v2.3 text has no such
        // rule); this reader tolerates that and reads both values.
        #expect(artists == ["First Artist", "Zweite Künstlerin"])
        #expect(tag.frames("COMM").contains { $0.content == .comment(encoding: .utf16, language: "deu", description: "Notiz", text: "Grüße") })
        #expect(tag.frames("TXXX").first.map { if case (_, "CATALOGNUMBER", ["TL-0001"])? = $0.content.userText { true } else { false } } == true)
        guard case (_, "image/png", 3, "Cover", let data)? = tag.frames("APIC").first?.content.picture else {
            Issue.record("no APIC")
            return
        }
        #expect(data.count == 18)
        guard case ("ch0", 0, 1000, _, _, let subframes)? = tag.frames("CHAP").first?.content.chapter else {
            Issue.record("no CHAP")
            return
        }
        #expect(subframes.first?.textValues == ["Opening"])
        #expect(try crossCheck(path, requireTagLib: true) == [])
    }
}
