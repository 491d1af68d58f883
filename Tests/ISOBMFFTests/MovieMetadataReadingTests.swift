import ISOBMFF
import MediaBytes
import TestSupport
import Testing

func movieFile(_ name: String) throws -> MovieFile {
    try MovieFile(path: TestFixtures.path(name))
}

@Suite struct MovieMetadataReadingTests {
    @Test func iTunesItemsDecodeEveryDataTypeOfTheFixture() throws {
        let movie = try movieFile("aac-itunes-tags-cover.m4a").metadata.movie
        #expect(movie.item("©nam")?.texts == ["Fixture Title"])
        #expect(movie.item("©nam")?.values.first?.dataType == .utf8)
        let track = try #require(movie.item("trkn")?.values.first?.pair)
        #expect(track.index == 3 && track.total == 12)
        let disk = try #require(movie.item("disk")?.values.first)
        #expect(disk.pair?.index == 1 && disk.pair?.total == 2 && disk.data.count == 6)
        #expect(movie.item("gnre")?.values.first?.integer == 53)
        #expect(movie.item("tmpo")?.values.first?.integer == 120)
        #expect(movie.item("tmpo")?.values.first?.dataType == .signedInteger)
        #expect(movie.item("cpil")?.values.first?.integer == 1)
        let covers = try #require(movie.item("covr")?.values)
        #expect(covers.map(\.imageMIMEType) == ["image/jpeg", "image/png"])
        let freeform = try #require(movie.item("----", mean: "com.apple.iTunes", name: "MusicBrainz Track Id"))
        #expect(freeform.texts == ["8f3b2a5e-0000-4000-8000-000000000001"])
        #expect(movie.item("----", mean: "org.example.fixtures", name: "Custom Note")?.texts == ["free-form text"])
        #expect(movie.itemList?.allSatisfy { !$0.isOpaque } == true)
    }

    @Test func quickTimeUserDataTextItemsKeepTheirLanguage() throws {
        let movie = try movieFile("quicktime-udta-text.mov").metadata.movie
        let title = try #require(movie.userData("©nam").first?.texts)
        #expect(title.map(\.text) == ["Fixture QT Title"])
        #expect(title.first?.language == "und")
        #expect(movie.userData("©xyz").first?.texts?.first?.text.hasPrefix("+") == true)
        #expect(["©mak", "©mod", "©cpy", "©day"].allSatisfy { !movie.userData(FourCC(latin1: $0)!).isEmpty })
    }

    @Test func quickTimeMetadataKeysNameTheirItems() throws {
        for name in ["quicktime-mdta-keys.mov", "quicktime-mdta-keys-moov-meta.mov"] {
            let items = try #require(try movieFile(name).metadata.movie.quickTimeMetadata, "\(name)")
            let keys = items.map(\.key)
            #expect(keys.contains("com.apple.quicktime.location.ISO6709"), "\(name)")
            #expect(keys.contains("com.apple.quicktime.make"), "\(name)")
            #expect(items.allSatisfy { $0.namespace == "mdta" && $0.values.first?.text != nil }, "\(name)")
        }
    }

    @Test func threeGPPAssetsDecodeWithLanguageAndYear() throws {
        let movie = try movieFile("mobile.3gp").metadata.movie
        let title = try #require(movie.userData("titl").first?.asset)
        #expect(title.language == "eng")
        #expect(!title.text.isEmpty)
        #expect(movie.userData("yrrc").first?.asset?.year == 2021)
        #expect(movie.userData("auth").first?.asset != nil)
    }

    @Test func threeGPPAssetsRoundTripEveryLayout() throws {
        var album = ThreeGPPAsset(type: "albm", text: "Album ☃", language: "deu")
        album.trackNumber = 7
        var rating = ThreeGPPAsset(type: "rtng", text: "PG", language: "eng")
        rating.entity = "MPAA"
        rating.criteria = "ALL "
        var classification = ThreeGPPAsset(type: "clsf", text: "class", language: "eng")
        classification.entity = "ABCD"
        classification.classificationTable = 3
        var keywords = ThreeGPPAsset(type: "kywd", text: "", language: "fra")
        keywords.keywords = ["un", "deux"]
        var location = ThreeGPPAsset(type: "loci", text: "", language: "eng")
        location.location = .init(name: "Place", role: 1, longitude: -122.5, latitude: 37.25, altitude: 10, astronomicalBody: "earth", notes: "n")
        var utf16 = ThreeGPPAsset(type: "titl", text: "Ütf16", language: "eng")
        utf16.usesUTF16 = true
        for asset in [album, rating, classification, keywords, location, utf16, ThreeGPPAsset(year: 1999)] {
            let item = UserDataItem(asset: asset)
            #expect(item.asset == asset, "\(asset.type)")
        }
    }

