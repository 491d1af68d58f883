import ISOBMFF
import MediaBytes
import TestSupport
import Testing

/// Decodes `payload` as the fields of a leaf `type` under `parents` (outermost first).
func decodeLeaf(_ type: FourCC, _ payload: [UInt8], parents: [FourCC] = [], handler: FourCC? = nil) throws -> (any AtomPayload)? {
    var bytes = B.atom(type, payload)
    for parent in parents.reversed() { bytes = B.atom(parent, bytes) }
    let tree = try parse(B.ftyp() + bytes)
    var found: Atom?
    var context = AtomDecodingContext(atom: tree.atoms[0])
    var lineage: [FourCC] = []
    tree.walk { atom, path, depth in
        lineage = Array(lineage.prefix(depth)) + [atom.type]
        if path.components.count == parents.count + 1 && atom.type == type && found == nil {
            found = atom
            context = AtomDecodingContext(atom: atom, parent: lineage.dropLast().last,
                                          grandparent: lineage.count >= 3 ? lineage[lineage.count - 3] : nil, handler: handler)
        }
        return true
    }
    _ = try #require(found)
    return try AtomInspector(tree: tree).decode(context)
}

func field(_ payload: (any AtomPayload)?, _ name: String) -> FieldValue? {
    payload?.fields(.complete).first { $0.name == name }?.value
}

let zero4: [UInt8] = [0, 0, 0, 0]

@Suite struct HeaderPayloadTests {
    @Test func fileTypeListsBrands() throws {
        let box = try #require(try decodeLeaf("styp", FourCC("M4A ").bytes + B.be(512, width: 4) + FourCC("isom").bytes) as? FileTypeBox)
        #expect(box.majorBrand == "M4A ")
        #expect(box.minorVersion == 512)
        #expect(box.compatibleBrands == ["isom"])
    }

    @Test func movieHeaderVersion0And1() throws {
        let v0 = [0, 0, 0, 0] + B.be(0, width: 4) + B.be(0, width: 4) + B.be(600, width: 4) + B.be(1200, width: 4)
            + B.be(0x10000, width: 4) + [1, 0] + [UInt8](repeating: 0, count: 70) + B.be(3, width: 4)
        let box0 = try #require(try decodeLeaf("mvhd", v0, parents: ["moov"]) as? MovieHeaderBox)
        #expect(box0.timescale == 600)
        #expect(box0.duration == 1200)
        #expect(box0.rate == 1)
        #expect(box0.volume == 1)
        #expect(box0.nextTrackID == 3)
        #expect(field(box0, "durationSeconds") == .number(2))
        #expect(field(box0, "creationTime") == .text("1904-01-01T00:00:00Z"))

        let v1 = [1, 0, 0, 0] + B.be(3_786_912_000, width: 8) + B.be(0, width: 8) + B.be(1000, width: 4) + B.be(1 << 33, width: 8)
            + B.be(0x10000, width: 4) + [1, 0] + [UInt8](repeating: 0, count: 70) + B.be(2, width: 4)
        let box1 = try #require(try decodeLeaf("mvhd", v1, parents: ["moov"]) as? MovieHeaderBox)
        #expect(box1.duration == 1 << 33)
        #expect(field(box1, "creationTime") == .text("2024-01-01T00:00:00Z"))
    }

    @Test func trackHeaderFlagsAndSize() throws {
        let payload = [0, 0, 0, 3] + B.be(0, width: 8) + B.be(7, width: 4) + zero4 + B.be(500, width: 4) + [UInt8](repeating: 0, count: 8)
            + [0, 0, 0, 1, 1, 0, 0, 0] + [UInt8](repeating: 0, count: 36) + B.be(640 << 16, width: 4) + B.be(480 << 16, width: 4)
        let box = try #require(try decodeLeaf("tkhd", payload, parents: ["moov", "trak"]) as? TrackHeaderBox)
        #expect(box.trackID == 7)
        #expect(box.isEnabled)
        #expect(box.alternateGroup == 1)
        #expect(box.width == 640 && box.height == 480)
    }

    @Test func mediaHeaderDecodesPackedLanguage() throws {
        // "eng" packed: e=5, n=14, g=7 -> (5<<10)|(14<<5)|7 = 0x15C7
        let payload = zero4 + B.be(0, width: 8) + B.be(44100, width: 4) + B.be(88200, width: 4) + [0x15, 0xC7, 0, 0]
        let box = try #require(try decodeLeaf("mdhd", payload, parents: ["moov", "trak", "mdia"]) as? MediaHeaderBox)
        #expect(box.language == "eng")
        #expect(field(box, "durationSeconds") == .number(2))
    }

