import MediaBytes

/// The configuration boxes inside sample entries, each as its specification lays it out:
/// `avcC` (ISO/IEC 14496-15 section 5.3.3.1, its sequence parameter set decoded to profile,
/// level, chroma format, bit depth and coded size), `hvcC` (14496-15 section 8.3.3.1, with its
/// parameter-set arrays), `av1C` (AV1 Codec ISO Media File Format Binding section 2.3.3),
/// `vpcC` (VP Codec ISO Media File Format Binding), `dOps` (Encapsulation of Opus in ISO-BMFF
/// section 4.3.2), `dfLa` (Encapsulation of FLAC in ISO-BMFF section 3.3.2), `dac3` and `dec3`
/// (ETSI TS 102 366 annex F), `dac4` (ETSI TS 103 190-2 annex E.6: the stream's version, rate,
/// frame rate, presentation count and bit rate; the presentations as their size), the ALAC magic cookie (`alac` inside an `alac` entry), and from
/// the QuickTime File Format reference `chan` (audio channel layout), `enda` (endianness) and
/// `fiel` (field handling); `mdcv` and `clli` (mastering display colour volume and content
/// light level, ISO/IEC 23001-8 / QuickTime) and `clap` (clean aperture, 14496-12 section 12.1.4).
public struct CodecConfigurationBox: AtomPayload, Hashable {
    public var fields: [DescribedField]
    /// One-line summary.
    public var summary: String

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        switch context.atom.type {
        case "avcC": (fields, summary) = try Self.avc(&reader)
        case "hvcC": (fields, summary) = try Self.hevc(&reader)
        case "av1C": (fields, summary) = try Self.av1(&reader)
        case "vpcC": (fields, summary) = try Self.vp(&reader)
        case "dOps": (fields, summary) = try Self.opus(&reader)
        case "dfLa": (fields, summary) = try Self.flac(&reader)
        case "dac3": (fields, summary) = try Self.ac3(&reader)
        case "dac4": (fields, summary) = try Self.ac4(&reader)
        case "dec3": (fields, summary) = try Self.eac3(&reader)
        case "alac": (fields, summary) = try Self.alac(&reader)
        case "chan": (fields, summary) = try Self.channelLayout(&reader)
        case "enda":
            var list = FieldList(at: reader)
            let little = try reader.readUInt16() != 0
            list.add("littleEndian", little, reader)
            list.addRest(&reader)
            fields = list.fields
            summary = little ? "little-endian samples" : "big-endian samples"
        case "fiel":
            var list = FieldList(at: reader)
            let count = try reader.readUInt8()
            list.add("fieldCount", count, reader)
            let ordering = try reader.readUInt8()
            list.add("fieldOrdering", ordering, reader)
            list.addRest(&reader)
            fields = list.fields
            summary = count == 1 ? "progressive" : "\(count) fields, ordering \(ordering)"
        case "mdcv":
            var list = FieldList(at: reader)
            var primaries: [FieldValue] = []
            for _ in 0..<3 { primaries.append(.record([DescribedField("x", try reader.readUInt16()), DescribedField("y", try reader.readUInt16())])) }
            list.add("displayPrimaries", .list(primaries), reader)
            list.add("whitePoint", .record([DescribedField("x", try reader.readUInt16()), DescribedField("y", try reader.readUInt16())]), reader)
            let maximum = try reader.readUInt32()
            list.add("maxLuminance", Double(maximum) / 10_000, reader)
            let minimum = try reader.readUInt32()
            list.add("minLuminance", Double(minimum) / 10_000, reader)
            list.addRest(&reader)
            fields = list.fields
            summary = "mastering display \(Double(minimum) / 10_000)-\(Double(maximum) / 10_000) cd/m²"
        case "clli":
            var list = FieldList(at: reader)
            let content = try reader.readUInt16()
            list.add("maxContentLightLevel", content, reader)
            let average = try reader.readUInt16()
            list.add("maxFrameAverageLightLevel", average, reader)
            list.addRest(&reader)
            fields = list.fields
            summary = "MaxCLL \(content), MaxFALL \(average) cd/m²"
        default:  // clap
            var list = FieldList(at: reader)
            var values: [UInt32] = []
            for name in ["cleanApertureWidth", "cleanApertureHeight", "horizontalOffset", "verticalOffset"] {
                let numerator = try reader.readUInt32(), denominator = try reader.readUInt32()
                values += [numerator, denominator]
                list.add(name, .record([DescribedField("numerator", Int32(bitPattern: numerator)), DescribedField("denominator", denominator)]), reader)
            }
            list.addRest(&reader)
            fields = list.fields
            summary = "\(values[0])/\(values[1]) x \(values[2])/\(values[3])"
        }
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] { fields }

    /// Named bits of a packed field, read most significant first.
    static func unpack(_ value: UInt64, width: Int, _ layout: [(String, Int)]) -> [(String, UInt64)] {
        var shift = width
        return layout.map { name, bits in
            shift -= bits
            return (name, value >> UInt64(shift) & ((1 << UInt64(bits)) - 1))
        }
    }

    static func avc(_ reader: inout ByteReader) throws -> ([DescribedField], String) {
        var list = FieldList(at: reader)
        let version = try reader.readUInt8()
        list.add("configurationVersion", version, reader)
        let profile = try reader.readUInt8()
        list.add("profile", profile, reader)
        list.add("profileCompatibility", try reader.readUInt8(), reader)
        let level = try reader.readUInt8()
        list.add("level", level, reader)
        list.add("nalUnitLengthSize", Int(try reader.readUInt8() & 3) + 1, reader)
        var sets: [[UInt8]] = []
        let spsCount = Int(try reader.readUInt8() & 0x1F)
        for _ in 0..<spsCount { sets.append(try reader.readBytes(Int(try reader.readUInt16()))) }
        var summary = "profile \(profile) level \(level)"
        var spsFields: [FieldValue] = []
        for sps in sets {
            if let parsed = try? AVCSequenceParameters(sps) {
                spsFields.append(.record([DescribedField("size", sps.count)] + parsed.fields))
                if spsFields.count == 1 {
                    summary = "\(Self.avcProfileName(parsed.profile)) level \(Double(parsed.level) / 10), \(parsed.width)x\(parsed.height), "
                        + "\(parsed.chromaFormat < 4 ? AVCSequenceParameters.chromaNames[Int(parsed.chromaFormat)] : "?") \(parsed.bitDepthLuma)-bit"
                }
            } else {
                spsFields.append(.record([DescribedField("size", sps.count), DescribedField("undecoded", true)]))
            }
        }
        list.add("sequenceParameterSets", .list(spsFields), reader)
        let ppsCount = Int(try reader.readUInt8())
        var ppsSizes: [FieldValue] = []
        for _ in 0..<ppsCount {
            let size = Int(try reader.readUInt16())
            try reader.skip(size)
            ppsSizes.append(.record([DescribedField("size", size)]))
        }
        list.add("pictureParameterSets", .list(ppsSizes), reader)
        // High profiles carry chroma format and bit depths after the sets (14496-15 5.3.3.1.2).
        if [100, 110, 122, 144].contains(profile), reader.remaining >= 4 {
            list.add("chromaFormat", try reader.readUInt8() & 3, reader)
            list.add("bitDepthLumaMinus8", try reader.readUInt8() & 7, reader)
            list.add("bitDepthChromaMinus8", try reader.readUInt8() & 7, reader)
            let extCount = Int(try reader.readUInt8())
            for _ in 0..<extCount { try reader.skip(Int(try reader.readUInt16())) }
            list.add("sequenceParameterSetExtensions", extCount, reader)
        }
        list.addRest(&reader)
        return (list.fields, summary)
    }

    static func avcProfileName(_ profile: UInt64) -> String {
        switch profile {
        case 66: "Baseline"
        case 77: "Main"
        case 88: "Extended"
        case 100: "High"
        case 110: "High 10"
        case 122: "High 4:2:2"
        case 244: "High 4:4:4"
        default: "profile \(profile)"
        }
    }

    static func hevc(_ reader: inout ByteReader) throws -> ([DescribedField], String) {
        var list = FieldList(at: reader)
        list.add("configurationVersion", try reader.readUInt8(), reader)
        let general = Self.unpack(UInt64(try reader.readUInt8()), width: 8, [("profileSpace", 2), ("tier", 1), ("profile", 5)])
        for (name, value) in general { list.add(name, value, reader) }
        list.add("profileCompatibility", try reader.readUInt32(), reader)
        list.add("constraintIndicator", .bytes(try reader.readBytes(6)), reader)
        let level = try reader.readUInt8()
        list.add("level", level, reader)
        list.add("minSpatialSegmentation", try reader.readUInt16() & 0x0FFF, reader)
        list.add("parallelismType", try reader.readUInt8() & 3, reader)
        let chroma = try reader.readUInt8() & 3
        list.add("chromaFormat", AVCSequenceParameters.chromaNames[Int(chroma)], reader)
        let depthLuma = (try reader.readUInt8() & 7) + 8
        list.add("bitDepthLuma", depthLuma, reader)
        list.add("bitDepthChroma", (try reader.readUInt8() & 7) + 8, reader)
        list.add("averageFrameRate", try reader.readUInt16(), reader)
        let packed = Self.unpack(UInt64(try reader.readUInt8()), width: 8,
                                 [("constantFrameRate", 2), ("temporalLayers", 3), ("temporalIdNested", 1), ("lengthSizeMinusOne", 2)])
        for (name, value) in packed {
            list.add(name == "lengthSizeMinusOne" ? "nalUnitLengthSize" : name, name == "lengthSizeMinusOne" ? value + 1 : value, reader)
        }
        let arrayCount = Int(try reader.readUInt8())
        var arrays: [FieldValue] = []
        let nalNames: [UInt8: String] = [32: "VPS", 33: "SPS", 34: "PPS", 39: "prefix SEI", 40: "suffix SEI"]
        for _ in 0..<arrayCount {
            let head = try reader.readUInt8()
            let type = head & 0x3F
            let count = Int(try reader.readUInt16())
            var sizes: [FieldValue] = []
            for _ in 0..<count {
                let size = Int(try reader.readUInt16())
                try reader.skip(size)
                sizes.append(FieldValue(size))
            }
            arrays.append(.record([DescribedField("complete", head & 0x80 != 0), DescribedField("nalUnitType", type),
                                   DescribedField("name", nalNames[type] ?? "NAL type \(type)"), DescribedField("sizes", .list(sizes))]))
        }
        list.add("arrays", .list(arrays), reader)
        list.addRest(&reader)
        let profile = general[2].1
        let profileName = [1: "Main", 2: "Main 10", 3: "Main Still Picture", 4: "Range extensions"][Int(profile)] ?? "profile \(profile)"
        return (list.fields, "\(profileName) level \(Double(level) / 30), \(AVCSequenceParameters.chromaNames[Int(chroma)]) \(depthLuma)-bit, \(arrayCount) parameter-set arrays")
    }

    static func av1(_ reader: inout ByteReader) throws -> ([DescribedField], String) {
        var list = FieldList(at: reader)
        let first = try reader.readUInt8()
        list.add("marker", first >> 7, reader)
        list.add("version", first & 0x7F, reader)
        let second = Self.unpack(UInt64(try reader.readUInt8()), width: 8, [("seqProfile", 3), ("seqLevelIdx0", 5)])
        for (name, value) in second { list.add(name, value, reader) }
        let third = Self.unpack(UInt64(try reader.readUInt8()), width: 8, [("seqTier0", 1), ("highBitdepth", 1), ("twelveBit", 1), ("monochrome", 1),
                                                                            ("chromaSubsamplingX", 1), ("chromaSubsamplingY", 1), ("chromaSamplePosition", 2)])
        for (name, value) in third { list.add(name, value, reader) }
        let fourth = try reader.readUInt8()
        list.add("initialPresentationDelayPresent", fourth & 0x10 != 0, reader)
        if fourth & 0x10 != 0 { list.add("initialPresentationDelay", (fourth & 0x0F) + 1, reader) }
        let obus = reader.readRemainingBytes()
        list.add("configOBUs", obus.count, reader)
        let values = Dictionary(uniqueKeysWithValues: second + third)
        let depth = values["highBitdepth"] == 1 ? (values["twelveBit"] == 1 ? 12 : 10) : 8
        let chroma = values["monochrome"] == 1 ? "4:0:0" : values["chromaSubsamplingX"] == 1 ? (values["chromaSubsamplingY"] == 1 ? "4:2:0" : "4:2:2") : "4:4:4"
        let profile = ["Main", "High", "Professional"][Int(min(values["seqProfile"] ?? 0, 2))]
        return (list.fields, "\(profile) level index \(values["seqLevelIdx0"] ?? 0), \(chroma) \(depth)-bit")
    }

    static func vp(_ reader: inout ByteReader) throws -> ([DescribedField], String) {
        var list = FieldList(at: reader)
        let header = try FullBoxHeader(from: &reader)
        list.add(header, reader)
        let profile = try reader.readUInt8()
        list.add("profile", profile, reader)
        let level = try reader.readUInt8()
        list.add("level", level, reader)
        let packed = try reader.readUInt8()
        let depth = packed >> 4
        let chromaNames = ["4:2:0 vertical", "4:2:0 colocated", "4:2:2", "4:4:4"]
        let subsampling = Int(packed >> 1 & 7)
        list.add("bitDepth", depth, reader)
        list.add("chromaSubsampling", subsampling < 4 ? chromaNames[subsampling] : "value \(subsampling)", reader)
        list.add("fullRange", packed & 1 != 0, reader)
        if header.version >= 1 {
            list.add("colourPrimaries", try reader.readUInt8(), reader)
            list.add("transferCharacteristics", try reader.readUInt8(), reader)
            list.add("matrixCoefficients", try reader.readUInt8(), reader)
        }
        if reader.remaining >= 2 {
            let size = Int(try reader.readUInt16())
            list.add("codecInitializationDataSize", size, reader)
            if size > 0, size <= reader.remaining {
                try reader.skip(size)
                list.add("codecInitializationData", .text("\(size) bytes"), reader)
            }
        }
        list.addRest(&reader)
        return (list.fields, "profile \(profile) level \(Double(level) / 10), \(depth)-bit")
    }

    static func opus(_ reader: inout ByteReader) throws -> ([DescribedField], String) {
        var list = FieldList(at: reader)
        list.add("version", try reader.readUInt8(), reader)
        let channels = try reader.readUInt8()
        list.add("outputChannelCount", channels, reader)
        let preSkip = try reader.readUInt16()
        list.add("preSkip", preSkip, reader)
        let rate = try reader.readUInt32()
        list.add("inputSampleRate", rate, reader)
        list.add("outputGain", Double(try reader.readInt16()) / 256, reader)
        let family = try reader.readUInt8()
        list.add("channelMappingFamily", family, reader)
        if family != 0 {
            list.add("streamCount", try reader.readUInt8(), reader)
            list.add("coupledCount", try reader.readUInt8(), reader)
            list.add("channelMapping", .list(try reader.readBytes(Int(channels)).map { FieldValue($0) }), reader)
        }
        list.addRest(&reader)
        return (list.fields, "\(channels) ch, input \(rate) Hz, pre-skip \(preSkip)")
    }

    static func flac(_ reader: inout ByteReader) throws -> ([DescribedField], String) {
        var list = FieldList(at: reader)
        let header = try FullBoxHeader(from: &reader)
        list.add(header, reader)
        var blocks: [FieldValue] = []
        var summary = "FLAC configuration"
        var streamInfo: [(String, UInt64)] = []
        while reader.remaining >= 4 {
            let head = try reader.readUInt8()
            let length = Int(try reader.readUInt24())
            let body = try reader.readBytes(min(length, reader.remaining))
            let type = head & 0x7F
            blocks.append(.record([DescribedField("type", type), DescribedField("last", head & 0x80 != 0), DescribedField("length", length)]))
            if type == 0, body.count >= 18 {
                let bits = body[10..<18].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                let rate = bits >> 44, channels = (bits >> 41 & 7) + 1, depth = (bits >> 36 & 31) + 1, samples = bits & 0xF_FFFF_FFFF
                streamInfo = [("sampleRate", rate), ("channels", channels), ("bitsPerSample", depth), ("totalSamples", samples)]
                summary = "\(rate) Hz, \(channels) ch, \(depth) bit"
            }
            if head & 0x80 != 0 { break }
        }
        list.add("metadataBlocks", .list(blocks), reader)
        // Read from the STREAMINFO block's bytes, which `metadataBlocks` covers.
        for (name, value) in streamInfo { list.derive(name, FieldValue(value)) }
        list.addRest(&reader)
        return (list.fields, summary)
    }

    static let ac3Rates = [48000, 44100, 32000]
    static let ac3Modes = ["1+1", "1/0", "2/0", "3/0", "2/1", "3/1", "2/2", "3/2"]

    static func ac3(_ reader: inout ByteReader) throws -> ([DescribedField], String) {
        var list = FieldList(at: reader)
        let parts = Self.unpack(UInt64(try reader.readUInt24()), width: 24,
                                [("fscod", 2), ("bsid", 5), ("bsmod", 3), ("acmod", 3), ("lfeon", 1), ("bitRateCode", 5), ("reserved", 5)])
        let values = Dictionary(uniqueKeysWithValues: parts)
        for (name, value) in parts.dropLast() { list.add(name, value, reader) }
        let rate = values["fscod"].flatMap { $0 < 3 ? ac3Rates[Int($0)] : nil }
        list.derive("sampleRate", rate.map { FieldValue($0) } ?? .absent)
        list.addRest(&reader)
        let bitRates = [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, 448, 512, 576, 640]
        let code = Int(values["bitRateCode"] ?? 0)
        let summary = "AC-3 \(ac3Modes[Int(values["acmod"] ?? 0)])\(values["lfeon"] == 1 ? ".1" : ""), \(rate.map(String.init) ?? "?") Hz"
            + (code < bitRates.count ? ", \(bitRates[code]) kbit/s" : "")
        return (list.fields, summary)
    }

    /// AC-4's frame rates by `frame_rate_index` (ETSI TS 103 190-1 table 83, 48 kHz family).
    static let ac4FrameRates = ["23.976", "24", "25", "29.97", "30", "47.95", "48", "50", "59.94", "60", "100", "119.88", "120"]

    static func ac4(_ reader: inout ByteReader) throws -> ([DescribedField], String) {
        let start = reader.offset
        let payload = reader.readRemainingBytes()
        var bits = BitReader(payload)
        // Each field's bytes: those its bits touch.
        var mark = 0
        var fields: [DescribedField] = []
        func add(_ name: String, _ value: FieldValue) {
            let from = mark / 8, to = max((bits.position + 7) / 8, from + 1)
            fields.append(DescribedField(name, value, range: start + UInt64(from)..<start + UInt64(min(to, payload.count))))
            mark = bits.position
        }
        do {
            let version = try bits.bits(3)
            add("dsiVersion", FieldValue(version))
            let bitstream = try bits.bits(7)
            add("bitstreamVersion", FieldValue(bitstream))
            let fsIndex = try bits.bits(1)
            add("fsIndex", FieldValue(fsIndex))
            let rate = fsIndex == 1 ? 48_000 : 44_100
            fields.append(DescribedField("sampleRate", rate))
            let frameRate = try bits.bits(4)
            add("frameRateIndex", FieldValue(frameRate))
            fields.append(DescribedField("frameRate", frameRate < ac4FrameRates.count ? .text(ac4FrameRates[Int(frameRate)]) : .absent))
            let presentations = try bits.bits(9)
            add("presentationCount", FieldValue(presentations))
            if bitstream > 1 {
                let present = try bits.bits(1) == 1
                add("programIDPresent", .boolean(present))
                if present {
                    add("shortProgramID", FieldValue(try bits.bits(16)))
                    let hasUUID = try bits.bits(1) == 1
                    add("programUUIDPresent", .boolean(hasUUID))
                    if hasUUID {
                        let high = try bits.bits(64), low = try bits.bits(64)
                        add("programUUID", .text(ProtectionBox.uuid(String(high, radix: 16).leftPadded(to: 16, with: "0") + String(low, radix: 16).leftPadded(to: 16, with: "0"))))
                    }
                }
            }
            if version >= 1 {
                let modes = ["not specified", "constant", "average", "variable"]
                add("bitRateMode", .text(modes[Int(try bits.bits(2))]))
                add("bitRate", FieldValue(try bits.bits(32)))
                add("bitRatePrecision", FieldValue(try bits.bits(32)))
            }
            let rest = bits.remaining / 8
            if bits.remaining > 0 {
                // The presentations, not decoded: the bytes from the field before to the end.
                fields.append(DescribedField("presentations", .text("\(rest) bytes"), range: start + UInt64(mark / 8)..<start + UInt64(payload.count)))
            }
            let shown = frameRate < ac4FrameRates.count ? ", \(ac4FrameRates[Int(frameRate)]) fps" : ""
            return (fields, "AC-4 v\(bitstream), \(rate) Hz\(shown), \(presentations) presentation\(presentations == 1 ? "" : "s")")
        } catch {
            throw AtomError(.invalidPayload, offset: 0, message: "dac4 ends at bit \(error.bit), inside its fields")
        }
    }

    static func eac3(_ reader: inout ByteReader) throws -> ([DescribedField], String) {
        var list = FieldList(at: reader)
        let head = try reader.readUInt16()
        let dataRate = head >> 3, substreams = Int(head & 7) + 1
        list.add("dataRate", dataRate, reader)
        var entries: [FieldValue] = []
        var modes: [String] = []
        for _ in 0..<substreams {
            let parts = Self.unpack(UInt64(try reader.readUInt24()), width: 24,
                                    [("fscod", 2), ("bsid", 5), ("reserved", 1), ("asvc", 1), ("bsmod", 3), ("acmod", 3), ("lfeon", 1), ("reserved", 3),
                                     ("dependentSubstreams", 4), ("rest", 1)])
            var record = parts.filter { $0.0 != "reserved" && $0.0 != "rest" }.map { DescribedField($0.0, $0.1) }
            let values = Dictionary(parts, uniquingKeysWith: { a, _ in a })
            if let dependents = values["dependentSubstreams"], dependents > 0 {
                record.append(DescribedField("channelLocations", ((values["rest"] ?? 0) << 8) | UInt64(try reader.readUInt8())))
            }
            modes.append(ac3Modes[Int(values["acmod"] ?? 0)] + (values["lfeon"] == 1 ? ".1" : ""))
            entries.append(.record(record))
        }
        list.add("independentSubstreams", .list(entries), reader)
        list.addRest(&reader, name: "reservedBytes")
        return (list.fields, "E-AC-3 \(modes.joined(separator: " + ")), \(dataRate) kbit/s")
    }

    static func alac(_ reader: inout ByteReader) throws -> ([DescribedField], String) {
        var list = FieldList(at: reader)
        let header = try FullBoxHeader(from: &reader)
        list.add(header, reader)
        list.add("frameLength", try reader.readUInt32(), reader)
        list.add("compatibleVersion", try reader.readUInt8(), reader)
        let depth = try reader.readUInt8()
        list.add("bitDepth", depth, reader)
        list.add("riceHistoryMult", try reader.readUInt8(), reader)
        list.add("riceInitialHistory", try reader.readUInt8(), reader)
        list.add("riceLimit", try reader.readUInt8(), reader)
        let channels = try reader.readUInt8()
        list.add("channels", channels, reader)
        list.add("maxRun", try reader.readUInt16(), reader)
        list.add("maxFrameBytes", try reader.readUInt32(), reader)
        list.add("averageBitrate", try reader.readUInt32(), reader)
        let rate = try reader.readUInt32()
        list.add("sampleRate", rate, reader)
        list.addRest(&reader)
        return (list.fields, "ALAC \(rate) Hz, \(channels) ch, \(depth) bit")
    }

    /// Core Audio's layout tags of the common layouts (CoreAudioBaseTypes.h), by tag.
    static let layoutNames: [UInt32: String] = [
        0: "use channel descriptions", 0x10000: "use channel bitmap", (100 << 16) | 1: "mono", (101 << 16) | 2: "stereo",
        (102 << 16) | 2: "stereo headphones", (113 << 16) | 3: "MPEG 3.0 A", (115 << 16) | 4: "MPEG 4.0 A", (117 << 16) | 5: "MPEG 5.0 A",
        (121 << 16) | 6: "MPEG 5.1 A", (124 << 16) | 6: "MPEG 5.1 D", (125 << 16) | 7: "MPEG 6.1 A", (126 << 16) | 8: "MPEG 7.1 A",
    ]

    static func channelLayout(_ reader: inout ByteReader) throws -> ([DescribedField], String) {
        var list = FieldList(at: reader)
        let header = try FullBoxHeader(from: &reader)
        list.add(header, reader)
        let tag = try reader.readUInt32()
        list.add("layoutTag", tag, reader)
        let name = layoutNames[tag] ?? "layout \(tag >> 16), \(tag & 0xFFFF) channels"
        list.derive("layout", .text(name))
        list.add("channelBitmap", try reader.readUInt32(), reader)
        let count = try reader.readUInt32()
        var descriptions: [FieldValue] = []
        for _ in 0..<min(Int(count), reader.remaining / 20) {
            let label = try reader.readUInt32(), flags = try reader.readUInt32()
            let coordinates = [Double(try reader.readFloat32()), Double(try reader.readFloat32()), Double(try reader.readFloat32())]
            descriptions.append(.record([DescribedField("label", label), DescribedField("flags", flags),
                                         DescribedField("coordinates", .list(coordinates.map(FieldValue.number)))]))
        }
        list.add("channelDescriptions", .list(descriptions), reader)
        list.addRest(&reader)
        return (list.fields, name)
    }
}
