import ID3
import MediaBytes
import TestSupport
import Testing

typealias I = ID3Builder

func read(_ bytes: [UInt8]) throws -> ID3v2Tag { try ID3v2Tag(parsing: bytes, at: 0) }

@Suite struct ID3HeaderTests {
    @Test func versionFlagsAndSizeAreRead() throws {
        let tag = try read(I.tag(version: 3, frames: [I.frame("TIT2", I.text(["Hi"], encoding: 0), version: 3)], padding: 20))
        #expect(tag.majorVersion == 3)
        #expect(tag.frames.map(\.id) == ["TIT2"])
        #expect(tag.paddingSize == 20)
        #expect(tag.totalSize == 10 + 13 + 20)  // header, TIT2 (10 + 3), padding
    }

    @Test func notATagAndUnknownVersionsAreErrors() {
        #expect(throws: ID3Error(.notATag)) { try read(Array("ID4\u{4}\0\0\0\0\0\0".utf8)) }
        #expect(throws: ID3Error(.unsupportedVersion)) { try read(Array("ID3".utf8) + [5, 0, 0, 0, 0, 0, 0]) }
    }

    @Test func tagLongerThanTheDataIsReadAsFarAsItGoes() throws {
        let bytes = I.tag(frames: [I.frame("TIT2", I.text(["Hi"])), I.frame("TPE1", I.text(["Artist"]))])
        let tag = try read(Array(bytes.dropLast(3)))
        #expect(tag.frames.map(\.id) == ["TIT2"])
        #expect(tag.diagnostics.map(\.code).contains("truncated"))
    }

    @Test func v23ExtendedHeaderWithCRCAndPadding() throws {
        let frames = I.frame("TIT2", I.text(["Hi"], encoding: 0), version: 3)
        let extended: [UInt8] = [0, 0, 0, 10, 0x80, 0, 0, 0, 0, 4, 0xDE, 0xAD, 0xBE, 0xEF]
        let tag = try read(I.tag(version: 3, flags: 0x40, extended + frames + [0, 0, 0, 0]))
        #expect(tag.extendedHeader?.crc == 0xDEAD_BEEF)
        #expect(tag.extendedHeader?.paddingSize == 4)
        #expect(tag.frames.count == 1)
        #expect(tag.paddingSize == 4)
    }

    @Test func v24ExtendedHeaderWithRestrictions() throws {
        let extended: [UInt8] = [0, 0, 0, 8, 1, 0x10, 1, 0x42]
        let tag = try read(I.tag(version: 4, flags: 0x40, extended + I.frame("TIT2", I.text(["Hi"]))))
        #expect(tag.extendedHeader?.restrictions == 0x42)
        #expect(tag.frames.first?.textValues == ["Hi"])
    }

    @Test func paddingThatIsNotZeroIsADiagnostic() throws {
        let tag = try read(I.tag(frames: [I.frame("TIT2", I.text(["Hi"])), [0, 0, 7, 0]]))
        #expect(tag.diagnostics.map(\.code) == ["padding"])
        #expect(tag.paddingSize == 4)
    }

    @Test func invalidFrameIDStopsTheWalkWithADiagnostic() throws {
        let tag = try read(I.tag(frames: [I.frame("TIT2", I.text(["Hi"])), Array("ti!2".utf8) + [0, 0, 0, 1, 0, 0, 0]]))
        #expect(tag.frames.count == 1)
        #expect(tag.diagnostics.first?.code == "invalidFrame")
        #expect(tag.diagnostics.first?.offset == 10 + 13)
    }

    @Test func frameLargerThanTheTagIsADiagnostic() throws {
        var frame = I.frame("TIT2", I.text(["Hi"]))
        frame[7] = 100
        let tag = try read(I.tag(frames: [frame]))
        #expect(tag.frames.isEmpty)
        #expect(tag.diagnostics.first?.code == "invalidFrameSize")
        #expect(tag.diagnostics.first?.path == "TIT2")
    }
}