    @Test func handlerNameIsReadAsCStringOrPascalString() throws {
        let iso = try #require(try decodeLeaf("hdlr", zero4 + zero4 + FourCC("soun").bytes + [UInt8](repeating: 0, count: 12) + B.utf8("SoundHandler\0")) as? HandlerBox)
        #expect(iso.handlerType == "soun")
        #expect(iso.name == "SoundHandler")
        let qt = try #require(try decodeLeaf("hdlr", zero4 + FourCC("mhlr").bytes + FourCC("vide").bytes + FourCC("appl").bytes + [UInt8](repeating: 0, count: 8) + [5] + B.utf8("Video")) as? HandlerBox)
        #expect(qt.componentType == "mhlr")
        #expect(qt.manufacturer == "appl")
        #expect(qt.name == "Video")
    }
}

@Suite struct SampleTablePayloadTests {
    let stbl: [FourCC] = ["moov", "trak", "mdia", "minf", "stbl"]

    @Test func timeToSampleCountsSamples() throws {
        let box = try #require(try decodeLeaf("stts", zero4 + B.be(2, width: 4) + B.be(10, width: 4) + B.be(1024, width: 4) + B.be(1, width: 4) + B.be(512, width: 4), parents: stbl) as? TimeToSampleBox)
        #expect(box.sampleCount == 11)
        #expect(box.entries[1].value == 512)
    }

    @Test func compositionOffsetsVersion1AreSigned() throws {
        let box = try #require(try decodeLeaf("ctts", [1, 0, 0, 0] + B.be(1, width: 4) + B.be(3, width: 4) + B.be(0xFFFF_FFFE, width: 4), parents: stbl) as? TimeToSampleBox)
        #expect(box.entries[0].value == -2)
    }

    @Test func syncSamples() throws {
        let box = try #require(try decodeLeaf("stss", zero4 + B.be(2, width: 4) + B.be(1, width: 4) + B.be(31, width: 4), parents: stbl) as? SyncSampleBox)
        #expect(box.sampleNumbers == [1, 31])
    }

    @Test func sampleToChunkExpandsPerChunk() throws {
        let payload = zero4 + B.be(2, width: 4) + B.be(1, width: 4) + B.be(3, width: 4) + B.be(1, width: 4) + B.be(3, width: 4) + B.be(2, width: 4) + B.be(1, width: 4)
        let box = try #require(try decodeLeaf("stsc", payload, parents: stbl) as? SampleToChunkBox)
        #expect(box.samplesPerChunk(chunkCount: 4) == [3, 3, 2, 2])
    }

    @Test func sampleSizesUniformAndPerSample() throws {
        let uniform = try #require(try decodeLeaf("stsz", zero4 + B.be(4, width: 4) + B.be(100, width: 4), parents: stbl) as? SampleSizeBox)
        #expect(uniform.size(ofSample: 99) == 4)
        let each = try #require(try decodeLeaf("stsz", zero4 + zero4 + B.be(2, width: 4) + B.be(5, width: 4) + B.be(6, width: 4), parents: stbl) as? SampleSizeBox)
        #expect(each.sizes == [5, 6])
    }

    @Test func compactSampleSizesOfFourBits() throws {
        let box = try #require(try decodeLeaf("stz2", zero4 + [0, 0, 0, 4] + B.be(3, width: 4) + [0x12, 0x30], parents: stbl) as? SampleSizeBox)
        #expect(box.sizes == [1, 2, 3])
    }

    @Test func chunkOffsets32And64() throws {
        let stco = try #require(try decodeLeaf("stco", zero4 + B.be(2, width: 4) + B.be(48, width: 4) + B.be(4000, width: 4), parents: stbl) as? ChunkOffsetBox)
        #expect(stco.offsets == [48, 4000])
        let co64 = try #require(try decodeLeaf("co64", zero4 + B.be(1, width: 4) + B.be(1 << 34, width: 8), parents: stbl) as? ChunkOffsetBox)
        #expect(co64.offsets == [1 << 34])
        #expect(co64.is64Bit)
    }

