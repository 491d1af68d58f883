import ISOBMFF
import MediaBytes
import TestSupport
import Testing

/// `uuid` boxes by their user type (PIFF encryption, Smooth Streaming fragment times, XMP),
/// Microsoft's `Xtra`, and `ssix`, `leva`, `load`, `dac4` and `©xyz`, decoded from payloads laid
/// out as their specifications say (ffmpeg-made `tfxd` and `©xyz` in `CodecConfigurationTests`).
@Suite struct VendorBoxDecodingTests {
    let full0: [UInt8] = [0, 0, 0, 0]

    func be(_ value: UInt64, _ width: Int) -> [UInt8] { B.be(value, width: width) }
    func hex(_ text: String) -> [UInt8] {
        let digits = Array(text.utf8)
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)! }
    }

    @Test func piffTrackEncryptionIsNamedAndDecoded() throws {
        let kid = [UInt8](repeating: 0x11, count: 16)
        let box = try decodeLeaf("uuid", hex("8974dbce7be74c5184f97148f9882554") + full0 + be(1, 3) + [8] + kid, parents: ["moov", "trak"])
        #expect(field(box, "userType") == .text("8974dbce-7be7-4c51-84f9-7148f9882554"))
        #expect(field(box, "userTypeName") == .text("PIFF track encryption (tenc)"))
        #expect(field(box, "algorithm") == .text("AES-CTR 128"))
        #expect(field(box, "defaultIVSize") == .unsigned(8))
        #expect(field(box, "defaultKID") == .text("11111111-1111-1111-1111-111111111111"))
    }

    @Test func piffSampleEncryptionTakesItsOverriddenIVSize() throws {
        // Flags 1 (override: algorithm, IV size 16, KID) and 2 (subsamples); one sample.
        var payload = hex("a2394f525a9b4f14a2446c427c648df4") + [0, 0, 0, 3] + be(1, 3) + [16] + [UInt8](repeating: 0x22, count: 16)
        payload += be(1, 4) + [UInt8](repeating: 7, count: 16) + be(1, 2) + be(5, 2) + be(100, 4)
        let box = try decodeLeaf("uuid", payload, parents: ["moof", "traf"])
        #expect(field(box, "ivSize") == .unsigned(16))
        #expect(field(box, "perSampleIVSize") == .unsigned(16))
        #expect(field(box, "sampleCount") == .unsigned(1))
        #expect(field(box, "ivSizeFrom") == nil)
        #expect(field(box, "entries") == .list([.record([DescribedField("iv", .bytes([UInt8](repeating: 7, count: 16))),
                                                         DescribedField("subsamples", .list([.record([DescribedField("clear", UInt16(5)), DescribedField("protected", UInt32(100))])]))])]))
    }

    @Test func piffProtectionHeaderNamesItsSystem() throws {
        let playReady = hex("9a04f07998404286ab92e65be0885f95")
        let box = try decodeLeaf("uuid", hex("d08a4f1810f34a82b6c832d8aba183d3") + full0 + playReady + be(4, 4) + [1, 2, 3, 4], parents: ["moov"])
        #expect(field(box, "system") == .text("PlayReady"))
        #expect(field(box, "dataSize") == .unsigned(4))
        #expect(box?.summary == "PIFF pssh: PlayReady, 4 bytes of data")
    }

    @Test func smoothStreamingFragmentTimesAreDecoded() throws {
        let next = try decodeLeaf("uuid", hex("d4807ef2ca3946958e5426cb9e46a79f") + [1, 0, 0, 0] + [2] + be(20_000_000, 8) + be(10_000_000, 8)
                                      + be(30_000_000, 8) + be(10_000_000, 8), parents: ["moof", "traf"])
        #expect(field(next, "fragmentCount") == .unsigned(2))
        #expect(field(next, "fragments") == .list([
            .record([DescribedField("fragmentAbsoluteTime", UInt64(20_000_000)), DescribedField("fragmentDuration", UInt64(10_000_000))]),
            .record([DescribedField("fragmentAbsoluteTime", UInt64(30_000_000)), DescribedField("fragmentDuration", UInt64(10_000_000))]),
        ]))
        let time = try decodeLeaf("uuid", hex("6d1d9b0542d544e680e2141daff757b2") + full0 + be(7, 4) + be(9, 4), parents: ["moof", "traf"])
        #expect(time?.summary == "fragment at 7, lasting 9")
    }

    @Test func xmpAndUnknownUserTypes() throws {
        let packet = #"<x:xmpmeta xmlns:x="adobe:ns:meta/"/>"#
        let xmp = try decodeLeaf("uuid", hex("be7acfcb97a942e89c71999491e3afac") + Array(packet.utf8))
        #expect(field(xmp, "xmp") == .text(packet))
        let unknown = try decodeLeaf("uuid", [UInt8](repeating: 0xAB, count: 16) + [1, 2, 3])
        #expect(field(unknown, "userTypeName") == .text("unknown"))
        #expect(field(unknown, "data") == .text("3 bytes"))
    }

    @Test func xtraAttributesAreDecodedByType() throws {
        func attribute(_ name: String, _ values: [(UInt16, [UInt8])]) -> [UInt8] {
            var body = be(UInt64(values.count), 4)
            for (type, bytes) in values { body += be(UInt64(bytes.count + 6), 4) + be(UInt64(type), 2) + bytes }
            let nameBytes = Array(name.utf8)
            return be(UInt64(8 + nameBytes.count + body.count), 4) + be(UInt64(nameBytes.count), 4) + nameBytes + body
        }
        let text: [UInt8] = [0x48, 0x00, 0x69, 0x00, 0x00, 0x00]  // "Hi" in UTF-16LE with its NUL
        // 2021-01-01T00:00:00Z as a FILETIME: (1609459200 + 11644473600) * 10^7, little-endian.
        let ticks: UInt64 = (1_609_459_200 + 11_644_473_600) * 10_000_000
        let fileTime = (0..<8).map { UInt8(truncatingIfNeeded: ticks >> (8 * $0)) }
        let guid: [UInt8] = [0x33, 0x22, 0x11, 0x00, 0x55, 0x44, 0x77, 0x66, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF]
        let payload = attribute("WM/Publisher", [(8, text)]) + attribute("WM/EncodingTime", [(21, fileTime)])
            + attribute("WM/MediaClassPrimaryID", [(72, guid)]) + attribute("WM/SharedUserRating", [(19, [50, 0, 0, 0, 0, 0, 0, 0])])
        let box = try decodeLeaf("Xtra", payload, parents: ["moov", "udta"])
        #expect(box?.summary == "4 attributes: WM/Publisher, WM/EncodingTime, WM/MediaClassPrimaryID…")
        #expect(field(box, "entries") == .list([
            .record([DescribedField("name", "WM/Publisher"), DescribedField("values", .list([.text("Hi")]))]),
            .record([DescribedField("name", "WM/EncodingTime"), DescribedField("values", .list([
                .record([DescribedField("fileTime", ticks), DescribedField("unixSeconds", 1_609_459_200.0)])]))]),
            .record([DescribedField("name", "WM/MediaClassPrimaryID"), DescribedField("values", .list([.text("00112233-4455-6677-8899-AABBCCDDEEFF")]))]),
            .record([DescribedField("name", "WM/SharedUserRating"), DescribedField("values", .list([.unsigned(50)]))]),
        ]))
        #expect(field(box, "trailingBytes") == nil)
    }

    /// An attribute claiming four billion values and holding none gives the values it holds
    /// (none), and the attributes after it are read.
    @Test func anXtraCountItsBytesCannotHoldGivesTheValuesThere() throws {
        let name = Array("WM/Lie".utf8)
        let lying = be(UInt64(8 + name.count + 4), 4) + be(UInt64(name.count), 4) + name + be(0xFFFF_FFFF, 4)
        let next = Array("WM/Next".utf8)
        let honest = be(UInt64(8 + next.count + 4), 4) + be(UInt64(next.count), 4) + next + be(0, 4)
        let box = try decodeLeaf("Xtra", lying + honest, parents: ["moov", "udta"])
        #expect(field(box, "entries") == .list([
            .record([DescribedField("name", "WM/Lie"), DescribedField("values", .list([]))]),
            .record([DescribedField("name", "WM/Next"), DescribedField("values", .list([]))]),
        ]))
    }

    @Test func subsegmentIndexAndLevelAssignment() throws {
        // One subsegment of two ranges: level 1 of 1000 bytes, level 2 of 500.
        let ssix = try decodeLeaf("ssix", full0 + be(1, 4) + be(2, 4) + be(1 << 24 | 1000, 4) + be(2 << 24 | 500, 4))
        #expect(ssix?.summary == "1 subsegments")
        #expect(field(ssix, "entries") == .list([.record([DescribedField("rangeCount", 2), DescribedField("ranges", .list([
            .record([DescribedField("level", UInt32(1)), DescribedField("rangeSize", UInt32(1000))]),
            .record([DescribedField("level", UInt32(2)), DescribedField("rangeSize", UInt32(500))]),
        ]))])]))
        // Two levels: track 1 by sample group 'tele' (type 0), track 2 by sub-track 7 (type 4).
        let leva = try decodeLeaf("leva", full0 + [2] + be(1, 4) + [0] + FourCC("tele").bytes + be(2, 4) + [0x84] + be(7, 4), parents: ["moov", "mvex"])
        #expect(field(leva, "entries") == .list([
            .record([DescribedField("trackID", UInt32(1)), DescribedField("paddingFlag", false), DescribedField("assignmentType", UInt8(0)),
                     DescribedField("groupingType", FourCC("tele"))]),
            .record([DescribedField("trackID", UInt32(2)), DescribedField("paddingFlag", true), DescribedField("assignmentType", UInt8(4)),
                     DescribedField("subTrackID", UInt32(7))]),
        ]))
    }

    @Test func trackLoadSettings() throws {
        let load = try decodeLeaf("load", be(0, 4) + be(0xFFFF_FFFF, 4) + be(1, 4) + be(0x120, 4), parents: ["moov", "trak"])
        #expect(load?.summary == "preload from 0 to the end")
        #expect(field(load, "preloadFlagsSet") == .list([.text("preload always")]))
        #expect(field(load, "defaultHintsSet") == .list([.text("double buffer"), .text("high quality")]))
    }

    @Test func ac4ConfigurationGivesRateAndPresentations() throws {
        // dsi v1, bitstream v2, 48 kHz, 25 fps (index 2), one presentation; no program ID;
        // bit rate mode 1 (constant) at 64000, precision 0xFFFFFFFF; then 3 bytes of presentations.
        var bits = "001" + "0000010" + "1" + "0010" + "000000001" + "0" + "01"
        bits += String(64_000, radix: 2).leftPadded(32) + String(repeating: "1", count: 32)
        bits += String(repeating: "0", count: (8 - bits.count % 8) % 8)
        let bytes = stride(from: 0, to: bits.count, by: 8).map { UInt8(String(Array(bits)[$0..<$0 + 8]), radix: 2)! } + [0xAA, 0xBB, 0xCC]
        let dac4 = try decodeLeaf("dac4", bytes, parents: ["moov", "trak"])
        #expect(dac4?.summary == "AC-4 v2, 48000 Hz, 25 fps, 1 presentation")
        #expect(field(dac4, "bitRateMode") == .text("constant"))
        #expect(field(dac4, "bitRate") == .unsigned(64_000))
        #expect(field(dac4, "presentations") == .text("3 bytes"))
    }

    @Test(arguments: [
        ("+48.8577+002.2950+035.000/", 48.8577, 2.295, 35.0 as Double?),
        ("-3345.5+15112.25/", -(33 + 45.5 / 60), 151 + 12.25 / 60, nil),
        ("+404530-0735930/", 40 + 45.0 / 60 + 30.0 / 3600, -(73 + 59.0 / 60 + 30.0 / 3600), nil),
        ("+37.3349-122.0090+012.000CRSWGS_84/", 37.3349, -122.009, 12.0),
    ])
    func iso6709PointsAreRead(text: String, latitude: Double, longitude: Double, altitude: Double?) throws {
        let point = try #require(ISO6709Point(text))
        #expect(abs(point.latitude - latitude) < 1e-9)
        #expect(abs(point.longitude - longitude) < 1e-9)
        #expect(point.altitude == altitude)
    }

    @Test func textThatIsNoPointIsNotOne() {
        for text in ["", "48.85+002.29/", "+91.0+000.0/", "+48.8577/", "+48.8577+002.2950 Paris", "+4.85+002.29/"] {
            #expect(ISO6709Point(text) == nil, "\(text)")
        }
    }

    @Test func quickTimeLocationShowsItsCoordinates() throws {
        let text = Array("+48.8577+002.2950/".utf8)
        let box = try decodeLeaf("\u{A9}xyz", be(UInt64(text.count), 2) + be(0x15C7, 2) + text, parents: ["moov", "udta"])
        #expect(field(box, "latitude") == .number(48.8577))
        #expect(field(box, "longitude") == .number(2.295))
        #expect(box?.summary == "latitude 48.8577, longitude 2.295")
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
