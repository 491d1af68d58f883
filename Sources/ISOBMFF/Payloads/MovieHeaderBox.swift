import MediaBytes

/// `mvhd`: movie time scale and duration (ISO/IEC 14496-12 section 8.2.2).
public struct MovieHeaderBox: AtomPayload, Hashable {
    public var header: FullBoxHeader
    public var times: MediaTimes
    public var rate: Double
    public var volume: Double
    public var nextTrackID: UInt32

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        times = try MediaTimes(from: &reader, version: header.version)
        rate = try reader.readFixed16_16()
        volume = try reader.readFixed8_8()
        try reader.skip(10 + 36 + 24)  // reserved, matrix, pre_defined
        nextTrackID = try reader.readUInt32()
    }

    public var timescale: UInt32 { times.timescale }
    public var duration: UInt64 { times.duration }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        header.fields + times.fields
            + [DescribedField("rate", rate), DescribedField("volume", volume), DescribedField("nextTrackID", nextTrackID)]
    }

    public var summary: String { times.summary }
}

/// Seconds with three decimals (`12.345 s`); very large or non-finite values as plain numbers.
func formatSeconds(_ value: Double) -> String {
    guard value.isFinite, abs(value) < 1e12 else { return "\(value) s" }
    let millis = (value * 1000).rounded()
    return "\(Int64(millis / 1000)).\(String(Int64(abs(millis)) % 1000).leftPadded(to: 3)) s"
}