    @Test func millionEntryTablesDecode() throws {
        let count = 1_000_000
        var payload = zero4 + zero4 + B.be(UInt64(count), width: 4)
        payload.reserveCapacity(payload.count + count * 4)
        for i in 0..<count { payload += B.be(UInt64(i & 0xFFFF), width: 4) }
        let box = try #require(try decodeLeaf("stsz", payload, parents: stbl) as? SampleSizeBox)
        #expect(box.sizes.count == count)
        #expect(box.sizes[70_000] == UInt32(70_000 & 0xFFFF))
        #expect(box.fields(.default).contains { $0.name == "entriesTruncated" })
    }

    @Test func editList() throws {
        let box = try #require(try decodeLeaf("elst", zero4 + B.be(1, width: 4) + B.be(1000, width: 4) + B.be(0xFFFF_FFFF, width: 4) + B.be(0x10000, width: 4), parents: ["moov", "trak", "edts"]) as? EditListBox)
        #expect(box.entries[0].mediaTime == -1)
        #expect(box.entries[0].mediaRate == 1)
    }

    @Test func mediaInformationHeaders() throws {
        let smhd = try decodeLeaf("smhd", zero4 + [0xFF, 0x00, 0, 0])
        #expect(field(smhd, "balance") == .number(-1))
        let vmhd = try decodeLeaf("vmhd", [0, 0, 0, 1] + [0, 0x40, 0, 1, 0, 2, 0, 3])
        #expect(field(vmhd, "graphicsMode") == .unsigned(64))
    }
}

@Suite struct SampleEntryPayloadTests {
    func track(handler: FourCC, entry: [UInt8]) -> [UInt8] {
        let hdlr = B.fullBox("hdlr", zero4 + handler.bytes + [UInt8](repeating: 0, count: 13))
        let stsd = B.fullBox("stsd", B.be(1, width: 4) + entry)
        return B.ftyp() + B.container("moov", B.container("trak", B.container("mdia", hdlr, B.container("minf", B.container("stbl", stsd)))))
    }

    func inspectEntry(_ bytes: [UInt8]) throws -> InspectedAtom {
        let tree = try parse(bytes)
        let (atoms, diagnostics) = AtomInspector(tree: tree).inspect(root: AtomPath(parsing: "moov/trak/mdia/minf/stbl/stsd")!)
        #expect(diagnostics.isEmpty)
        return try #require(atoms.first?.children.first)
    }

    static let esds: [UInt8] = {
        // ES_Descriptor(3) { ES_ID 1, flags 0, DecoderConfig(4) { 0x40, stream 5, buffer, max, avg, DSI(5) { 0x12 0x10 } } }
        let dsi: [UInt8] = [0x05, 0x02, 0x12, 0x10]
        let config: [UInt8] = [0x04, 13 + 4, 0x40, 0x15, 0, 0, 0] + B.be(128_000, width: 4) + B.be(96_000, width: 4) + dsi
        let es: [UInt8] = [0x03, UInt8(3 + config.count), 0, 1, 0] + config
        return B.fullBox("esds", es)
    }()

    @Test func audioEntryWithElementaryStreamDescriptor() throws {
        let fields = [UInt8](repeating: 0, count: 6) + [0, 1] + [UInt8](repeating: 0, count: 8) + [0, 2, 0, 16, 0, 0, 0, 0] + B.be(44100 << 16, width: 4)
        let entry = try inspectEntry(track(handler: "soun", entry: B.atom("mp4a", fields + Self.esds)))
        #expect(entry.atom.role == .sampleEntry(.audio))
        #expect(entry.fields.first { $0.name == "channelCount" }?.value == .unsigned(2))
        #expect(entry.fields.first { $0.name == "sampleRate" }?.value == .number(44100))
        let esds = try #require(entry.children.first?.payload as? ElementaryStreamDescriptorBox)
        #expect(esds.objectTypeIndication == 0x40)
        #expect(esds.maxBitrate == 128_000)
        #expect(esds.averageBitrate == 96_000)
        let config = try #require(esds.audioConfig)
        #expect(config.audioObjectType == 2)
        #expect(config.samplingFrequency == 44100)
        #expect(config.channelConfiguration == 2)
        #expect(esds.summary.contains("AAC LC 44100 Hz 2 ch"))
    }

