import MediaBytes

/// The fixed fields of a sample entry in `stsd` (ISO/IEC 14496-12 sections 8.5.2 and 12.1-12.2;
/// QuickTime File Format "Sound sample descriptions" versions 0-2 and "Video sample
/// description"; 3GPP TS 26.245 for `tx3g`; QuickTime timecode and text descriptions).
public struct SampleEntry: AtomPayload, Hashable {
    public var kind: SampleEntryKind
    public var dataReferenceIndex: UInt16
    public var fields: [AtomField]

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        guard case .sampleEntry(let kind) = context.atom.role else {
            throw AtomError(.invalidPayload, offset: context.atom.offset, message: "not a sample entry")
        }
        self.kind = kind
        try reader.skip(6)
        dataReferenceIndex = try reader.readUInt16()
        var fields = [AtomField("kind", kind.rawValue), AtomField("dataReferenceIndex", dataReferenceIndex)]
        switch kind {
        case .audio: fields += try Self.audioFields(&reader)
        case .video: fields += try Self.videoFields(&reader)
        case .timedText: fields += try Self.timedTextFields(&reader)
        case .quickTimeText: fields += try Self.quickTimeTextFields(&reader)
        case .timecode: fields += try Self.timecodeFields(&reader)
        case .generic: break
        }
        self.fields = fields
    }

    public func fields(_ options: AtomFieldOptions) -> [AtomField] { fields }

    public var summary: String {
        let wanted: Set<String> = ["channelCount", "sampleRate", "sampleSize", "width", "height", "compressorName", "timescale", "version"]
        let parts = fields.filter { wanted.contains($0.name) }.map { "\($0.name)=\($0.value.summaryText)" }
        return ([kind.rawValue] + parts).joined(separator: " ")
    }

    private static func audioFields(_ reader: inout ByteReader) throws -> [AtomField] {
        let version = try reader.readUInt16()
        let revision = try reader.readUInt16()
        let vendor = try reader.readFourCC()
        var channels = UInt64(try reader.readUInt16())
        let sampleSize = try reader.readUInt16()
        let compressionID = try reader.readInt16()
        let packetSize = try reader.readUInt16()
        var sampleRate = try reader.readUFixed16_16()
        var fields = [AtomField("version", version)]
        if revision != 0 { fields.append(AtomField("revision", revision)) }
        if vendor.rawValue != 0 { fields.append(AtomField("vendor", vendor)) }
        if version != 2 {
            // Version 2 keeps fixed placeholders here (16, -2, 0); its real values follow.
            fields += [AtomField("sampleSize", sampleSize), AtomField("compressionID", compressionID), AtomField("packetSize", packetSize)]
        }
        // The reader covers the fixed fields only, so what remains tells a QuickTime version 1
        // or 2 description (16 or 36 more bytes) from an ISO entry that merely says version 1.
        if version == 1 && reader.remaining >= 16 {
            fields += [
                AtomField("samplesPerPacket", try reader.readUInt32()), AtomField("bytesPerPacket", try reader.readUInt32()),
                AtomField("bytesPerFrame", try reader.readUInt32()), AtomField("bytesPerSample", try reader.readUInt32()),
            ]
        } else if version == 2 && reader.remaining >= 36 {
            _ = try reader.readUInt32()  // sizeOfStructOnly
            sampleRate = try reader.readFloat64()
            channels = UInt64(try reader.readUInt32())
            try reader.skip(4)  // always 0x7F000000
            fields += [
                AtomField("bitsPerChannel", try reader.readUInt32()), AtomField("formatSpecificFlags", try reader.readUInt32()),
                AtomField("bytesPerAudioPacket", try reader.readUInt32()), AtomField("framesPerAudioPacket", try reader.readUInt32()),
            ]
        }
        fields.insert(AtomField("channelCount", channels), at: 1)
        fields.insert(AtomField("sampleRate", sampleRate), at: 2)
        return fields
    }

    private static func videoFields(_ reader: inout ByteReader) throws -> [AtomField] {
        let version = try reader.readUInt16()
        let revision = try reader.readUInt16()
        let vendor = try reader.readFourCC()
        let temporalQuality = try reader.readUInt32()
        let spatialQuality = try reader.readUInt32()
        let width = try reader.readUInt16()
        let height = try reader.readUInt16()
        let horizontal = try reader.readUFixed16_16()
        let vertical = try reader.readUFixed16_16()
        try reader.skip(4)
        let frameCount = try reader.readUInt16()
        let nameBytes = try reader.readBytes(32)
        let nameLength = min(Int(nameBytes[0]), 31)
        let depth = try reader.readUInt16()
        let colorTable = try reader.readInt16()
        var fields = [AtomField("width", width), AtomField("height", height)]
        if version != 0 || revision != 0 { fields += [AtomField("version", version), AtomField("revision", revision)] }
        if vendor.rawValue != 0 { fields.append(AtomField("vendor", vendor)) }
        if temporalQuality != 0 || spatialQuality != 0 {
            fields += [AtomField("temporalQuality", temporalQuality), AtomField("spatialQuality", spatialQuality)]
        }
        fields += [
            AtomField("horizontalResolution", horizontal), AtomField("verticalResolution", vertical),
            AtomField("frameCount", frameCount),
            AtomField("compressorName", String(decoding: nameBytes[1..<1 + nameLength], as: UTF8.self)),
            AtomField("depth", depth), AtomField("colorTableID", colorTable),
        ]
        return fields
    }

    private static func timedTextFields(_ reader: inout ByteReader) throws -> [AtomField] {
        let displayFlags = try reader.readUInt32()
        let horizontal = try reader.readInt(width: 1)
        let vertical = try reader.readInt(width: 1)
        let background = try reader.readBytes(4)
        let box = [try reader.readInt16(), try reader.readInt16(), try reader.readInt16(), try reader.readInt16()]
        let startChar = try reader.readUInt16()
        let endChar = try reader.readUInt16()
        let fontID = try reader.readUInt16()
        let face = try reader.readUInt8()
        let fontSize = try reader.readUInt8()
        let color = try reader.readBytes(4)
        return [
            AtomField("displayFlags", displayFlags), AtomField("horizontalJustification", horizontal),
            AtomField("verticalJustification", vertical), AtomField("backgroundColor", .bytes(background)),
            AtomField("defaultTextBox", .list(box.map { AtomFieldValue($0) })),
            AtomField("style", record: [
                AtomField("startChar", startChar), AtomField("endChar", endChar), AtomField("fontID", fontID),
                AtomField("faceStyleFlags", face), AtomField("fontSize", fontSize), AtomField("textColor", .bytes(color)),
            ]),
        ]
    }

    private static func quickTimeTextFields(_ reader: inout ByteReader) throws -> [AtomField] {
        let displayFlags = try reader.readUInt32()
        let justification = try reader.readInt32()
        let background = try reader.readBytes(6)
        let box = [try reader.readInt16(), try reader.readInt16(), try reader.readInt16(), try reader.readInt16()]
        try reader.skip(8)
        let fontNumber = try reader.readUInt16()
        let fontFace = try reader.readUInt16()
        var fields = [
            AtomField("displayFlags", displayFlags), AtomField("textJustification", justification),
            AtomField("backgroundColor", .bytes(background)), AtomField("defaultTextBox", .list(box.map { AtomFieldValue($0) })),
            AtomField("fontNumber", fontNumber), AtomField("fontFace", fontFace),
        ]
        if reader.remaining >= 9 {
            try reader.skip(3)
            fields.append(AtomField("foregroundColor", .bytes(try reader.readBytes(6))))
            if let length = try? reader.readUInt8(), let name = try? reader.readBytes(Int(length)) {
                fields.append(AtomField("fontName", String(decoding: name, as: UTF8.self)))
            }
        }
        return fields
    }

    private static func timecodeFields(_ reader: inout ByteReader) throws -> [AtomField] {
        try reader.skip(4)
        let flags = try reader.readUInt32()
        let timescale = try reader.readUInt32()
        let frameDuration = try reader.readUInt32()
        let frames = try reader.readUInt8()
        return [
            AtomField("flags", flags), AtomField("dropFrame", flags & 1 != 0), AtomField("timescale", timescale),
            AtomField("frameDuration", frameDuration), AtomField("framesPerSecond", frames),
        ]
    }
}
