import Foundation
import Carriers
import ID3
import ISOBMFF
import MediaBytes
import MediaMetadata
import TagLibOracle
import TestSupport
import Testing

/// After `set K=v` every reader sees v, and after `remove K` none sees K: for every pair of
/// native areas that can hold one key.
@Suite struct OneTruthPerKeyTests {
    /// An MP3 whose ID3v2.4 tag has `frames`, followed by two MPEG frames.
    static func mp3(_ frames: [[UInt8]]) throws -> String {
        try TemporaryFile.write(ID3Builder.tag(frames: frames, padding: 64) + ID3Builder.mp3Frame() + ID3Builder.mp3Frame(), name: "t.mp3")
    }

    static func userText(_ description: String, _ value: String) -> [UInt8] {
        ID3Builder.frame("TXXX", [3] + Array(description.utf8) + [0] + Array(value.utf8))
    }

    /// A `COMM` frame (UTF-8, English) with `description`.
    static func comment(_ description: String, _ text: String) -> [UInt8] {
        ID3Builder.frame("COMM", [3] + Array("eng".utf8) + Array(description.utf8) + [0] + Array(text.utf8))
    }

    static func freeform(_ name: String, _ value: String) -> [UInt8] {
        AtomBuilder.atom("----", AtomBuilder.fullBox("mean", Array("com.apple.iTunes".utf8)) + AtomBuilder.fullBox("name", Array(name.utf8))
            + AtomBuilder.atom("data", [0, 0, 0, 1, 0, 0, 0, 0] + Array(value.utf8)))
    }

    static func m4a(_ items: [[UInt8]]) throws -> String {
        var builder = MovieBuilder()
        builder.userData = [MovieBuilder.itemListMeta(items, padding: 256)]
        return try TemporaryFile.write(builder.build(), name: "t.m4a")
    }

    @Test func settingTrackNumberReplacesATXXXThatReadsAsIt() throws {
        let path = try Self.mp3([ID3Builder.frame("TRCK", ID3Builder.text(["2"])), Self.userText("TRACKNUMBER", "2")])
        var file = try MediaFile(path: path)
        #expect(file.tags["TRACKNUMBER"] == ["2", "2"])
        try file.set("TRACKNUMBER", ["3"])
        #expect(file.tags["TRACKNUMBER"] == ["3"])
        try file.save()
        let reread = try MediaFile(path: path)
        #expect(reread.tags["TRACKNUMBER"] == ["3"])
        #expect(reread.items.map(\.identifier.description) == ["id3/TRCK"])
        #expect(TagLibReading.read(path)?.properties["TRACKNUMBER"] == ["3"])
    }

    @Test func removingTrackNumberRemovesEveryFrameThatReadsAsIt() throws {
        let path = try Self.mp3([ID3Builder.frame("TIT2", ID3Builder.text(["T"])), ID3Builder.frame("TRCK", ID3Builder.text(["2"])), Self.userText("TRACKNUMBER", "2")])
        var file = try MediaFile(path: path)
        #expect(try file.remove("TRACKNUMBER"))
        try file.save()
        let reread = try MediaFile(path: path)
        #expect(reread.tags["TRACKNUMBER"] == nil)
        #expect(reread.tags["TITLE"] == ["T"])
        #expect(TagLibReading.read(path)?.properties["TRACKNUMBER"] == nil)
    }

    @Test func settingTrackNumberReplacesAFreeformItemThatReadsAsIt() throws {
        let trkn = AtomBuilder.atom("trkn", AtomBuilder.atom("data", [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 2, 0, 9, 0, 0]))
        let path = try Self.m4a([trkn, Self.freeform("TRACKNUMBER", "2")])
        var file = try MediaFile(path: path)
        #expect(file.tags["TRACKNUMBER"] == ["2/9", "2"])
        try file.set("TRACKNUMBER", ["3/9"])
        try file.save()
        let reread = try MediaFile(path: path)
        #expect(reread.tags["TRACKNUMBER"] == ["3/9"])
        // The freeform item that also read as the key is gone.
        #expect(reread.items.map(\.identifier.description) == ["itsk/trkn"])
        #expect(TagLibReading.read(path)?.properties["TRACKNUMBER"] == ["3/9"])
    }