    @Test func quickTimeSoundDescriptionVersion2() throws {
        var fields = [UInt8](repeating: 0, count: 6) + [0, 1] + [0, 2, 0, 0] + zero4 + [0, 3, 0, 16, 0xFF, 0xFE, 0, 0] + B.be(0x10000, width: 4)
        fields += B.be(72, width: 4) + B.be(Double(96000).bitPattern, width: 8) + B.be(6, width: 4) + B.be(0x7F00_0000, width: 4)
            + B.be(24, width: 4) + B.be(12, width: 4) + B.be(18, width: 4) + B.be(1, width: 4)
        let entry = try inspectEntry(track(handler: "soun", entry: B.atom("lpcm", fields)))
        #expect(entry.atom.prefixSize == 64)
        #expect(entry.fields.first { $0.name == "sampleRate" }?.value == .number(96000))
        #expect(entry.fields.first { $0.name == "channelCount" }?.value == .unsigned(6))
    }

    /// Audio entries keep their fixed fields typed, and the inspector's fields are those same
    /// values, in the documented order: version 0 (ISO) and QuickTime version 2.
    @Test func audioEntriesAreTyped() throws {
        let version0 = [UInt8](repeating: 0, count: 6) + [0, 1] + [UInt8](repeating: 0, count: 8) + [0, 2, 0, 16, 0, 0, 0, 0] + B.be(44100 << 16, width: 4)
        let iso = try inspectEntry(track(handler: "soun", entry: B.atom("mp4a", version0 + Self.esds)))
        let isoAudio = try #require((iso.payload as? SampleEntry)?.audio)
        #expect(isoAudio.version == 0 && isoAudio.channelCount == 2 && isoAudio.sampleRate == 44100 && isoAudio.sampleSize == 16)
        #expect(isoAudio.bytesPerSample == nil && isoAudio.bitsPerChannel == nil)
        // Every fixed field is listed (zero ones too: each byte is some field's), with its bytes.
        #expect(iso.fields.map(\.name) == ["kind", "reserved", "dataReferenceIndex", "version", "channelCount", "sampleRate", "revision", "vendor",
                                          "sampleSize", "compressionID", "packetSize"])
        let payload = iso.atom.payloadOffset
        #expect(iso.fields.first { $0.name == "channelCount" }?.range == payload + 16..<payload + 18)
        #expect(iso.fields.first { $0.name == "sampleRate" }?.range == payload + 24..<payload + 28)

        var version2 = [UInt8](repeating: 0, count: 6) + [0, 1] + [0, 2, 0, 0] + zero4 + [0, 3, 0, 16, 0xFF, 0xFE, 0, 0] + B.be(0x10000, width: 4)
        version2 += B.be(72, width: 4) + B.be(Double(96000).bitPattern, width: 8) + B.be(6, width: 4) + B.be(0x7F00_0000, width: 4)
            + B.be(24, width: 4) + B.be(12, width: 4) + B.be(18, width: 4) + B.be(1, width: 4)
        let quickTime = try inspectEntry(track(handler: "soun", entry: B.atom("lpcm", version2)))
        let audio = try #require((quickTime.payload as? SampleEntry)?.audio)
        #expect(audio.version == 2 && audio.channelCount == 6 && audio.sampleRate == 96000)
        #expect(audio.sampleSize == nil && audio.compressionID == nil, "version 2 keeps placeholders there")
        #expect(audio.bitsPerChannel == 24 && audio.formatSpecificFlags == 12 && audio.bytesPerAudioPacket == 18 && audio.framesPerAudioPacket == 1)
        #expect(quickTime.fields.map(\.name) == [
            "kind", "reserved", "dataReferenceIndex", "version", "channelCount", "sampleRate", "revision", "vendor", "placeholders",
            "sizeOfStructOnly", "always7F000000", "bitsPerChannel", "formatSpecificFlags", "bytesPerAudioPacket", "framesPerAudioPacket",
        ])
        // Version 2's rate and channels are its own fields' bytes, not the placeholders'.
        let start = quickTime.atom.payloadOffset
        #expect(quickTime.fields.first { $0.name == "sampleRate" }?.range == start + 32..<start + 40)
        #expect(quickTime.fields.first { $0.name == "placeholders" }?.range == start + 16..<start + 28)
    }

    @Test func videoEntryWithChildren() throws {
        var fields = [UInt8](repeating: 0, count: 6) + [0, 1] + [UInt8](repeating: 0, count: 16) + [0, 64, 0, 48]
        fields += B.be(72 << 16, width: 4) + B.be(72 << 16, width: 4) + zero4 + [0, 1] + [4] + B.utf8("Test") + [UInt8](repeating: 0, count: 27) + [0, 24, 0xFF, 0xFF]
        let entry = try inspectEntry(track(handler: "vide", entry: B.atom("avc1", fields + B.atom("pasp", B.be(1, width: 4) + B.be(1, width: 4)))))
        #expect(entry.atom.prefixSize == 78)
        #expect(entry.fields.first { $0.name == "width" }?.value == .unsigned(64))
        #expect(entry.fields.first { $0.name == "compressorName" }?.value == .text("Test"))
        #expect(entry.children.first?.fields.first { $0.name == "hSpacing" }?.value == .unsigned(1))
    }

    @Test func timedTextAndTimecodeEntries() throws {
        let tx3g = [UInt8](repeating: 0, count: 6) + [0, 1] + zero4 + [1, 0xFF] + zero4 + [UInt8](repeating: 0, count: 8) + [0, 0, 0, 0, 0, 1, 0, 18] + [0xFF, 0xFF, 0xFF, 0xFF]
        let text = try inspectEntry(track(handler: "sbtl", entry: B.atom("tx3g", tx3g)))
        #expect(text.atom.prefixSize == 38)
        #expect(text.fields.first { $0.name == "verticalJustification" }?.value == .integer(-1))
        let tmcd = [UInt8](repeating: 0, count: 6) + [0, 1] + zero4 + B.be(1, width: 4) + B.be(30000, width: 4) + B.be(1001, width: 4) + [30, 0]
        let timecode = try inspectEntry(track(handler: "tmcd", entry: B.atom("tmcd", tmcd)))
        #expect(timecode.fields.first { $0.name == "dropFrame" }?.value == .boolean(true))
        #expect(timecode.fields.first { $0.name == "framesPerSecond" }?.value == .unsigned(30))
    }
}

