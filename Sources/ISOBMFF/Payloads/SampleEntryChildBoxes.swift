import MediaBytes

/// Small boxes found in sample entries and track references, each a few fixed fields:
/// `btrt` (bit rates, ISO/IEC 14496-12 section 8.5.2.2), `pasp` (pixel aspect ratio, 12.1.4),
/// `colr` (colour information, 12.1.5), `frma` (original format, 8.12.2), `ispe` (image spatial
/// extents, ISO/IEC 23008-12 section 6.5.3) and the track-ID lists under `tref` (8.3.3). The
/// codec configurations are `CodecConfigurationBox`'s.
public struct SmallFieldsBox: AtomPayload, Hashable {
    public var fields: [DescribedField]

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        fields = []
        var list = FieldList(at: reader, recording: context.recordsFieldBytes)
        defer { fields = list.fields }
        if context.parent == "tref" {
            var ids: [FieldValue] = []
            while reader.remaining >= 4 { ids.append(FieldValue(try reader.readUInt32())) }
            list.add("trackIDs", .list(ids), reader)
            list.addRest(&reader)
            return
        }
        switch context.atom.type {
        case "btrt":
            list.add("bufferSize", try reader.readUInt32(), reader)
            list.add("maxBitrate", try reader.readUInt32(), reader)
            list.add("averageBitrate", try reader.readUInt32(), reader)
        case "pasp":
            list.add("hSpacing", try reader.readUInt32(), reader)
            list.add("vSpacing", try reader.readUInt32(), reader)
        case "ispe":
            let header = try FullBoxHeader(from: &reader)
            list.add(header, reader)
            list.add("width", try reader.readUInt32(), reader)
            list.add("height", try reader.readUInt32(), reader)
        case "colr":
            let colourType = try reader.readFourCC()
            list.add("colourType", .text(colourType.description), reader)
            if colourType == "nclx" || colourType == "nclc" {
                list.add("colourPrimaries", try reader.readUInt16(), reader)
                list.add("transferCharacteristics", try reader.readUInt16(), reader)
                list.add("matrixCoefficients", try reader.readUInt16(), reader)
                if colourType == "nclx" { list.add("fullRange", try reader.readUInt8() >> 7 != 0, reader) }
            } else {
                let size = reader.remaining
                try reader.skip(size)
                list.add("iccProfileSize", size, reader)
            }
        default:  // frma
            list.add("dataFormat", .text(try reader.readFourCC().description), reader)
        }
        list.addRest(&reader)
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] { fields }
}
