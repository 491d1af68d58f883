import Foundation
import Carriers
import ID3
import MediaBytes
import TagLibOracle
import TestSupport
import Testing

/// A copy of a fixture in a temporary directory (fixtures are never written to).
func copyOfFixture(_ name: String) throws -> String {
    try TemporaryFile.write(TemporaryFile.read(TestFixtures.path(name)), name: name)
}

func audioBytes(_ path: String) throws -> [UInt8] {
    let layout = try MPEGStreamFile(source: FileByteSource(path: path))
    let bytes = try TemporaryFile.read(path)
    return Array(bytes[Int(layout.audio.lowerBound)..<Int(layout.audio.upperBound)])
}

func retitled(_ tag: ID3v2Tag, _ title: String) -> ID3v2Tag {
    var tag = tag
    if let index = tag.frames.firstIndex(where: { $0.id == "TIT2" }) {
        tag.frames[index].content = .text(encoding: .utf8, values: [title])
    } else {
        tag.frames.insert(ID3Frame(id: "TIT2", content: .text(encoding: .utf8, values: [title])), at: 0)
    }
    return tag
}

@Suite struct ID3SavingTests {
    @Test func tagThatFitsThePaddingIsWrittenInPlace() throws {
        let path = try copyOfFixture("id3v23-utf16.mp3")
        let before = try TemporaryFile.read(path)
        let tag = try #require(try MPEGStreamFile(source: FileByteSource(path: path)).primaryTag)
        let outcome = try MPEGStreamFile.save(retitled(tag, "Short"), to: path)
        #expect(outcome.method == .inPlace)
        let after = try TemporaryFile.read(path)
        #expect(after.count == before.count)
        #expect(after[Int(tag.totalSize)...] == before[Int(tag.totalSize)...])
        let reread = try #require(try MPEGStreamFile(source: FileByteSource(path: path)).primaryTag)
        #expect(reread.frames("TIT2").first?.textValues == ["Short"])
        #expect(reread.totalSize == tag.totalSize)
    }

    @Test func tagThatDoesNotFitRewritesTheFileAndKeepsTheAudio() throws {
        let path = try copyOfFixture("id3v24-full.mp3")
        chmod(path, 0o640)
        let audio = try audioBytes(path)
        let tag = try #require(try MPEGStreamFile(source: FileByteSource(path: path)).primaryTag)
        let longTitle = String(repeating: "Long title ", count: 20)
        let outcome = try MPEGStreamFile.save(retitled(tag, longTitle), to: path, options: CarrierSaveOptions(padding: 512))
        #expect(outcome.method == .rewritten)
        let layout = try MPEGStreamFile(source: FileByteSource(path: path))
        #expect(layout.primaryTag?.frames("TIT2").first?.textValues == [longTitle])
        #expect(layout.primaryTag?.paddingSize == 512)
        #expect(try audioBytes(path) == audio)
        #expect(layout.id3v1?.title == String(longTitle.prefix(30)))
        var info = stat()
        stat(path, &info)
        #expect(info.st_mode & 0o777 == 0o640)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent).filter { $0.hasSuffix(".partial") }
        #expect(leftovers.isEmpty)
    }

    /// A rewrite that moves 64 MiB of audio or more rounds the padding up so that the audio
    /// moves by a multiple of 64 KiB (`CopyAlignment`); a padding of 0 stays 0, and a smaller
    /// file gets the padding asked for.
    @Test func aLargeRewriteMovesTheAudioByAMultipleOf64KiB() throws {
        let frames = try audioBytes(try copyOfFixture("no-tags.mp3"))
        let longTitle = String(repeating: "Long title ", count: 300)
        var large: [UInt8] = []
        large.reserveCapacity((64 << 20 / frames.count + 1) * frames.count)
        while large.count < 64 << 20 { large += frames }
        for (audio, aligned, padding) in [(large, true, 1024), (large, false, 0), (Array(large.prefix(100 * frames.count)), false, 1024)] {
            let path = try TemporaryFile.write(ID3Builder.tag(frames: [ID3Builder.frame("TIT2", ID3Builder.text(["Short"]))], padding: 16) + audio, name: "large.mp3")
            let before = try MPEGStreamFile(source: FileByteSource(path: path))
            let tag = try #require(before.primaryTag)
            let outcome = try MPEGStreamFile.save(retitled(tag, longTitle), to: path, options: CarrierSaveOptions(padding: padding))
            #expect(outcome.method == .rewritten)
            let after = try MPEGStreamFile(source: FileByteSource(path: path))
            let shift = Int64(after.audio.lowerBound) - Int64(before.audio.lowerBound)
            let written = try #require(after.primaryTag)
            #expect(written.frames("TIT2").first?.textValues == [longTitle])
            if aligned {
                #expect(shift % 65536 == 0, "\(shift)")
                #expect(written.paddingSize >= padding && written.paddingSize < padding + 65536)
            } else {
                #expect(written.paddingSize == padding)
            }
            #expect(after.audio.count == before.audio.count)
            let source = try FileByteSource(path: path)
            for at in [0, audio.count / 2, audio.count - frames.count] {
                #expect(try source.read(at: after.audio.lowerBound + UInt64(at), count: frames.count) == Array(audio[at..<at + frames.count]))
            }
        }
    }