    @Test func settingAMusicBrainzKeyLeavesOneFreeformSpelling() throws {
        let path = try Self.m4a([Self.freeform("MusicBrainz Album Id", "old-1"), Self.freeform("MUSICBRAINZ_ALBUMID", "old-2")])
        var file = try MediaFile(path: path)
        try file.set("MUSICBRAINZ_ALBUMID", ["new"])
        try file.save()
        let reread = try MediaFile(path: path)
        #expect(reread.tags["MUSICBRAINZ_ALBUMID"] == ["new"])
        #expect(reread.items.count == 1)
        #expect(reread.items.first?.identifier.description == "itlk/com.apple.iTunes:MusicBrainz Album Id")
    }

    @Test func removingCommentRemovesDescribedCommentsToo() throws {
        let path = try Self.mp3([Self.comment("", "plain"), Self.comment("Note", "described"), ID3Builder.frame("TIT2", ID3Builder.text(["T"]))])
        var file = try MediaFile(path: path)
        #expect(file.tags["COMMENT:NOTE"] == ["described"])
        #expect(try file.remove("COMMENT"))
        #expect(file.tags["COMMENT"] == nil && file.tags["COMMENT:NOTE"] == nil)
        #expect(file.tags["TITLE"] == ["T"])
    }

    @Test func removingOnlyOneDescribedCommentNamesIt() throws {
        let path = try Self.mp3([Self.comment("", "plain"), Self.comment("Note", "described")])
        var file = try MediaFile(path: path)
        #expect(try file.remove("COMMENT:Note"))
        #expect(file.tags["COMMENT"] == ["plain"])
        #expect(file.tags["COMMENT:NOTE"] == nil)
    }

    @Test func anIdentifierPatternRemovesEveryItemItNames() throws {
        let path = try Self.mp3([Self.comment("", "plain"), Self.comment("A", "a"), Self.comment("B", "b"), Self.userText("X", "x")])
        var file = try MediaFile(path: path)
        #expect(try file.remove("id3/COMM:*"))
        #expect(file.items.map(\.identifier.description) == ["id3/TXXX:X"])
        #expect(try file.remove("id3/TXXX:*"))
        #expect(file.items.isEmpty)
        #expect(try !file.remove("id3/COMM:*"))
    }

    @Test func aPatternIsRefusedWhereItCannotBeUsed() throws {
        let path = try Self.mp3([ID3Builder.frame("TIT2", ID3Builder.text(["T"]))])
        var file = try MediaFile(path: path)
        #expect(throws: MetadataError(.unknownKey)) { try file.remove("COMMENT:*") }
        #expect(throws: MetadataError(.unknownKey)) { try file.set("id3/COMM:*", ["x"]) }
        #expect(file.tags["TITLE"] == ["T"])
    }
}

/// QuickTime metadata keys as other programs write them.
@Suite struct QuickTimeKeysFromOtherWritersTests {
    /// A `udta/meta` with handler `mdta`, a `keys` box of `keys`, and one UTF-8 value each.
    static func quickTimeMeta(_ entries: [(String, String)]) -> [UInt8] {
        let handler = AtomBuilder.fullBox("hdlr", [0, 0, 0, 0] + Array("mdta".utf8) + [UInt8](repeating: 0, count: 13))
        var keys = AtomBuilder.be(UInt64(entries.count), width: 4)
        for (key, _) in entries { keys += AtomBuilder.be(UInt64(8 + key.utf8.count), width: 4) + Array("mdta".utf8) + Array(key.utf8) }
        var items: [UInt8] = []
        for (index, (_, value)) in entries.enumerated() {
            items += AtomBuilder.atom(FourCC(rawValue: UInt32(index + 1)), AtomBuilder.atom("data", [0, 0, 0, 1, 0, 0, 0, 0] + Array(value.utf8)))
        }
        return AtomBuilder.atom("meta", [0, 0, 0, 0] + handler + AtomBuilder.fullBox("keys", keys) + AtomBuilder.atom("ilst", items))
    }