@Suite struct UnsynchronisationTests {
    @Test func decodeRemovesTheZeroAfterEachFFOnce() {
        #expect(ID3Unsynchronisation.decode([0xFF, 0x00, 0xE0, 0xFF, 0x00, 0x00, 0x01]) == [0xFF, 0xE0, 0xFF, 0x00, 0x01])
        #expect(ID3Unsynchronisation.decode(ID3Unsynchronisation.encode([0xFF, 0xF0, 0xFF, 0x00, 0xFF])) == [0xFF, 0xF0, 0xFF, 0x00, 0xFF])
    }

    @Test func v23WholeTagUnsynchronisationIsUndone() throws {
        let picture: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0xFF, 0x00]
        let body = [0] + Array("image/jpeg".utf8) + [0, 3, 0] + picture
        let frames = I.frame("APIC", body, version: 3)
        let tag = try read(I.tag(version: 3, flags: 0x80, ID3Unsynchronisation.encode(frames)))
        guard case (_, let mime, let type, _, let data)? = tag.frames.first?.content.picture else {
            Issue.record("no picture: \(tag.frames)")
            return
        }
        #expect(mime == "image/jpeg")
        #expect(type == 3)
        #expect(Array(try data.bytes()) == picture)
    }

    @Test func v24FrameUnsynchronisationIsUndonePerFrame() throws {
        let body = Array("o".utf8) + [0, 0xFF, 0xE1, 0xFF, 0x00]
        let tag = try read(I.tag(frames: [I.frame("PRIV", ID3Unsynchronisation.encode(body), flags: (0, 0x02))]))
        guard case (let owner, let data)? = tag.frames.first?.content.privateData else {
            Issue.record("no PRIV")
            return
        }
        #expect(owner == "o")
        #expect(data == [0xFF, 0xE1, 0xFF, 0x00])
        #expect(tag.frames.first?.flags.unsynchronised == true)
    }

    @Test func v24HeaderFlagAloneAlsoUndoesFrameUnsynchronisation() throws {
        let body: [UInt8] = Array("o".utf8) + [0, 0xFF, 0xE1]
        let tag = try read(I.tag(version: 4, flags: 0x80, I.frame("PRIV", ID3Unsynchronisation.encode(body))))
        guard case (_, let data)? = tag.frames.first?.content.privateData else {
            Issue.record("no PRIV")
            return
        }
        #expect(data == [0xFF, 0xE1])
    }
}

@Suite struct FrameFlagTests {
    @Test func compressedV24FrameIsInflated() throws {
        // zlib of "\u{03}Hello" (a UTF-8 text frame body), made with Python's zlib.compress.
        let compressed: [UInt8] = [0x78, 0x9C, 0x63, 0xF6, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00, 0x05, 0x9F, 0x01, 0xF8]
        let body = SyncsafeInteger.encode(6)! + compressed
        let tag = try read(I.tag(frames: [I.frame("TIT2", body, flags: (0, 0x09))]))
        #expect(tag.frames.first?.textValues == ["Hello"])
        #expect(tag.frames.first?.flags.compressed == true)
        #expect(tag.frames.first?.flags.dataLength == 6)
    }

    @Test func compressedV23FrameIsInflated() throws {
        let compressed: [UInt8] = [0x78, 0x9C, 0x63, 0xF6, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00, 0x05, 0x9F, 0x01, 0xF8]
        let tag = try read(I.tag(version: 3, frames: [I.frame("TIT2", [0, 0, 0, 6] + compressed, version: 3, flags: (0, 0x80))]))
        #expect(tag.frames.first?.textValues == ["Hello"])
    }