@Suite struct MetadataPayloadTests {
    static let hdlr = B.fullBox("hdlr", zero4 + FourCC("mdir").bytes + [UInt8](repeating: 0, count: 13))

    func data(_ type: UInt32, _ value: [UInt8], item: FourCC) throws -> ItemDataAtom {
        let bytes = B.ftyp() + B.container("moov", B.container("udta", B.container("meta", Self.hdlr, B.container("ilst", B.container(item, B.atom("data", B.be(UInt64(type), width: 4) + zero4 + value))))))
        let tree = try parse(bytes)
        let (atoms, _) = AtomInspector(tree: tree).inspect(root: AtomPath([.init(type: "moov"), .init(type: "udta"), .init(type: "meta"), .init(type: "ilst"), .init(type: item), .init(type: "data")]))
        return try #require(atoms.first?.payload as? ItemDataAtom)
    }

    @Test func textAndNumbers() throws {
        #expect(try data(1, B.utf8("Tïtle"), item: "©nam").decodedValue == .text("Tïtle"))
        #expect(try data(2, [0, 0x48, 0, 0x69], item: "©nam").decodedValue == .text("Hi"))
        #expect(try data(21, [0xFF, 0xFE], item: "tmpo").decodedValue == .integer(-2))
        #expect(try data(22, [0, 0, 1, 0], item: "xxxx").decodedValue == .unsigned(256))
        #expect(try data(23, B.be(UInt64(Float(1.5).bitPattern), width: 4), item: "xxxx").decodedValue == .number(1.5))
    }

    @Test func implicitValuesFollowTheItemsConvention() throws {
        #expect(try data(0, [0, 0, 0, 3, 0, 12, 0, 0], item: "trkn").decodedValue == .record([DescribedField("index", 3), DescribedField("total", 12)]))
        #expect(try data(0, [0, 0, 0, 1, 0, 2], item: "disk").decodedValue == .record([DescribedField("index", 1), DescribedField("total", 2)]))
        #expect(try data(0, [0, 18], item: "gnre").decodedValue == .record([DescribedField("genreID", 18)]))
        #expect(try data(0, [1], item: "cpil").decodedValue == .boolean(true))
    }

    @Test func imagesReportTheirMIMEType() throws {
        let cover = try data(14, [0x89, 0x50, 0x4E, 0x47], item: "covr")
        #expect(cover.imageMIMEType == "image/png")
        #expect(cover.fields(.default).contains { $0.name == "imageSize" && $0.value == .unsigned(4) })
    }

