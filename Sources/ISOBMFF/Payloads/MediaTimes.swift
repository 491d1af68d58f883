import MediaBytes

/// The times that open `mvhd` and `mdhd` (ISO/IEC 14496-12 sections 8.2.2 and 8.4.2):
/// creation and modification in seconds since 1904, a timescale, and a duration in it; 32-bit
/// in version 0, 64-bit (but the timescale) in version 1.
public struct MediaTimes: Sendable, Hashable {
    public var creationTime: UInt64
    public var modificationTime: UInt64
    public var timescale: UInt32
    public var duration: UInt64

    public init(from reader: inout ByteReader, version: UInt8) throws(ByteReaderError) {
        let width = version == 1 ? 8 : 4
        creationTime = try reader.readUInt(width: width)
        modificationTime = try reader.readUInt(width: width)
        timescale = try reader.readUInt32()
        duration = try reader.readUInt(width: width)
    }

    /// The duration in seconds, or nil when the timescale is 0.
    public var durationSeconds: Double? { MovieTime.seconds(duration, timescale: timescale) }

    var fields: [DescribedField] {
        var fields = [
            DescribedField("creationTime", MovieTime.iso8601(secondsSince1904: creationTime)),
            DescribedField("modificationTime", MovieTime.iso8601(secondsSince1904: modificationTime)),
            DescribedField("timescale", timescale), DescribedField("duration", duration),
        ]
        if let seconds = durationSeconds { fields.append(DescribedField("durationSeconds", seconds)) }
        return fields
    }

    var summary: String {
        "timescale=\(timescale) duration=\(duration)" + (durationSeconds.map { " (\(formatSeconds($0)))" } ?? "")
    }
}
