import MediaBytes

/// `mvhd`: movie time scale and duration (ISO/IEC 14496-12 section 8.2.2).
public struct MovieHeaderBox: AtomPayload, Hashable {
    public var header: FullBoxHeader
    public var times: MediaTimes
    public var rate: Double
    public var volume: Double
    public var nextTrackID: UInt32
    /// The transformation matrix: a, b, u, c, d, v, x, y, w (16.16 fixed point, u v w 2.30).
    public var matrix: [Double]

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        times = try MediaTimes(from: &reader, version: header.version)
        rate = try reader.readFixed16_16()
        volume = try reader.readFixed8_8()
        try reader.skip(10)  // reserved
        matrix = try TransformationMatrix.read(&reader)
        try reader.skip(24)  // pre_defined
        nextTrackID = try reader.readUInt32()
    }

    public var timescale: UInt32 { times.timescale }
    public var duration: UInt64 { times.duration }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        header.fields + times.fields
            + [DescribedField("rate", rate), DescribedField("volume", volume), DescribedField("reserved", "10 bytes"),
               DescribedField("matrix", .list(matrix.map(FieldValue.number))), DescribedField("preDefined", "24 bytes"),
               DescribedField("nextTrackID", nextTrackID)]
    }

    public var summary: String { times.summary }
}

/// Seconds with three decimals (`12.345 s`); very large or non-finite values as plain numbers.
func formatSeconds(_ value: Double) -> String {
    guard value.isFinite, abs(value) < 1e12 else { return "\(value) s" }
    let millis = (value * 1000).rounded()
    return "\(Int64(millis / 1000)).\(String(Int64(abs(millis)) % 1000).leftPadded(to: 3)) s"
}

/// The 3×3 transformation matrix of `mvhd` and `tkhd` (ISO/IEC 14496-12 section 6.2.2): nine
/// 32-bit values, a b c d x y in 16.16 fixed point and u v w in 2.30.
enum TransformationMatrix {
    static func read(_ reader: inout ByteReader) throws -> [Double] {
        try (0..<9).map { index in
            let raw = Double(Int32(bitPattern: try reader.readUInt32()))
            return [2, 5, 8].contains(index) ? raw / Double(1 << 30) : raw / 65536
        }
    }
}
