import Foundation
import Carriers
import ID3
import ISOBMFF
import MediaBytes
@testable import MediaMetadata
import TagLibOracle
import TestSupport
import Testing

@Suite struct KeyTableTests {
    typealias Row = MetadataKeyDefinition

    @Test func keysAndAliasesAreUnique() {
        var names: [String: Int] = [:]
        for row in MetadataKeyTable.rows {
            for name in [row.key] + row.aliases { names[name.uppercased(), default: 0] += 1 }
        }
        #expect(names.filter { $0.value > 1 }.isEmpty)
    }

    @Test func everyNativeFormBelongsToOneRow() {
        var forms: [String: [String]] = [:]
        for row in MetadataKeyTable.rows {
            var rowForms = row.iTunes.map { "itunes \($0)".uppercased() }
            rowForms += [row.userData.map { "udta \($0)" }, row.quickTimeKey.map { "mdta \($0)" }, row.threeGPP.map { "3gpp \($0)" },
                         row.riffInfo.map { "riff \($0)" }].compactMap { $0 }
            rowForms += Set([row.id3, row.id3v23].compactMap { $0 }).map { "id3 \($0)".uppercased() }
            for form in rowForms { forms[form, default: []].append(row.key) }
        }
        #expect(forms.filter { $0.value.count > 1 }.isEmpty)
    }


    /// A value of `kind` for round trips.
    static func sample(_ row: Row) -> [String] {
        switch row.kind {
        case .text, .binary: ["Value of \(row.key) ✓"]
        case .integer: ["7"]
        case .pair: ["3/12"]
        case .boolean: ["1"]
        case .date: ["2024-05-17"]
        case .picture: []
        }
    }

    /// Writing each key into each format's native form and reading it back gives the key and
    /// the value again.
    @Test func everyRowRoundTripsThroughTheITunesForm() throws {
        for row in MetadataKeyTable.rows where !row.iTunes.isEmpty && row.kind != .picture {
            var store = MovieMetadataStore(scope: MetadataScope(), movieTime: nil)
            _ = try store.set(.uniform(row), values: Self.sample(row))
            let item = store.rankedItems.items.first { $0.key == row.key }
            #expect(item?.identifier == row.iTunes[0].identifier, "\(row.key)")
            #expect(item?.values == Self.sample(row), "\(row.key)")
        }
    }

    @Test(arguments: [UInt8(3), 4])
    func everyRowRoundTripsThroughTheID3Form(version: UInt8) throws {
        for row in MetadataKeyTable.rows where row.id3Form(version: version) != nil && row.kind != .picture {
            var store = ID3MetadataStore(tag: ID3v2Tag(majorVersion: version), id3v1: nil, info: nil)
            // URL frames hold ISO-8859-1; v2.3's TORY holds a year (both documented conversions).
            let isURL = row.id3.map { $0.frameID.hasPrefix("W") && $0.frameID != "WFED" } ?? false
            let sample = isURL ? ["https://example.org/\(row.key.lowercased())"] : Self.sample(row)
            let expected = version == 3 && row.key == "ORIGINALDATE" ? ["2024"] : sample
            _ = try store.set(.uniform(row), values: sample)
            // Through the bytes: serialize, parse, read the tags back.
            let bytes = try store.tag.serialized(version: version, padding: 0).bytes
            let reread = ID3MetadataStore(tag: try ID3v2Tag(parsing: bytes), id3v1: nil, info: nil)
            let values = reread.rankedItems.items.flatMap(\.contributions).filter { $0.key == row.key }.flatMap(\.values)
            #expect(values == expected, "\(row.key) in v2.\(version)")
        }
    }

