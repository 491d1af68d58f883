import MediaBytes

/// `stco` (32-bit) and `co64` (64-bit) chunk offsets: where each chunk of a track's samples
/// starts in the file (ISO/IEC 14496-12 section 8.7.5).
public struct ChunkOffsetBox: AtomPayload, Hashable {
    public var header: FullBoxHeader
    public var offsets: [UInt64]
    public var is64Bit: Bool

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        is64Bit = context.atom.type == "co64"
        let count = try reader.readUInt32()
        let width = is64Bit ? 8 : 4
        try reader.require(entries: count, of: width)
        offsets = []
        offsets.reserveCapacity(Int(count))
        for _ in 0..<count { offsets.append(try reader.readUInt(width: width)) }
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        header.fields + options.tableFields(offsets) { .unsigned($0) }
    }

    public var summary: String {
        var text = "chunks=\(offsets.count)"
        if let first = offsets.first, let last = offsets.last { text += " first=\(first) last=\(last)" }
        return text
    }
}