    @Test func unknownDataTypeIsKeptAsBytesWithANote() throws {
        let bytes = B.ftyp() + B.container("moov", B.container("udta", B.container("meta", Self.hdlr, B.container("ilst", B.container("©nam", B.atom("data", B.be(99, width: 4) + zero4 + [1, 2]))))))
        let tree = try parse(bytes)
        let (_, diagnostics) = AtomInspector(tree: tree).inspect()
        #expect(diagnostics.map(\.code) == ["unknownDataType"])
        let note = try #require(diagnostics.first)
        #expect(note.severity == .note)
        #expect(note.path.description == "moov/udta/meta/ilst/©nam/data")
    }

    @Test func freeformItemShowsMeanAndName() throws {
        let mean = B.fullBox("mean", B.utf8("com.apple.iTunes"))
        let name = B.fullBox("name", B.utf8("MusicBrainz Track Id"))
        let bytes = B.ftyp() + B.container("moov", B.container("udta", B.container("meta", Self.hdlr, B.container("ilst", B.container("----", mean, name, B.atom("data", B.be(1, width: 4) + zero4 + B.utf8("x")))))))
        let tree = try parse(bytes)
        let (atoms, _) = AtomInspector(tree: tree).inspect(root: AtomPath(parsing: "moov/udta/meta/ilst/----")!)
        let item = try #require(atoms.first)
        #expect(item.fields.contains(DescribedField("mean", "com.apple.iTunes")))
        #expect(item.fields.contains(DescribedField("name", "MusicBrainz Track Id")))
    }

    @Test func quickTimeKeysNameTheirItems() throws {
        let key = B.be(8 + 25, width: 4) + FourCC("mdta").bytes + B.utf8("com.apple.quicktime.title")
        let keys = B.fullBox("keys", B.be(1, width: 4) + key)
        let hdlr = B.fullBox("hdlr", zero4 + FourCC("mdta").bytes + [UInt8](repeating: 0, count: 13))
        let ilst = B.container("ilst", B.atom(FourCC(rawValue: 1), B.atom("data", B.be(1, width: 4) + zero4 + B.utf8("T"))))
        let bytes = B.ftyp("qt  ") + B.container("moov", B.container("meta", hdlr, keys, ilst))
        let tree = try parse(bytes)
        let (atoms, diagnostics) = AtomInspector(tree: tree).inspect(root: AtomPath(parsing: "moov/meta")!)
        #expect(diagnostics.isEmpty)
        let meta = try #require(atoms.first)
        #expect((meta.children[1].payload as? MetadataKeysBox)?.keys.map(\.value) == ["com.apple.quicktime.title"])
        #expect(meta.children[2].children[0].fields.contains(DescribedField("key", "com.apple.quicktime.title")))
    }

    @Test func userDataTextItemsHaveLanguageAndText() throws {
        let box = try #require(try decodeLeaf("©nam", [0, 2, 0x15, 0xC7] + B.utf8("Hi") + [0, 3, 0, 0] + B.utf8("Bye"), parents: ["moov", "udta"]) as? UserDataTextAtom)
        #expect(box.entries.map(\.language) == ["eng", "eng"])
        #expect(box.entries.map(\.text) == ["Hi", "Bye"])
    }

    @Test func neroChapters() throws {
        let payload = [1, 0, 0, 0] + zero4 + [2] + B.be(0, width: 8) + [3] + B.utf8("One") + B.be(50_000_000, width: 8) + [3] + B.utf8("Two")
        let box = try #require(try decodeLeaf("chpl", payload, parents: ["moov", "udta"]) as? NeroChapterListBox)
        #expect(box.chapters.map(\.title) == ["One", "Two"])
        #expect(box.chapters[1].startSeconds == 5)
    }

    @Test func dataReferenceEntry() throws {
        let dref = B.fullBox("dref", B.be(1, width: 4) + B.fullBox("url ", flags: 1))
        let tree = try parse(B.ftyp() + B.container("moov", B.container("dinf", dref)))
        let (atoms, _) = AtomInspector(tree: tree).inspect(root: AtomPath(parsing: "moov/dinf/dref")!)
        let dataReference = try #require(atoms.first)
        #expect(dataReference.fields.contains(DescribedField("entryCount", 1)))
        #expect((dataReference.children.first?.payload as? DataEntryBox)?.isSelfContained == true)
    }
}

