import MediaBytes

/// `stts` (decoding time to sample, ISO/IEC 14496-12 section 8.6.1.2) and `ctts` (composition
/// offsets, 8.6.1.3): runs of samples sharing one delta or offset.
public struct TimeToSampleBox: AtomPayload, Hashable {
    public struct Entry: Sendable, Hashable {
        public var sampleCount: UInt32
        /// The sample delta (`stts`) or composition offset (`ctts`, signed in version 1).
        public var value: Int64
    }

    public var header: FullBoxHeader
    public var entries: [Entry]
    public var isCompositionOffsets: Bool

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        isCompositionOffsets = context.atom.type == "ctts"
        let count = try reader.readUInt32()
        try reader.require(entries: count, of: 8)
        entries = []
        entries.reserveCapacity(Int(count))
        let signed = isCompositionOffsets && header.version == 1
        for _ in 0..<count {
            let samples = try reader.readUInt32()
            let raw = try reader.readUInt32()
            entries.append(Entry(sampleCount: samples, value: signed ? Int64(Int32(bitPattern: raw)) : Int64(raw)))
        }
    }

    /// The number of samples the table covers.
    public var sampleCount: UInt64 { entries.reduce(0) { $0 + UInt64($1.sampleCount) } }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        let name = isCompositionOffsets ? "offset" : "delta"
        return header.fields + [DescribedField("sampleCount", sampleCount)] + options.tableFields(entries) {
            .record([DescribedField("count", $0.sampleCount), DescribedField(name, $0.value)])
        }
    }

    public var summary: String { "entries=\(entries.count) samples=\(sampleCount)" }
}