    /// Frames that each inflate to just over the per-frame limit: the first attempt is paid
    /// for out of the tag's budget and the rest are not inflated at all, whether or not they
    /// declare their size (v2.4 without a data length indicator must be inflated to find out).
    @Test(arguments: [true, false])
    func framesInflatingPastTheLimitSpendOneBudget(declaringSize: Bool) throws {
        let size = ID3v2Tag.maxDecompressedFrameSize + 1024
        let stream = I.zlibZeros(size)
        let body = declaringSize ? SyncsafeInteger.encode(UInt32(size))! + stream : stream
        let frame = I.frame("TIT2", body, flags: (0, declaringSize ? 0x09 : 0x08))
        let tag = try read(I.tag(frames: Array(repeating: frame, count: 20) + [I.frame("TALB", I.text(["kept"]))]))
        let messages = tag.diagnostics.filter { $0.code == "compression" }.map(\.message)
        #expect(messages.count == 20)
        // Without a declared size the first frame is inflated up to the limit and its bytes
        // spend the budget; with one, no frame is inflated.
        let spent = messages.filter { $0.contains("budget (\(ID3v2Tag.maxDecompressedTagSize) bytes) is spent") }.count
        let refusedUnread = messages.filter { $0.contains("more than the") }.count
        if declaringSize {
            #expect(refusedUnread == 20)
        } else {
            #expect(spent == 19, "\(messages.prefix(3))")
        }
        #expect(tag.frames.filter { $0.id == "TIT2" }.allSatisfy { $0.content.kind == .binary })
        #expect(tag.frames.last?.textValues == ["kept"])
    }

    /// Tags read with one budget share it: a file's second tag cannot inflate what the first spent.
    @Test func tagsReadWithOneBudgetShareIt() throws {
        let size = 12 << 20
        // A private frame of 12 MiB of zeros: it fits the per-frame limit.
        let frame = I.frame("PRIV", SyncsafeInteger.encode(UInt32(size + 1))! + I.zlibZeros(size + 1), flags: (0, 0x09))
        let small: [UInt8] = Array("\u{03}x".utf8)
        let second = I.frame("TIT2", SyncsafeInteger.encode(UInt32(small.count))! + I.zlibStored(small), flags: (0, 0x09))
        var budget = ID3v2Tag.maxDecompressedTagSize
        _ = try ID3v2Tag(parsing: I.tag(frames: [frame])[...], decompressionBudget: &budget)
        #expect(budget == ID3v2Tag.maxDecompressedTagSize - (size + 1))
        let big = try ID3v2Tag(parsing: I.tag(frames: [frame])[...], decompressionBudget: &budget)
        #expect(big.diagnostics.contains { $0.message.contains("more than the") })
        let after = try ID3v2Tag(parsing: I.tag(frames: [second])[...], decompressionBudget: &budget)
        #expect(after.frames.first?.textValues == ["x"], "a small frame still fits what is left")
        // Alone, each tag has a whole budget.
        #expect(try ID3v2Tag(parsing: I.tag(frames: [frame])).diagnostics.allSatisfy { $0.code != "compression" })
    }

    @Test func decompressionBeyondTheLimitIsRefusedAndKeptAsBytes() throws {
        // The data length indicator says 2 bytes; the stream inflates to 6.
        let compressed: [UInt8] = [0x78, 0x9C, 0x63, 0xF6, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00, 0x05, 0x9F, 0x01, 0xF8]
        let body = SyncsafeInteger.encode(2)! + compressed
        let tag = try read(I.tag(frames: [I.frame("TIT2", body, flags: (0, 0x09))]))
        #expect(tag.diagnostics.map(\.code) == ["compression"])
        guard tag.frames.first?.content.kind == .binary else {
            Issue.record("expected bytes kept")
            return
        }
    }

    @Test func encryptedFramesAreKeptOpaque() throws {
        let tag = try read(I.tag(frames: [I.frame("TIT2", [0x80, 1, 2, 3], flags: (0, 0x04))]))
        #expect(tag.frames.first?.flags.encryptionMethod == 0x80)
        #expect(tag.frames.first?.content == .binary([1, 2, 3]))
        #expect(tag.diagnostics.map(\.code) == ["encrypted"])
    }

    @Test func groupingAndStatusFlagsAreKept() throws {
        let tag = try read(I.tag(frames: [I.frame("TIT2", [7] + I.text(["G"]), flags: (0x60, 0x40))]))
        let flags = try #require(tag.frames.first?.flags)
        #expect(flags.groupID == 7)
        #expect(flags.discardOnTagAlter)
        #expect(flags.discardOnFileAlter)
        #expect(tag.frames.first?.textValues == ["G"])
    }

