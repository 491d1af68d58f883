import ISOBMFF
import MediaBytes
import TestSupport
import Testing

/// The boxes that showed no fields before 2026-11-29, decoded from payloads laid out as their
/// specifications say (ffmpeg-made files are checked against ffprobe in `CodecConfigurationTests`).
@Suite struct MoreBoxDecodingTests {
    let full0: [UInt8] = [0, 0, 0, 0]

    func be(_ value: UInt64, _ width: Int) -> [UInt8] { B.be(value, width: width) }

    @Test func protectionSystemsAreNamed() throws {
        let widevine: [UInt8] = [0xED, 0xEF, 0x8B, 0xA9, 0x79, 0xD6, 0x4A, 0xCE, 0xA3, 0xC8, 0x27, 0xDC, 0xD5, 0x1D, 0x21, 0xED]
        let box = try decodeLeaf("pssh", [1, 0, 0, 0] + widevine + be(1, 4) + [UInt8](repeating: 0xAB, count: 16) + be(3, 4) + [1, 2, 3])
        #expect(field(box, "system") == .text("Widevine"))
        #expect(field(box, "systemID") == .text("edef8ba9-79d6-4ace-a3c8-27dcd51d21ed"))
        #expect(field(box, "kidCount") == .unsigned(1))
        #expect(field(box, "dataSize") == .unsigned(3))
    }