    static func movie(_ entries: [(String, String)]) throws -> String {
        var builder = MovieBuilder()
        builder.brand = "qt  "
        builder.userData = [quickTimeMeta(entries)]
        return try TemporaryFile.write(builder.build(), name: "t.mov")
    }

    @Test func ffmpegBareKeyNamesReadAsUniformKeys() throws {
        let path = try Self.movie([("title", "T"), ("artist", "A"), ("album_artist", "AA"), ("date", "2020"), ("track", "3"),
                                   ("disc", "1"), ("encoder", "Lavf"), ("comment", "C"), ("genre", "G"), ("composer", "W"),
                                   ("copyright", "(c)"), ("description", "D"), ("album", "Al")])
        let file = try MediaFile(path: path)
        #expect(file.tags["TITLE"] == ["T"])
        #expect(file.tags["ARTIST"] == ["A"])
        #expect(file.tags["ALBUM"] == ["Al"])
        #expect(file.tags["ALBUMARTIST"] == ["AA"])
        #expect(file.tags["DATE"] == ["2020"])
        #expect(file.tags["TRACKNUMBER"] == ["3"])
        #expect(file.tags["DISCNUMBER"] == ["1"])
        #expect(file.tags["ENCODEDBY"] == ["Lavf"])
        #expect(file.tags["COMMENT"] == ["C"])
        #expect(file.tags["GENRE"] == ["G"])
        #expect(file.tags["COMPOSER"] == ["W"])
        #expect(file.tags["COPYRIGHT"] == ["(c)"])
        #expect(file.tags["PODCASTDESC"] == ["D"])
        #expect(try file.values("TITLE") == ["T"])
    }

    @Test func aFileOfQuickTimeKeysGetsQuickTimeKeysWhenEdited() throws {
        let path = try Self.movie([("title", "Old"), ("artist", "A")])
        var file = try MediaFile(path: path)
        try file.set("TITLE", ["New"])
        try file.set("ALBUM", ["Al"])
        try file.save()
        let reread = try MediaFile(path: path)
        #expect(reread.tags["TITLE"] == ["New"])
        #expect(reread.tags["ALBUM"] == ["Al"])
        // The bare key keeps its spelling; the new key is AV Foundation's; no item list appears.
        #expect(reread.items.map(\.identifier.description) == ["mdta/title", "mdta/artist", "mdta/com.apple.quicktime.album"])
        let movie = try MovieFile(tree: AtomTree(source: FileByteSource(path: path)))
        #expect(movie.metadata.movie.itemList == nil)
    }

    @Test func removingAKeyRemovesEveryQuickTimeKeyThatReadsAsIt() throws {
        let path = try Self.movie([("title", "Bare"), ("com.apple.quicktime.title", "Full"), ("artist", "A")])
        var file = try MediaFile(path: path)
        #expect(try file.remove("TITLE"))
        try file.save()
        let reread = try MediaFile(path: path)
        #expect(reread.tags["TITLE"] == nil)
        #expect(reread.tags["ARTIST"] == ["A"])
    }

    @Test func anItemListInAMetaWithoutHandlerIsRead() throws {
        let meta = AtomBuilder.atom("meta", [0, 0, 0, 0] + AtomBuilder.atom("ilst", MovieBuilder.textItem("©nam", "No handler")))
        var builder = MovieBuilder()
        builder.userData = [meta]
        let path = try TemporaryFile.write(builder.build(), name: "t.m4a")
        var file = try MediaFile(path: path)
        #expect(file.tags["TITLE"] == ["No handler"])
        try file.set("TITLE", ["Edited"])
        try file.save()
        #expect(try MediaFile(path: path).tags["TITLE"] == ["Edited"])
        // Written back with the handler iTunes writes, which TagLib then reads too.
        let tree = try AtomTree(source: FileByteSource(path: path))
        #expect(tree.atom(at: try #require(AtomPath(parsing: "moov/udta/meta/hdlr"))) != nil)
        #expect(TagLibReading.read(path)?.properties["TITLE"] == ["Edited"])
    }
}