    @Test func v24PlainSizeThatIsAlsoAValidSyncsafeSizeIsTolerated() throws {
        // 300 = 00 00 01 2C: valid as syncsafe (172) but wrong; the next frame header tells.
        let body = Array("owner".utf8) + [0] + [UInt8]((0..<294).map { UInt8($0 % 2) })
        let frames = I.frame("PRIV", body, plainSize: true) + I.frame("TPE1", I.text(["A"]), plainSize: true) + I.frame("TIT2", I.text(["T"]), plainSize: true)
        let tag = try read(I.tag(frames, padding: 10))
        #expect(tag.frames.map(\.id) == ["PRIV", "TPE1", "TIT2"])
    }

    @Test func tagInsideALargerBufferIsReadFromItsSlice() throws {
        let extended: [UInt8] = [0, 0, 0, 6, 0, 0, 0, 0, 0, 0]
        let tag = I.tag(version: 3, flags: 0x40, extended + I.frame("TIT2", I.text(["Inner"], encoding: 0), version: 3))
        let buffer = [UInt8](repeating: 0xEE, count: 100) + tag
        let parsed = try ID3v2Tag(parsing: buffer[100...], at: 100)
        #expect(parsed.frames.first?.textValues == ["Inner"])
        #expect(parsed.frames.first?.offset == 100 + 10 + 10)
    }

    @Test func extendedHeaderThatDoesNotFitIsADiagnostic() throws {
        let tag = try read(I.tag(version: 3, flags: 0x40, [0, 0, 0, 10, 0, 0, 0, 0, 0, 0]))
        #expect(tag.diagnostics.map(\.code) == ["invalidExtendedHeader"])
    }

    @Test func deeplyNestedChaptersStopAtTheDepthLimit() throws {
        var inner = I.frame("TIT2", I.text(["x"]))
        for _ in 0..<50 { inner = I.frame("CHAP", Array("c".utf8) + [0] + [UInt8](repeating: 0, count: 16) + inner) }
        let tag = try read(I.tag(inner))
        #expect(tag.frames.count == 1)
        #expect(tag.diagnostics.contains { $0.message.contains("nested") })
    }

    @Test func veryLongValueListsAreCapped() throws {
        let values = (0..<3000).map(String.init)
        let tag = try read(I.tag(frames: [I.frame("TPE1", I.text(values))]))
        let read = try #require(tag.frames.first?.textValues)
        #expect(read.count == ID3TextEncoding.maxValues)
        #expect(read.last?.hasPrefix("999") == true)
    }

    @Test func utf16ValuesWithoutBOMFollowTheFirstValuesByteOrder() throws {
        let body: [UInt8] = [1, 0xFE, 0xFF, 0, 0x41, 0, 0, 0, 0x42]
        let tag = try read(I.tag(frames: [I.frame("TPE1", body)]))
        #expect(tag.frames.first?.textValues == ["A", "B"])
    }

    /// An unchanged frame is written as it was read, header and body; a v2.4 frame whose writer
    /// put a plain size in its header is written with a syncsafe one, and in v2.3 a frame is
    /// encoded for that version.
    @Test func unchangedFramesAreWrittenAsReadInTheirOwnVersion() throws {
        let long = String(repeating: "x", count: 200)
        let plain = I.frame("TIT2", I.text([long]), plainSize: true)
        let canonical = I.frame("TPE1", I.text(["A"]), flags: (0x00, 0x00))
        let flagged = I.frame("TALB", I.text(["B"]), flags: (0x40, 0x00))
        let tag = try read(I.tag(plain + canonical + flagged, padding: 10))
        func written(_ index: Int, version: UInt8) throws -> [UInt8]? {
            try ID3v2Tag.frameBytes(tag.frames[index], version: version)?.materialized()
        }
        #expect(try written(1, version: 4) == canonical)
        #expect(try written(2, version: 4) == flagged)
        #expect(try written(0, version: 4) == I.frame("TIT2", I.text([long])))
        // Another version: made from the content, with that version's size form (plain in v2.3).
        let v23 = try #require(try written(0, version: 3))
        #expect(Array(v23[4..<8]) == AtomBuilder.be(UInt64(v23.count - 10), width: 4))
        #expect(v23.count - 10 > 127)
    }

