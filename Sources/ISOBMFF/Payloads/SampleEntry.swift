import MediaBytes

/// The fixed fields of a sample entry in `stsd` (ISO/IEC 14496-12 sections 8.5.2 and 12.1-12.2;
/// QuickTime File Format "Sound sample descriptions" versions 0-2 and "Video sample
/// description"; 3GPP TS 26.245 for `tx3g`; QuickTime timecode and text descriptions).
public struct SampleEntry: AtomPayload, Hashable {
    public var kind: SampleEntryKind
    public var dataReferenceIndex: UInt16
    /// An audio entry's fixed fields, typed (nil for other kinds): what audio properties read
    /// without building the inspector's fields.
    public var audio: AudioSampleDescription?
    /// The fixed fields of the other kinds, as the inspector shows them.
    private var otherFields: [DescribedField]
    /// The file bytes of each field, by name.
    private var ranges: [String: Range<UInt64>] = [:]

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        guard case .sampleEntry(let kind) = context.atom.role else {
            throw AtomError(.invalidPayload, offset: context.atom.offset, message: "not a sample entry")
        }
        self.kind = kind
        var list = FieldList(at: reader, recording: context.recordsFieldBytes)
        try reader.skip(6)
        list.note("reserved", reader)
        dataReferenceIndex = try reader.readUInt16()
        list.note("dataReferenceIndex", reader)
        audio = nil
        switch kind {
        case .audio:
            audio = try AudioSampleDescription(&reader, list: &list)
            otherFields = []
        case .video: otherFields = try Self.videoFields(&reader, &list)
        case .timedText: otherFields = try Self.timedTextFields(&reader, &list)
        case .quickTimeText: otherFields = try Self.quickTimeTextFields(&reader, &list)
        case .timecode: otherFields = try Self.timecodeFields(&reader, &list)
        case .generic: otherFields = []
        }
        // The rest of the fixed fields this reader does not know (before the children).
        if !reader.isAtEnd {
            let rest = reader.remaining
            try reader.skip(rest)
            list.note("unknownFixedFields", reader)
            otherFields.append(DescribedField("unknownFixedFields", .text("\(rest) bytes")))
        }
        ranges = list.ranges
    }

    /// The entry's fields as the inspector shows them: kind, data reference, then the fixed
    /// fields of its kind.
    public var fields: [DescribedField] {
        FieldList.apply(ranges, to: [DescribedField("kind", kind.rawValue), DescribedField("reserved", "6 bytes"), DescribedField("dataReferenceIndex", dataReferenceIndex)]
            + (audio.map { $0.fields + otherFields } ?? otherFields))
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] { fields }

    public var summary: String {
        let wanted: Set<String> = ["channelCount", "sampleRate", "sampleSize", "width", "height", "compressorName", "timescale", "version"]
        // A video entry's version is shown when it is set (it is 0 in nearly every file).
        let parts = fields.filter { wanted.contains($0.name) && !(kind == .video && $0.name == "version" && $0.value == .unsigned(0)) }
            .map { "\($0.name)=\($0.value.summaryText)" }
        return ([kind.rawValue] + parts).joined(separator: " ")
    }

    private static func videoFields(_ reader: inout ByteReader, _ list: inout FieldList) throws -> [DescribedField] {
        let version = try reader.readUInt16()
        list.note("version", reader)
        let revision = try reader.readUInt16()
        list.note("revision", reader)
        let vendor = try reader.readFourCC()
        list.note("vendor", reader)
        let temporalQuality = try reader.readUInt32()
        list.note("temporalQuality", reader)
        let spatialQuality = try reader.readUInt32()
        list.note("spatialQuality", reader)
        let width = try reader.readUInt16()
        list.note("width", reader)
        let height = try reader.readUInt16()
        list.note("height", reader)
        let horizontal = try reader.readUFixed16_16()
        list.note("horizontalResolution", reader)
        let vertical = try reader.readUFixed16_16()
        list.note("verticalResolution", reader)
        let dataSize = try reader.readUInt32()
        list.note("dataSize", reader)
        let frameCount = try reader.readUInt16()
        list.note("frameCount", reader)
        let nameBytes = try reader.readBytes(32)
        list.note("compressorName", reader)
        let nameLength = min(Int(nameBytes[0]), 31)
        let depth = try reader.readUInt16()
        list.note("depth", reader)
        let colorTable = try reader.readInt16()
        list.note("colorTableID", reader)
        return [
            DescribedField("width", width), DescribedField("height", height), DescribedField("version", version), DescribedField("revision", revision),
            DescribedField("vendor", vendor.rawValue == 0 ? "" : vendor.description), DescribedField("temporalQuality", temporalQuality),
            DescribedField("spatialQuality", spatialQuality), DescribedField("horizontalResolution", horizontal),
            DescribedField("verticalResolution", vertical), DescribedField("dataSize", dataSize), DescribedField("frameCount", frameCount),
            DescribedField("compressorName", String(decoding: nameBytes[1..<1 + nameLength], as: UTF8.self)),
            DescribedField("depth", depth), DescribedField("colorTableID", colorTable),
        ]
    }

    private static func timedTextFields(_ reader: inout ByteReader, _ list: inout FieldList) throws -> [DescribedField] {
        let displayFlags = try reader.readUInt32()
        list.note("displayFlags", reader)
        let horizontal = try reader.readInt(width: 1)
        list.note("horizontalJustification", reader)
        let vertical = try reader.readInt(width: 1)
        list.note("verticalJustification", reader)
        let background = try reader.readBytes(4)
        list.note("backgroundColor", reader)
        let box = [try reader.readInt16(), try reader.readInt16(), try reader.readInt16(), try reader.readInt16()]
        list.note("defaultTextBox", reader)
        let startChar = try reader.readUInt16()
        let endChar = try reader.readUInt16()
        let fontID = try reader.readUInt16()
        let face = try reader.readUInt8()
        let fontSize = try reader.readUInt8()
        let color = try reader.readBytes(4)
        list.note("style", reader)
        return [
            DescribedField("displayFlags", displayFlags), DescribedField("horizontalJustification", horizontal),
            DescribedField("verticalJustification", vertical), DescribedField("backgroundColor", .bytes(background)),
            DescribedField("defaultTextBox", .list(box.map { FieldValue($0) })),
            DescribedField("style", record: [
                DescribedField("startChar", startChar), DescribedField("endChar", endChar), DescribedField("fontID", fontID),
                DescribedField("faceStyleFlags", face), DescribedField("fontSize", fontSize), DescribedField("textColor", .bytes(color)),
            ]),
        ]
    }

    private static func quickTimeTextFields(_ reader: inout ByteReader, _ list: inout FieldList) throws -> [DescribedField] {
        let displayFlags = try reader.readUInt32()
        list.note("displayFlags", reader)
        let justification = try reader.readInt32()
        list.note("textJustification", reader)
        let background = try reader.readBytes(6)
        list.note("backgroundColor", reader)
        let box = [try reader.readInt16(), try reader.readInt16(), try reader.readInt16(), try reader.readInt16()]
        list.note("defaultTextBox", reader)
        try reader.skip(8)
        list.note("textReserved", reader)
        let fontNumber = try reader.readUInt16()
        list.note("fontNumber", reader)
        let fontFace = try reader.readUInt16()
        list.note("fontFace", reader)
        var fields = [
            DescribedField("displayFlags", displayFlags), DescribedField("textJustification", justification),
            DescribedField("backgroundColor", .bytes(background)), DescribedField("defaultTextBox", .list(box.map { FieldValue($0) })),
            DescribedField("textReserved", "8 bytes"), DescribedField("fontNumber", fontNumber), DescribedField("fontFace", fontFace),
        ]
        if reader.remaining >= 9 {
            try reader.skip(3)
            list.note("reservedBeforeColor", reader)
            fields.append(DescribedField("reservedBeforeColor", "3 bytes"))
            fields.append(DescribedField("foregroundColor", .bytes(try reader.readBytes(6))))
            list.note("foregroundColor", reader)
            if let length = try? reader.readUInt8(), let name = try? reader.readBytes(Int(length)) {
                fields.append(DescribedField("fontName", String(decoding: name, as: UTF8.self)))
                list.note("fontName", reader)
            }
        }
        return fields
    }

    private static func timecodeFields(_ reader: inout ByteReader, _ list: inout FieldList) throws -> [DescribedField] {
        try reader.skip(4)
        list.note("reservedWord", reader)
        let flags = try reader.readUInt32()
        list.note("flags", reader)
        let timescale = try reader.readUInt32()
        list.note("timescale", reader)
        let frameDuration = try reader.readUInt32()
        list.note("frameDuration", reader)
        let frames = try reader.readUInt8()
        list.note("framesPerSecond", reader)
        return [
            DescribedField("reservedWord", "4 bytes"), DescribedField("flags", flags), DescribedField("dropFrame", flags & 1 != 0),
            DescribedField("timescale", timescale), DescribedField("frameDuration", frameDuration), DescribedField("framesPerSecond", frames),
        ]
    }
}