    /// A fixture of every format and metadata area (ID3 of each version, APE, ADTS, iTunes,
    /// QuickTime keys and user data, 3GPP, FLAC, Ogg Vorbis/Opus/Speex/FLAC, WAV, AIFF).
    static let everyFormat = ["no-tags.mp3", "id3v24-full.mp3", "id3v23-utf16.mp3", "id3v22.mp3", "two-leading-tags-junk.mp3", "ape-lyrics3-id3v1.mp3",
        "id3v1-only.mp3", "hls-timestamp.aac", "aac-itunes-tags-cover.m4a", "audiobook-chapters.m4b", "video-h264-aac.mp4",
        "quicktime-mdta-keys.mov", "quicktime-udta-text.mov", "mobile.3gp", "flac-tags-picture.flac", "flac-id3-leading.flac",
        "ogg-vorbis-tags.ogg", "opus-tags-picture.opus", "speex.spx", "ogg-flac.oga", "wav-id3-info.wav", "aiff-id3.aiff",
        "aiff-text-chunks.aiff"]

    /// Through `MediaFile`, as `tagedit set` runs (the store, then the removal of other items
    /// that read as the key, then the save): every key each format has a place for reads back
    /// as set, by a fresh reader of the saved file and by TagLib.
    @Test(arguments: Self.everyFormat)
    func everyRowSetThroughAMediaFileReadsBack(fixture: String) throws {
        let path = try copyOfFixture(fixture)
        var file = try MediaFile(path: path)
        let expected = try Self.setEveryKey(&file, fixture: fixture)
        // (ID3v2.3 keeps the year of an original date, TORY: a documented conversion, noted.)
        let yearOnly = file.notes.contains { $0.hasPrefix("TORY holds a year") }
        try file.save()
        let tags = try MediaFile(path: path).tags
        for (key, values) in expected.sorted(by: { $0.key < $1.key }) {
            let want = yearOnly && key == "ORIGINALDATE" ? [String(values[0].prefix(4))] : values
            #expect(tags[key] == want, "\(key) in \(fixture)")
        }
        // TagLib reads every key back too, in the formats whose every key it maps (ID3 in MP3,
        // WAV and AIFF; Vorbis comments), but for the differences the KeysAndIdentifiers
        // article lists: `TSST` and `PCST` (TagLib 1.13 maps neither to a value), a `UFID`
        // outside ASCII (Latin-1 to TagLib), number pairs (two fields in Vorbis comments), a
        // field spelt `ALBUM ARTIST` that the file already had (its spelling is kept).
        let id3 = [".mp3", ".wav", ".aiff"].contains { fixture.hasSuffix($0) }
        let vorbis = [".flac", ".ogg", ".opus", ".spx", ".oga"].contains { fixture.hasSuffix($0) }
        guard id3 || vorbis, let theirs = TagLibReading.read(path)?.properties else { return }
        for (key, values) in expected.sorted(by: { $0.key < $1.key }) {
            if id3 && ["DISCSUBTITLE", "PODCAST", "MUSICBRAINZ_TRACKID"].contains(key) { continue }
            if vorbis, let total = ["TRACKNUMBER": "TRACKTOTAL", "DISCNUMBER": "DISCTOTAL"][key] {
                let parts = values[0].split(separator: "/").map(String.init)
                #expect(theirs[key] == [parts[0]] && theirs[total] == [parts[1]], "TagLib: \(key) in \(fixture)")
                continue
            }
            if vorbis, key == "ALBUMARTIST", theirs[key] == nil {
                #expect(theirs["ALBUM ARTIST"] == values, "TagLib: \(key) in \(fixture)")
                continue
            }
            let want = yearOnly && key == "ORIGINALDATE" ? [String(values[0].prefix(4))] : values
            #expect(theirs[key] == want, "TagLib: \(key) in \(fixture)")
        }
    }

