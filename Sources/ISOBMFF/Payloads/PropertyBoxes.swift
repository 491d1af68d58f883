import MediaBytes

/// Boxes of a few fields each, decoded as their specifications lay them out. From ISO/IEC
/// 14496-12: `elng` (extended language, section 8.4.6), `kind` (track kind, 8.10.4), `prft`
/// (producer reference time, 8.16.5), `nmhd` and `sthd` (null and subtitle media headers).
/// From ISO/IEC 14496-14: `iods` (initial object descriptor, section 5.5). From ISO/IEC
/// 23008-12 (HEIF): `ipma` (item property associations, 9.3.2), `pixi` (pixel information,
/// 6.5.6), `irot` and `imir` (rotation and mirroring, 6.5.10 and 6.5.12), `auxC` (auxiliary
/// type, 6.5.8). From the QuickTime File Format reference: `gmin` (base media info), `clef`,
/// `prof` and `enof` (track aperture dimensions), `tcmi` (timecode media info), `alis` (data
/// reference alias), `ftab` (text font table) and `load` (track load settings). From ISO/IEC
/// 14496-12 too: `ssix` (subsegment index, 8.16.4) and `leva` (level assignment, 8.8.13).
public struct PropertyBox: AtomPayload, Hashable {
    public var header: FullBoxHeader?
    public var fields: [DescribedField]
    public var summary: String
    /// The entries of `ipma`, `ftab`, `ssix` and `leva`, kept as their bytes and decoded when listed.
    var entryCount = 0
    var entryBytes: [UInt8] = []
    /// The file bytes of the entry count and of the entries.
    var countRange: Range<UInt64>?
    var entriesRange: Range<UInt64>?
    var type: FourCC