    @Test func sampleEncryptionFindsTheIVSizeAndSubsamples() throws {
        // Two samples, 8-byte IVs, subsamples (flag 2): 1 subsample each.
        var payload: [UInt8] = [0, 0, 0, 2] + be(2, 4)
        for sample in 0..<2 {
            payload += [UInt8](repeating: UInt8(sample + 1), count: 8) + be(1, 2) + be(16, 2) + be(1000, 4)
        }
        let box = try decodeLeaf("senc", payload, parents: ["moof", "traf"])
        #expect(field(box, "perSampleIVSize") == .unsigned(8))
        guard case .list(let entries)? = field(box, "entries") else { Issue.record("no entries"); return }
        #expect(entries.count == 2)
        #expect(entries.first == .record([DescribedField("iv", .bytes([UInt8](repeating: 1, count: 8))),
                                          DescribedField("subsamples", .list([.record([DescribedField("clear", UInt16(16)), DescribedField("protected", UInt32(1000))])]))]))
    }

    @Test func aSampleEncryptionCountNoLayoutHoldsIsSaidNotListed() throws {
        let box = try decodeLeaf("senc", [0, 0, 0, 0] + be(0xFFFF_FFFF, 4) + [1, 2, 3], parents: ["moof", "traf"])
        #expect(field(box, "undecoded") == .unsigned(3))
        #expect(box?.summary.contains("no IV size fits") == true)
    }

    @Test func enhancedAC3SubstreamsAreUnpacked() throws {
        // data_rate 384, one independent substream: 48 kHz (fscod 0), bsid 16, acmod 7, LFE.
        let head = UInt64(384 << 3 | 0)
        let sub = UInt64(0) << 22 | UInt64(16) << 17 | UInt64(7) << 9 | UInt64(1) << 8
        let box = try decodeLeaf("dec3", be(head, 2) + be(sub, 3), parents: ["moov", "trak"])
        #expect(box?.summary == "E-AC-3 3/2.1, 384 kbit/s")
    }

    @Test func heifPropertiesAreDecoded() throws {
        let ipma = try decodeLeaf("ipma", full0 + be(1, 4) + be(1, 2) + [2, 0x81, 0x02], parents: ["meta", "iprp"])
        guard case .list(let entries)? = field(ipma, "entries") else { Issue.record("no entries"); return }
        #expect(entries.first == .record([DescribedField("itemID", UInt32(1)), DescribedField("associations", .list([
            .record([DescribedField("essential", true), DescribedField("propertyIndex", UInt32(1))]),
            .record([DescribedField("essential", false), DescribedField("propertyIndex", UInt32(2))]),
        ]))]))
        #expect(try decodeLeaf("pixi", full0 + [3, 8, 8, 8], parents: ["meta", "iprp", "ipco"])?.summary == "3 channels of 8/8/8 bits")
        #expect(try decodeLeaf("irot", [3], parents: ["meta", "iprp", "ipco"])?.summary == "rotated 270° anticlockwise")
        #expect(try field(decodeLeaf("auxC", full0 + Array("urn:mpeg:hevc:2015:auxid:1".utf8) + [0], parents: ["meta", "iprp", "ipco"]), "auxType")
                == .text("urn:mpeg:hevc:2015:auxid:1"))
    }

    @Test func independentAndDisposableSamplesAreCounted() throws {
        // Three samples: an I frame (depends on none), a B frame (disposable), a P frame.
        let box = try decodeLeaf("sdtp", full0 + [0x20, 0x18, 0x14], parents: ["moov", "trak", "mdia", "minf", "stbl"])
        #expect(field(box, "independentSamples") == .unsigned(1))
        #expect(field(box, "disposableSamples") == .unsigned(1))
        #expect(box?.summary == "3 samples, 1 independent, 1 disposable")
    }

    @Test func objectDescriptorListsItsTracks() throws {
        // MP4_IOD tag 0x10, ID 1, no URL, five profile levels, two ES_ID_Inc (tag 0x0E).
        let body: [UInt8] = be(1 << 6 | 0x0F, 2) + [0xFF, 0xFF, 0x29, 0x15, 0xFF] + [0x0E, 4] + be(1, 4) + [0x0E, 4] + be(2, 4)
        let box = try decodeLeaf("iods", full0 + [0x10, UInt8(body.count)] + body, parents: ["moov"])
        #expect(field(box, "objectDescriptorID") == .unsigned(1))
        #expect(field(box, "esTrackIDs") == .list([.unsigned(1), .unsigned(2)]))
        #expect(field(box, "audioProfileLevel") == .unsigned(0x29))
    }

    @Test func smallBoxesOfTheTrackAndFragmentsAreDecoded() throws {
        #expect(try field(decodeLeaf("elng", full0 + Array("en-US".utf8) + [0], parents: ["moov", "trak", "mdia"]), "extendedLanguage") == .text("en-US"))
        let cslg = try decodeLeaf("cslg", full0 + be(2, 4) + be(UInt64(UInt32(bitPattern: -1)), 4) + be(5, 4) + be(0, 4) + be(100, 4),
                                  parents: ["moov", "trak", "mdia", "minf", "stbl"])
        #expect(field(cslg, "leastDecodeToDisplayDelta") == .integer(-1))
        let clef = try decodeLeaf("clef", full0 + be(640 << 16, 4) + be(480 << 16, 4), parents: ["moov", "trak", "tapt"])
        #expect(clef?.summary == "clean aperture 640x480")
        let ftab = try decodeLeaf("ftab", be(1, 2) + be(1, 2) + [5] + Array("Arial".utf8), parents: ["moov", "trak"])
        #expect(ftab?.summary == "1 fonts")
        let kind = try decodeLeaf("kind", full0 + Array("urn:mpeg:dash:role:2011".utf8) + [0] + Array("main".utf8) + [0], parents: ["moov", "trak", "udta"])
        #expect(field(kind, "value") == .text("main"))
        // Sample flags by name: a non-sync sample that depends on others.
        let trun = try decodeLeaf("trun", [0, 0, 0x04, 0x04] + be(1, 4) + be(0x0101_0000, 4) + be(0x0101_0000, 4), parents: ["moof", "traf"])
        #expect(field(trun, "flagsSet") == .list([.text("first-sample-flags-present"), .text("sample-flags-present")]))
        guard case .record(let first)? = field(trun, "firstSampleFlags") else { Issue.record("no first-sample flags"); return }
        #expect(first.contains(DescribedField("isNonSync", true)))
        #expect(first.contains(DescribedField("dependsOn", UInt32(1))))
    }
}
