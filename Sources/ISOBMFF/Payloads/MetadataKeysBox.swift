import MediaBytes

/// `keys`: the key table of QuickTime metadata (`meta` with handler `mdta`); the items of the
/// `ilst` beside it are numbered by 1-based index into this table (QuickTime File Format,
/// "Metadata key atom").
public struct MetadataKeysBox: AtomPayload, Hashable {
    public struct Key: Sendable, Hashable {
        /// The key namespace, usually `mdta` (reverse-DNS keys).
        public var namespace: FourCC
        public var value: String
    }

    public var header: FullBoxHeader
    public var keys: [Key]

    /// The file bytes of the count and of the entries.
    var ranges: [String: Range<UInt64>] = [:]

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        var list = FieldList(at: reader, recording: context.recordsFieldBytes)
        let count = try reader.readUInt32()
        list.note("entryCount", reader)
        try reader.require(entries: count, of: 8)
        keys = []
        for _ in 0..<count {
            let size = try reader.readUInt32()
            guard size >= 8 else {
                throw AtomError(.invalidPayload, offset: reader.offset - 4, message: "key entry size \(size) is smaller than its 8-byte header")
            }
            let namespace = try reader.readFourCC()
            keys.append(Key(namespace: namespace, value: String(decoding: try reader.readBytes(Int(size) - 8), as: UTF8.self)))
        }
        list.note("entries", reader)
        ranges = list.ranges
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        header.fields + FieldList.apply(ranges, to: options.tableFields(Array(keys.enumerated())) { entry in
            .record([DescribedField("index", entry.offset + 1), DescribedField("namespace", entry.element.namespace),
                     DescribedField("key", entry.element.value)])
        })
    }

    public var summary: String { "keys=\(keys.count)" + (keys.first.map { " first=\"\($0.value)\"" } ?? "") }
}
