import MediaBytes

/// `chpl`: Nero chapter list in `moov/udta`. Start times are in units of 100 ns. Version 1 has
/// four reserved bytes before the 8-bit chapter count.
public struct NeroChapterListBox: AtomPayload, Hashable {
    public struct Chapter: Sendable, Hashable {
        /// In 100-nanosecond units.
        public var start: UInt64
        public var title: String
        public var startSeconds: Double { Double(start) / 10_000_000 }
    }

    public var header: FullBoxHeader
    public var chapters: [Chapter]

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        try self.init(from: &reader)
    }

    /// Reads the payload of a `chpl` atom (it needs no context).
    /// The file bytes of each field, by name.
    var ranges: [String: Range<UInt64>] = [:]

    public init(from reader: inout ByteReader) throws {
        header = try FullBoxHeader(from: &reader)
        var list = FieldList(at: reader)
        if header.version == 1 {
            try reader.skip(4)
            list.note("reserved", reader)
        }
        let count = try reader.readUInt8()
        list.note("entryCount", reader)
        chapters = []
        for _ in 0..<count {
            let start = try reader.readUInt64()
            let length = try reader.readUInt8()
            chapters.append(Chapter(start: start, title: String(decoding: try reader.readBytes(Int(length)), as: UTF8.self)))
        }
        list.note("entries", reader)
        ranges = list.ranges
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        header.fields + FieldList.apply(ranges, to: (ranges["reserved"] == nil ? [] : [DescribedField("reserved", "4 bytes")]) + options.tableFields(chapters) {
            .record([DescribedField("start", $0.start), DescribedField("startSeconds", $0.startSeconds), DescribedField("title", $0.title)])
        })
    }

    public var summary: String {
        "chapters=\(chapters.count)" + (chapters.first.map { " first=\"\($0.title)\"" } ?? "")
    }
}
