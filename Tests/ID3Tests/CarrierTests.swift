import Foundation
import Carriers
import ID3
import MediaBytes
import TestSupport
import Testing

func stream(_ bytes: [UInt8]) throws -> MPEGStreamFile { try MPEGStreamFile(source: MemoryByteSource(bytes)) }

@Suite struct MPEGStreamFileTests {
    @Test func anADTSStreamIsTimedByItsFramesAndAStreamDamagedMidwayByItsAverageFrame() throws {
        let bytes = try TemporaryFile.read(TestFixtures.path("hls-timestamp.aac"))
        let whole = try stream(bytes)
        let frames = try #require(whole.adtsFrames)
        // 12 frames of 1024 samples at 22050 Hz (ffprobe: 0.557241 s, 12 packets).
        #expect(frames.count == 12)
        #expect(abs((whole.duration ?? 0) - 12 * 1024 / 22050.0) < 1e-9)
        // A broken sync word in frame 6 ends the walk there; the rest is timed by the average.
        var damaged = bytes
        var position = Int(whole.audio.lowerBound)
        for _ in 0..<5 { position += try #require(ADTSFrameHeader(damaged[position...])).frameLength }
        damaged[position] = 0
        let cut = try stream(damaged)
        #expect(cut.adtsFrames?.count == 5)
        #expect(abs((cut.duration ?? 0) - (whole.duration ?? 0)) < 0.06, "\(cut.duration ?? 0)")
    }

    let audio = [UInt8]((0..<4).flatMap { _ in I.mp3Frame() })
    let tag = I.tag(version: 3, frames: [I.frame("TIT2", I.text(["Song"], encoding: 0), version: 3)], padding: 16)

    func v1(_ title: String) -> [UInt8] {
        Array("TAG".utf8) + Array(title.utf8) + [UInt8](repeating: 0, count: 125 - title.utf8.count)
    }

    /// The readers of headers look at slices where they lie (a file's prefetched bytes): each
    /// reads from its slice's first byte, whatever its index in the array it is part of.
    @Test func headerReadersReadASliceFromItsOwnStart() throws {
        let junk = [UInt8](repeating: 0x20, count: 37)
        // ID3v1
        let v1Tag = try #require(ID3v1Tag((junk + v1("Title"))[junk.count...]))
        #expect(v1Tag.title == "Title")
        // A Xing header 32 bytes after an MPEG-1 stereo frame header: 100 frames, 41700 bytes.
        func word(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        let frame = [0xFF, 0xFB, 0x90, 0x00] + [UInt8](repeating: 0, count: 32) + Array("Xing".utf8) + word(3) + word(100) + word(41700)
            + [UInt8](repeating: 0, count: 417 - 52)
        let header = try #require(MPEGAudioFrameHeader((junk + frame)[junk.count...]))
        let xing = try #require(XingHeader(frame: (junk + frame)[junk.count...], header: header))
        #expect(xing.tag == "Xing" && xing.frameCount == 100 && xing.byteCount == 41700)
        #expect(XingHeader(frame: frame, header: header) == xing)
        // The stream search counts its offset from the slice's start.
        let bytes = junk + junk + audio
        #expect(MPEGStreamFile.streamStart(in: bytes[junk.count...])?.offset == junk.count)
        #expect(MPEGStreamFile.streamStart(in: bytes)?.offset == 2 * junk.count)
        // Transport packets: sync bytes 188 apart from the slice's start.
        var packets = [UInt8](repeating: 0, count: 3 * 188)
        for index in 0..<3 { packets[index * 188] = 0x47 }
        #expect(TransportStreamFile.layout((junk + packets)[junk.count...])! == (188, 0))
        #expect(TransportStreamFile.layout((junk + packets)[1...]) == nil)
    }

    @Test func leadingTagAudioAndFirstFrame() throws {
        let file = try stream(tag + audio)
        #expect(file.kind == .mp3)
        #expect(file.leadingTags.count == 1)
        #expect(file.primaryTag?.frames.first?.textValues == ["Song"])
        #expect(file.audio == UInt64(tag.count)..<UInt64(tag.count + audio.count))
        #expect(file.mpegHeader?.bitrate == 128)
        #expect(file.mpegHeader?.sampleRate == 44100)
        #expect(file.mpegHeader?.frameLength == 417)
    }

    @Test func severalLeadingTagsAndJunkBeforeTheAudio() throws {
        let file = try stream(tag + tag + [1, 2, 3] + audio)
        #expect(file.leadingTags.count == 2)
        #expect(file.junkBeforeAudio == UInt64(2 * tag.count)..<UInt64(2 * tag.count + 3))
        #expect(file.audio.lowerBound == UInt64(2 * tag.count + 3))
    }

    /// An ID3v2 tag after junk at the start is read by TagLib and by no other common reader
    /// (ffmpeg, mutagen, exiftool): not read here either, and said with a warning, so `check`
    /// reports a file whose readers disagree (before 2026-11-29 it counted as junk, no more).
    @Test func aTagInTheJunkBeforeTheAudioIsAWarning() throws {
        let file = try stream([0, 0, 0, 0, 0] + tag + audio)
        #expect(file.leadingTags.isEmpty)
        #expect(file.junkBeforeAudio == 0..<UInt64(5 + tag.count))
        let warning = try #require(file.diagnostics.first { $0.severity == .warning })
        #expect(warning.offset == 5)
        #expect(warning.message.hasPrefix("an ID3v2.\(tag[3]) tag of \(tag.count) bytes in the junk before the audio"), "\(warning.message)")
        #expect(warning.message.contains("read by TagLib when no tag starts the file"))
        // Junk without a tag header is a note, as before.
        #expect(!(try stream(tag + [1, 2, 3] + audio)).diagnostics.contains { $0.severity == .warning })
    }

    /// After junk, a stream is three frames in a row (two at the very start, as before): a
    /// false ADTS sync pair inside other data is not audio. And a WAV or AIFF file behind the
    /// tag (a tag put before it by another program) is said to be one, its samples not searched
    /// for frames: before 2026-11-29 such a WAV showed "aac, 88200 Hz, 3 channels".
    @Test func aFalseSyncInOtherDataAndAnIFFFileBehindTheTagAreNotAudio() throws {
        // Two ADTS headers that lead to each other (frame length 16), then nothing like a third.
        let adts: [UInt8] = [0xFF, 0xF1, 0x50, 0x80, 0x02, 0x1F, 0xFC] + [UInt8](repeating: 0x11, count: 9)
        let falseSync = [UInt8](repeating: 0x22, count: 40) + adts + adts + [UInt8](repeating: 0x33, count: 600)
        let junk = try stream(tag + falseSync)
        #expect(junk.kind == nil)
        #expect(junk.diagnostics.contains { $0.message.contains("no MPEG audio or ADTS frame") })
        // The same pair at the start of the audio is a (short) stream, as before.
        #expect(try stream(tag + adts + adts).kind == .aac)
        // Junk, then a real stream: found after the junk.
        let found = try stream(tag + falseSync + audio)
        #expect(found.kind == .mp3 && found.audio.lowerBound == UInt64(tag.count + falseSync.count))

        for (id, form, name) in [("RIFF", "WAVE", "a RIFF file (RIFF: WAV or another form)"), ("BW64", "WAVE", "a RIFF file (BW64: WAV or another form)"), ("FORM", "AIFF", "an IFF file (FORM: AIFF or another form)")] {
            let iff = Array(id.utf8) + [0, 2, 0, 0] + Array(form.utf8) + adts + adts + adts + [UInt8](repeating: 0, count: 500)
            let file = try stream(tag + iff)
            #expect(file.kind == nil, "\(id)")
            #expect(file.leadingTags.count == 1)
            #expect(file.diagnostics.contains { $0.message.contains("\(name) follows the ID3v2 tag") }, "\(file.diagnostics)")
        }
    }

    @Test func trailingID3v1APEAndLyrics3AreFound() throws {
        let apeItems = [UInt8](repeating: 0x41, count: 8)
        func apeHeader(_ flags: UInt32) -> [UInt8] {
            Array("APETAGEX".utf8) + [0xD0, 0x07, 0, 0] + [UInt8(32 + apeItems.count), 0, 0, 0] + [1, 0, 0, 0]
                + [UInt8(flags & 0xFF), 0, 0, UInt8(flags >> 24)] + [UInt8](repeating: 0, count: 8)
        }
        let ape = apeHeader(0xA000_0000) + apeItems + apeHeader(0x8000_0000)
        let lyricsBody = Array("LYRICSBEGIN".utf8) + Array("IND00002".utf8) + Array("10".utf8)
        let lyrics = lyricsBody + Array(String(lyricsBody.count).leftPad(6).utf8) + Array("LYRICS200".utf8)
        let file = try stream(tag + audio + ape + lyrics + v1("Old Title"))
        #expect(file.id3v1?.title == "Old Title")
        let audioEnd = UInt64(tag.count + audio.count)
        #expect(file.apeBlock == audioEnd..<audioEnd + UInt64(ape.count))
        #expect(file.lyrics3Block == audioEnd + UInt64(ape.count)..<audioEnd + UInt64(ape.count + lyrics.count))
        #expect(file.audio.upperBound == audioEnd)
    }

    @Test func appendedTagWithFooterIsFound() throws {
        var appended = I.tag(frames: [I.frame("TIT2", I.text(["End"]))])
        appended[5] |= 0x10
        appended += Array("3DI".utf8) + appended[3..<10]
        let file = try stream(audio + appended + v1("V1"))
        #expect(file.leadingTags.isEmpty)
        #expect(file.appendedTag?.frames.first?.textValues == ["End"])
        #expect(file.primaryTag?.frames.first?.textValues == ["End"])
        #expect(file.audio == 0..<UInt64(audio.count))
    }

    @Test func adtsStreamWithTransportStreamTimestamp() throws {
        let timestamp: UInt64 = 8_589_934_000  // needs all 33 bits
        let priv = I.frame("PRIV", Array(ID3v2Tag.transportStreamTimestampOwner.utf8) + [0] + AtomBuilder.be(timestamp, width: 8))
        let header: [UInt8] = [0xFF, 0xF1, 0x50, 0x80, 0x02, 0x1F, 0xFC]  // LC, 44.1 kHz, 2 ch, 16-byte frame
        let frame = header + [UInt8](repeating: 0, count: 9)
        let file = try stream(I.tag(frames: [priv]) + frame + frame)
        #expect(file.kind == .aac)
        #expect(file.adtsHeader?.sampleRate == 44100)
        #expect(file.adtsHeader?.channelConfiguration == 2)
        #expect(file.adtsHeader?.frameLength == 16)
        #expect(file.primaryTag?.transportStreamTimestamp == timestamp)
    }

    @Test func xingHeaderGivesFramesAndEncoder() throws {
        var first = I.mp3Frame()
        let start = 4 + 32
        first.replaceSubrange(start..<start + 12, with: Array("Xing".utf8) + [0, 0, 0, 1] + [0, 0, 0x03, 0xE8])
        first.replaceSubrange(start + 12..<start + 21, with: Array("LAME3.100".utf8))
        let file = try stream(first + audio)
        #expect(file.xingHeader?.tag == "Xing")
        #expect(file.xingHeader?.frameCount == 1000)
        #expect(file.xingHeader?.encoder == "LAME3.100")
        #expect(file.duration.map { abs($0 - 1000 * 1152 / 44100.0) < 0.001 } == true)
    }

    @Test func noAudioFrameIsADiagnosticNotAnError() throws {
        let file = try stream(tag + [UInt8](repeating: 0x55, count: 600))
        #expect(file.kind == nil)
        #expect(file.diagnostics.map(\.code) == ["malformed"])
    }
}

@Suite struct IFFChunkFileTests {
    func chunk(_ id: String, _ data: [UInt8], littleEndian: Bool) -> [UInt8] {
        let size = UInt32(data.count)
        let sizeBytes: [UInt8] = littleEndian
            ? [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24)]
            : [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
        return Array(id.utf8) + sizeBytes + data + (data.count % 2 == 1 ? [0] : [])
    }

    @Test func aiffWithAnID3Chunk() throws {
        let tag = I.tag(frames: [I.frame("TIT2", I.text(["Aiff Title"]))])
        let body = Array("AIFF".utf8) + chunk("COMM", [UInt8](repeating: 0, count: 18), littleEndian: false) + chunk("ID3 ", tag, littleEndian: false)
        let file = try IFFChunkFile(source: MemoryByteSource(chunk("FORM", body, littleEndian: false)))
        #expect(file.kind == .aiff)
        #expect(file.root.children.map(\.id) == ["COMM", "ID3 "])
        #expect(file.id3Tag?.frames.first?.textValues == ["Aiff Title"])
        #expect(file.diagnostics.isEmpty)
    }

    @Test func wavWithInfoAndID3Chunks() throws {
        let info = Array("INFO".utf8) + chunk("INAM", Array("Wav Title\0".utf8), littleEndian: true) + chunk("IART", Array("Who\0".utf8), littleEndian: true)
        let tag = I.tag(frames: [I.frame("TIT2", I.text(["Tag Title"]))])
        let body = Array("WAVE".utf8) + chunk("fmt ", [UInt8](repeating: 0, count: 16), littleEndian: true)
            + chunk("LIST", info, littleEndian: true) + chunk("id3 ", tag, littleEndian: true)
        let file = try IFFChunkFile(source: MemoryByteSource(chunk("RIFF", body, littleEndian: true)))
        #expect(file.kind == .wav)
        #expect((file.info?.entries ?? []).map(\.id) == ["INAM", "IART"])
        #expect((file.info?.entries ?? []).map(\.value) == ["Wav Title", "Who"])
        #expect(file.id3Tag?.frames.first?.textValues == ["Tag Title"])
    }

    /// Two INFO chunks of one ID: both values are read, and the inspector shows each chunk's
    /// own (it showed the first one's for both).
    @Test func twoInfoChunksOfOneIDEachShowTheirOwnValue() throws {
        let info = Array("INFO".utf8) + chunk("ICMT", Array("First\0".utf8), littleEndian: true) + chunk("INAM", Array("T\0".utf8), littleEndian: true)
            + chunk("ICMT", Array("Second\0".utf8), littleEndian: true)
        let body = Array("WAVE".utf8) + chunk("fmt ", [UInt8](repeating: 0, count: 16), littleEndian: true) + chunk("LIST", info, littleEndian: true)
        let file = try IFFChunkFile(source: MemoryByteSource(chunk("RIFF", body, littleEndian: true)))
        #expect((file.info?.entries ?? []).map(\.value) == ["First", "T", "Second"])
        let list = try #require(file.structure.describe(0).children.first { $0.type == "LIST" })
        #expect(list.children.map(\.summary) == ["\"First\"", "\"T\"", "\"Second\""])
    }

    /// A chunk ID outside ASCII (a damaged `SSND`) is noted and stepped over by its size: the
    /// ID3 chunk after it is still read, as ffmpeg reads it (TagLib stops there).
    @Test func aChunkIDOutsideASCIIIsReportedAndSteppedOver() throws {
        let tag = I.tag(frames: [I.frame("TIT2", I.text(["After"]))])
        let body = Array("AIFF".utf8) + chunk("COMM", [UInt8](repeating: 0, count: 18), littleEndian: false)
            + [0x53, 0x53, 0x4E, 0xC4, 0, 0, 0, 4, 1, 2, 3, 4] + chunk("ID3 ", tag, littleEndian: false)
        let file = try IFFChunkFile(source: MemoryByteSource(chunk("FORM", body, littleEndian: false)))
        #expect(file.id3Tag?.frames.first?.textValues == ["After"])
        #expect(file.diagnostics.contains { $0.offset == 38 && $0.message.contains("is not four ASCII characters") })
    }

    /// A `RIFF` declaring fewer bytes than its form type needs (1) is read to the end of the
    /// file, with a warning; bytes after a declared end that is kept are a note.
    @Test func aRIFFSizeTooSmallForItsFormTypeIsReadToTheEnd() throws {
        let info = Array("INFO".utf8) + chunk("IART", Array("Who\0".utf8), littleEndian: true)
        var bytes = chunk("RIFF", Array("WAVE".utf8) + chunk("fmt ", [UInt8](repeating: 0, count: 16), littleEndian: true) + chunk("LIST", info, littleEndian: true), littleEndian: true)
        bytes[4] = 1
        let file = try IFFChunkFile(source: MemoryByteSource(bytes))
        #expect((file.info?.entries ?? []).map(\.value) == ["Who"])
        #expect(file.diagnostics.contains { $0.severity == .warning && $0.message.contains("too few for its form type") })
        bytes[4] = 28  // WAVE and the fmt chunk
        let short = try IFFChunkFile(source: MemoryByteSource(bytes))
        #expect(short.info == nil)
        #expect(short.diagnostics.map(\.severity) == [.note])
        #expect(short.diagnostics.first?.message.contains("bytes after the end RIFF declares (28 bytes) are not read as chunks") == true)
    }

    /// An `RF64` without its `ds64` chunk (a damaged `RIFF` ID) is read with its 32-bit sizes,
    /// with a warning, as TagLib and ffmpeg read it (it was refused).
    @Test func anRF64WithoutItsDS64IsReadWithThe32BitSizes() throws {
        let info = Array("INFO".utf8) + chunk("IART", Array("Who\0".utf8), littleEndian: true)
        var bytes = chunk("RIFF", Array("WAVE".utf8) + chunk("fmt ", [UInt8](repeating: 0, count: 16), littleEndian: true) + chunk("LIST", info, littleEndian: true), littleEndian: true)
        bytes.replaceSubrange(0..<4, with: Array("RF64".utf8))
        let file = try IFFChunkFile(source: MemoryByteSource(bytes))
        #expect((file.info?.entries ?? []).map(\.value) == ["Who"])
        #expect(file.diagnostics.contains { $0.offset == 12 && $0.message.contains("read with the 32-bit sizes") })
    }

    /// An RF64 without its `ds64`, sizes -1 (unknown), past 4 GiB (a sparse file): the chunks
    /// and the `data` chunk run to the end of the file, not to 4 GiB.
    @Test func anRF64WithoutItsDS64PastFourGiBIsReadToItsEnd() throws {
        let header = Array("RF64".utf8) + [0xFF, 0xFF, 0xFF, 0xFF] + Array("WAVE".utf8) + chunk("fmt ", [UInt8](repeating: 0, count: 16), littleEndian: true)
            + Array("data".utf8) + [0xFF, 0xFF, 0xFF, 0xFF]
        let path = try TemporaryFile.write(header, name: "huge.wav")
        let size: UInt64 = 5 << 30
        #expect(truncate(path, off_t(size)) == 0)
        let file = try IFFChunkFile(source: FileByteSource(path: path))
        #expect(file.root.dataSize == size - 8)
        let data = try #require(file.root.children.last)
        #expect(data.id == "data" && data.dataOffset + data.dataSize == size)
        #expect(file.diagnostics.contains { $0.message.contains("declares -1 bytes") })
    }

    @Test func truncatedChunkIsADiagnostic() throws {
        var bytes = chunk("FORM", Array("AIFF".utf8) + chunk("SSND", [1, 2, 3, 4], littleEndian: false), littleEndian: false)
        bytes[19] = 200
        let file = try IFFChunkFile(source: MemoryByteSource(bytes))
        #expect(file.diagnostics.map(\.code) == ["truncated"])
        #expect(file.root.children.first?.dataSize == 4)
    }

    @Test func otherDataIsRefused() {
        #expect(throws: CarrierError(.unrecognized)) { try IFFChunkFile(source: MemoryByteSource(Array("OggS\0\0\0\0\0\0\0\0".utf8))) }
    }
}

@Suite(.enabled(if: FileManager.default.fileExists(atPath: TestFixtures.corpusDirectory + "/MANIFEST.md"), "../shared/corpus is not beside the project"))
struct ID3CorpusTests {
    @Test func everyMP3AACAIFFAndWAVFileGivesTagsOrAClearError() throws {
        let files = try FileManager.default.subpathsOfDirectory(atPath: TestFixtures.corpusDirectory).sorted()
        var read = 0
        for file in files where ["mp3", "aac", "aiff", "aif", "aifc", "wav"].contains((file as NSString).pathExtension.lowercased()) {
            let path = TestFixtures.corpusDirectory + "/" + file
            let start = threadCPUSeconds()
            do {
                _ = try primaryID3Tag(path)
                read += 1
            } catch let error as ID3Error {
                #expect(!error.message.isEmpty, "\(file)")
            }
            #expect(threadCPUSeconds() - start < 1, "\(file) took too long")
        }
        #expect(read > 150)
    }
}


@Suite struct IFFAudioFormatTests {
    @Test func aiffCommonChunkWithExtendedSampleRate() throws {
        let file = try IFFChunkFile(source: FileByteSource(path: TestFixtures.path("aiff-id3.aiff")))
        let format = try #require(file.audioFormat)
        #expect(format.channels == 1)
        #expect(format.sampleRate == 8000)
        #expect(format.bitsPerSample == 16)
        #expect(format.frameCount == 2000)
    }

    @Test func wavFormatChunk() throws {
        let file = try IFFChunkFile(source: FileByteSource(path: TestFixtures.path("wav-id3-info.wav")))
        let format = try #require(file.audioFormat)
        #expect(format.formatTag == 1)
        #expect(format.sampleRate == 8000)
        #expect(format.channels == 1)
    }
}

/// Every APE tag in the corpus reads to a tag or a diagnostic, and an unchanged tag read
/// without problems serializes to the bytes it was read from.
@Suite(.enabled(if: FileManager.default.fileExists(atPath: TestFixtures.corpusDirectory + "/MANIFEST.md"), "../shared/corpus is not beside the project"))
struct CorpusAPETagTests {
    @Test func everyAPETagReadsAndWritesBackItsBytes() throws {
        let files = try FileManager.default.subpathsOfDirectory(atPath: TestFixtures.corpusDirectory).sorted()
            .filter { ["mp3", "aac"].contains(($0 as NSString).pathExtension.lowercased()) && !$0.hasPrefix("oracles") }
        var withTag = 0, roundTripped = 0, withProblems = 0
        for file in files {
            let path = TestFixtures.corpusDirectory + "/" + file
            let bytes = try TemporaryFile.read(path)
            // APE tags sit at the end: look for the preamble in the last 256 KiB.
            let tail = bytes.suffix(256 << 10)
            let preamble = Array("APETAGEX".utf8)
            guard tail.count >= 32, (tail.startIndex...(tail.endIndex - 8)).contains(where: { tail[$0] == 0x41 && tail[$0..<$0 + 8].elementsEqual(preamble) }) else { continue }
            let stream = try MPEGStreamFile(source: FileByteSource(path: path))
            let apeProblems = stream.diagnostics.filter { $0.path.hasPrefix("APEv2") }
            guard let tag = stream.apeTag, let range = stream.apeBlock else {
                // The bytes are an APE preamble the reader could not place: it says so, or the
                // preamble is not at the end of the stream (inside audio or another tag).
                if !apeProblems.isEmpty { withProblems += 1 }
                continue
            }
            withTag += 1
            if apeProblems.isEmpty {
                #expect(tag.serialized() == Array(bytes[Int(range.lowerBound)..<Int(range.upperBound)]), "\(file)")
                roundTripped += 1
            } else {
                withProblems += 1
            }
        }
        print("APE tags in the corpus: \(withTag) read, \(roundTripped) written back byte for byte, \(withProblems) with problems reported")
        #expect(withTag >= 5)
    }
}