@Suite struct FragmentPayloadTests {
    @Test func trackFragmentHeaderOptionalFields() throws {
        let box = try #require(try decodeLeaf("tfhd", [0, 0x02, 0, 0x09] + B.be(1, width: 4) + B.be(1000, width: 8) + B.be(1024, width: 4), parents: ["moof", "traf"]) as? TrackFragmentHeaderBox)
        #expect(box.baseDataOffset == 1000)
        #expect(box.defaultSampleDuration == 1024)
        #expect(box.defaultBaseIsMoof)
    }

    @Test func trackRunPerSampleFields() throws {
        let payload = [0, 0, 0x03, 0x01] + B.be(2, width: 4) + B.be(100, width: 4) + B.be(10, width: 4) + B.be(20, width: 4) + B.be(11, width: 4) + B.be(21, width: 4)
        let box = try #require(try decodeLeaf("trun", payload, parents: ["moof", "traf"]) as? TrackRunBox)
        #expect(box.dataOffset == 100)
        #expect(box.samples.map(\.size) == [20, 21])
        #expect(box.samples.map(\.duration) == [10, 11])
    }

    @Test func trackRunWithoutPerSampleFieldsStoresNoSamples() throws {
        let box = try #require(try decodeLeaf("trun", [0, 0, 0, 0] + B.be(0xFFFF_FFFF, width: 4), parents: ["moof", "traf"]) as? TrackRunBox)
        #expect(box.sampleCount == 0xFFFF_FFFF)
        #expect(box.samples.isEmpty)
    }

    @Test func fragmentFields() throws {
        #expect(field(try decodeLeaf("mfhd", zero4 + B.be(5, width: 4), parents: ["moof"]), "sequenceNumber") == .unsigned(5))
        #expect(field(try decodeLeaf("tfdt", [1, 0, 0, 0] + B.be(1 << 40, width: 8), parents: ["moof", "traf"]), "baseMediaDecodeTime") == .unsigned(1 << 40))
    }

    @Test func segmentIndex() throws {
        let payload = zero4 + B.be(1, width: 4) + B.be(1000, width: 4) + B.be(0, width: 4) + B.be(64, width: 4) + [0, 0, 0, 1]
            + B.be(5000, width: 4) + B.be(2000, width: 4) + B.be(0x9000_0000, width: 4)
        let box = try #require(try decodeLeaf("sidx", payload) as? SegmentIndexBox)
        #expect(box.firstOffset == 64)
        #expect(box.references[0].size == 5000)
        #expect(box.references[0].startsWithSAP)
        #expect(box.references[0].sapType == 1)
    }

    @Test func trackFragmentRandomAccess() throws {
        let payload = [1, 0, 0, 0] + B.be(1, width: 4) + B.be(0, width: 4) + B.be(1, width: 4) + B.be(0, width: 8) + B.be(1480, width: 8) + [1, 1, 1]
        let box = try #require(try decodeLeaf("tfra", payload, parents: ["mfra"]) as? TrackFragmentRandomAccessBox)
        #expect(box.entries[0].moofOffset == 1480)
    }
}

@Suite struct ItemPayloadTests {
    @Test func itemLocationVersion1() throws {
        let payload = [1, 0, 0, 0] + [0x44, 0x00] + [0, 1] + [0, 1] + [0, 0] + [0, 0] + [0, 1] + B.be(100, width: 4) + B.be(50, width: 4)
        let box = try #require(try decodeLeaf("iloc", payload, parents: ["meta"]) as? ItemLocationBox)
        #expect(box.items[0].itemID == 1)
        #expect(box.items[0].extents.map(\.offset) == [100])
        #expect(box.items[0].extents.map(\.length) == [50])
    }

    @Test func itemInfoEntryAndPrimaryItem() throws {
        let infe = try #require(try decodeLeaf("infe", [2, 0, 0, 0] + [0, 1, 0, 0] + FourCC("hvc1").bytes + B.utf8("Image\0"), parents: ["meta"]) as? ItemInfoEntryBox)
        #expect(infe.itemType == "hvc1")
        #expect(infe.itemName == "Image")
        let pitm = try #require(try decodeLeaf("pitm", zero4 + [0, 1], parents: ["meta"]) as? PrimaryItemBox)
        #expect(pitm.itemID == 1)
    }
}