    /// The types without version and flags.
    static let plainBoxes: FourCCSet = ["irot", "imir", "ftab", "load"]

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        let type = context.atom.type
        self.type = type
        let header = Self.plainBoxes.contains(type) ? nil : try FullBoxHeader(from: &reader)
        self.header = header
        var list = FieldList(at: reader, recording: context.recordsFieldBytes)
        switch type {
        case "elng":
            let language = reader.readCString()
            list.add("extendedLanguage", language, reader)
            summary = language
        case "kind":
            let scheme = reader.readCString()
            list.add("schemeURI", scheme, reader)
            let value = reader.readCString()
            list.add("value", value, reader)
            summary = "\(scheme) \(value)"
        case "prft":
            let track = try reader.readUInt32()
            list.add("referenceTrackID", track, reader)
            let ntp = try reader.readUInt64()
            list.add("ntpTimestamp", ntp, reader)
            // NTP time: seconds since 1900 in the high 32 bits, the fraction in the low.
            list.derive("unixSeconds", .number(Double(ntp >> 32) - 2_208_988_800 + Double(ntp & 0xFFFF_FFFF) / 4_294_967_296))
            let media = header?.version == 0 ? UInt64(try reader.readUInt32()) : try reader.readUInt64()
            list.add("mediaTime", media, reader)
            summary = "track \(track) at media time \(media)"
        case "nmhd", "sthd":
            summary = type == "nmhd" ? "null media header" : "subtitle media header"
        case "iods":
            summary = try Self.objectDescriptor(&reader, into: &list)
        case "ipma", "ssix", "leva":
            // A count (a byte for leva), then the entries, decoded when listed (`entry`).
            let before = reader.offset
            let count = type == "leva" ? Int(try reader.readUInt8()) : Int(try reader.readUInt32())
            entryCount = count
            countRange = before..<reader.offset
            entryBytes = reader.readRemainingBytes()
            entriesRange = countRange!.upperBound..<reader.offset
            summary = "\(count) " + (type == "ipma" ? "items" : type == "ssix" ? "subsegments" : "levels")
        case "pixi":
            let channels = Int(try reader.readUInt8())
            list.add("channels", channels, reader)
            let depths = try reader.readBytes(min(channels, reader.remaining))
            list.add("bitsPerChannel", .list(depths.map { FieldValue($0) }), reader)
            summary = "\(channels) channels of " + depths.map { String($0) }.joined(separator: "/") + " bits"
        case "irot":
            let angle = Int(try reader.readUInt8() & 3) * 90
            list.add("angle", angle, reader)
            summary = "rotated \(angle)° anticlockwise"
        case "imir":
            let axis = try reader.readUInt8() & 1
            list.add("axis", axis == 0 ? "vertical" : "horizontal", reader)
            summary = "mirrored about the \(axis == 0 ? "vertical" : "horizontal") axis"
        case "auxC":
            let auxType = reader.readCString()
            list.add("auxType", auxType, reader)
            let subtype = reader.remaining
            try reader.skip(subtype)
            list.add("auxSubtypeSize", subtype, reader)
            summary = auxType
        case "gmin":
            let mode = try reader.readUInt16()
            list.add("graphicsMode", mode, reader)
            list.add("opcolor", .list([FieldValue(try reader.readUInt16()), FieldValue(try reader.readUInt16()), FieldValue(try reader.readUInt16())]), reader)
            list.add("balance", try reader.readFixed8_8(), reader)
            summary = "graphics mode \(mode)"
        case "clef", "prof", "enof":
            let width = try reader.readUFixed16_16()
            list.add("width", width, reader)
            let height = try reader.readUFixed16_16()
            list.add("height", height, reader)
            let name = type == "clef" ? "clean aperture" : type == "prof" ? "production aperture" : "encoded pixels"
            summary = "\(name) \(FieldValue.number(width).summaryText)x\(FieldValue.number(height).summaryText)"
        case "tcmi":
            list.add("textFont", try reader.readUInt16(), reader)
            list.add("textFace", try reader.readUInt16(), reader)
            let size = try reader.readUInt16()
            list.add("textSize", size, reader)
            _ = try reader.readUInt16()
            list.add("textColor", .list([FieldValue(try reader.readUInt16()), FieldValue(try reader.readUInt16()), FieldValue(try reader.readUInt16())]), reader)
            list.add("backgroundColor", .list([FieldValue(try reader.readUInt16()), FieldValue(try reader.readUInt16()), FieldValue(try reader.readUInt16())]), reader)
            let nameLength = Int(try reader.readUInt8())
            let name = TextDecoding.macRoman(try reader.readBytes(min(nameLength, reader.remaining)))
            list.add("fontName", name, reader)
            summary = "\(name) \(size) pt"
        case "alis", "rsrc":
            let selfReference = (header?.flags ?? 0) & 1 != 0
            list.derive("selfReference", .boolean(selfReference))
            let size = reader.remaining
            if !selfReference {
                try reader.skip(size)
                list.add("recordSize", size, reader)
            }
            summary = selfReference ? "the media is in this file" : "alias record, \(size) bytes"
        case "load":
            let start = try reader.readUInt32()
            list.add("preloadStartTime", start, reader)
            let duration = try reader.readUInt32()
            list.add("preloadDuration", duration, reader)
            let flags = try reader.readUInt32()
            list.add("preloadFlags", flags, reader)
            var flagNames: [String] = []
            if flags & 1 != 0 { flagNames.append("preload always") }
            if flags & 2 != 0 { flagNames.append("preload only if enabled") }
            list.derive("preloadFlagsSet", .list(flagNames.map { .text($0) }))
            let hints = try reader.readUInt32()
            list.add("defaultHints", hints, reader)
            var hintNames: [String] = []
            if hints & 0x20 != 0 { hintNames.append("double buffer") }
            if hints & 0x100 != 0 { hintNames.append("high quality") }
            list.derive("defaultHintsSet", .list(hintNames.map { .text($0) }))
            summary = duration == 0xFFFF_FFFF ? "preload from \(start) to the end" : "preload \(duration) from \(start)"
        default:  // ftab
            let before = reader.offset
            let count = Int(try reader.readUInt16())
            entryCount = count
            countRange = before..<reader.offset
            entryBytes = reader.readRemainingBytes()
            entriesRange = countRange!.upperBound..<reader.offset
            summary = "\(count) fonts"
        }
        list.addRest(&reader)
        fields = list.fields
    }

    /// An `iods` box's initial object descriptor (tag 0x10, or 0x02 in MP4 files), with the
    /// track IDs of its ES_ID_Inc descriptors.
    static func objectDescriptor(_ reader: inout ByteReader, into list: inout FieldList) throws -> String {
        list.add("descriptorTag", try reader.readUInt8(), reader)
        let size = try reader.readDescriptorLength()
        var body = try reader.readSubReader(min(size, reader.remaining))
        let idAndFlags = try body.readUInt16()
        list.add("objectDescriptorID", idAndFlags >> 6, body)
        let hasURL = idAndFlags & 0x20 != 0
        var summary = "object descriptor \(idAndFlags >> 6)"
        if hasURL {
            let length = Int(try body.readUInt8())
            list.add("url", String(decoding: try body.readBytes(min(length, body.remaining)), as: UTF8.self), body)
        } else if body.remaining >= 5 {
            var levels: [UInt8] = []
            for name in ["odProfileLevel", "sceneProfileLevel", "audioProfileLevel", "visualProfileLevel", "graphicsProfileLevel"] {
                let level = try body.readUInt8()
                levels.append(level)
                list.add(name, level, body)
            }
            summary += ", audio profile \(levels[2]), visual \(levels[3])"
        }
        var tracks: [FieldValue] = []
        while body.remaining >= 6 {
            let inner = try body.readUInt8()
            let length = try body.readDescriptorLength()
            var descriptor = try body.readSubReader(min(length, body.remaining))
            if inner == 0x0E, descriptor.remaining >= 4 { tracks.append(FieldValue(try descriptor.readUInt32())) }
        }
        if !tracks.isEmpty || !body.isAtEnd {
            try body.skip(body.remaining)
            list.add("esTrackIDs", .list(tracks), body)
        }
        return summary
    }

    /// One `ipma` item with its property associations, one `ftab` font, one `ssix`
    /// subsegment with its ranges or one `leva` level.
    func entry(_ reader: inout ByteReader) throws -> FieldValue {
        if type == "ssix" {
            let count = Int(try reader.readUInt32())
            guard count <= reader.remaining / 4 else { throw ByteReaderError(offset: reader.offset, needed: count * 4, available: reader.remaining) }
            var ranges: [FieldValue] = []
            for _ in 0..<count {
                let word = try reader.readUInt32()
                ranges.append(.record([DescribedField("level", word >> 24), DescribedField("rangeSize", word & 0xFF_FFFF)]))
            }
            return .record([DescribedField("rangeCount", count), DescribedField("ranges", .list(ranges))])
        }
        if type == "leva" {
            let track = try reader.readUInt32(), byte = try reader.readUInt8()
            let assignment = byte & 0x7F
            var record = [DescribedField("trackID", track), DescribedField("paddingFlag", byte >> 7 != 0), DescribedField("assignmentType", assignment)]
            switch assignment {
            case 0: record.append(DescribedField("groupingType", try reader.readFourCC()))
            case 1: record += [DescribedField("groupingType", try reader.readFourCC()), DescribedField("groupingTypeParameter", try reader.readUInt32())]
            case 4: record.append(DescribedField("subTrackID", try reader.readUInt32()))
            default: break
            }
            return .record(record)
        }
        if header == nil {  // ftab
            let id = try reader.readUInt16()
            let name = TextDecoding.macRoman(try reader.readBytes(Int(try reader.readUInt8())))
            return .record([DescribedField("fontID", id), DescribedField("name", name)])
        }
        let wideIDs = (header?.version ?? 0) >= 1, wideIndexes = (header?.flags ?? 0) & 1 != 0
        let item = wideIDs ? try reader.readUInt32() : UInt32(try reader.readUInt16())
        let associations = Int(try reader.readUInt8())
        var list: [FieldValue] = []
        for _ in 0..<associations {
            let value = wideIndexes ? UInt32(try reader.readUInt16()) : UInt32(try reader.readUInt8())
            let bits: UInt32 = wideIndexes ? 15 : 7
            list.append(.record([DescribedField("essential", value >> bits != 0), DescribedField("propertyIndex", value & ((1 << bits) - 1))]))
        }
        return .record([DescribedField("itemID", item), DescribedField("associations", .list(list))])
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        var table = entryBytes.isEmpty && countRange == nil ? [] : options.tableFields(count: entryCount, bytes: entryBytes, countRange: countRange,
                                                                                         entriesRange: entriesRange) { try entry(&$0) }
        // `ftab` names its count fontCount.
        if type == "ftab", !table.isEmpty { table[0].name = "fontCount" }
        return (header?.fields ?? []) + fields + table
    }
}
