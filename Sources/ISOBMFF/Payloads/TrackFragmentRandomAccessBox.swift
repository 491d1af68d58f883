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

    /// The file bytes of each field, by name.
    var ranges: [String: Range<UInt64>] = [:]

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        var list = FieldList(at: reader, recording: context.recordsFieldBytes)
        trackID = try reader.readUInt32()
        list.note("trackID", reader)
        let sizes = try reader.readUInt32()
        list.note("fieldSizes", reader)
        let trafWidth = Int((sizes >> 4) & 3) + 1
        let trunWidth = Int((sizes >> 2) & 3) + 1
        let sampleWidth = Int(sizes & 3) + 1
        let wide = header.version == 1
        fieldSizes = (trafWidth, trunWidth, sampleWidth)
        let count = try reader.readUInt32()
        list.note("entryCount", reader)
        try reader.require(entries: count, of: (wide ? 16 : 8) + trafWidth + trunWidth + sampleWidth)
        entries = []
        for _ in 0..<count {
            entries.append(Entry(
                time: try reader.readUInt(width: wide ? 8 : 4), moofOffset: try reader.readUInt(width: wide ? 8 : 4),
                trafNumber: try reader.readUInt(width: trafWidth), trunNumber: try reader.readUInt(width: trunWidth),
                sampleNumber: try reader.readUInt(width: sampleWidth)))
        }
        list.note("entries", reader)
        ranges = list.ranges
    }

    /// The widths in bytes of each entry's traf, trun and sample numbers.
    var fieldSizes = (traf: 1, trun: 1, sample: 1)

    public static func == (a: Self, b: Self) -> Bool { a.header == b.header && a.trackID == b.trackID && a.entries == b.entries }
    public func hash(into hasher: inout Hasher) { hasher.combine(trackID); hasher.combine(entries) }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        header.fields + FieldList.apply(ranges, to: [DescribedField("trackID", trackID), DescribedField("fieldSizes", .record([
            DescribedField("trafNumber", fieldSizes.traf), DescribedField("trunNumber", fieldSizes.trun), DescribedField("sampleNumber", fieldSizes.sample),
        ]))] + entryFields(options))
    }

    private func entryFields(_ options: AtomFieldOptions) -> [DescribedField] {
        options.tableFields(entries) {
            .record([
                DescribedField("time", $0.time), DescribedField("moofOffset", $0.moofOffset), DescribedField("trafNumber", $0.trafNumber),
                DescribedField("trunNumber", $0.trunNumber), DescribedField("sampleNumber", $0.sampleNumber),
            ])
        }
    }

    public var summary: String { "trackID=\(trackID) entries=\(entries.count)" }
}
