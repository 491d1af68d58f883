import MediaBytes

/// `url ` and `urn ` entries of a `dref` (ISO/IEC 14496-12 section 8.7.2): where a track's
/// media is; flag 1 means "in this file".
public struct DataEntryBox: AtomPayload, Hashable {
    public var header: FullBoxHeader
    public var name: String?
    public var location: String?

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        if context.atom.type == "urn " && !reader.isAtEnd { name = reader.readCString() }
        if !reader.isAtEnd { location = reader.readCString() }
    }

    public var isSelfContained: Bool { header.flags & 1 != 0 }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        var fields = header.fields + [DescribedField("selfContained", isSelfContained)]
        if let name { fields.append(DescribedField("name", name)) }
        if let location { fields.append(DescribedField("location", location)) }
        return fields
    }

    public var summary: String { isSelfContained ? "self-contained" : "location=\(location ?? "")" }
}