    @Test func untaggedFileGetsATag() throws {
        let path = try copyOfFixture("no-tags.mp3")
        let audio = try audioBytes(path)
        let tag = retitled(try read(ID3Builder.tag(frames: [])), "Brand New")
        let outcome = try MPEGStreamFile.save(tag, to: path)
        #expect(outcome.method == .rewritten)
        let layout = try MPEGStreamFile(source: FileByteSource(path: path))
        #expect(layout.primaryTag?.majorVersion == 4)
        #expect(layout.primaryTag?.frames("TIT2").first?.textValues == ["Brand New"])
        #expect(layout.id3v1 == nil)
        #expect(try audioBytes(path) == audio)
    }

    /// The APE tag is kept byte for byte (only the tag given is written); the Lyrics3v2 block
    /// keeps its lyrics and indications, and its title (`ETT`) follows the tag, as the ID3v1
    /// tag does.
    @Test func apeIsKeptAndLyrics3AndV1FollowTheTag() throws {
        let path = try copyOfFixture("ape-lyrics3-id3v1.mp3")
        let before = try MPEGStreamFile(source: FileByteSource(path: path))
        let bytes = try TemporaryFile.read(path)
        let ape = Array(bytes[Int(before.apeBlock!.lowerBound)..<Int(before.apeBlock!.upperBound)])
        let title = String(repeating: "Grown ", count: 40)
        let outcome = try MPEGStreamFile.save(retitled(try #require(before.primaryTag), title), to: path)
        // The block's artist (`EAR`) was not the tag's either: both follow it.
        #expect(outcome.notes.contains("the Lyrics3v2 block's ETT, EAR follow the tag"), "\(outcome.notes)")
        let after = try MPEGStreamFile(source: FileByteSource(path: path))
        let newBytes = try TemporaryFile.read(path)
        #expect(Array(newBytes[Int(after.apeBlock!.lowerBound)..<Int(after.apeBlock!.upperBound)]) == ape)
        let lyrics = try #require(after.lyrics3)
        #expect(lyrics.fields.map(\.id) == before.lyrics3?.fields.map(\.id))
        #expect(lyrics.fields.first { $0.id == "ETT" }?.value == Array(title.utf8))
        #expect(lyrics.fields.first { $0.id == "LYR" } == before.lyrics3?.fields.first { $0.id == "LYR" })
        #expect(lyrics.fields.first { $0.id == "IND" } == before.lyrics3?.fields.first { $0.id == "IND" })
        #expect(after.id3v1?.title == "Grown Grown Grown Grown Grown")  // 30 characters, trailing space trimmed on reading
        #expect(after.id3v1?.track == 4)  // only the v1 tag had a track: kept
    }

    /// A title whose Lyrics3v2 field keeps its length is written in place, the block with it.
    @Test func aLyrics3FieldOfTheSameLengthIsWrittenInPlace() throws {
        let path = try copyOfFixture("ape-lyrics3-id3v1.mp3")
        // The first save brings the block in step (its artist and title change length: a
        // rewrite, which leaves padding in the tag); the second changes the title only.
        let first = try MPEGStreamFile(source: FileByteSource(path: path))
        #expect(try MPEGStreamFile.save(retitled(try #require(first.primaryTag), "Lyrics3 Title"), to: path).method == .rewritten)
        let size = try TemporaryFile.read(path).count
        let before = try MPEGStreamFile(source: FileByteSource(path: path))
        let outcome = try MPEGStreamFile.save(retitled(try #require(before.primaryTag), "Lyrics3 Tytle"), to: path)
        #expect(outcome.method == .inPlace)
        #expect(outcome.ranges.contains { $0.what == "Lyrics3v2 block" })
        #expect(try TemporaryFile.read(path).count == size)
        let after = try MPEGStreamFile(source: FileByteSource(path: path))
        #expect(after.lyrics3?.fields.first { $0.id == "ETT" }?.value == Array("Lyrics3 Tytle".utf8))
        #expect(after.lyrics3Block == before.lyrics3Block)
    }

    @Test func versionCanBeChosen() throws {
        let path = try copyOfFixture("id3v24-full.mp3")
        let tag = try #require(try MPEGStreamFile(source: FileByteSource(path: path)).primaryTag)
        let outcome = try MPEGStreamFile.save(tag, to: path, options: CarrierSaveOptions(version: 3))
        #expect(outcome.notes.contains("RVA2 dropped: ID3v2.4 only"))
        let saved = try #require(try MPEGStreamFile(source: FileByteSource(path: path)).primaryTag)
        #expect(saved.majorVersion == 3)
        #expect(saved.recordingDate == "2021-06-01")
        #expect(saved.frames("TIT2").first?.textValues == ["Fixture Title ♪"])
        #expect(saved.frames("IPLS").first?.textValues == ["producer", "Fixture Producer"])
        #expect(try crossCheck(path, requireTagLib: true) == [])
    }

    @Test func damagedTagIsNotWrittenOverAndTheFileIsUntouched() throws {
        var bytes = ID3Builder.tag(frames: [ID3Builder.frame("TIT2", ID3Builder.text(["x"]))])
        bytes[9] = 0x7F  // claims more than is there
        bytes += ID3Builder.mp3Frame() + ID3Builder.mp3Frame()
        let path = try TemporaryFile.write(bytes, name: "damaged.mp3")
        let tag = try read(ID3Builder.tag(frames: [ID3Builder.frame("TIT2", ID3Builder.text(["y"]))]))
        #expect(throws: CarrierError(.notWritable)) { try MPEGStreamFile.save(tag, to: path) }
        #expect(try TemporaryFile.read(path) == bytes)
    }

    @Test func fileWhoseFirstTagCannotBeReadIsRefused() throws {
        let unreadable = Array("ID3".utf8) + [5, 0, 0, 0, 0, 0, 0]  // an ID3v2.5 header, 0 bytes
        let bytes = unreadable + ID3Builder.tag(frames: [ID3Builder.frame("TIT2", ID3Builder.text(["x"]))]) + ID3Builder.mp3Frame() + ID3Builder.mp3Frame()
        let path = try TemporaryFile.write(bytes, name: "v25.mp3")
        #expect(throws: CarrierError(.notWritable)) { try MPEGStreamFile.save(try read(ID3Builder.tag(frames: [])), to: path) }
        #expect(try TemporaryFile.read(path) == bytes)
    }

    @Test func versionCanBeChosenOnlyAs3Or4() throws {
        let path = try copyOfFixture("id3v24-full.mp3")
        let tag = try #require(try MPEGStreamFile(source: FileByteSource(path: path)).primaryTag)
        #expect(throws: CarrierError(.notWritable)) { try MPEGStreamFile.save(tag, to: path, options: CarrierSaveOptions(version: 2)) }
    }

    @Test func fileWithoutAudioIsRefused() throws {
        let bytes = ID3Builder.tag(frames: [ID3Builder.frame("TIT2", ID3Builder.text(["x"]))]) + [UInt8](repeating: 0x55, count: 500)
        let path = try TemporaryFile.write(bytes, name: "noaudio.mp3")
        #expect(throws: CarrierError(.notWritable)) { try MPEGStreamFile.save(try read(Array(bytes.prefix(22))), to: path) }
        #expect(try TemporaryFile.read(path) == bytes)
    }

    @Test func savingThroughASymbolicLinkUpdatesTheTarget() throws {
        let target = try copyOfFixture("id3v24-full.mp3")
        let link = (target as NSString).deletingLastPathComponent + "/link.mp3"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let tag = try #require(try MPEGStreamFile(source: FileByteSource(path: link)).primaryTag)
        try MPEGStreamFile.save(retitled(tag, String(repeating: "Via link ", count: 30)), to: link)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(try MPEGStreamFile(source: FileByteSource(path: target)).primaryTag?.frames("TIT2").first?.textValues?.first?.hasPrefix("Via link") == true)
    }

    @Test func tagLibReadsTheSavedFile() throws {
        let path = try copyOfFixture("id3v23-utf16.mp3")
        let tag = try #require(try MPEGStreamFile(source: FileByteSource(path: path)).primaryTag)
        try MPEGStreamFile.save(retitled(tag, "Saved Títle"), to: path, options: CarrierSaveOptions(version: 4))
        let reading = try #require(TagLibReading.read(path))
        #expect(reading.properties["TITLE"] == ["Saved Títle"])
        let date = reading.id3v2Frames.first { $0["id"] as? String == "TDRC" }
        #expect(date?["values"] as? [String] == ["2019-03-07T14:30"])
        #expect(try crossCheck(path, requireTagLib: true) == [])
    }
}

@Suite struct IFFSavingTests {
    func chunks(_ path: String) throws -> IFFChunkFile { try IFFChunkFile(source: FileByteSource(path: path)) }

    @Test func aiffTagThatFitsIsWrittenInPlace() throws {
        let path = try copyOfFixture("aiff-id3.aiff")
        let before = try TemporaryFile.read(path)
        let file = try chunks(path)
        let outcome = try IFFChunkFile.save(retitled(try #require(file.id3Tag), "A"), to: path)
        #expect(outcome.method == .inPlace)
        #expect(try TemporaryFile.read(path).count == before.count)
        #expect(try chunks(path).id3Tag?.frames("TIT2").first?.textValues == ["A"])
    }

    @Test(arguments: ["aiff-id3.aiff", "wav-id3-info.wav"])
    func growingTagRewritesAndKeepsEveryOtherChunk(_ name: String) throws {
        let path = try copyOfFixture(name)
        let original = try TemporaryFile.read(path)
        let before = try chunks(path)
        let title = String(repeating: "Bigger title ", count: 40)
        let outcome = try IFFChunkFile.save(retitled(try #require(before.id3Tag), title), to: path)
        #expect(outcome.method == .rewritten)
        let after = try chunks(path)
        #expect(after.diagnostics.isEmpty)
        #expect(after.id3Tag?.frames("TIT2").first?.textValues == [title])
        #expect(after.root.children.map(\.id) == before.root.children.map(\.id))
        let written = try TemporaryFile.read(path)
        for (old, new) in zip(before.root.children, after.root.children) where old.id != "ID3 " && old.id != "id3 " {
            #expect(Array(original[Int(old.offset)..<Int(old.offset + old.totalSize)]) == Array(written[Int(new.offset)..<Int(new.offset + new.totalSize)]))
        }
        #expect(UInt64(written.count) == 8 + after.root.dataSize)
        #expect(try crossCheck(path, requireTagLib: true) == [])
    }

    /// Bytes after the end the `RIFF` declares (an appended tag, junk) are a note, carried over
    /// by a rewrite that grows the tag, which then verifies (it refused them as a fault); a
    /// declared size that leaves out the last chunk's pad byte does not make the rewrite write
    /// that byte twice.
    @Test(arguments: [false, true])
    func aRewriteCarriesTheBytesAfterTheDeclaredEndOver(padByteLeftOut: Bool) throws {
        var bytes = try TemporaryFile.read(TestFixtures.path("wav-id3-info.wav"))
        let declared = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        #expect(declared == bytes.count - 8)
        let trailer = Array("TRAILING JUNK".utf8)
        if padByteLeftOut {
            // An odd last chunk whose pad byte the RIFF size leaves out.
            let odd = Array("ISFT".utf8) + [3, 0, 0, 0] + Array("abc".utf8) + [0]
            bytes += odd
            let size = bytes.count - 8 - 1
            bytes.replaceSubrange(4..<8, with: [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24)])
        }
        bytes += trailer
        let path = try TemporaryFile.write(bytes, name: "trailing.wav")
        let before = try chunks(path)
        #expect(before.diagnostics.map(\.severity) == [.note])
        let title = String(repeating: "Bigger title ", count: 40)
        let outcome = try IFFChunkFile.save(retitled(try #require(before.id3Tag), title), to: path)
        #expect(outcome.method == .rewritten)
        let written = try TemporaryFile.read(path)
        #expect(Array(written.suffix(trailer.count)) == trailer)
        let after = try chunks(path)
        #expect(after.id3Tag?.frames("TIT2").first?.textValues == [title])
        #expect(after.root.children.map(\.id) == before.root.children.map(\.id))
        // (The chunks end where the RIFF now says, its size counting the pad byte, and the
        // trailer follows at once.)
        #expect(UInt64(written.count) == 8 + after.root.dataSize + UInt64(trailer.count))
        #expect(after.diagnostics.map(\.severity) == [.note])
    }

    @Test func wavWithoutATagGetsAnID3Chunk() throws {
        let bytes = Array("RIFF".utf8) + [36, 0, 0, 0] + Array("WAVE".utf8) + Array("fmt ".utf8) + [16, 0, 0, 0] + [UInt8](repeating: 1, count: 16)
            + Array("data".utf8) + [0, 0, 0, 0]
        let path = try TemporaryFile.write(bytes, name: "plain.wav")
        try IFFChunkFile.save(retitled(try read(ID3Builder.tag(frames: [])), "Wave"), to: path)
        let file = try chunks(path)
        #expect(file.root.children.map(\.id) == ["fmt ", "data", "id3 "])
        #expect(file.id3Tag?.frames("TIT2").first?.textValues == ["Wave"])
        #expect(TagLibReading.read(path)?.properties["TITLE"] == ["Wave"])
    }

    /// An ID3 chunk before 64 MiB of audio: the rewrite rounds the tag's padding up so that
    /// the audio chunk moves by a multiple of 64 KiB (`CopyAlignment`); a padding of 0 stays 0,
    /// and a tag after the audio (where a new one goes) moves nothing and keeps its padding.
    @Test(arguments: [(true, 1024, true), (true, 0, false), (false, 1024, false)])
    func aLargeWaveRewriteMovesTheAudioByAMultipleOf64KiB(tagFirst: Bool, padding: Int, aligned: Bool) throws {
        func le(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let audioSize = 64 << 20
        let tag = ID3Builder.tag(frames: [ID3Builder.frame("TIT2", ID3Builder.text(["Short"]))], padding: 16)
        let id3 = Array("id3 ".utf8) + le(tag.count) + tag + (tag.count % 2 == 1 ? [0] : [])
        let format = Array("fmt ".utf8) + le(16) + [1, 0, 2, 0, 0x44, 0xAC, 0, 0, 0x10, 0xB1, 2, 0, 4, 0, 16, 0]
        let dataHeader = Array("data".utf8) + le(audioSize)
        let body = tagFirst ? format + id3 + dataHeader : format + dataHeader
        let path = try TemporaryFile.write(Array("RIFF".utf8) + le(4 + body.count + audioSize + (tagFirst ? 0 : id3.count)) + Array("WAVE".utf8) + body, name: "large.wav")
        // The audio: sparse, with a marker in the middle; the tag after it when not first.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        let audioStart = UInt64(12 + body.count)
        try handle.seek(toOffset: audioStart + UInt64(audioSize / 2))
        try handle.write(contentsOf: [0xC0, 0xFF, 0xEE])
        try handle.truncate(atOffset: audioStart + UInt64(audioSize))
        try handle.seek(toOffset: audioStart + UInt64(audioSize))
        if !tagFirst { try handle.write(contentsOf: id3) }
        try handle.close()

        let before = try chunks(path)
        let data = try #require(before.root.children.first { $0.id == "data" })
        let longTitle = String(repeating: "Long title ", count: 300)
        let outcome = try IFFChunkFile.save(retitled(try #require(before.id3Tag), longTitle), to: path, options: CarrierSaveOptions(padding: padding))
        #expect(outcome.method == .rewritten)
        let after = try chunks(path)
        #expect(after.diagnostics.isEmpty)
        #expect(after.id3Tag?.frames("TIT2").first?.textValues == [longTitle])
        let newData = try #require(after.root.children.first { $0.id == "data" })
        let shift = Int64(newData.offset) - Int64(data.offset)
        let written = try #require(after.id3Tag)
        if aligned {
            #expect(shift % 65536 == 0 && shift > 0, "\(shift)")
            #expect(written.paddingSize >= padding && written.paddingSize < padding + 65536)
        } else {
            #expect(written.paddingSize == padding)
            #expect(tagFirst ? shift % 65536 != 0 : shift == 0)
        }
        #expect(try FileByteSource(path: path).read(at: newData.offset + 8 + UInt64(audioSize / 2), count: 3) == [0xC0, 0xFF, 0xEE])
    }

    @Test func truncatedChunksAreNotWrittenTo() throws {
        // FORM claims 20 bytes and SSND 100; the file has 16 and 4.
        let bytes = Array("FORM".utf8) + [0, 0, 0, 20] + Array("AIFF".utf8) + Array("SSND".utf8) + [0, 0, 0, 100] + [1, 2, 3, 4]
        let path = try TemporaryFile.write(bytes, name: "cut.aiff")
        #expect(throws: CarrierError(.notWritable)) { try IFFChunkFile.save(try read(ID3Builder.tag(frames: [])), to: path) }
        #expect(try TemporaryFile.read(path) == bytes)
    }
}