    @Test func v24PlainSizesAreTolerated() throws {
        let long = String(repeating: "x", count: 200)
        let frames = I.frame("TIT2", I.text([long]), plainSize: true) + I.frame("TPE1", I.text(["A"]), plainSize: true)
        let tag = try read(I.tag(frames, padding: 10))
        #expect(tag.frames.map(\.id) == ["TIT2", "TPE1"])
        #expect(tag.frames.first?.textValues == [long])
    }
}

@Suite struct TextFrameTests {
    @Test func allFourEncodings() throws {
        for encoding: UInt8 in 0...3 {
            let tag = try read(I.tag(frames: [I.frame("TIT2", I.text(["Café"], encoding: encoding))]))
            #expect(tag.frames.first?.textValues == ["Café"], "encoding \(encoding)")
        }
    }

    @Test func multipleValuesAndDoubledTerminators() throws {
        let tag = try read(I.tag(frames: [I.frame("TPE1", I.text(["A", "B"], terminate: true) + [0])]))
        #expect(tag.frames.first?.textValues == ["A", "B"])
    }

    @Test func utf16WithoutBOMIsReadLittleEndianAndOddBytesAreIgnored() throws {
        let body: [UInt8] = [1, 0x48, 0x00, 0x69, 0x00, 0x21]
        let tag = try read(I.tag(frames: [I.frame("TIT2", body)]))
        #expect(tag.frames.first?.textValues == ["Hi"])
    }

    @Test func userTextHasDescriptionAndValues() throws {
        let body: [UInt8] = [3] + Array("CATALOGNUMBER".utf8) + [0] + Array("CAT-1".utf8)
        let tag = try read(I.tag(frames: [I.frame("TXXX", body)]))
        #expect(tag.frames.first?.content == .userText(encoding: .utf8, description: "CATALOGNUMBER", values: ["CAT-1"]))
    }

    @Test func urlFrames() throws {
        let tag = try read(I.tag(frames: [
            I.frame("WOAR", Array("https://a.example".utf8)),
            I.frame("WXXX", [0] + Array("home".utf8) + [0] + Array("https://b.example".utf8)),
        ]))
        #expect(tag.frames[0].content == .url("https://a.example"))
        #expect(tag.frames[1].content == .userURL(encoding: .latin1, description: "home", url: "https://b.example"))
    }
}

@Suite struct TypedFrameTests {
    @Test func commentWithLanguageAndDescription() throws {
        let body: [UInt8] = [0] + Array("eng".utf8) + Array("desc".utf8) + [0] + Array("text".utf8)
        let tag = try read(I.tag(frames: [I.frame("COMM", body), I.frame("USLT", body)]))
        #expect(tag.frames[0].content == .comment(encoding: .latin1, language: "eng", description: "desc", text: "text"))
        #expect(tag.frames[1].content == .comment(encoding: .latin1, language: "eng", description: "desc", text: "text"))
    }

    @Test func syncedLyrics() throws {
        let body: [UInt8] = [0] + Array("eng".utf8) + [2, 1] + [0] + Array("la".utf8) + [0, 0, 0, 0x03, 0xE8]
        let tag = try read(I.tag(frames: [I.frame("SYLT", body)]))
        guard case (_, let language, let format, _, _, let lines)? = tag.frames.first?.content.syncedLyrics else {
            Issue.record("no SYLT")
            return
        }
        #expect(language == "eng")
        #expect(format == 2)
        #expect(lines == [.init(text: "la", time: 1000)])
    }

