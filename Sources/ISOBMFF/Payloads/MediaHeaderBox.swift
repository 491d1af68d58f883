import MediaBytes

/// `mdhd`: media time scale, duration and language (ISO/IEC 14496-12 section 8.4.2).
public struct MediaHeaderBox: AtomPayload, Hashable {
    public var header: FullBoxHeader
    public var times: MediaTimes
    /// ISO 639-2/T code, or a decoded Macintosh language code.
    public var language: String

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        times = try MediaTimes(from: &reader, version: header.version)
        language = LanguageCode.decode(try reader.readUInt16())
    }

    public var timescale: UInt32 { times.timescale }
    public var duration: UInt64 { times.duration }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        header.fields + times.fields + [DescribedField("language", language), DescribedField("preDefined", "2 bytes")]
    }

    public var summary: String { times.summary + " language=\(language)" }
}
