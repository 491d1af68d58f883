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
    /// The flags byte of the ES_Descriptor (stream dependence, URL, OCR stream).
    public var esFlags: UInt8?
    public var header = FullBoxHeader(version: 0, flags: 0)
    /// Descriptors this reader does not decode (an SLConfigDescriptor, tag 6), by name, with
    /// their sizes.
    var otherDescriptors: [(name: String, size: Int)] = []
    /// The file bytes of each field, by name; a descriptor's tag and length belong to the
    /// field after them.
    var ranges: [String: Range<UInt64>] = [:]

    public static func == (a: Self, b: Self) -> Bool {
        a.esID == b.esID && a.objectTypeIndication == b.objectTypeIndication && a.streamType == b.streamType && a.bufferSize == b.bufferSize
            && a.maxBitrate == b.maxBitrate && a.averageBitrate == b.averageBitrate && a.decoderSpecificInfo == b.decoderSpecificInfo
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(esID)
        hasher.combine(objectTypeIndication)
        hasher.combine(decoderSpecificInfo)
    }

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        var list = FieldList(at: reader, recording: context.recordsFieldBytes)
        try parseDescriptors(&reader, depth: 0, list: &list)
        if !reader.isAtEnd {
            let rest = reader.remaining
            try reader.skip(rest)
            list.note("trailingBytes", reader)
            otherDescriptors.append(("trailingBytes", rest))
        }
        ranges = list.ranges
    }

    private mutating func parseDescriptors(_ reader: inout ByteReader, depth: Int, list: inout FieldList) throws {
        while reader.remaining >= 2, depth < 4 {
            let tag = try reader.readUInt8()
            let length = try reader.readDescriptorLength()
            var body = try reader.readSubReader(min(length, reader.remaining))
            switch tag {
            case 0x03:  // ES_Descriptor
                esID = try body.readUInt16()
                list.note("esID", body)
                let flags = try body.readUInt8()
                if flags & 0x80 != 0 { try body.skip(2) }
                if flags & 0x40 != 0 { try body.skip(Int(try body.readUInt8())) }
                if flags & 0x20 != 0 { try body.skip(2) }
                esFlags = flags
                list.note("esFlags", body)
                try parseDescriptors(&body, depth: depth + 1, list: &list)
            case 0x04:  // DecoderConfigDescriptor
                objectTypeIndication = try body.readUInt8()
                list.note("objectTypeIndication", body)
                streamType = try body.readUInt8() >> 2
                list.note("streamType", body)
                bufferSize = try body.readUInt24()
                list.note("bufferSize", body)
                maxBitrate = try body.readUInt32()
                list.note("maxBitrate", body)
                averageBitrate = try body.readUInt32()
                list.note("averageBitrate", body)
                try parseDescriptors(&body, depth: depth + 1, list: &list)
            case 0x05:  // DecoderSpecificInfo
                decoderSpecificInfo = body.readRemainingBytes()
                list.note("decoderSpecificInfo", body)
            default:
                try body.skip(body.remaining)
                let name = tag == 0x06 ? "slConfigDescriptor" : "descriptor0x" + String(tag, radix: 16)
                list.note(name, body)
                otherDescriptors.append((name, length))
            }
            // Bytes a descriptor holds past its fields (its children are parsed above).
            if !body.isAtEnd {
                let rest = body.remaining
                try body.skip(rest)
                let name = "descriptor0x\(String(tag, radix: 16))Rest"
                list.note(name, body)
                otherDescriptors.append((name, rest))
            }
        }
    }

    /// The AudioSpecificConfig, when the stream is MPEG-4 audio (object type 0x40).
    public var audioConfig: AudioSpecificConfig? {
        guard objectTypeIndication == 0x40, let info = decoderSpecificInfo else { return nil }
        return AudioSpecificConfig(info)
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        var fields = [DescribedField("esID", esID)]
        if let esFlags { fields.append(DescribedField("esFlags", esFlags)) }
        if let objectTypeIndication {
            fields.append(DescribedField("objectTypeIndication", objectTypeIndication))
            fields.append(DescribedField("objectType", Self.objectTypeName(objectTypeIndication)))
        }
        if let streamType { fields.append(DescribedField("streamType", streamType)) }
        if let bufferSize { fields.append(DescribedField("bufferSize", bufferSize)) }
        if let maxBitrate { fields.append(DescribedField("maxBitrate", maxBitrate)) }
        if let averageBitrate { fields.append(DescribedField("averageBitrate", averageBitrate)) }
        if let decoderSpecificInfo { fields.append(DescribedField("decoderSpecificInfo", .bytes(decoderSpecificInfo))) }
        if let config = audioConfig { fields.append(DescribedField("audioSpecificConfig", record: config.fields)) }
        for (name, size) in otherDescriptors { fields.append(DescribedField(name, .text("\(size) bytes"))) }
        return header.fields + FieldList.apply(ranges, to: fields)
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

/// The start of an MPEG-4 AudioSpecificConfig (ISO/IEC 14496-3, 1.6.2.1): object type,
/// sampling rate and channels, and the SBR (HE-AAC) and PS (HE-AACv2) signalling that says
/// the rate a decoder outputs.
public struct AudioSpecificConfig: Sendable, Hashable {
    /// The object type signalled first: 5 (SBR) or 29 (PS) for explicit hierarchical HE-AAC
    /// signalling, the core's (2, AAC LC) otherwise.
    public var audioObjectType: Int
    /// The rate of the first sampling-frequency field: the core decoder's rate.
    public var samplingFrequency: Int?
    public var channelConfiguration: Int
    /// The output rate SBR doubles the core's to, when the configuration signals SBR (either
    /// explicitly, object type 5 or 29 first, or backward-compatibly, the `0x2B7` extension
    /// after the core's configuration); nil without SBR.
    public var extensionSamplingFrequency: Int?
    /// Whether the configuration signals parametric stereo (HE-AACv2).
    public var parametricStereo = false

    /// The rate a decoder outputs: the SBR extension's when there is one, else the core's.
    public var outputSamplingFrequency: Int? { extensionSamplingFrequency ?? samplingFrequency }

    static let frequencies = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]

    public init?(_ bytes: [UInt8]) {
        var bits = BitReader(bytes)
        func objectType() -> Int? {
            guard let type = bits.read(5) else { return nil }
            guard type == 31 else { return type }
            return bits.read(6).map { 32 + $0 }
        }
        func frequency() -> Int?? {
            guard let index = bits.read(4) else { return nil }
            if index == 0xF { return bits.read(24).map { .some($0) } }
            return .some(index < Self.frequencies.count ? Self.frequencies[index] : nil)
        }
        guard let type = objectType(), let rate = frequency(), let channels = bits.read(4) else { return nil }
        audioObjectType = type
        samplingFrequency = rate
        channelConfiguration = channels
        var core = type
        if type == 5 || type == 29 {
            // Explicit hierarchical signalling: the output rate, then the core's object type.
            parametricStereo = type == 29
            guard let outputRate = frequency(), let coreType = objectType() else { return }
            extensionSamplingFrequency = outputRate
            core = coreType
            if core == 22, bits.read(4) == nil { return }  // extensionChannelConfiguration
        }
        // Backward-compatible signalling after an AAC core's GASpecificConfig (a channel
        // configuration of 0 has a program config element first: not followed here).
        guard [1, 2, 3, 4, 6, 7].contains(core), channels != 0, extensionSamplingFrequency == nil else { return }
        guard bits.read(1) != nil, let dependsOnCore = bits.read(1) else { return }  // frameLengthFlag
        if dependsOnCore == 1, bits.read(14) == nil { return }  // coreCoderDelay
        guard bits.read(1) == 0 else { return }  // extensionFlag (the ER extensions are not followed)
        guard bits.remaining >= 16, bits.read(11) == 0x2B7, objectType() == 5, bits.read(1) == 1 else { return }
        guard let outputRate = frequency() else { return }
        extensionSamplingFrequency = outputRate
        if bits.remaining >= 12, bits.read(11) == 0x548, bits.read(1) == 1 { parametricStereo = true }
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

    var fields: [DescribedField] {
        var fields = [DescribedField("audioObjectType", audioObjectType), DescribedField("audioObjectTypeName", objectTypeName)]
        if let samplingFrequency { fields.append(DescribedField("samplingFrequency", samplingFrequency)) }
        fields.append(DescribedField("channelConfiguration", channelConfiguration))
        if let extensionSamplingFrequency { fields.append(DescribedField("sbrOutputSamplingFrequency", extensionSamplingFrequency)) }
        if parametricStereo { fields.append(DescribedField("parametricStereo", true)) }
        return fields
    }

    var summary: String {
        var text = objectTypeName
        if extensionSamplingFrequency != nil, audioObjectType != 5, audioObjectType != 29 { text += parametricStereo ? " + SBR + PS" : " + SBR" }
        if let outputSamplingFrequency { text += " \(outputSamplingFrequency) Hz" }
        if channelConfiguration > 0 { text += " \(channelConfiguration) ch" }
        return text
    }
}

extension ByteReader {
    /// The length of an MPEG-4 descriptor (ISO/IEC 14496-1 section 8.3.3, `expandable`): up to
    /// four bytes of seven bits, each but the last with its top bit set.
    mutating func readDescriptorLength() throws(ByteReaderError) -> Int {
        var length = 0
        for _ in 0..<4 {
            let byte = try readUInt8()
            length = length << 7 | Int(byte & 0x7F)
            if byte & 0x80 == 0 { break }
        }
        return length
    }
}