    /// Sets every key of the table the file has a place for (the others are refused as not
    /// representable); the values set, by key.
    static func setEveryKey(_ file: inout MediaFile, fixture: String) throws -> [String: [String]] {
        var expected: [String: [String]] = [:]
        for row in MetadataKeyTable.rows where row.kind != .picture {
            // (Keys the format has no place for are refused, not dropped: skipped here.)
            var sample = Self.sample(row)
            if let form = row.id3, form.frameID.hasPrefix("W"), form.frameID != "WFED" { sample = ["https://example.org/\(row.key.lowercased())"] }
            do {
                try file.set(row.key, sample)
                expected[row.key] = sample
            } catch {
                #expect(error.code == .notRepresentable, "\(row.key) in \(fixture): \(error)")
            }
        }
        return expected
    }

    /// Every key set, saved, then removed key by key and saved again: no reader finds any of
    /// them, neither a fresh reader of this project nor TagLib (no stale value in any area).
    @Test(arguments: Self.everyFormat)
    func everyRowRemovedThroughAMediaFileIsGoneForEveryReader(fixture: String) throws {
        let path = try copyOfFixture(fixture)
        var file = try MediaFile(path: path)
        let expected = try Self.setEveryKey(&file, fixture: fixture)
        try file.save()
        var reopened = try MediaFile(path: path)
        for key in expected.keys.sorted() { #expect(try reopened.remove(key), "\(key) in \(fixture): nothing removed") }
        try reopened.save()
        let tags = try MediaFile(path: path).tags
        let theirs = TagLibReading.read(path)?.properties ?? [:]
        for key in expected.keys.sorted() {
            #expect(tags[key] == nil, "\(key) in \(fixture): \(tags[key] ?? [])")
            // (TagLib lists a key without a value for some frames it keeps, as PCST: none is left.)
            #expect(theirs[key] == nil, "TagLib: \(key) in \(fixture): \(theirs[key] ?? [])")
        }
    }

    @Test func everyRowRoundTripsThroughTheRIFFInfoForm() throws {
        let rows = MetadataKeyTable.rows.filter { $0.riffInfo != nil }
        #expect(!rows.isEmpty)
        for row in rows {
            let id = try #require(row.riffInfo)
            // A WAV that has an INFO list keeps it in step with the ID3 tag.
            var store = ID3MetadataStore(tag: ID3v2Tag(majorVersion: 4), id3v1: nil, info: RIFFInfoList([RIFFInfoList.Entry("ISFT", "x")]))
            let sample = Self.sample(row)
            _ = try store.set(.uniform(row), values: sample)
            let list = try #require(store.info)
            // Through the bytes: a WAV holding the list, read by the carrier.
            let wave = Array("WAVE".utf8) + list.chunkBytes
            let bytes = Array("RIFF".utf8) + [UInt8(wave.count & 0xFF), UInt8(wave.count >> 8 & 0xFF), 0, 0] + wave
            let reread = try IFFChunkFile(source: MemoryByteSource(bytes))
            #expect(reread.info == list, "\(row.key)")
            let readBack = ID3MetadataStore(tag: nil, id3v1: nil, info: reread.info)
            let item = readBack.rankedItems.items.first { $0.identifier == MetadataIdentifier(.riffInfo, id) }
            #expect(item?.key == row.key, "\(row.key)")
            // INFO holds one text; a track number reads as its number, as TagLib reads it.
            let expected = row.key == "TRACKNUMBER" ? ["3"] : [sample.joined(separator: " / ")]
            #expect(item?.values == expected, "\(row.key)")
        }
    }

    @Test func everyRowRoundTripsThroughTheQuickTimeAnd3GPPForms() throws {
        for row in MetadataKeyTable.rows where row.kind != .picture {
            var identifiers: [MetadataIdentifier] = []
            if let key = row.quickTimeKey { identifiers.append(MetadataIdentifier(.quickTimeMetadata, key)) }
            if let type = row.userData { identifiers.append(MetadataIdentifier(.quickTimeUserData, type)) }
            if let type = row.threeGPP { identifiers.append(MetadataIdentifier(.threeGPP, type)) }
            for identifier in identifiers {
                var store = MovieMetadataStore(scope: MetadataScope(), movieTime: nil)
                let value = row.kind == .date && identifier.keySpace == .threeGPP ? ["2024"] : Self.sample(row)
                _ = try store.set(.identifier(identifier), values: value)
                let item = store.rankedItems.items.first { $0.identifier == identifier }
                #expect(item?.key == row.key, "\(identifier)")
                #expect(item?.values == value, "\(identifier)")
            }
        }
    }

    @Test func everyITunesItemOfTheTableIsStoredAsItsKindSays() {
        for row in MetadataKeyTable.rows {
            for case .item(let type) in row.iTunes {
                let stored = ItemListValueKind.of(type)
                switch row.kind {
                case .integer: #expect(stored.integerWidth != nil, "\(row.key) \(type)")
                case .boolean: #expect(stored.isFlag, "\(row.key) \(type)")
                case .pair: #expect(stored.isPair, "\(row.key) \(type)")
                case .picture: #expect(stored.isImage, "\(row.key) \(type)")
                case .text, .date, .binary: #expect(stored.isText || stored.isGenreCode, "\(row.key) \(type)")
                }
            }
        }
    }

    @Test func itemsAreWrittenAtTheWidthsOfTheItemTable() throws {
        var notes: [String] = []
        for (type, kind) in ItemListValueKind.table {
            guard let width = kind.integerWidth else { continue }
            let item = try MovieMetadataStore.item(.item(type), row: nil, values: ["1"], notes: &notes)
            #expect(item.values.first?.data.count == width, "\(type)")
        }
        // hdvd is a number (0, 1, 2), as the inspector reads it too.
        let hdvd = try MovieMetadataStore.item(.item("hdvd"), row: nil, values: ["2"], notes: &notes)
        #expect(hdvd.values.first?.data == [2])
        let trkn = try MovieMetadataStore.item(.item("trkn"), row: MetadataKeyTable.definition("TRACKNUMBER"), values: ["3/12"], notes: &notes)
        #expect(trkn.values.first?.data == [0, 0, 0, 3, 0, 12, 0, 0])
        let disk = try MovieMetadataStore.item(.item("disk"), row: MetadataKeyTable.definition("DISCNUMBER"), values: ["1/2"], notes: &notes)
        #expect(disk.values.first?.data == [0, 0, 0, 1, 0, 2])
    }

    @Test func riffInfoEntriesReadAsTheirKeys() {
        for row in MetadataKeyTable.rows {
            guard let id = row.riffInfo else { continue }
            let store = ID3MetadataStore(tag: nil, id3v1: nil, info: RIFFInfoList([RIFFInfoList.Entry(id, "42")]))
            #expect(store.rankedItems.items.first?.key == row.key)
        }
    }

    @Test func aliasesAndCaseFindTheRow() {
        #expect(MetadataKeyTable.definition("common/title")?.key == "TITLE")
        #expect(MetadataKeyTable.definition("Common/AlbumName")?.key == "ALBUM")
        #expect(MetadataKeyTable.definition("tracknumber")?.key == "TRACKNUMBER")
        #expect(MetadataKeyTable.definition("common/artwork")?.kind == .picture)
        #expect(MetadataKeyTable.definition("NOSUCHKEY") == nil)
    }
}

@Suite struct MetadataIdentifierTests {
    @Test func fourCharacterCodesEscapeBytesOutsideASCII() {
        let title = MetadataIdentifier(.iTunes, FourCC(0xA9, 0x6E, 0x61, 0x6D))
        #expect(title.description == "itsk/%A9nam")
        #expect(MetadataIdentifier(parsing: "itsk/%A9nam") == title)
        #expect(MetadataIdentifier(parsing: "itsk/©nam") == title)
        #expect(MetadataIdentifier(parsing: "udta/%a9day")?.fourCC == FourCC(0xA9, 0x64, 0x61, 0x79))
    }

