import MediaBytes

/// `emsg`: an event message of a DASH or CMAF segment (ISO/IEC 23009-1 section 5.10.3.3;
/// version 1 from its second edition), as HLS fragmented-MP4 segments carry timed ID3
/// (scheme `https://aomedia.org/emsg/ID3` or Apple's `https://developer.apple.com/streaming/emsg-id3`).
public struct EventMessageBox: AtomPayload, Hashable {
    public var header: FullBoxHeader
    public var schemeIDURI: String
    public var value: String
    public var timescale: UInt32
    /// Version 0: the event's time after the segment's earliest presentation time.
    public var presentationTimeDelta: UInt32?
    /// Version 1: the event's time on the media timeline.
    public var presentationTime: UInt64?
    /// 0xFFFFFFFF: unknown.
    public var eventDuration: UInt32
    public var id: UInt32
    public var messageData: [UInt8]
    /// Where the message data starts in the file.
    public var messageDataOffset: UInt64

    /// The schemes whose message data is an ID3v2 tag.
    public static let id3Schemes: Set<String> = ["https://aomedia.org/emsg/ID3", "https://developer.apple.com/streaming/emsg-id3"]

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        switch header.version {
        case 0:
            schemeIDURI = try Self.string(&reader, "scheme_id_uri")
            value = try Self.string(&reader, "value")
            timescale = try reader.readUInt32()
            presentationTimeDelta = try reader.readUInt32()
            eventDuration = try reader.readUInt32()
            id = try reader.readUInt32()
        case 1:
            timescale = try reader.readUInt32()
            presentationTime = try reader.readUInt64()
            eventDuration = try reader.readUInt32()
            id = try reader.readUInt32()
            schemeIDURI = try Self.string(&reader, "scheme_id_uri")
            value = try Self.string(&reader, "value")
        default:
            throw AtomError(.invalidPayload, offset: context.atom.offset, message: "emsg version \(header.version) is not 0 or 1")
        }
        messageDataOffset = reader.offset
        messageData = reader.readRemainingBytes()
    }

    /// A NUL-terminated UTF-8 string; one without its terminator is an error naming its offset.
    static func string(_ reader: inout ByteReader, _ name: String) throws -> String {
        let start = reader.offset
        var bytes: [UInt8] = []
        while true {
            guard reader.remaining > 0 else {
                throw AtomError(.invalidPayload, offset: start, message: "emsg \(name) starting at offset \(start) has no NUL terminator before the box ends")
            }
            let byte = try reader.readUInt8()
            if byte == 0 { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// True when the message data is an ID3v2 tag (by scheme).
    public var carriesID3: Bool { Self.id3Schemes.contains(schemeIDURI) }

    /// The event's duration in seconds; nil when unknown (0xFFFFFFFF) or without a timescale.
    public var durationSeconds: Double? {
        eventDuration == UInt32.max || timescale == 0 ? nil : Double(eventDuration) / Double(timescale)
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        var fields = header.fields + [
            DescribedField("schemeIDURI", schemeIDURI), DescribedField("value", value), DescribedField("timescale", timescale),
        ]
        if let presentationTimeDelta { fields.append(DescribedField("presentationTimeDelta", presentationTimeDelta)) }
        if let presentationTime { fields.append(DescribedField("presentationTime", presentationTime)) }
        fields += [DescribedField("eventDuration", eventDuration), DescribedField("id", id), DescribedField("messageDataSize", messageData.count)]
        if !carriesID3 { fields.append(DescribedField("messageData", .bytes(Array(messageData.prefix(64))))) }
        return fields
    }

    public var summary: String {
        let time = presentationTime.map { "time=\($0)" } ?? "delta=\(presentationTimeDelta ?? 0)"
        return "\(schemeIDURI) \(time)/\(timescale) id=\(id) \(messageData.count) bytes"
    }
}