/// The ID3 chunk and the `LIST`/`INFO` chunk of a WAV file hold one key together: ffprobe reads
/// INFO, exiftool and TagLib read the ID3 tag, and they must agree after every edit.
@Suite(.enabled(if: OtherReaders.areAvailable, "ffprobe, exiftool and mutagen are not installed (.ci/run installs them)"))
struct WAVInfoInStepTests {
    @Test func settingATitleChangesTheInfoTitleToo() async throws {
        let path = try copyOfFixture("wav-id3-info.wav")
        var file = try MediaFile(path: path)
        try file.set("TITLE", ["Brand-New"])
        try file.save()
        let reread = try MediaFile(path: path)
        #expect(try reread.values("riff/INAM") == ["Brand-New"])
        #expect(try reread.values("id3/TIT2") == ["Brand-New"])
        #expect(try await OtherReaders.ffprobeTags(path)["title"] == "Brand-New")
        #expect(try await OtherReaders.exiftoolTags(path, ["Title"])["Title"] == "Brand-New")
        #expect(TagLibReading.read(path)?.properties["TITLE"] == ["Brand-New"])
        // The other INFO entries are kept as they were.
        #expect(try await OtherReaders.ffprobeTags(path)["artist"] == "WAV INFO Artist")
    }

    @Test func aShorterInfoListIsWrittenInPlaceWithAJunkChunk() async throws {
        let path = try copyOfFixture("wav-id3-info.wav")
        var file = try MediaFile(path: path)
        try file.set("TITLE", ["Short"])
        let plan = try file.save()
        #expect(plan.method == .inPlace)
        #expect(plan.writes.map(\.what) == ["ID3v2 tag", "INFO list"])
        let chunks = try IFFChunkFile(source: FileByteSource(path: path)).root.children.map(\.id.description)
        #expect(chunks.contains("JUNK"))
        #expect(try await OtherReaders.ffprobeTags(path)["title"] == "Short")
    }

    @Test func removingATitleRemovesTheInfoTitleToo() async throws {
        let path = try copyOfFixture("wav-id3-info.wav")
        var file = try MediaFile(path: path)
        try file.remove("TITLE")
        try file.save()
        #expect(try MediaFile(path: path).values("riff/INAM") == nil)
        #expect(try await OtherReaders.ffprobeTags(path)["title"] == nil)
        #expect(try await OtherReaders.exiftoolTags(path, ["Title"])["Title"] == nil)
    }

    /// The fixture's INFO list holds the track number as `ITRK` (ffmpeg's and ExifTool's
    /// spelling; TagLib reads `IPRT`): an edit of TRACKNUMBER rewrites it too. Before
    /// 2026-11-30 exiftool and ffprobe still read the old 7 after `set TRACKNUMBER=3/9`.
    @Test func settingTheTrackNumberRewritesTheITRKEntryToo() async throws {
        let path = try copyOfFixture("wav-id3-info.wav")
        #expect(try MediaFile(path: path).values("riff/ITRK") == ["7"])
        var file = try MediaFile(path: path)
        try file.set("TRACKNUMBER", ["3/9"])
        try file.save()
        let reread = try MediaFile(path: path)
        #expect(try reread.values("riff/ITRK") == ["3/9"])
        #expect(try reread.values("riff/IPRT") == ["3"])  // (the number, as TagLib reads IPRT)
        #expect(try await OtherReaders.exiftoolTags(path, ["TrackNumber"])["TrackNumber"] == "3/9")
        #expect(try await OtherReaders.ffprobeTags(path)["track"] == "3/9")
        var removing = try MediaFile(path: path)
        _ = try removing.remove("TRACKNUMBER")
        try removing.save()
        let removed = try MediaFile(path: path)
        #expect(try removed.values("riff/ITRK") == nil && removed.values("riff/IPRT") == nil)
        #expect(try await OtherReaders.exiftoolTags(path, ["TrackNumber"])["TrackNumber"] == nil)
    }