    @Test func pictureObjectPrivateAndUniqueID() throws {
        let tag = try read(I.tag(frames: [
            I.frame("APIC", [3] + Array("image/png".utf8) + [0, 4] + Array("back".utf8) + [0, 0x89, 0x50]),
            I.frame("GEOB", [0] + Array("text/plain".utf8) + [0] + Array("a.txt".utf8) + [0] + Array("d".utf8) + [0, 1, 2]),
            I.frame("PRIV", Array("owner".utf8) + [0, 9]),
            I.frame("UFID", Array("http://musicbrainz.org".utf8) + [0] + Array("abc".utf8)),
        ]))
        #expect(tag.frames[0].content == .picture(encoding: .utf8, mimeType: "image/png", pictureType: 4, description: "back", data: [0x89, 0x50]))
        #expect(tag.frames[1].content == .object(encoding: .latin1, mimeType: "text/plain", filename: "a.txt", description: "d", data: [1, 2]))
        #expect(tag.frames[2].content == .privateData(owner: "owner", data: [9]))
        #expect(tag.frames[3].content == .uniqueFileID(owner: "http://musicbrainz.org", identifier: Array("abc".utf8)))
    }

    @Test func popularimeterAndPlayCounter() throws {
        let tag = try read(I.tag(frames: [
            I.frame("POPM", Array("a@b".utf8) + [0, 196, 0, 0, 0, 5]),
            I.frame("PCNT", [0, 0, 1, 0]),
        ]))
        #expect(tag.frames[0].content == .popularimeter(email: "a@b", rating: 196, counter: 5))
        #expect(tag.frames[1].content == .playCounter(256))
    }

    @Test func chaptersAndTableOfContentsWithEmbeddedFrames() throws {
        let title = I.frame("TIT2", I.text(["Intro"]))
        let chap = I.frame("CHAP", Array("ch1".utf8) + [0] + AtomBuilder.be(0, width: 4) + AtomBuilder.be(5000, width: 4)
            + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] + title)
        let toc = I.frame("CTOC", Array("toc".utf8) + [0, 0x03, 1] + Array("ch1".utf8) + [0])
        let tag = try read(I.tag(frames: [chap, toc]))
        guard case (let id, let start, let end, _, _, let subframes)? = tag.frames[0].content.chapter else {
            Issue.record("no CHAP")
            return
        }
        #expect(id == "ch1")
        #expect(start == 0 && end == 5000)
        #expect(subframes.first?.textValues == ["Intro"])
        guard case (_, let top, let ordered, let children, _)? = tag.frames[1].content.tableOfContents else {
            Issue.record("no CTOC")
            return
        }
        #expect(top && ordered)
        #expect(children == ["ch1"])
    }

    @Test func relativeVolumeAdjustment() throws {
        let body: [UInt8] = Array("track".utf8) + [0, 1, 0xFE, 0x00, 16, 0x7F, 0xFF]
        let tag = try read(I.tag(frames: [I.frame("RVA2", body)]))
        guard case (let id, let channels)? = tag.frames.first?.content.relativeVolume else {
            Issue.record("no RVA2")
            return
        }
        #expect(id == "track")
        #expect(channels.first?.adjustment == -1)
        #expect(channels.first?.peak == [0x7F, 0xFF])
    }

    @Test func unknownFramesAreKeptByteForByte() throws {
        let tag = try read(I.tag(frames: [I.frame("XYZW", [1, 2, 3])]))
        #expect(tag.frames.first?.content == .binary([1, 2, 3]))
        #expect(tag.diagnostics.isEmpty)
    }

    @Test func typedFrameThatDoesNotFollowItsLayoutIsKeptWithAWarning() throws {
        let tag = try read(I.tag(frames: [I.frame("COMM", [9, 1])]))
        #expect(tag.frames.first?.content == .binary([9, 1]))
        #expect(tag.diagnostics.map(\.code) == ["invalidFrame"])
    }
}

@Suite struct ID3v22Tests {
    @Test func threeCharacterIDsAreMapped() throws {
        let tag = try read(I.tag(version: 2, frames: [
            I.frame("TT2", I.text(["Title"], encoding: 0), version: 2),
            I.frame("TYE", I.text(["2001"], encoding: 0), version: 2),
            I.frame("ZZZ", [1], version: 2),
        ]))
        #expect(tag.frames.map(\.id) == ["TIT2", "TYER", "ZZZ"])
        #expect(tag.frames.map(\.storedID) == ["TT2", "TYE", "ZZZ"])
        #expect(tag.frames[0].textValues == ["Title"])
    }