    @Test func userDataTextHoldsSeveralLanguages() throws {
        let texts = [UserDataItem.LocalizedText("Hello", languageCode: LanguageCode.pack("eng")!), .init("Hallo", languageCode: LanguageCode.pack("deu")!), .init("Mac", languageCode: 0)]
        let item = UserDataItem.text("©nam", texts)
        #expect(item.texts == texts)
        #expect(item.texts?.map(\.language) == ["eng", "deu", "eng"])
    }

    @Test func itemValuesEncodeEachIntegerWidthAndReadBack() {
        for value: Int64 in [0, -1, 127, -128, 300, -40_000, 70_000, 5_000_000_000, -5_000_000_000] {
            let item = ItemValue.integer(value)
            #expect(item.integer == value)
        }
        #expect(ItemValue.integer(5, width: 3, dataType: .unsignedInteger).integer == 5)
        #expect(ItemValue(dataType: .float32, data: [0x3F, 0xC0, 0, 0]).number == 1.5)
        #expect(ItemValue(dataType: .float64, data: [0x40, 0x04, 0, 0, 0, 0, 0, 0]).number == 2.5)
        #expect(ItemValue(dataType: .utf16, data: [0, 0x41, 0x26, 0x03]).text == "A☃")
        #expect(ItemValue.pair(index: 4, total: 9, trailingPad: true).data == [0, 0, 0, 4, 0, 9, 0, 0])
        #expect(ItemValue.image([1], mimeType: "image/png")?.dataType == .png)
        #expect(ItemValue.flag(true).data == [1])
    }

    /// An item list of more than `MetadataScope.maxItems` items is refused with an error naming
    /// its offset and path; one of exactly that many is read.
    @Test func anItemListOfMoreThanTheLimitIsRefused() throws {
        func movie(_ count: Int) throws -> AtomTree {
            var builder = MovieBuilder()
            builder.userData = [MovieBuilder.itemListMeta([[UInt8]](repeating: MovieBuilder.textItem("\u{A9}cmt", "c"), count: count))]
            return try AtomTree(source: MemoryByteSource(builder.build()))
        }
        #expect(try MovieMetadata(tree: try movie(MetadataScope.maxItems)).movie.itemList?.count == MetadataScope.maxItems)
        let tree = try movie(MetadataScope.maxItems + 1)
        let ilst = try #require(tree.atom(at: AtomPath(parsing: "moov/udta/meta/ilst")!))
        #expect {
            _ = try MovieMetadata(tree: tree)
        } throws: { error in
            guard let error = error as? AtomError else { return false }
            return error.code == .payloadLimit && error.offset == ilst.offset && error.path.description == "moov/udta/meta/ilst"
                && error.message.contains("\(MetadataScope.maxItems + 1) items")
        }
    }

    @Test func unknownItemsAreKeptByteForByte() throws {
        // An item with a child this reader does not know and a data type it does not know.
        let item = AtomBuilder.container("xyz1", AtomBuilder.atom("data", [0, 0, 0, 99, 0, 0, 0, 0, 1, 2, 3]), AtomBuilder.atom("itif", [0, 0, 0, 0, 0, 0, 0, 7]))
        var builder = MovieBuilder()
        builder.userData = [MovieBuilder.itemListMeta([item])]
        let tree = try AtomTree(source: MemoryByteSource(builder.build()))
        let metadata = try MovieMetadata(tree: tree)
        let read = try #require(metadata.movie.item("xyz1"))
        #expect(read.values.first?.dataType.rawValue == 99)
        #expect(read.otherChildren.count == 1)
        #expect(read.isUnchanged)
        let itemAtom = try #require(tree.atom(at: AtomPath(parsing: "moov/udta/meta/ilst/xyz1")!))
        #expect(read.encoded == item)
        #expect(read.encoded == Array(try tree.bytes(at: itemAtom.offset, count: Int(itemAtom.size))))
    }
}
