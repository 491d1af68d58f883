import MediaBytes

/// `stsc`: which samples go in which chunk (ISO/IEC 14496-12 section 8.7.4).
public struct SampleToChunkBox: AtomPayload, Hashable {
    public struct Entry: Sendable, Hashable {
        public var firstChunk: UInt32
        public var samplesPerChunk: UInt32
        public var sampleDescriptionIndex: UInt32
    }

    public var header: FullBoxHeader
    public var entries: [Entry]

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        let count = try reader.readUInt32()
        try reader.require(entries: count, of: 12)
        entries = []
        entries.reserveCapacity(Int(count))
        for _ in 0..<count {
            entries.append(Entry(firstChunk: try reader.readUInt32(), samplesPerChunk: try reader.readUInt32(),
                                 sampleDescriptionIndex: try reader.readUInt32()))
        }
    }

    /// The number of samples in each of `chunkCount` chunks; nil when the table is not usable
    /// (first chunks not increasing from 1).
    public func samplesPerChunk(chunkCount: Int) -> [UInt32]? {
        guard chunkCount > 0 else { return [] }
        guard let first = entries.first, first.firstChunk == 1 else { return entries.isEmpty ? nil : nil }
        var result: [UInt32] = []
        result.reserveCapacity(chunkCount)
        for (i, entry) in entries.enumerated() {
            let nextFirst = i + 1 < entries.count ? Int(entries[i + 1].firstChunk) : chunkCount + 1
            guard nextFirst > Int(entry.firstChunk) || i + 1 == entries.count else { return nil }
            var chunk = Int(entry.firstChunk)
            while chunk < nextFirst && chunk <= chunkCount {
                result.append(entry.samplesPerChunk)
                chunk += 1
            }
        }
        return result.count == chunkCount ? result : nil
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        header.fields + options.tableFields(entries) {
            .record([DescribedField("firstChunk", $0.firstChunk), DescribedField("samplesPerChunk", $0.samplesPerChunk),
                     DescribedField("sampleDescriptionIndex", $0.sampleDescriptionIndex)])
        }
    }

    public var summary: String { "entries=\(entries.count)" }
}