    @Test func pictureImageFormatBecomesAMIMEType() throws {
        let tag = try read(I.tag(version: 2, frames: [I.frame("PIC", [0] + Array("JPG".utf8) + [3] + Array("c".utf8) + [0, 0xFF, 0xD8], version: 2)]))
        #expect(tag.frames.first?.id == "APIC")
        #expect(tag.frames.first?.content == .picture(encoding: .latin1, mimeType: "image/jpeg", pictureType: 3, description: "c", data: [0xFF, 0xD8]))
    }
}

/// The text encoding a v2.3 tag is written in: Latin-1 while every character is U+00FF or
/// below (checked on the UTF-8 bytes), UTF-16 after.
@Suite struct TextEncodingChoiceTests {
    @Test func latin1ReachesUpToUPlus00FF() {
        for text in ["plain", "café", "\u{FF}", "\u{80}x", ""] {
            #expect(ID3TextEncoding.forWriting([text], version: 3, preferred: .latin1) == .latin1, "\(text)")
        }
        for text in ["\u{100}", "a♪", "😀", "ÿ\u{100}"] {
            #expect(ID3TextEncoding.forWriting([text], version: 3, preferred: .latin1) == .utf16, "\(text)")
            #expect(ID3TextEncoding.forWriting(["ok", text], version: 4, preferred: .latin1) == .utf8, "\(text)")
        }
    }
}

@Suite struct GenreTests {
    @Test func referencesRefinementsAndNumbers() {
        #expect(ID3Genres.parse("(13)") == ["Pop"])
        #expect(ID3Genres.parse("(13)Pop") == ["Pop"])
        #expect(ID3Genres.parse("(21)Eurodisco") == ["Ska", "Eurodisco"])
        #expect(ID3Genres.parse("(RX)(CR)") == ["Remix", "Cover"])
        #expect(ID3Genres.parse("17") == ["Rock"])
        // The v2.4 keywords, without parentheses (TagLib and mutagen read them so too).
        #expect(ID3Genres.parse("RX") == ["Remix"])
        #expect(ID3Genres.parse("CR") == ["Cover"])
        #expect(ID3Genres.parse("RXs") == ["RXs"])
        #expect(ID3Genres.parse("Electronic") == ["Electronic"])
        #expect(ID3Genres.parse("((foo)") == ["(foo)"])
        #expect(ID3Genres.parse("(17)(Pop)(02)") == ["Rock", "Pop", "Country"])
    }

    @Test func tableHas192NamesAndLooksUpCaseInsensitively() {
        #expect(ID3Genres.names.count == 192)
        #expect(ID3Genres.name(52) == "Electronic")
        #expect(ID3Genres.index(of: "electronic") == 52)
        #expect(ID3Genres.name(192) == nil)
    }
}

@Suite struct ID3v1Tests {
    func v1(title: String, track: UInt8?, genre: UInt8) -> [UInt8] {
        func field(_ text: String, _ width: Int) -> [UInt8] { Array(text.utf8.prefix(width)) + [UInt8](repeating: 0, count: width - min(width, text.utf8.count)) }
        var bytes = Array("TAG".utf8) + field(title, 30) + field("Artist", 30) + field("Album", 30) + field("1999", 4)
        bytes += track.map { field("Comment", 28) + [0, $0] } ?? field("Comment", 30)
        return bytes + [genre]
    }

    @Test func v11HasATrackNumber() throws {
        let tag = try #require(ID3v1Tag(v1(title: "Title", track: 7, genre: 17)))
        #expect(tag.title == "Title")
        #expect(tag.track == 7)
        #expect(tag.genre == "Rock")
        #expect(tag.comment == "Comment")
    }

    @Test func v10HasNone() throws {
        let tag = try #require(ID3v1Tag(v1(title: "T", track: nil, genre: 255)))
        #expect(tag.track == nil)
        #expect(tag.genre == nil)
    }

    @Test func notATag() {
        #expect(ID3v1Tag([UInt8](repeating: 0, count: 128)) == nil)
    }
}

