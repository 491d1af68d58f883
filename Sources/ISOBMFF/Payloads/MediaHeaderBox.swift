import MediaBytes

/// `mdhd`: media time scale, duration and language (ISO/IEC 14496-12 section 8.4.2).
public struct MediaHeaderBox: AtomPayload, Hashable {
    public var header: FullBoxHeader
    public var creationTime: UInt64
    public var modificationTime: UInt64
    public var timescale: UInt32
    public var duration: UInt64
    /// ISO 639-2/T code, or a decoded Macintosh language code.
    public var language: String

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        let wide = header.version == 1
        creationTime = try reader.readUInt(width: wide ? 8 : 4)
        modificationTime = try reader.readUInt(width: wide ? 8 : 4)
        timescale = try reader.readUInt32()
        duration = try reader.readUInt(width: wide ? 8 : 4)
        language = LanguageCode.decode(try reader.readUInt16())
    }

    public func fields(_ options: AtomFieldOptions) -> [AtomField] {
        var fields = header.fields + [
            AtomField("creationTime", MovieTime.iso8601(secondsSince1904: creationTime)),
            AtomField("modificationTime", MovieTime.iso8601(secondsSince1904: modificationTime)),
            AtomField("timescale", timescale), AtomField("duration", duration),
        ]
        if let seconds = MovieTime.seconds(duration, timescale: timescale) { fields.append(AtomField("durationSeconds", seconds)) }
        fields.append(AtomField("language", language))
        return fields
    }

    public var summary: String {
        let seconds = MovieTime.seconds(duration, timescale: timescale).map { " (\(formatSeconds($0)))" } ?? ""
        return "timescale=\(timescale) duration=\(duration)\(seconds) language=\(language)"
    }
}