    @Test func clearingRemovesTheInfoList() async throws {
        let path = try copyOfFixture("wav-id3-info.wav")
        var file = try MediaFile(path: path)
        file.removeAll()
        try file.save()
        let reread = try MediaFile(path: path)
        #expect(reread.tags.isEmpty)
        #expect(reread.items.isEmpty)
        #expect(try await OtherReaders.ffprobeTags(path).isEmpty)
    }

    @Test func aWAVWithoutInfoGetsNoneFromAnEdit() throws {
        let path = try copyOfFixture("wav-id3-info.wav")
        var file = try MediaFile(path: path)
        file.removeAll()
        try file.save()
        file = try MediaFile(path: path)
        try file.set("TITLE", ["Only ID3"])
        try file.save()
        #expect(try IFFChunkFile(source: FileByteSource(path: path)).info == nil)
        #expect(try MediaFile(path: path).tags["TITLE"] == ["Only ID3"])
    }
}

/// The ID3v2 tag in an MP4 `ID32` box and the file's XMP packet reach `MediaFile` as items; the
/// ID32 tag is edited through the ID3 layer and kept in step with the other areas.
@Suite struct ID32AndXMPItemTests {
    static let xmpPacket = "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF/></x:xmpmeta>"

    /// An M4A with an iTunes title, a `moov/meta` (handler `ID32`) holding an ID3v2.4 tag with a
    /// title and an artist, and a top-level XMP `uuid` atom.
    static func movie() throws -> String {
        let tag = ID3Builder.tag(frames: [ID3Builder.frame("TIT2", ID3Builder.text(["ID3 Title"])), ID3Builder.frame("TPE1", ID3Builder.text(["ID3 Artist"]))])
        let handler = AtomBuilder.fullBox("hdlr", [0, 0, 0, 0] + Array("ID32".utf8) + [UInt8](repeating: 0, count: 13))
        let id32 = AtomBuilder.fullBox("ID32", [0x15, 0xC7] + tag)  // language "eng"
        var builder = MovieBuilder()
        builder.userData = [MovieBuilder.itemListMeta([MovieBuilder.textItem("©nam", "iTunes Title")], padding: 128)]
        builder.movieExtras = [AtomBuilder.fullBox("meta", handler + id32)]
        let xmp = AtomBuilder.atom("uuid", MovieMetadata.xmpUUID + Array(xmpPacket.utf8))
        return try TemporaryFile.write(builder.build() + xmp, name: "id32.m4a")
    }

    @Test func id32FramesAndTheXMPPacketAreItems() throws {
        let file = try MediaFile(path: Self.movie())
        let names = file.items.map(\.identifier.description)
        #expect(names.contains("id32/TIT2") && names.contains("id32/TPE1") && names.contains("xmp/uuid"))
        #expect(try file.values("id32/TPE1") == ["ID3 Artist"])
        #expect(try file.values("xmp/uuid") == [Self.xmpPacket])
        // The iTunes item list comes first; the ID32 tag gives what the others do not have.
        #expect(file.tags["TITLE"] == ["iTunes Title"])
        #expect(file.tags["ARTIST"] == ["ID3 Artist"])
    }

    @Test func settingAKeyKeepsTheID32TagInStep() throws {
        let path = try Self.movie()
        var file = try MediaFile(path: path)
        try file.set("TITLE", ["New Title"])
        try file.set("id32/TPE1", ["New Artist"])
        try file.save()
        let reread = try MediaFile(path: path)
        #expect(try reread.values("itsk/%A9nam") == ["New Title"])
        #expect(try reread.values("id32/TIT2") == ["New Title"])
        #expect(try reread.values("id32/TPE1") == ["New Artist"])
        #expect(reread.tags["ARTIST"] == ["New Artist"])
    }

    @Test func removingAKeyRemovesItFromTheID32Tag() throws {
        let path = try Self.movie()
        var file = try MediaFile(path: path)
        #expect(try file.remove("TITLE"))
        try file.save()
        let reread = try MediaFile(path: path)
        #expect(reread.tags["TITLE"] == nil)
        #expect(try reread.values("id32/TIT2") == nil)
        #expect(try reread.values("id32/TPE1") == ["ID3 Artist"])
    }

