import ID3
import MediaBytes
import TestSupport
import Testing

/// The frame-kind table decides how each frame is read; contents are an open set that clients
/// read through `kind` and the typed views.
@Suite struct ID3FrameKindTests {
    /// A minimal well-formed body for a frame of each typed family.
    static let samples: [(String, [UInt8])] = [
        ("TIT2", [0] + Array("T".utf8)), ("TXXX", [0] + Array("d".utf8) + [0] + Array("v".utf8)), ("WOAR", Array("http://a".utf8)),
        ("WXXX", [0, 0] + Array("http://a".utf8)), ("COMM", [0] + Array("eng".utf8) + [0] + Array("c".utf8)),
        ("USLT", [0] + Array("eng".utf8) + [0] + Array("l".utf8)), ("SYLT", [0] + Array("eng".utf8) + [2, 1, 0] + Array("x".utf8) + [0, 0, 0, 0, 1]),
        ("APIC", [0] + Array("image/png".utf8) + [0, 3, 0, 1, 2]), ("GEOB", [0] + Array("a/b".utf8) + [0, 0, 0, 9]),
        ("PRIV", Array("owner".utf8) + [0, 1]), ("UFID", Array("owner".utf8) + [0, 0x41]), ("POPM", Array("e".utf8) + [0, 255]),
        ("PCNT", [0, 0, 0, 7]), ("CHAP", Array("c".utf8) + [0] + [UInt8](repeating: 0, count: 16)), ("CTOC", Array("t".utf8) + [0, 3, 1] + Array("c".utf8) + [0]),
        ("MCDI", [1, 2, 3]), ("RVA2", Array("id".utf8) + [0, 1, 0, 0, 0]), ("XXXX", [9, 9]), ("WFED", [0] + Array("http://feed".utf8)),
    ]

    @Test func everyFrameIsReadAsTheKindTheTableGivesIt() throws {
        for (id, body) in Self.samples {
            let tag = try ID3v2Tag(parsing: ID3Builder.tag(frames: [ID3Builder.frame(id, body)]), at: 0)
            let frame = try #require(tag.frames.first, "\(id)")
            #expect(frame.content.kind == ID3FrameKind.of(frameID: id), "\(id)")
            #expect(tag.diagnostics.isEmpty, "\(id): \(tag.diagnostics)")
        }
        #expect(ID3FrameKind.of(frameID: "WFED") == .text)
        #expect(ID3FrameKind.of(frameID: "TPE1") == .text)
        #expect(ID3FrameKind.of(frameID: "XXXX") == .binary)
        #expect(!ID3FrameKind.binary.isTyped && ID3FrameKind.picture.isTyped)
    }

    /// Every row of the table in `of(frameID:)`'s documentation, the text and URL frames that
    /// are decided by their first letter among them.
    @Test func theDocumentedTableIsTheOneFollowed() {
        let rows: [(String, ID3FrameKind)] = [
            ("TXXX", .userText), ("WXXX", .userURL), ("TIT2", .text), ("TPE1", .text), ("TYER", .text), ("WFED", .text),
            ("GRP1", .text), ("MVNM", .text), ("MVIN", .text), ("IPLS", .text), ("WOAR", .url), ("WCOM", .url),
            ("COMM", .comment), ("USLT", .comment), ("SYLT", .syncedLyrics), ("APIC", .picture), ("GEOB", .object),
            ("PRIV", .privateData), ("UFID", .uniqueFileID), ("POPM", .popularimeter), ("PCNT", .playCounter),
            ("CHAP", .chapter), ("CTOC", .tableOfContents), ("MCDI", .musicCDIdentifier), ("RVA2", .relativeVolume),
            ("XXXX", .binary), ("", .binary),
        ]
        for (id, kind) in rows { #expect(ID3FrameKind.of(frameID: id) == kind, "\(id)") }
    }

    @Test func aTypedViewIsThereOnlyForItsKind() {
        let content = ID3FrameContent.comment(encoding: .utf8, language: "eng", description: "d", text: "t")
        #expect(content.kind == .comment)
        #expect(content.comment?.text == "t")
        #expect(content.text == nil && content.picture == nil && content.binary == nil)
        // A client switch over kinds needs a default, so a new kind does not break it.
        let described: String = switch content.kind {
        case .comment: "comment"
        default: "other"
        }
        #expect(described == "comment")
    }
}
