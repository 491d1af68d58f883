import MediaBytes

/// `stsz` (ISO/IEC 14496-12 section 8.7.3.2) and the compact `stz2` (8.7.3.3): the size of
/// every sample.
public struct SampleSizeBox: AtomPayload, Hashable {
    public var header: FullBoxHeader
    /// The size shared by every sample, or 0 when each has its own (`stsz` only).
    public var uniformSize: UInt32
    public var sampleCount: UInt32
    /// Bits per entry in `stz2` (4, 8 or 16); 32 for `stsz`.
    public var fieldSize: Int
    /// Per-sample sizes; empty when `uniformSize` is not 0.
    public var sizes: [UInt32]

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        if context.atom.type == "stz2" {
            try reader.skip(3)
            fieldSize = Int(try reader.readUInt8())
            uniformSize = 0
            sampleCount = try reader.readUInt32()
            guard [4, 8, 16].contains(fieldSize) else {
                throw AtomError(.invalidPayload, offset: context.atom.offset, message: "stz2 field size \(fieldSize) is not 4, 8 or 16")
            }
            let bytesNeeded = (UInt64(sampleCount) * UInt64(fieldSize) + 7) / 8
            guard bytesNeeded <= UInt64(reader.remaining) else {
                throw ByteReaderError(offset: reader.offset, needed: Int(bytesNeeded), available: reader.remaining)
            }
            sizes = []
            sizes.reserveCapacity(Int(sampleCount))
            if fieldSize == 4 {
                var i: UInt32 = 0
                while i < sampleCount {
                    let byte = try reader.readUInt8()
                    sizes.append(UInt32(byte >> 4))
                    if i + 1 < sampleCount { sizes.append(UInt32(byte & 0xF)) }
                    i += 2
                }
            } else {
                for _ in 0..<sampleCount { sizes.append(UInt32(try reader.readUInt(width: fieldSize / 8))) }
            }
        } else {
            fieldSize = 32
            uniformSize = try reader.readUInt32()
            sampleCount = try reader.readUInt32()
            sizes = []
            if uniformSize == 0 {
                try reader.require(entries: sampleCount, of: 4)
                sizes = try reader.readUInt32Array(Int(sampleCount))
            }
        }
    }

    /// The size of sample `index` (0-based).
    public func size(ofSample index: Int) -> UInt32 { uniformSize != 0 ? uniformSize : sizes[index] }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        var fields = header.fields
        if fieldSize == 32 { fields.append(DescribedField("sampleSize", uniformSize)) } else { fields.append(DescribedField("fieldSize", fieldSize)) }
        fields.append(DescribedField("sampleCount", sampleCount))
        if uniformSize == 0 { fields += options.tableFields(sizes) { .unsigned(UInt64($0)) } }
        return fields
    }

    public var summary: String {
        uniformSize != 0 ? "samples=\(sampleCount), each \(uniformSize) bytes" : "samples=\(sampleCount)"
    }
}
