import MediaBytes

/// Small boxes found in sample entries and track references, each a few fixed fields:
/// `btrt` (bit rates, ISO/IEC 14496-12 section 8.5.2.2), `pasp` (pixel aspect ratio, 12.1.4),
/// `colr` (colour information, 12.1.5), `frma` (original format, 8.12.2), `ispe` (image spatial
/// extents, ISO/IEC 23008-12 section 6.5.3) and the track-ID lists under `tref` (8.3.3). The
/// codec configurations are `CodecConfigurationBox`'s.
public struct SmallFieldsBox: AtomPayload, Hashable {
    public var fields: [DescribedField]

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        if context.parent == "tref" {
            var ids: [FieldValue] = []
            while reader.remaining >= 4 { ids.append(FieldValue(try reader.readUInt32())) }
            fields = [DescribedField("trackIDs", .list(ids))]
            return
        }
        switch context.atom.type {
        case "btrt":
            fields = [DescribedField("bufferSize", try reader.readUInt32()), DescribedField("maxBitrate", try reader.readUInt32()),
                      DescribedField("averageBitrate", try reader.readUInt32())]
        case "pasp":
            fields = [DescribedField("hSpacing", try reader.readUInt32()), DescribedField("vSpacing", try reader.readUInt32())]
        case "ispe":
            _ = try FullBoxHeader(from: &reader)
            fields = [DescribedField("width", try reader.readUInt32()), DescribedField("height", try reader.readUInt32())]
        case "colr":
            let colourType = try reader.readFourCC()
            fields = [DescribedField("colourType", colourType)]
            if colourType == "nclx" || colourType == "nclc" {
                fields += [DescribedField("colourPrimaries", try reader.readUInt16()),
                           DescribedField("transferCharacteristics", try reader.readUInt16()),
                           DescribedField("matrixCoefficients", try reader.readUInt16())]
                if colourType == "nclx" { fields.append(DescribedField("fullRange", try reader.readUInt8() >> 7 != 0)) }
            } else {
                fields.append(DescribedField("iccProfileSize", reader.remaining))
            }
        default:  // frma
            fields = [DescribedField("dataFormat", try reader.readFourCC())]
        }
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] { fields }
}