@Suite struct HostileFieldTests {
    @Test func extremeTimesAndDurationsDoNotTrap() throws {
        let huge: UInt64 = 0x8000_0000_0000_0000 + 2_082_844_800
        let payload = [1, 0, 0, 0] + B.be(huge, width: 8) + B.be(UInt64.max, width: 8) + B.be(1, width: 4) + B.be(UInt64.max, width: 8)
            + B.be(0x10000, width: 4) + [1, 0] + [UInt8](repeating: 0, count: 70) + B.be(2, width: 4)
        let box = try #require(try decodeLeaf("mvhd", payload, parents: ["moov"]) as? MovieHeaderBox)
        #expect(field(box, "creationTime") == .text("\(huge) s since 1904"))
        #expect(!box.summary.isEmpty)
        let media = [1, 0, 0, 0] + B.be(huge, width: 8) + B.be(0, width: 8) + B.be(1, width: 4) + B.be(1 << 62, width: 8) + [0x15, 0xC7, 0, 0]
        let mdhd = try #require(try decodeLeaf("mdhd", media, parents: ["moov", "trak", "mdia"]) as? MediaHeaderBox)
        #expect(mdhd.summary.contains("language=eng"))
    }
}

@Suite struct DiagnosticVolumeTests {
    @Test func manyAnomaliesAreCappedAndResolvedQuickly() throws {
        // 5000 children that each leave one stray byte: one diagnostic apiece.
        var children: [UInt8] = []
        for _ in 0..<5000 { children += B.rawAtom(size: 9, "udta", [1]) }
        let tree = try parse(B.ftyp() + B.atom("moov", children), AtomReadingOptions(limits: AtomLimits(maxDiagnostics: 100)))
        #expect(tree.diagnostics.count == 101)
        #expect(tree.diagnostics.last?.message.contains("4900 more anomalies") == true)
        #expect(tree.diagnostics.first?.path.description == "moov/udta[0]")
    }
}

/// The AudioSpecificConfig's SBR and PS signalling (ISO/IEC 14496-3, 1.6.2.1 and 1.6.6): the
/// rate a decoder outputs is the SBR extension's, explicit (object type 5 or 29 first) or
/// backward-compatible (the 0x2B7 sync extension after the core's configuration). Before
/// 2026-11-27 an HE-AAC file reported its core rate (22050 where ffprobe says 44100).
@Suite struct AudioSpecificConfigTests {
    @Test func aLowComplexityConfigOutputsItsOwnRate() throws {
        let config = try #require(AudioSpecificConfig([0x12, 0x10]))
        #expect(config.audioObjectType == 2 && config.samplingFrequency == 44100 && config.channelConfiguration == 2)
        #expect(config.extensionSamplingFrequency == nil && config.outputSamplingFrequency == 44100 && !config.parametricStereo)
    }

    @Test func explicitSBRAndPSSignallingGiveTheOutputRate() throws {
        let he = try #require(AudioSpecificConfig([0x2B, 0x11, 0x88, 0x00]))
        #expect(he.audioObjectType == 5 && he.samplingFrequency == 24000 && he.outputSamplingFrequency == 48000 && !he.parametricStereo)
        let v2 = try #require(AudioSpecificConfig([0xEB, 0x09, 0x88, 0x00]))
        #expect(v2.audioObjectType == 29 && v2.channelConfiguration == 1 && v2.outputSamplingFrequency == 48000 && v2.parametricStereo)
    }

    @Test func backwardCompatibleSignallingGivesTheOutputRate() throws {
        let sbr = try #require(AudioSpecificConfig([0x13, 0x90, 0x56, 0xE5, 0xA0]))
        #expect(sbr.audioObjectType == 2 && sbr.samplingFrequency == 22050 && sbr.outputSamplingFrequency == 44100 && !sbr.parametricStereo)
        let ps = try #require(AudioSpecificConfig([0x13, 0x90, 0x56, 0xE5, 0xA5, 0x48, 0x80]))
        #expect(ps.outputSamplingFrequency == 44100 && ps.parametricStereo)
        // A sync word that is not 0x2B7 is no signalling.
        let other = try #require(AudioSpecificConfig([0x13, 0x90, 0x56, 0xE4, 0xA0]))
        #expect(other.extensionSamplingFrequency == nil)
    }
}
