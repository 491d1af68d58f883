import MediaBytes

/// `tfra`: random-access points of one track, each pointing at a `moof` by file offset
/// (ISO/IEC 14496-12 section 8.8.10).
public struct TrackFragmentRandomAccessBox: AtomPayload, Hashable {
    public struct Entry: Sendable, Hashable {
        public var time: UInt64
        public var moofOffset: UInt64
        public var trafNumber: UInt64
        public var trunNumber: UInt64
        public var sampleNumber: UInt64
    }

    public var header: FullBoxHeader
    public var trackID: UInt32
    public var entries: [Entry]

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        trackID = try reader.readUInt32()
        let sizes = try reader.readUInt32()
        let trafWidth = Int((sizes >> 4) & 3) + 1
        let trunWidth = Int((sizes >> 2) & 3) + 1
        let sampleWidth = Int(sizes & 3) + 1
        let wide = header.version == 1
        let count = try reader.readUInt32()
        try reader.require(entries: count, of: (wide ? 16 : 8) + trafWidth + trunWidth + sampleWidth)
        entries = []
        for _ in 0..<count {
            entries.append(Entry(
                time: try reader.readUInt(width: wide ? 8 : 4), moofOffset: try reader.readUInt(width: wide ? 8 : 4),
                trafNumber: try reader.readUInt(width: trafWidth), trunNumber: try reader.readUInt(width: trunWidth),
                sampleNumber: try reader.readUInt(width: sampleWidth)))
        }
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        header.fields + [DescribedField("trackID", trackID)] + options.tableFields(entries) {
            .record([
                DescribedField("time", $0.time), DescribedField("moofOffset", $0.moofOffset), DescribedField("trafNumber", $0.trafNumber),
                DescribedField("trunNumber", $0.trunNumber), DescribedField("sampleNumber", $0.sampleNumber),
            ])
        }
    }

    public var summary: String { "trackID=\(trackID) entries=\(entries.count)" }
}