    @Test func theXMPPacketIsReadOnly() throws {
        var file = try MediaFile(path: Self.movie())
        #expect(throws: MetadataError(.notRepresentable)) { try file.remove("xmp/uuid") }
    }

    @Test func clearAndImportRestoreTheID32Tag() throws {
        let path = try Self.movie()
        let native = try MediaFile(path: path).nativeItems()
        var file = try MediaFile(path: path)
        file.removeAll()
        try file.save()
        #expect(try MediaFile(path: path).values("id32/TIT2") == nil)
        file = try MediaFile(path: path)
        try file.replaceAll(with: native)
        try file.save()
        let reread = try MediaFile(path: path)
        #expect(try reread.values("id32/TIT2") == ["ID3 Title"])
        #expect(reread.tags["TITLE"] == ["iTunes Title"])
    }
}

/// `set`, `import` and `copy` judge keys by one rule.
@Suite struct KeyJudgementTests {
    @Test func anUnknownKeyIsTheSameErrorForSetAndImport() throws {
        let path = try copyOfFixture("id3v24-full.mp3")
        var file = try MediaFile(path: path)
        #expect(throws: MetadataError(.unknownKey)) { try file.set("TITEL", ["x"]) }
        #expect(throws: MetadataError(.unknownKey)) { try file.importTags([("TITLE", ["ok"]), ("TITEL", ["x"])], pictures: []) }
        // Nothing was changed by the refused import.
        #expect(!file.hasChanges)
    }

    @Test func customPrefixWritesTheFormatsCustomItem() throws {
        let mp3 = try copyOfFixture("no-tags.mp3")
        var file = try MediaFile(path: mp3)
        try file.set("CUSTOM:Session", ["Take 3"])
        #expect(file.items.map(\.identifier.description) == ["id3/TXXX:Session"])
        #expect(file.tags["SESSION"] == ["Take 3"])
        let m4a = try copyOfFixture("moov-before-mdat.m4a")
        var movie = try MediaFile(path: m4a)
        _ = try movie.importTags([("CUSTOM:Session", ["Take 4"])], pictures: [])
        #expect(movie.items.contains { $0.identifier.description == "itlk/com.apple.iTunes:Session" })
        #expect(movie.tags["SESSION"] == ["Take 4"])
    }

    @Test func importWritesTheCustomKeysOfTheDocumentsSource() throws {
        let m4a = try copyOfFixture("moov-before-mdat.m4a")
        var movie = try MediaFile(path: m4a)
        _ = try movie.importTags([("SESSION", ["Take 5"])], pictures: [], customKeys: ["SESSION": "Session"])
        #expect(movie.tags["SESSION"] == ["Take 5"])
        #expect(movie.items.contains { $0.identifier.description == "itlk/com.apple.iTunes:Session" })
    }

    @Test func anIdentifierInAnImportedDocumentNamesThatItem() throws {
        let path = try copyOfFixture("no-tags.mp3")
        var file = try MediaFile(path: path)
        _ = try file.importTags([("id3/TXXX:Mixed", ["yes"])], pictures: [])
        #expect(file.items.map(\.identifier.description) == ["id3/TXXX:Mixed"])
    }
}

/// The rule for every pair of areas that can hold one key: after `set K=v` every item that reads
/// as K holds v (in memory and after saving), and after `remove K` none is left.
@Suite struct WriteConsistencyMatrixTests {
    typealias Case = (name: String, key: String, areas: Set<String>, make: @Sendable () throws -> String)

    static func movie(_ userData: [[UInt8]], extras: [[UInt8]] = []) throws -> String {
        var builder = MovieBuilder()
        builder.userData = userData
        builder.movieExtras = extras
        return try TemporaryFile.write(builder.build(), name: "matrix.m4a")
    }

    static let iTunesTitle = MovieBuilder.itemListMeta([MovieBuilder.textItem("©nam", "iTunes")], padding: 128)

