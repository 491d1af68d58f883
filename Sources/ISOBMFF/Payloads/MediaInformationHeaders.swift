import MediaBytes

/// `smhd` (sound media header, ISO/IEC 14496-12 section 12.2.2) and `vmhd` (video media header,
/// 12.1.2).
public struct MediaInformationHeader: AtomPayload, Hashable {
    public var header: FullBoxHeader
    public var fields: [DescribedField]

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        var list = FieldList(at: reader, recording: context.recordsFieldBytes)
        if context.atom.type == "smhd" {
            list.add("balance", try reader.readFixed8_8(), reader)
            if reader.remaining >= 2 {
                try reader.skip(2)
                list.add("reserved", "2 bytes", reader)
            }
        } else {
            list.add("graphicsMode", try reader.readUInt16(), reader)
            list.add("opcolor", .list([FieldValue(try reader.readUInt16()), FieldValue(try reader.readUInt16()), FieldValue(try reader.readUInt16())]), reader)
        }
        list.addRest(&reader)
        fields = list.fields
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] { header.fields + fields }

    public var summary: String { fields.map { "\($0.name)=\($0.value.summaryText)" }.joined(separator: " ") }
}
