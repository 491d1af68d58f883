import MediaBytes

/// `sidx`: the segment index (ISO/IEC 14496-12 section 8.16.3).
public struct SegmentIndexBox: AtomPayload, Hashable {
    public struct Reference: Sendable, Hashable {
        public var referencesIndex: Bool
        public var size: UInt32
        public var subsegmentDuration: UInt32
        public var startsWithSAP: Bool
        public var sapType: UInt8
        public var sapDeltaTime: UInt32
    }

    public var header: FullBoxHeader
    public var referenceID: UInt32
    public var timescale: UInt32
    public var earliestPresentationTime: UInt64
    public var firstOffset: UInt64
    public var references: [Reference]

    /// The file bytes of each field, by name.
    var ranges: [String: Range<UInt64>] = [:]

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        let wide = header.version != 0
        var list = FieldList(at: reader, recording: context.recordsFieldBytes)
        referenceID = try reader.readUInt32()
        list.note("referenceID", reader)
        timescale = try reader.readUInt32()
        list.note("timescale", reader)
        earliestPresentationTime = try reader.readUInt(width: wide ? 8 : 4)
        list.note("earliestPresentationTime", reader)
        firstOffset = try reader.readUInt(width: wide ? 8 : 4)
        list.note("firstOffset", reader)
        try reader.skip(2)
        let count = try reader.readUInt16()
        list.note("entryCount", reader)
        try reader.require(entries: UInt32(count), of: 12)
        references = []
        for _ in 0..<count {
            let first = try reader.readUInt32()
            let duration = try reader.readUInt32()
            let sap = try reader.readUInt32()
            references.append(Reference(
                referencesIndex: first >> 31 != 0, size: first & 0x7FFF_FFFF, subsegmentDuration: duration,
                startsWithSAP: sap >> 31 != 0, sapType: UInt8((sap >> 28) & 0x7), sapDeltaTime: sap & 0x0FFF_FFFF))
        }
        list.note("entries", reader)
        ranges = list.ranges
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        header.fields + FieldList.apply(ranges, to: [
            DescribedField("referenceID", referenceID), DescribedField("timescale", timescale),
            DescribedField("earliestPresentationTime", earliestPresentationTime), DescribedField("firstOffset", firstOffset),
        ] + tableFields(options))
    }

    private func tableFields(_ options: AtomFieldOptions) -> [DescribedField] {
        options.tableFields(references) {
            .record([
                DescribedField("referenceType", $0.referencesIndex ? "index" : "media"), DescribedField("size", $0.size),
                DescribedField("subsegmentDuration", $0.subsegmentDuration), DescribedField("startsWithSAP", $0.startsWithSAP),
                DescribedField("sapType", $0.sapType), DescribedField("sapDeltaTime", $0.sapDeltaTime),
            ])
        }
    }

    public var summary: String { "referenceID=\(referenceID) timescale=\(timescale) references=\(references.count)" }
}
