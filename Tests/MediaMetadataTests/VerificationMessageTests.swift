@testable import Carriers
import ID3
import Testing
import VorbisComment

/// A save whose written file does not read back as meant says what disagreed: which frame,
/// entry or field, by position, as read and as meant (issue 35: before 2026-11-27 the message
/// was "the written file does not read back as intended" alone).
@Suite struct VerificationMessageTests {
    static func title(_ text: String) -> ID3Frame { ID3Frame(id: "TIT2", content: .text(encoding: .utf8, values: [text])) }
    static let artist = ID3Frame(id: "TPE1", content: .text(encoding: .utf8, values: ["Artist"]))

    @Test func theFirstFrameThatDiffersIsNamedWithBothValues() {
        let meant = [Self.artist, Self.title("New")]
        #expect(CarrierSaving.disagreement("ID3v2 frame", expected: meant, read: meant, describe: CarrierSaving.describe) == nil)
        #expect(CarrierSaving.disagreement("ID3v2 frame", expected: meant, read: [Self.artist, Self.title("Old")], describe: CarrierSaving.describe)
                == "ID3v2 frame 2 reads as TIT2 \"Old\", not TIT2 \"New\"")
        #expect(CarrierSaving.disagreement("ID3v2 frame", expected: meant, read: [Self.artist], describe: CarrierSaving.describe)
                == "2 ID3v2 frames written, 1 read: missing TIT2 \"New\"")
        #expect(CarrierSaving.disagreement("ID3v2 frame", expected: [Self.artist], read: meant, describe: CarrierSaving.describe)
                == "1 ID3v2 frame written, 2 read: extra TIT2 \"New\"")
        let long = Self.title(String(repeating: "x", count: 100))
        #expect(CarrierSaving.describe(long) == "TIT2 \"" + String(repeating: "x", count: 40) + "…\"")
    }

    @Test func infoEntriesAndCommentFieldsAreNamedToo() throws {
        let meant = RIFFInfoList([.init("INAM", "New")], form: .riffInfo)
        let frames = [Self.artist]
        #expect(IFFChunkFile.disagreement(readFrames: frames, readInfo: meant, frames: frames, info: meant) == nil)
        #expect(IFFChunkFile.disagreement(readFrames: frames, readInfo: RIFFInfoList([.init("INAM", "Old")], form: .riffInfo), frames: frames, info: meant)
                == "INFO entry 1 reads as INAM \"Old\", not INAM \"New\"")
        #expect(IFFChunkFile.disagreement(readFrames: [], readInfo: meant, frames: frames, info: meant) == "1 ID3v2 frame written, 0 read: missing TPE1 \"Artist\"")

        var comment = VorbisComment(vendor: "v", fields: [])
        comment.setValues("TITLE", ["New"])
        var other = comment
        other.setValues("TITLE", ["Old"])
        #expect(CarrierSaving.disagreement(comment, read: comment) == nil)
        #expect(CarrierSaving.disagreement(comment, read: other) == "comment field 1 reads as \"TITLE=Old\", not \"TITLE=New\"")
    }
}