/// The fixed fields of an audio sample entry (ISO/IEC 14496-12 section 12.2.3; QuickTime File
/// Format "Sound sample descriptions" versions 0, 1 and 2), typed.
public struct AudioSampleDescription: Sendable, Hashable {
    public var version: UInt16
    public var revision: UInt16
    public var vendor: FourCC
    /// The channels: the 16-bit field, or version 2's 32-bit one.
    public var channelCount: UInt64
    /// Samples per second: the 16.16 fixed-point field, or version 2's 64-bit float.
    public var sampleRate: Double
    /// Bits per sample, compression ID and packet size; version 2 keeps fixed placeholders
    /// there (16, -2, 0), so they are nil for it.
    public var sampleSize: UInt16?
    public var compressionID: Int16?
    public var packetSize: UInt16?
    /// QuickTime version 1 only: samples per packet, bytes per packet, frame and sample.
    public var samplesPerPacket: UInt32?
    public var bytesPerPacket: UInt32?
    public var bytesPerFrame: UInt32?
    public var bytesPerSample: UInt32?
    /// QuickTime version 2 only: bits per channel, format flags, bytes and frames per packet.
    public var bitsPerChannel: UInt32?
    public var formatSpecificFlags: UInt32?
    public var bytesPerAudioPacket: UInt32?
    public var framesPerAudioPacket: UInt32?

