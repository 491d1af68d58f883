import MediaBytes

/// `smhd` (sound media header, ISO/IEC 14496-12 section 12.2.2) and `vmhd` (video media header,
/// 12.1.2).
public struct MediaInformationHeader: AtomPayload, Hashable {
    public var header: FullBoxHeader
    public var fields: [DescribedField]

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        if context.atom.type == "smhd" {
            fields = [DescribedField("balance", try reader.readFixed8_8())]
        } else {
            let mode = try reader.readUInt16()
            let color = [try reader.readUInt16(), try reader.readUInt16(), try reader.readUInt16()]
            fields = [DescribedField("graphicsMode", mode), DescribedField("opcolor", .list(color.map { FieldValue($0) }))]
        }
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] { header.fields + fields }

    public var summary: String { fields.map { "\($0.name)=\($0.value.summaryText)" }.joined(separator: " ") }
}
