import MediaBytes

/// `stss` (sync samples, ISO/IEC 14496-12 section 8.6.2) and `stps` (QuickTime partial sync
/// samples): 1-based numbers of the samples a decoder can start at.
public struct SyncSampleBox: AtomPayload, Hashable {
    public var header: FullBoxHeader
    public var sampleNumbers: [UInt32]

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        let count = try reader.readUInt32()
        try reader.require(entries: count, of: 4)
        sampleNumbers = []
        sampleNumbers.reserveCapacity(Int(count))
        for _ in 0..<count { sampleNumbers.append(try reader.readUInt32()) }
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        header.fields + options.tableFields(sampleNumbers) { .unsigned(UInt64($0)) }
    }

    public var summary: String { "entries=\(sampleNumbers.count)" }
}