@Suite struct InflateTests {
    @Test func storedFixedAndDynamicBlocks() throws {
        // zlib.compress(b"hello hello hello hello", 9)
        let data: [UInt8] = [0x78, 0xDA, 0xCB, 0x48, 0xCD, 0xC9, 0xC9, 0x57, 0xC8, 0x40, 0x27, 0x01, 0x68, 0x03, 0x08, 0xB1]
        #expect(try Inflate.zlib(data, maxOutputSize: 100) == Array("hello hello hello hello".utf8))
        // A dynamic-Huffman block: Python's zlib.compress(text, 9) of the text below.
        let text = Array(String(repeating: "The quick brown fox jumps over the lazy dog. Pack my box with five dozen liquor jugs! ", count: 3).utf8)
        let dynamic: [UInt8] = [0x78, 0xDA, 0xD5, 0x8C, 0xDD, 0x01, 0x80, 0x10, 0x14, 0x85, 0x57, 0x39, 0x2D, 0xD0, 0x2C, 0x3D, 0x58, 0x80, 0x22, 0x2A, 0x6E, 0x08, 0x31, 0x7D, 0x77, 0x8D, 0x9E, 0xBF, 0x1F, 0x61, 0x35, 0x62, 0x71, 0xEB, 0x09, 0x95, 0xA8, 0x05, 0x18, 0x7A, 0x71, 0x14, 0x7F, 0x67, 0x50, 0xD5, 0x09, 0x0F, 0xE3, 0x4B, 0x8E, 0x8E, 0x8D, 0xF6, 0x19, 0x8B, 0x64, 0xCF, 0x77, 0x28, 0x96, 0x9A, 0x7B, 0x2C, 0x8C, 0xAB, 0x9A, 0xD1, 0xD0, 0x01, 0x97, 0x8B, 0x85, 0x12, 0xB7, 0x7B, 0x9E, 0x20, 0x7E, 0x74, 0xFD, 0x00, 0xE8, 0xB2, 0x5C, 0x74]
        #expect(try Inflate.zlib(dynamic, maxOutputSize: 1000) == text)
        // A stored block: BFINAL=1, BTYPE=00, LEN=3, NLEN=~3, "abc".
        #expect(try Inflate.deflate([0x01, 0x03, 0x00, 0xFC, 0xFF, 0x61, 0x62, 0x63], maxOutputSize: 10) == Array("abc".utf8))
    }

    @Test func outputLimitStopsBombs() {
        let data: [UInt8] = [0x78, 0xDA, 0xCB, 0x48, 0xCD, 0xC9, 0xC9, 0x57, 0xC8, 0x40, 0x27, 0x01, 0x68, 0x03, 0x08, 0xB1]
        #expect(throws: Inflate.Failure.self) { try Inflate.zlib(data, maxOutputSize: 10) }
    }

    /// A stream whose last block ends where its Adler-32 checksum should start (a compressed
    /// ID3 frame a mutation cut, found by the differential fuzz target): an error, not the
    /// text inflated so far, which the checksum could not vouch for.
    @Test func aStreamWithoutItsChecksumIsAnError() {
        let data: [UInt8] = [0x78, 0xDA, 0xCB, 0x48, 0xCD, 0xC9, 0xC9, 0x57, 0xC8, 0x40, 0x27, 0x01, 0x68, 0x03, 0x08, 0xB1]
        for cut in 1...4 {
            let error = #expect(throws: Inflate.Failure.self) { try Inflate.zlib(Array(data.dropLast(cut)), maxOutputSize: 100) }
            #expect(error?.reason == "zlib stream ends before its checksum")
            #expect(error?.producedBytes == 23)
        }
    }

    @Test func garbageIsAnError() {
        #expect(throws: Inflate.Failure.self) { try Inflate.zlib([0x78, 0x9C, 0xFF, 0xFF, 0xFF], maxOutputSize: 100) }
        #expect(throws: Inflate.Failure.self) { try Inflate.zlib([1, 2], maxOutputSize: 100) }
    }
}
