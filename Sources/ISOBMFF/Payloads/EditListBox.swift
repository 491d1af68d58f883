import MediaBytes

/// `elst`: the edit list mapping movie time to media time (ISO/IEC 14496-12 section 8.6.6).
public struct EditListBox: AtomPayload, Hashable {
    public struct Entry: Sendable, Hashable {
        /// In the movie's timescale.
        public var segmentDuration: UInt64
        /// In the media's timescale; -1 means an empty edit.
        public var mediaTime: Int64
        public var mediaRate: Double
    }

    public var header: FullBoxHeader
    public var entries: [Entry]

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        let count = try reader.readUInt32()
        let wide = header.version == 1
        try reader.require(entries: count, of: wide ? 20 : 12)
        entries = []
        for _ in 0..<count {
            let duration = try reader.readUInt(width: wide ? 8 : 4)
            let time = try reader.readInt(width: wide ? 8 : 4)
            entries.append(Entry(segmentDuration: duration, mediaTime: time, mediaRate: try reader.readFixed16_16()))
        }
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        header.fields + options.tableFields(entries) {
            .record([DescribedField("segmentDuration", $0.segmentDuration), DescribedField("mediaTime", $0.mediaTime),
                     DescribedField("mediaRate", $0.mediaRate)])
        }
    }

    public var summary: String {
        "entries=\(entries.count)" + (entries.first.map { " first: duration=\($0.segmentDuration) mediaTime=\($0.mediaTime)" } ?? "")
    }
}