    /// Every byte value, at either end of a code, is written as itself when printable ASCII
    /// (but `%`) and as `%XX` otherwise, and reads back to the same code.
    @Test func everyByteOfACodeEscapesAndReadsBack() {
        for byte in UInt8.min...UInt8.max {
            let plain = byte >= 0x20 && byte <= 0x7E && byte != UInt8(ascii: "%")
            let escaped = plain ? String(UnicodeScalar(byte)) : "%" + String(byte, radix: 16, uppercase: true).leftPaddedHex
            for (code, expected) in [(FourCC(byte, 0x6E, 0x61, 0x6D), "itsk/" + escaped + "nam"), (FourCC(0x6E, 0x61, 0x6D, byte), "itsk/nam" + escaped)] {
                let identifier = MetadataIdentifier(.iTunes, code)
                #expect(identifier.description == expected, "byte \(byte)")
                #expect(MetadataIdentifier(parsing: identifier.description)?.fourCC == code, "byte \(byte)")
            }
        }
    }

    @Test func stringKeysEscapeTheirUTF8BytesAndPercent() {
        let key = MetadataIdentifier(.quickTimeMetadata, "com.example.größe 100%")
        #expect(key.description == "mdta/com.example.gr%C3%B6%C3%9Fe 100%25")
        #expect(MetadataIdentifier(parsing: key.description) == key)
    }

