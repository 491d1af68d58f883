import ID3
import MediaBytes
import TestSupport
import Testing

/// Tags as other programs wrote them, broken in ways real files are, read as TagLib and
/// mutagen read them.
@Suite struct OtherWritersTagTests {
    @Test func anExtendedHeaderFlagWithoutTheHeaderStillReadsEveryFrame() throws {
        let frames = I.frame("TIT2", I.text(["Title"], encoding: 0), version: 3) + I.frame("TPE1", I.text(["Artist"], encoding: 0), version: 3)
        let tag = try read(I.tag(version: 3, flags: 0x40, frames, padding: 16))
        #expect(tag.frames.map(\.id) == ["TIT2", "TPE1"])
        #expect(tag.frames.first?.textValues == ["Title"])
        #expect(tag.extendedHeader == nil)
        let diagnostic = try #require(tag.diagnostics.first)
        #expect(diagnostic.code == "invalidExtendedHeader")
        #expect(diagnostic.offset == 10)
        #expect(diagnostic.severity == .warning)
    }

    @Test func anExtendedHeaderFlagWithoutTheHeaderInV24StillReadsEveryFrame() throws {
        let tag = try read(I.tag(version: 4, flags: 0x40, I.frame("TIT2", I.text(["Title"])), padding: 8))
        #expect(tag.frames.map(\.id) == ["TIT2"])
        #expect(tag.diagnostics.map(\.code) == ["invalidExtendedHeader"])
    }

    @Test func v22IdentifiersPaddedWithANulInAV23TagAreReadAsTheirV23Frames() throws {
        // iTunes 12.1: `TP1\0`, `TAL\0`, `COM\0` with v2.3 frame headers, then valid frames.
        let comment = [0] + Array("eng".utf8) + [0] + Array("Note".utf8)
        let frames = I.frame("TP1\0", I.text(["Artist"], encoding: 0), version: 3)
            + I.frame("TAL\0", I.text(["Album"], encoding: 0), version: 3)
            + I.frame("COM\0", comment, version: 3)
            + I.frame("TIT2", I.text(["Title"], encoding: 0), version: 3)
        let tag = try read(I.tag(version: 3, frames, padding: 10))
        #expect(tag.frames.map(\.id) == ["TPE1", "TALB", "COMM", "TIT2"])
        #expect(tag.frames[0].textValues == ["Artist"])
        #expect(tag.frames[1].textValues == ["Album"])
        guard case (_, let language, _, let text)? = tag.frames[2].content.comment else {
            Issue.record("COM\\0 is not read as a comment")
            return
        }
        #expect(language == "eng")
        #expect(text == "Note")
        let offsets: [UInt64] = [10, 27, 43]  // header; after TP1 (10 + 7); after TAL (10 + 6)
        #expect(tag.diagnostics.filter { $0.code == "invalidFrame" }.map(\.offset) == offsets)
    }

    @Test func v22IdentifiersInAV23TagAreWrittenBackUnderTheirV23Identifiers() throws {
        let tag = try read(I.tag(version: 3, I.frame("TP1\0", I.text(["Artist"], encoding: 0), version: 3), padding: 4))
        let written = try read(try tag.serialized(version: 3, padding: 0).bytes)
        #expect(written.frames.map(\.id) == ["TPE1"])
        #expect(written.frames.first?.textValues == ["Artist"])
        #expect(written.diagnostics.isEmpty)
    }

    @Test func aNulPaddedIdentifierWithoutAV22MeaningStillEndsTheFrames() throws {
        let frames = I.frame("TIT2", I.text(["Title"], encoding: 0), version: 3) + I.frame("XYZ\0", [0, 1, 2], version: 3)
        let tag = try read(I.tag(version: 3, frames))
        #expect(tag.frames.map(\.id) == ["TIT2"])
        #expect(tag.diagnostics.map(\.code) == ["invalidFrame"])
    }
}
