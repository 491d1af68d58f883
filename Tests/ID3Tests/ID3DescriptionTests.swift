import ID3
import MediaBytes
import TestSupport
import Testing

/// ID3 describes its own tags to the inspector (`ID3v2Tag.structure`, `ID3v1Tag.structure`):
/// every field that names bytes names the bytes its value was read from.
@Suite struct ID3DescriptionTests {
    @Test func theTagsFieldsNameTheBytesTheirValuesAreIn() throws {
        let source = ID3v2Tag(majorVersion: 4, frames: [
            ID3Frame(id: "TIT2", content: .text(encoding: .latin1, values: ["Described"])),
            ID3Frame(id: "WOAR", content: .url("https://example.org/a")),
            ID3Frame(id: "APIC", content: .picture(encoding: .latin1, mimeType: "image/png", pictureType: 3, description: "Cover", data: [1, 2, 3])),
        ])
        let bytes = try source.serialized(version: 4).bytes
        let prefix = [UInt8](repeating: 0xAA, count: 7)  // the tag at offset 7 of its "file"
        let tag = try ID3v2Tag(parsing: (prefix + bytes)[7...], at: 7)
        let file = prefix + bytes
        func text(_ range: Range<UInt64>?) -> String? { range.map { String(decoding: file[Int($0.lowerBound)..<Int($0.upperBound)], as: UTF8.self) } }

        let structure = tag.structure
        #expect(structure.type == "ID3v2" && structure.offset == 7 && structure.size == UInt64(bytes.count))
        #expect(structure.fields.first { $0.name == "version" }?.value == .text("2.4.0"))
        #expect(structure.children.map(\.type) == ["TIT2", "WOAR", "APIC"])
        let title = structure.children[0]
        #expect(title.summary == "\"Described\"")
        #expect(text(title.fields.first { $0.name == "values" }?.range) == "Described")
        #expect(text(title.fields.first { $0.name == "id" }?.range) == nil, "the stored ID is the frame's: no separate id field")
        let url = structure.children[1]
        #expect(text(url.fields.first { $0.name == "url" }?.range) == "https://example.org/a")
        let picture = structure.children[2]
        #expect(picture.fields.first { $0.name == "pictureTypeName" }?.value == .text("front cover"))
        #expect(picture.summary == "front cover image/png 3 bytes \"Cover\"")
        for child in structure.children {
            #expect(child.offset >= 17 && child.offset + child.size <= 7 + UInt64(bytes.count), "\(child.type) inside the tag")
        }
    }

    @Test func anUnsynchronisedTagNamesNoBytesItsOffsetsDoNotHold() throws {
        // A v2.3 tag unsynchronised as a whole (flag 0x80): offsets count undone bytes.
        let frame = ID3Builder.frame("TIT2", [0] + Array("Title".utf8), version: 3)
        let tag = try ID3v2Tag(parsing: ID3Builder.tag(version: 3, flags: 0x80, frame), at: 0)
        #expect(tag.isUnsynchronised)
        let described = try #require(tag.structure.children.first)
        #expect(described.type == "TIT2")
        #expect(described.fields.allSatisfy { $0.range == nil }, "\(described.fields)")
    }

    @Test func v1FieldsAreAtTheirFixedPlaces() throws {
        var bytes = Array("TAG".utf8)
        for (text, width) in [("Title", 30), ("Artist", 30), ("Album", 30), ("1999", 4), ("Comment", 28)] {
            bytes += Array(text.utf8) + [UInt8](repeating: 0, count: width - text.utf8.count)
        }
        bytes += [0, 7, 13]
        let tag = try #require(ID3v1Tag(bytes[...]))
        let structure = tag.structure(at: 1000)
        #expect(structure.summary == "v1.1 \"Title\" track 7")
        for (name, value) in [("title", "Title"), ("artist", "Artist"), ("album", "Album"), ("year", "1999"), ("comment", "Comment")] {
            let field = try #require(structure.fields.first { $0.name == name })
            #expect(field.value == .text(value))
            let range = try #require(field.range)
            let stored = String(decoding: bytes[Int(range.lowerBound - 1000)..<Int(range.upperBound - 1000)].prefix { $0 != 0 }, as: UTF8.self)
            #expect(stored == value, "\(name)")
        }
        #expect(structure.fields.first { $0.name == "track" }?.range == 1126..<1127)
    }
}
