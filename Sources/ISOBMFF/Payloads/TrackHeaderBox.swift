import MediaBytes

/// `tkhd`: track identity, flags, duration and presentation size (ISO/IEC 14496-12 section 8.3.2).
public struct TrackHeaderBox: AtomPayload, Hashable {
    public var header: FullBoxHeader
    public var creationTime: UInt64
    public var modificationTime: UInt64
    public var trackID: UInt32
    public var duration: UInt64
    public var layer: Int16
    public var alternateGroup: Int16
    public var volume: Double
    public var width: Double
    public var height: Double
    /// The transformation matrix (see `MovieHeaderBox.matrix`).
    public var matrix: [Double] = []

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        let wide = header.version == 1
        creationTime = try reader.readUInt(width: wide ? 8 : 4)
        modificationTime = try reader.readUInt(width: wide ? 8 : 4)
        trackID = try reader.readUInt32()
        try reader.skip(4)
        duration = try reader.readUInt(width: wide ? 8 : 4)
        try reader.skip(8)
        layer = try reader.readInt16()
        alternateGroup = try reader.readInt16()
        volume = try reader.readFixed8_8()
        try reader.skip(2)
        matrix = try TransformationMatrix.read(&reader)
        width = try reader.readUFixed16_16()
        height = try reader.readUFixed16_16()
    }

    public var isEnabled: Bool { header.flags & 1 != 0 }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        header.fields + [
            DescribedField("enabled", isEnabled), DescribedField("inMovie", header.flags & 2 != 0),
            DescribedField("inPreview", header.flags & 4 != 0),
            DescribedField("creationTime", MovieTime.iso8601(secondsSince1904: creationTime)),
            DescribedField("modificationTime", MovieTime.iso8601(secondsSince1904: modificationTime)),
            DescribedField("trackID", trackID), DescribedField("reservedAfterTrackID", "4 bytes"), DescribedField("duration", duration),
            DescribedField("reservedAfterDuration", "8 bytes"), DescribedField("layer", layer),
            DescribedField("alternateGroup", alternateGroup), DescribedField("volume", volume), DescribedField("reservedAfterVolume", "2 bytes"),
            DescribedField("matrix", .list(matrix.map(FieldValue.number))), DescribedField("width", width), DescribedField("height", height),
        ]
    }

    public var summary: String {
        var text = "trackID=\(trackID) duration=\(duration)"
        if width > 0 || height > 0 { text += " \(FieldValue.number(width).summaryText)x\(FieldValue.number(height).summaryText)" }
        if !isEnabled { text += " disabled" }
        return text
    }
}
