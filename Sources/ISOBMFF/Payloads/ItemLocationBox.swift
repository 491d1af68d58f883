import MediaBytes

/// `iloc`: where each item of a HEIF-style `meta` lives (ISO/IEC 14496-12 section 8.11.3).
public struct ItemLocationBox: AtomPayload, Hashable {
    public struct Extent: Sendable, Hashable {
        public var index: UInt64?
        public var offset: UInt64
        public var length: UInt64
    }

    public struct Item: Sendable, Hashable {
        public var itemID: UInt32
        public var constructionMethod: UInt8
        public var dataReferenceIndex: UInt16
        public var baseOffset: UInt64
        public var extents: [Extent]
    }

    public var header: FullBoxHeader
    public var offsetSize: Int
    public var lengthSize: Int
    public var baseOffsetSize: Int
    public var indexSize: Int
    public var items: [Item]

    /// The file bytes of each field, by name.
    var ranges: [String: Range<UInt64>] = [:]

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        var list = FieldList(at: reader, recording: context.recordsFieldBytes)
        let sizes = try reader.readUInt16()
        list.note("offsetSize", reader)
        offsetSize = Int(sizes >> 12)
        lengthSize = Int((sizes >> 8) & 0xF)
        baseOffsetSize = Int((sizes >> 4) & 0xF)
        indexSize = header.version == 1 || header.version == 2 ? Int(sizes & 0xF) : 0
        for size in [offsetSize, lengthSize, baseOffsetSize, indexSize] where ![0, 4, 8].contains(size) {
            throw AtomError(.invalidPayload, offset: context.atom.offset, message: "iloc field size \(size) is not 0, 4 or 8")
        }
        let count = header.version < 2 ? UInt32(try reader.readUInt16()) : try reader.readUInt32()
        list.note("entryCount", reader)
        try reader.require(entries: count, of: 2 + 2 + baseOffsetSize + 2)
        items = []
        for _ in 0..<count {
            let id = header.version < 2 ? UInt32(try reader.readUInt16()) : try reader.readUInt32()
            var method: UInt8 = 0
            if header.version >= 1 { method = UInt8(try reader.readUInt16() & 0xF) }
            let reference = try reader.readUInt16()
            let base = try reader.readUInt(width: baseOffsetSize)
            let extentCount = try reader.readUInt16()
            // Extents of 0 bytes each (every size 0) are all the same extent, the whole file:
            // more than one says nothing, and 28 items of 65,535 such extents in 800 bytes
            // made hundreds of megabytes of fields.
            if indexSize + offsetSize + lengthSize == 0, extentCount > 1 {
                throw AtomError(.invalidPayload, offset: context.atom.offset,
                                message: "iloc item \(id) lists \(extentCount) extents of 0 bytes each (its offset and length sizes are 0): one would say the same")
            }
            try reader.require(entries: UInt32(extentCount), of: indexSize + offsetSize + lengthSize)
            var extents: [Extent] = []
            for _ in 0..<extentCount {
                let index = indexSize > 0 ? try reader.readUInt(width: indexSize) : nil
                extents.append(Extent(index: index, offset: try reader.readUInt(width: offsetSize), length: try reader.readUInt(width: lengthSize)))
            }
            items.append(Item(itemID: id, constructionMethod: method, dataReferenceIndex: reference, baseOffset: base, extents: extents))
        }
        list.note("entries", reader)
        // The four sizes share their two bytes.
        if let sizesRange = list.ranges["offsetSize"] {
            for name in ["lengthSize", "baseOffsetSize", "indexSize"] { ranges[name] = sizesRange }
        }
        ranges.merge(list.ranges) { $1 }
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        header.fields + FieldList.apply(ranges, to: [
            DescribedField("offsetSize", offsetSize), DescribedField("lengthSize", lengthSize),
            DescribedField("baseOffsetSize", baseOffsetSize), DescribedField("indexSize", indexSize),
        ] + itemFields(options))
    }

    private func itemFields(_ options: AtomFieldOptions) -> [DescribedField] {
        options.tableFields(items) { item in
            .record([
                DescribedField("itemID", item.itemID), DescribedField("constructionMethod", item.constructionMethod),
                DescribedField("dataReferenceIndex", item.dataReferenceIndex), DescribedField("baseOffset", item.baseOffset),
                DescribedField("extentCount", item.extents.count),
                DescribedField("extents", .list(item.extents.prefix(options.maxEntries ?? item.extents.count).map { extent in
                    .record([DescribedField("offset", extent.offset), DescribedField("length", extent.length)]
                        + (extent.index.map { [DescribedField("index", $0)] } ?? []))
                })),
            ])
        }
    }

    public var summary: String { "items=\(items.count)" }
}
