import MediaBytes

/// The fixed fields of the full-box tables whose entries are child atoms: `stsd` (ISO/IEC
/// 14496-12 section 8.5.2), `dref` (8.7.2), `iinf` (8.11.6), `iref` and `ipro`.
public struct EntryTableHeader: AtomPayload, Hashable {
    public var header: FullBoxHeader
    public var entryCount: UInt32?

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        switch reader.remaining {
        case 2...3: entryCount = UInt32(try reader.readUInt16())
        case 4...: entryCount = try reader.readUInt32()
        default: entryCount = nil
        }
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        header.fields + (entryCount.map { [DescribedField("entryCount", $0)] } ?? [])
    }

    public var summary: String { entryCount.map { "entries=\($0)" } ?? "version=\(header.version)" }
}