    static let cases: [Case] = [
        ("iTunes item + QuickTime key", "TITLE", ["itsk", "mdta"], {
            try movie([iTunesTitle, QuickTimeKeysFromOtherWritersTests.quickTimeMeta([("com.apple.quicktime.title", "mdta")])])
        }),
        ("iTunes item + QuickTime user data", "TITLE", ["itsk", "udta"], {
            try movie([iTunesTitle, AtomBuilder.atom("©nam", UserDataItem.text("©nam", [.init("udta")]).payload)])
        }),
        ("iTunes item + 3GPP asset", "TITLE", ["itsk", "3gpp"], {
            try movie([iTunesTitle, AtomBuilder.atom("titl", UserDataItem(asset: ThreeGPPAsset(type: "titl", text: "3gpp")).payload)])
        }),
        ("iTunes item + freeform item", "TRACKNUMBER", ["itsk", "itlk"], {
            let trkn = AtomBuilder.atom("trkn", AtomBuilder.atom("data", [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 2, 0, 9, 0, 0]))
            return try movie([MovieBuilder.itemListMeta([trkn, OneTruthPerKeyTests.freeform("TRACKNUMBER", "2")], padding: 128)])
        }),
        ("iTunes item + ID32 tag", "TITLE", ["itsk", "id32"], { try ID32AndXMPItemTests.movie() }),
        ("two QuickTime key spellings", "TITLE", ["mdta"], {
            try movie([QuickTimeKeysFromOtherWritersTests.quickTimeMeta([("title", "bare"), ("com.apple.quicktime.title", "full")])])
        }),
        ("ID3 frame + TXXX", "TRACKNUMBER", ["id3"], {
            try OneTruthPerKeyTests.mp3([ID3Builder.frame("TRCK", ID3Builder.text(["2"])), OneTruthPerKeyTests.userText("TRACKNUMBER", "2")])
        }),
        ("ID3v2 tag + ID3v1 tag", "TITLE", ["id3", "id3v1"], { try copyOfFixture("id3v24-full.mp3") }),
        ("ID3 chunk + RIFF INFO", "TITLE", ["id3", "riff"], { try copyOfFixture("wav-id3-info.wav") }),
        ("ID3v2 tag + APE tag", "TITLE", ["id3", "ape"], {
            try APEInMP3Tests.mp3(id3: [ID3Builder.frame("TIT2", ID3Builder.text(["ID3"]))], ape: [.text("Title", ["APE"])])
        }),
        ("APE tag + ID3v1 tag", "TITLE", ["ape", "id3v1"], { try APEInMP3Tests.mp3(id3: nil, ape: [.text("Title", ["APE"])], v1: true) }),
    ]

    /// The items of `file` that read as `key` (whatever their rank).
    static func holders(_ file: MediaFile, _ key: String) -> [NativeMetadataItem] {
        file.items.filter { $0.contributions.contains { $0.key == key } || ($0.key == key && !$0.values.isEmpty) }
    }

    @Test(arguments: 0..<cases.count)
    func setReachesEveryAreaAndRemoveLeavesNone(_ index: Int) throws {
        let (name, key, areas, make) = Self.cases[index]
        let path = try make()
        var file = try MediaFile(path: path)
        #expect(Set(Self.holders(file, key).map(\.keySpace.rawValue)) == areas, "\(name): the file does not hold the key in every area")
        let value = key == "TRACKNUMBER" ? "7/3" : "One Truth"
        try file.set(key, [value])
        try file.save()
        var reread = try MediaFile(path: path)
        let afterSet = Self.holders(reread, key)
        #expect(!afterSet.isEmpty, "\(name)")
        for item in afterSet { #expect(item.values == [value], "\(name): \(item.identifier) still reads \(item.values)") }
        #expect(reread.tags[key] == [value], "\(name)")
        #expect(try reread.remove(key), "\(name)")
        try reread.save()
        let afterRemove = try MediaFile(path: path)
        #expect(Self.holders(afterRemove, key).isEmpty, "\(name): \(Self.holders(afterRemove, key).map(\.identifier)) left")
        #expect(afterRemove.tags[key] == nil, "\(name)")
    }
}
