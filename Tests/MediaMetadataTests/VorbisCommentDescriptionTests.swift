import MediaBytes
import Testing
import VorbisComment

/// Vorbis comments describe their own fields to the inspector (`VorbisComment.structure`): each
/// field is an item named by its key, its name and value naming the bytes they are in, whether
/// the comment is in one piece (a FLAC block) or cut across pieces (an Ogg packet on pages).
@Suite struct VorbisCommentDescriptionTests {
    static let comment: VorbisComment = {
        var comment = VorbisComment(vendor: "vendor 1")
        comment.fields = [.init(name: "title", value: "Über"), .init(name: "ARTIST", value: "Someone")]
        return comment
    }()

    @Test func fieldsInOnePieceNameTheirBytes() throws {
        let bytes = Self.comment.serialized()
        let described = Self.comment.structure(base: 0) { start, count in UInt64(100 + start)..<UInt64(100 + start + count) }
        func slice(_ range: Range<UInt64>?) -> String? { range.map { String(decoding: bytes[Int($0.lowerBound - 100)..<Int($0.upperBound - 100)], as: UTF8.self) } }
        #expect(slice(described.fields.first { $0.name == "vendor" }?.range) == "vendor 1")
        #expect(described.items.map(\.type) == ["title", "ARTIST"])
        #expect(described.items.map(\.pathName) == ["TITLE", "ARTIST"])
        for (item, (name, value)) in zip(described.items, [("title", "Über"), ("ARTIST", "Someone")]) {
            #expect(slice(item.fields.first { $0.name == "name" }?.range) == name)
            #expect(slice(item.fields.first { $0.name == "value" }?.range) == value)
            #expect(item.size == UInt64(4 + name.utf8.count + 1 + value.utf8.count))
        }
    }

    @Test func aPieceShowsTheFieldsThatStartOnItCutAtItsEnd() throws {
        // The first piece ends inside the first field's value: that field is shown cut, the
        // second (starting on the next piece) is left to it.
        let firstFieldStart = 8 + "vendor 1".utf8.count
        let pieceEnd = firstFieldStart + 4 + 8
        let described = Self.comment.structure(base: 0) { start, count in
            guard start < pieceEnd else { return nil }
            return UInt64(start)..<UInt64(min(start + count, pieceEnd))
        }
        #expect(described.items.map(\.type) == ["title"])
        #expect(described.items.first?.offset == UInt64(firstFieldStart))
        #expect(described.items.first?.size == 8 + 4)
    }
}
