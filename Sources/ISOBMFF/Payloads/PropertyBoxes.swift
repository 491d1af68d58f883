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
    var type: FourCC

    /// The types without version and flags.
    static let plainBoxes: FourCCSet = ["irot", "imir", "ftab", "load"]

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        let type = context.atom.type
        self.type = type
        let header = Self.plainBoxes.contains(type) ? nil : try FullBoxHeader(from: &reader)
        self.header = header
        switch type {
        case "elng":
            let language = reader.readCString()
            fields = [DescribedField("extendedLanguage", language)]
            summary = language
        case "kind":
            let scheme = reader.readCString(), value = reader.readCString()
            fields = [DescribedField("schemeURI", scheme), DescribedField("value", value)]
            summary = "\(scheme) \(value)"
        case "prft":
            let track = try reader.readUInt32(), ntp = try reader.readUInt64()
            let media = header?.version == 0 ? UInt64(try reader.readUInt32()) : try reader.readUInt64()
            // NTP time: seconds since 1900 in the high 32 bits, the fraction in the low.
            let seconds = Double(ntp >> 32) - 2_208_988_800 + Double(ntp & 0xFFFF_FFFF) / 4_294_967_296
            fields = [DescribedField("referenceTrackID", track), DescribedField("ntpTimestamp", ntp), DescribedField("unixSeconds", seconds),
                      DescribedField("mediaTime", media)]
            summary = "track \(track) at media time \(media)"
        case "nmhd", "sthd":
            fields = []
            summary = type == "nmhd" ? "null media header" : "subtitle media header"
        case "iods":
            (fields, summary) = try Self.objectDescriptor(&reader)
        case "ipma", "ssix", "leva":
            // A count (a byte for leva), then the entries, decoded when listed (`entry`).
            let count = type == "leva" ? Int(try reader.readUInt8()) : Int(try reader.readUInt32())
            entryCount = count
            entryBytes = reader.readRemainingBytes()
            fields = []
            summary = "\(count) " + (type == "ipma" ? "items" : type == "ssix" ? "subsegments" : "levels")
        case "pixi":
            let channels = Int(try reader.readUInt8())
            let depths = try reader.readBytes(min(channels, reader.remaining))
            fields = [DescribedField("channels", channels), DescribedField("bitsPerChannel", .list(depths.map { FieldValue($0) }))]
            summary = "\(channels) channels of " + depths.map { String($0) }.joined(separator: "/") + " bits"
        case "irot":
            let angle = Int(try reader.readUInt8() & 3) * 90
            fields = [DescribedField("angle", angle)]
            summary = "rotated \(angle)° anticlockwise"
        case "imir":
            let axis = try reader.readUInt8() & 1
            fields = [DescribedField("axis", axis == 0 ? "vertical" : "horizontal")]
            summary = "mirrored about the \(axis == 0 ? "vertical" : "horizontal") axis"
        case "auxC":
            let auxType = reader.readCString()
            fields = [DescribedField("auxType", auxType), DescribedField("auxSubtypeSize", reader.remaining)]
            summary = auxType
        case "gmin":
            fields = [DescribedField("graphicsMode", try reader.readUInt16()),
                      DescribedField("opcolor", .list([FieldValue(try reader.readUInt16()), FieldValue(try reader.readUInt16()), FieldValue(try reader.readUInt16())])),
                      DescribedField("balance", try reader.readFixed8_8())]
            summary = "graphics mode \(fields[0].value.summaryText)"
        case "clef", "prof", "enof":
            let width = try reader.readUFixed16_16(), height = try reader.readUFixed16_16()
            fields = [DescribedField("width", width), DescribedField("height", height)]
            let name = type == "clef" ? "clean aperture" : type == "prof" ? "production aperture" : "encoded pixels"
            summary = "\(name) \(FieldValue.number(width).summaryText)x\(FieldValue.number(height).summaryText)"
        case "tcmi":
            let font = try reader.readUInt16(), face = try reader.readUInt16(), size = try reader.readUInt16()
            _ = try reader.readUInt16()
            let color = [try reader.readUInt16(), try reader.readUInt16(), try reader.readUInt16()]
            let background = [try reader.readUInt16(), try reader.readUInt16(), try reader.readUInt16()]
            let nameLength = Int(try reader.readUInt8())
            let name = TextDecoding.macRoman(try reader.readBytes(min(nameLength, reader.remaining)))
            fields = [DescribedField("textFont", font), DescribedField("textFace", face), DescribedField("textSize", size),
                      DescribedField("textColor", .list(color.map { FieldValue($0) })), DescribedField("backgroundColor", .list(background.map { FieldValue($0) })),
                      DescribedField("fontName", name)]
            summary = "\(name) \(size) pt"
        case "alis", "rsrc":
            let selfReference = (header?.flags ?? 0) & 1 != 0
            fields = [DescribedField("selfReference", selfReference)] + (selfReference ? [] : [DescribedField("recordSize", reader.remaining)])
            summary = selfReference ? "the media is in this file" : "alias record, \(reader.remaining) bytes"
        case "load":
            let start = try reader.readUInt32(), duration = try reader.readUInt32(), flags = try reader.readUInt32(), hints = try reader.readUInt32()
            var flagNames: [String] = []
            if flags & 1 != 0 { flagNames.append("preload always") }
            if flags & 2 != 0 { flagNames.append("preload only if enabled") }
            var hintNames: [String] = []
            if hints & 0x20 != 0 { hintNames.append("double buffer") }
            if hints & 0x100 != 0 { hintNames.append("high quality") }
            fields = [DescribedField("preloadStartTime", start), DescribedField("preloadDuration", duration), DescribedField("preloadFlags", flags),
                      DescribedField("preloadFlagsSet", .list(flagNames.map { .text($0) })), DescribedField("defaultHints", hints),
                      DescribedField("defaultHintsSet", .list(hintNames.map { .text($0) }))]
            summary = duration == 0xFFFF_FFFF ? "preload from \(start) to the end" : "preload \(duration) from \(start)"
        default:  // ftab
            let count = Int(try reader.readUInt16())
            entryCount = count
            entryBytes = reader.readRemainingBytes()
            fields = [DescribedField("fontCount", count)]
            summary = "\(count) fonts"
        }
    }

    /// An `iods` box's initial object descriptor (tag 0x10, or 0x02 in MP4 files), with the
    /// track IDs of its ES_ID_Inc descriptors.
    static func objectDescriptor(_ reader: inout ByteReader) throws -> ([DescribedField], String) {
        let tag = try reader.readUInt8()
        let size = try reader.readDescriptorLength()
        var body = try reader.readSubReader(min(size, reader.remaining))
        let idAndFlags = try body.readUInt16()
        var fields = [DescribedField("descriptorTag", tag), DescribedField("objectDescriptorID", idAndFlags >> 6)]
        let hasURL = idAndFlags & 0x20 != 0
        var summary = "object descriptor \(idAndFlags >> 6)"
        if hasURL {
            let length = Int(try body.readUInt8())
            fields.append(DescribedField("url", String(decoding: try body.readBytes(min(length, body.remaining)), as: UTF8.self)))
        } else if body.remaining >= 5 {
            let names = ["odProfileLevel", "sceneProfileLevel", "audioProfileLevel", "visualProfileLevel", "graphicsProfileLevel"]
            for name in names { fields.append(DescribedField(name, try body.readUInt8())) }
            summary += ", audio profile \(fields[fields.count - 3].value.summaryText), visual \(fields[fields.count - 2].value.summaryText)"
        }
        var tracks: [FieldValue] = []
        while body.remaining >= 6 {
            let inner = try body.readUInt8()
            let length = try body.readDescriptorLength()
            var descriptor = try body.readSubReader(min(length, body.remaining))
            if inner == 0x0E, descriptor.remaining >= 4 { tracks.append(FieldValue(try descriptor.readUInt32())) }
        }
        if !tracks.isEmpty { fields.append(DescribedField("esTrackIDs", .list(tracks))) }
        return (fields, summary)
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
        (header?.fields ?? []) + fields + (entryBytes.isEmpty ? [] : options.tableFields(count: entryCount, bytes: entryBytes) { try entry(&$0) })
    }
}
