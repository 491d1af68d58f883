import MediaBytes

/// `mvhd`: movie time scale and duration (ISO/IEC 14496-12 section 8.2.2).
public struct MovieHeaderBox: AtomPayload, Hashable {
    public var header: FullBoxHeader
    public var creationTime: UInt64
    public var modificationTime: UInt64
    public var timescale: UInt32
    public var duration: UInt64
    public var rate: Double
    public var volume: Double
    public var nextTrackID: UInt32

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        let wide = header.version == 1
        creationTime = try reader.readUInt(width: wide ? 8 : 4)
        modificationTime = try reader.readUInt(width: wide ? 8 : 4)
        timescale = try reader.readUInt32()
        duration = try reader.readUInt(width: wide ? 8 : 4)
        rate = try reader.readFixed16_16()
        volume = try reader.readFixed8_8()
        try reader.skip(10 + 36 + 24)  // reserved, matrix, pre_defined
        nextTrackID = try reader.readUInt32()
    }

    public func fields(_ options: AtomFieldOptions) -> [AtomField] {
        var fields = header.fields
        fields += [
            AtomField("creationTime", MovieTime.iso8601(secondsSince1904: creationTime)),
            AtomField("modificationTime", MovieTime.iso8601(secondsSince1904: modificationTime)),
            AtomField("timescale", timescale), AtomField("duration", duration),
        ]
        if let seconds = MovieTime.seconds(duration, timescale: timescale) { fields.append(AtomField("durationSeconds", seconds)) }
        fields += [AtomField("rate", rate), AtomField("volume", volume), AtomField("nextTrackID", nextTrackID)]
        return fields
    }

    public var summary: String {
        let seconds = MovieTime.seconds(duration, timescale: timescale).map { " (\(formatSeconds($0)))" } ?? ""
        return "timescale=\(timescale) duration=\(duration)\(seconds)"
    }
}

func formatSeconds(_ value: Double) -> String {
    let millis = (value * 1000).rounded()
    return "\(Int64(millis / 1000)).\(String(Int64(abs(millis)) % 1000).leftPadded(to: 3)) s"
}
