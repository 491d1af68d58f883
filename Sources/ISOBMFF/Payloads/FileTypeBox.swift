import MediaBytes

/// `ftyp` / `styp`: brands the file conforms to (ISO/IEC 14496-12 section 4.3).
public struct FileTypeBox: AtomPayload, Hashable {
    public var majorBrand: FourCC
    public var minorVersion: UInt32
    public var compatibleBrands: [FourCC]

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        majorBrand = try reader.readFourCC()
        minorVersion = try reader.readUInt32()
        compatibleBrands = []
        while reader.remaining >= 4 { compatibleBrands.append(try reader.readFourCC()) }
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        [DescribedField("majorBrand", majorBrand), DescribedField("minorVersion", minorVersion),
         DescribedField("compatibleBrands", .list(compatibleBrands.map { .text($0.description) }))]
    }

    public var summary: String {
        "major=\(majorBrand) minor=\(minorVersion) compatible=\(compatibleBrands.map(\.description).joined(separator: ","))"
    }
}