    @Test func freeformAndID3IdentifiersSplitAtTheFirstColon() {
        let freeform = MetadataIdentifier.freeform(mean: "com.apple.iTunes", name: "MusicBrainz Track Id")
        #expect(freeform.description == "itlk/com.apple.iTunes:MusicBrainz Track Id")
        #expect(freeform.freeformParts?.name == "MusicBrainz Track Id")
        let ufid = MetadataIdentifier(parsing: "id3/UFID:http://musicbrainz.org")
        #expect(ufid?.id3Parts.frame == "UFID")
        #expect(ufid?.id3Parts.qualifier == "http://musicbrainz.org")
    }

    @Test func malformedIdentifiersAreRejected() {
        #expect(MetadataIdentifier(parsing: "nope/TIT2") == nil)
        #expect(MetadataIdentifier(parsing: "itsk/toolong") == nil)
        #expect(MetadataIdentifier(parsing: "itsk/%ZZam") == nil)
        #expect(MetadataIdentifier(parsing: "id3/") == nil)
    }
}

@Suite struct ID3VersionConversionAgreesWithTheKeyTableTests {
    /// `convert --id3v2-version 3` keeps a v2.4-only text frame as the TXXX the key table
    /// writes for its key in v2.3, so the value reads back as the same key.
    @Test func everyV24FrameKeptAsUserTextIsTheKeyTablesV23Form() {
        for (frame, description) in ID3VersionConversion.v24TextAsUserText {
            let row = MetadataKeyTable.rows.first { $0.id3 == .frame(frame) }
            #expect(row?.id3v23 == .userText(description), "\(frame)")
        }
    }
}

@Suite struct ValueConversionTests {
    @Test func pairsAcceptIndexTotalAndCanonicalise() throws {
        #expect(try MetadataValueConversion.canonical("03/12", kind: .pair, key: "TRACKNUMBER") == "3/12")
        #expect(try MetadataValueConversion.canonical("5", kind: .pair, key: "TRACKNUMBER") == "5")
        #expect(try MetadataValueConversion.canonical(" / 07", kind: .pair, key: "TRACKNUMBER") == "/7")
        #expect(try MetadataValueConversion.canonical("0/7", kind: .pair, key: "TRACKNUMBER") == "0/7")
        #expect(throws: MetadataError(.badValue)) { try MetadataValueConversion.canonical("abc", kind: .pair, key: "TRACKNUMBER") }
        #expect(throws: MetadataError(.badValue)) { try MetadataValueConversion.canonical("70000", kind: .pair, key: "TRACKNUMBER") }
    }

