import APEv2
import MediaBytes
import Testing

/// APEv2 describes its own tags to the inspector (`APETag.structure`): each item's key and value
/// fields name the bytes they were read from.
@Suite struct APEDescriptionTests {
    @Test func itemsNameTheirKeyAndValueBytes() throws {
        let bytes = APEBuilder.tag([APEBuilder.item("Title", Array("Song".utf8)), APEBuilder.item("Artist", Array("A\0B".utf8))])
        let tag = try APETag(parsing: bytes)
        let structure = tag.structure(range: 0..<UInt64(bytes.count))
        #expect(structure.type == "APEv2" && structure.headerSize == 32)
        #expect(structure.summary == "APEv2, 2 items")
        #expect(structure.children.map(\.type) == ["Title", "Artist"])
        func slice(_ range: Range<UInt64>?) -> [UInt8]? { range.map { Array(bytes[Int($0.lowerBound)..<Int($0.upperBound)]) } }
        let title = structure.children[0]
        #expect(slice(title.fields.first { $0.name == "key" }?.range) == Array("Title".utf8))
        #expect(slice(title.fields.first { $0.name == "values" }?.range) == Array("Song".utf8))
        #expect(title.summary == "\"Song\"")
        let artist = structure.children[1]
        #expect(artist.fields.first { $0.name == "values" }?.value == .list([.text("A"), .text("B")]))
        #expect(slice(artist.fields.first { $0.name == "values" }?.range) == Array("A\0B".utf8))
    }
}
