import MediaBytes

/// `esds`: the MPEG-4 elementary stream descriptor (ISO/IEC 14496-14 section 5.6; descriptors
/// from ISO/IEC 14496-1 section 7.2.6), with the AudioSpecificConfig of AAC streams
/// (ISO/IEC 14496-3 section 1.6.2.1) summarised.
public struct ElementaryStreamDescriptorBox: AtomPayload, Hashable {
    public var esID: UInt16 = 0
    public var objectTypeIndication: UInt8?
    public var streamType: UInt8?
    public var bufferSize: UInt32?
    public var maxBitrate: UInt32?
    public var averageBitrate: UInt32?
    public var decoderSpecificInfo: [UInt8]?

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        _ = try FullBoxHeader(from: &reader)
        try parseDescriptors(&reader, depth: 0)
    }

    private mutating func parseDescriptors(_ reader: inout ByteReader, depth: Int) throws {
        while reader.remaining >= 2, depth < 4 {
            let tag = try reader.readUInt8()
            var length = 0
            for _ in 0..<4 {
                let byte = try reader.readUInt8()
                length = length << 7 | Int(byte & 0x7F)
                if byte & 0x80 == 0 { break }
            }
            var body = try reader.readSubReader(min(length, reader.remaining))
            switch tag {
            case 0x03:  // ES_Descriptor
                esID = try body.readUInt16()
                let flags = try body.readUInt8()
                if flags & 0x80 != 0 { try body.skip(2) }
                if flags & 0x40 != 0 { try body.skip(Int(try body.readUInt8())) }
                if flags & 0x20 != 0 { try body.skip(2) }
                try parseDescriptors(&body, depth: depth + 1)
            case 0x04:  // DecoderConfigDescriptor
                objectTypeIndication = try body.readUInt8()
                streamType = try body.readUInt8() >> 2
                bufferSize = try body.readUInt24()
                maxBitrate = try body.readUInt32()
                averageBitrate = try body.readUInt32()
                try parseDescriptors(&body, depth: depth + 1)
            case 0x05:  // DecoderSpecificInfo
                decoderSpecificInfo = body.readRemainingBytes()
            default:
                break
            }
        }
    }

    /// The AudioSpecificConfig, when the stream is MPEG-4 audio (object type 0x40).
    public var audioConfig: AudioSpecificConfig? {
        guard objectTypeIndication == 0x40, let info = decoderSpecificInfo else { return nil }
        return AudioSpecificConfig(info)
    }

    public func fields(_ options: AtomFieldOptions) -> [AtomField] {
        var fields = [AtomField("esID", esID)]
        if let objectTypeIndication {
            fields.append(AtomField("objectTypeIndication", objectTypeIndication))
            fields.append(AtomField("objectType", Self.objectTypeName(objectTypeIndication)))
        }
        if let streamType { fields.append(AtomField("streamType", streamType)) }
        if let bufferSize { fields.append(AtomField("bufferSize", bufferSize)) }
        if let maxBitrate { fields.append(AtomField("maxBitrate", maxBitrate)) }
        if let averageBitrate { fields.append(AtomField("averageBitrate", averageBitrate)) }
        if let decoderSpecificInfo { fields.append(AtomField("decoderSpecificInfo", .bytes(decoderSpecificInfo))) }
        if let config = audioConfig { fields.append(AtomField("audioSpecificConfig", record: config.fields)) }
        return fields
    }

    public var summary: String {
        var parts: [String] = []
        if let objectTypeIndication { parts.append(Self.objectTypeName(objectTypeIndication)) }
        if let config = audioConfig { parts.append(config.summary) }
        if let averageBitrate, averageBitrate > 0 { parts.append("avg \(averageBitrate) bit/s") }
        if let maxBitrate, maxBitrate > 0 { parts.append("max \(maxBitrate) bit/s") }
        return parts.joined(separator: ", ")
    }

    static func objectTypeName(_ value: UInt8) -> String {
        switch value {
        case 0x20: "MPEG-4 Visual"
        case 0x21: "H.264"
        case 0x40: "MPEG-4 Audio"
        case 0x66, 0x67, 0x68: "MPEG-2 AAC"
        case 0x69: "MPEG-2 Audio"
        case 0x6B: "MPEG-1 Audio"
        case 0x6C: "JPEG"
        case 0xA5: "AC-3"
        case 0xA6: "E-AC-3"
        case 0xDD: "Vorbis"
        default: "0x" + String(value, radix: 16)
        }
    }
}

/// The start of an MPEG-4 AudioSpecificConfig: object type, sampling rate and channels.
public struct AudioSpecificConfig: Sendable, Hashable {
    public var audioObjectType: Int
    public var samplingFrequency: Int?
    public var channelConfiguration: Int

    static let frequencies = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]

    public init?(_ bytes: [UInt8]) {
        var bits = BitReader(bytes)
        guard var type = bits.read(5) else { return nil }
        if type == 31 { guard let extra = bits.read(6) else { return nil }; type = 32 + extra }
        guard let index = bits.read(4) else { return nil }
        if index == 0xF {
            guard let explicit = bits.read(24) else { return nil }
            samplingFrequency = explicit
        } else {
            samplingFrequency = index < Self.frequencies.count ? Self.frequencies[index] : nil
        }
        guard let channels = bits.read(4) else { return nil }
        audioObjectType = type
        channelConfiguration = channels
    }

    public var objectTypeName: String {
        switch audioObjectType {
        case 1: "AAC Main"
        case 2: "AAC LC"
        case 3: "AAC SSR"
        case 4: "AAC LTP"
        case 5: "SBR (HE-AAC)"
        case 29: "PS (HE-AACv2)"
        case 23: "ER AAC LD"
        case 39: "ER AAC ELD"
        case 34: "MPEG-1 Layer 3"
        case 42: "USAC"
        default: "object type \(audioObjectType)"
        }
    }

    var fields: [AtomField] {
        var fields = [AtomField("audioObjectType", audioObjectType), AtomField("audioObjectTypeName", objectTypeName)]
        if let samplingFrequency { fields.append(AtomField("samplingFrequency", samplingFrequency)) }
        fields.append(AtomField("channelConfiguration", channelConfiguration))
        return fields
    }

    var summary: String {
        var text = objectTypeName
        if let samplingFrequency { text += " \(samplingFrequency) Hz" }
        if channelConfiguration > 0 { text += " \(channelConfiguration) ch" }
        return text
    }
}

/// Reads bit fields most significant bit first.
struct BitReader {
    let bytes: [UInt8]
    var bitPosition = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func read(_ count: Int) -> Int? {
        guard count <= 32, bitPosition + count <= bytes.count * 8 else { return nil }
        var value = 0
        for _ in 0..<count {
            let byte = bytes[bitPosition >> 3]
            value = value << 1 | Int((byte >> (7 - UInt8(bitPosition & 7))) & 1)
            bitPosition += 1
        }
        return value
    }
}