    @Test func booleansIntegersAndDatesAreChecked() throws {
        #expect(try MetadataValueConversion.canonical("yes", kind: .boolean, key: "COMPILATION") == "1")
        #expect(throws: MetadataError(.badValue)) { try MetadataValueConversion.canonical("maybe", kind: .boolean, key: "COMPILATION") }
        #expect(throws: MetadataError(.badValue)) { try MetadataValueConversion.canonical("fast", kind: .integer, key: "BPM") }
        for date in ["2024", "2024-05", "2024-05-17", "2024-05-17T08:30", "2024-05-17T08:30:15", "2024-05-17T08:30:15Z"] {
            #expect(MetadataValueConversion.isDate(date), "\(date)")
        }
        for date in ["24", "2024-5-17", "May 2024", "2024-05-17 08:30"] { #expect(!MetadataValueConversion.isDate(date), "\(date)") }
    }

    @Test func numericGenresBecomeNames() {
        #expect(MetadataValueConversion.genre(iTunesCode: 18) == "Rock")  // ID3v1 17 + 1
        let store = ID3MetadataStore(tag: ID3v2Tag(majorVersion: 3, frames: [ID3Frame(id: "TCON", content: .text(encoding: .latin1, values: ["(17)Hard"]))]),
                                     id3v1: nil, info: nil)
        #expect(store.rankedItems.items.first?.values == ["Rock", "Hard"])
    }

    @Test func version23DatesAreSplitAndJoined() throws {
        var store = ID3MetadataStore(tag: ID3v2Tag(majorVersion: 3), id3v1: nil, info: nil)
        _ = try store.set(.uniform(MetadataKeyTable.definition("DATE")!), values: ["2021-06-01T14:30"])
        #expect(store.tag.frames.map(\.id) == ["TYER", "TDAT", "TIME"])
        #expect(store.tag.frames.map { $0.textValues ?? [] } == [["2021"], ["0106"], ["1430"]])
        #expect(store.rankedItems.items.flatMap(\.contributions).first { $0.key == "DATE" }?.values == ["2021-06-01T14:30"])
    }

    @Test func pictureTypesHaveNames() {
        #expect(PictureType(named: "front-cover") == .frontCover)
        #expect(PictureType(named: "Back-Cover") == .backCover)
        #expect(PictureType(named: "42") == PictureType(rawValue: 42))
        #expect(PictureType(named: "type-42")?.name == "type-42")
        #expect(PictureType.frontCover.name == "front-cover" && PictureType.frontCover.rawValue == 3)
        #expect(PictureType.publisherLogo.name == "publisher-logo")
        #expect(PictureType(named: "nonsense") == nil)
        #expect(MediaPicture.mimeType(sniffing: [0x89, 0x50, 0x4E, 0x47, 0x0D]) == "image/png")
    }

    /// An item's contributions read back as they were given (none, its key's, one, several),
    /// `forEachContribution` walks the same list, and equal lists make equal items however
    /// they were given.
    @Test func itemContributionsReadBackAsGiven() {
        let id = MetadataIdentifier(.id3, "TIT2")
        let derived = NativeMetadataItem(id, key: "TITLE", dataType: "text frame", values: ["a", "b"])
        let given = NativeMetadataItem(id, key: "TITLE", dataType: "text frame", values: ["a", "b"], contributions: [TagContribution(key: "TITLE", values: ["a", "b"])])
        #expect(derived.contributions == [TagContribution(key: "TITLE", values: ["a", "b"])])
        #expect(derived == given && derived.hashValue == given.hashValue)
        let several = [TagContribution(key: "ARRANGER", values: ["x"]), TagContribution(key: "ENGINEER", values: ["y", "z"])]
        var item = NativeMetadataItem(id, key: nil, dataType: "involved people", values: [], contributions: several)
        #expect(item.contributions == several && item.hasContributions)
        var walked: [TagContribution] = []
        item.forEachContribution { walked.append(TagContribution(key: $0, values: $1)) }
        #expect(walked == several)
        item.contributions = [several[1]]
        #expect(item.contributions == [several[1]])
        item.contributions = []
        #expect(item.contributions.isEmpty && !item.hasContributions)
        #expect(NativeMetadataItem(id, key: nil, dataType: "text frame", values: ["a"]).contributions.isEmpty)
        // Fixed when the item is made: later changes to its values do not change them.
        var changed = derived
        changed.values = ["c"]
        #expect(changed.contributions == derived.contributions)
    }

    /// `SeenKeys` answers true for each key's first insertion only, before and after it
    /// moves from its short list to a set (past 32 keys): 40 keys, each twice, then keys from
    /// the list's time again once the set holds them.
    @Test func seenKeysTellFirstInsertionsFromLaterOnes() {
        var seen = SeenKeys<UInt32>()
        var answers: [Bool] = []
        for key in UInt32(0)..<40 { answers.append(seen.insert(key)); answers.append(seen.insert(key)) }
        for key in [UInt32(0), 31, 32, 39] { answers.append(seen.insert(key)) }
        answers.append(seen.insert(40))
        #expect(answers == Array([[Bool]](repeating: [true, false], count: 40).joined()) + [false, false, false, false, true])
        var identifiers = SeenKeys<MetadataIdentifier>()
        let named = ["MOOD", "MOOD", "mood"].map { identifiers.insert(.freeform(mean: "com.apple.iTunes", name: $0)) }
        #expect(named == [true, false, true])
    }

    /// Image signatures are recognized in arrays and in slices of a larger read (a cover's
    /// value inside the metadata read), wherever the slice starts.
    @Test func pictureMIMETypesAreSniffedFromArraysAndSlices() {
        let webp = Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8)
        let samples: [([UInt8], String?)] = [
            ([0xFF, 0xD8, 0xFF, 0xE0], "image/jpeg"), ([0x89, 0x50, 0x4E, 0x47], "image/png"), (Array("GIF89a".utf8), "image/gif"),
            (Array("BM\u{0}\u{0}".utf8), "image/bmp"), (webp, "image/webp"), (Array(webp.prefix(11)), nil),
            (Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVE".utf8), nil), ([0xFF, 0xD8], nil), ([], nil),
        ]
        for (bytes, expected) in samples {
            #expect(MediaPicture.mimeType(sniffing: bytes) == expected, "\(bytes)")
            let surrounded = [0x52, 0x49, 0x46, 0x46, 0xFF, 0xD8, 0xFF] + bytes + [0x57, 0x45, 0x42, 0x50]
            #expect(MediaPicture.mimeType(sniffing: surrounded[7..<(7 + bytes.count)]) == expected, "\(bytes) in a slice")
        }
    }
}

private extension String {
    /// A one-digit hex number with a leading zero.
    var leftPaddedHex: String { count == 1 ? "0" + self : self }
}

/// A track or disc number too large for the 16 bits MP4 stores it in is refused with the range,
/// not with a description of the n/m form it already has (issue 35).
@Suite struct PairRangeMessageTests {
    @Test func aNumberTooLargeSaysTheRange() throws {
        for value in ["70000", "3/70000", "70000/", "/99999"] {
            let error = #expect(throws: MetadataError.self) { try MetadataValueConversion.canonical(value, kind: .pair, key: "TRACKNUMBER") }
            #expect(error?.message.contains("0 to 65535") == true, "\(value): \(error.map(String.init(describing:)) ?? "")")
        }
        for value in ["abc", "1/2/3", "x/5"] {
            let error = #expect(throws: MetadataError.self) { try MetadataValueConversion.canonical(value, kind: .pair, key: "TRACKNUMBER") }
            #expect(error?.message.contains("expected a number, or a number and a total as n/m") == true, "\(value)")
        }
        #expect(try MetadataValueConversion.canonical("03/12", kind: .pair, key: "TRACKNUMBER") == "3/12")
    }
}