    init(_ reader: inout ByteReader, list: inout FieldList) throws {
        version = try reader.readUInt16()
        list.note("version", reader)
        revision = try reader.readUInt16()
        list.note("revision", reader)
        vendor = try reader.readFourCC()
        list.note("vendor", reader)
        let isVersion2 = version == 2
        // Version 2 keeps fixed placeholders in the version 0 fields (section "Sound sample
        // description version 2"); its values follow the fixed part.
        channelCount = UInt64(try reader.readUInt16())
        if !isVersion2 { list.note("channelCount", reader) }
        let sampleSize = try reader.readUInt16()
        if !isVersion2 { list.note("sampleSize", reader) }
        let compressionID = try reader.readInt16()
        if !isVersion2 { list.note("compressionID", reader) }
        let packetSize = try reader.readUInt16()
        if !isVersion2 { list.note("packetSize", reader) }
        sampleRate = try reader.readUFixed16_16()
        list.note(isVersion2 ? "placeholders" : "sampleRate", reader)
        if !isVersion2 {
            self.sampleSize = sampleSize
            self.compressionID = compressionID
            self.packetSize = packetSize
        }
        // The reader covers the fixed fields only, so what remains tells a QuickTime version 1
        // or 2 description (16 or 36 more bytes) from an ISO entry that merely says version 1.
        if version == 1 && reader.remaining >= 16 {
            samplesPerPacket = try reader.readUInt32()
            list.note("samplesPerPacket", reader)
            bytesPerPacket = try reader.readUInt32()
            list.note("bytesPerPacket", reader)
            bytesPerFrame = try reader.readUInt32()
            list.note("bytesPerFrame", reader)
            bytesPerSample = try reader.readUInt32()
            list.note("bytesPerSample", reader)
        } else if isVersion2 && reader.remaining >= 36 {
            _ = try reader.readUInt32()
            list.note("sizeOfStructOnly", reader)
            sampleRate = try reader.readFloat64()
            list.note("sampleRate", reader)
            channelCount = UInt64(try reader.readUInt32())
            list.note("channelCount", reader)
            try reader.skip(4)  // always 0x7F000000
            list.note("always7F000000", reader)
            bitsPerChannel = try reader.readUInt32()
            list.note("bitsPerChannel", reader)
            formatSpecificFlags = try reader.readUInt32()
            list.note("formatSpecificFlags", reader)
            bytesPerAudioPacket = try reader.readUInt32()
            list.note("bytesPerAudioPacket", reader)
            framesPerAudioPacket = try reader.readUInt32()
            list.note("framesPerAudioPacket", reader)
        }
    }

    /// The fields as the inspector shows them, in this order: version, channels, rate, then
    /// revision and vendor when set, the version 0/1 fields, and the version 1 or 2 extension.
    var fields: [DescribedField] {
        var fields = [DescribedField("version", version), DescribedField("channelCount", channelCount), DescribedField("sampleRate", sampleRate),
                      DescribedField("revision", revision), DescribedField("vendor", vendor.rawValue == 0 ? "" : vendor.description)]
        if version == 2 { fields.append(DescribedField("placeholders", "12 bytes")) }
        if let sampleSize, let compressionID, let packetSize {
            fields += [DescribedField("sampleSize", sampleSize), DescribedField("compressionID", compressionID), DescribedField("packetSize", packetSize)]
        }
        if let samplesPerPacket, let bytesPerPacket, let bytesPerFrame, let bytesPerSample {
            fields += [
                DescribedField("samplesPerPacket", samplesPerPacket), DescribedField("bytesPerPacket", bytesPerPacket),
                DescribedField("bytesPerFrame", bytesPerFrame), DescribedField("bytesPerSample", bytesPerSample),
            ]
        }
        if let bitsPerChannel, let formatSpecificFlags, let bytesPerAudioPacket, let framesPerAudioPacket {
            fields += [DescribedField("sizeOfStructOnly", "4 bytes"), DescribedField("always7F000000", "4 bytes")]
            fields += [
                DescribedField("bitsPerChannel", bitsPerChannel), DescribedField("formatSpecificFlags", formatSpecificFlags),
                DescribedField("bytesPerAudioPacket", bytesPerAudioPacket), DescribedField("framesPerAudioPacket", framesPerAudioPacket),
            ]
        }
        return fields
    }
}
