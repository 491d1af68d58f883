import MediaBytes

/// `infe`: one item's ID, type and name (ISO/IEC 14496-12 section 8.11.6), read at header
/// level: versions 0-1 carry a name and content type, versions 2-3 an item type first.
public struct ItemInfoEntryBox: AtomPayload, Hashable {
    public var header: FullBoxHeader
    public var itemID: UInt32
    public var protectionIndex: UInt16
    public var itemType: FourCC?
    public var itemName: String
    public var contentType: String?

    /// The file bytes of each field, by name.
    var ranges: [String: Range<UInt64>] = [:]

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        var list = FieldList(at: reader, recording: context.recordsFieldBytes)
        itemID = header.version == 3 ? try reader.readUInt32() : UInt32(try reader.readUInt16())
        list.note("itemID", reader)
        protectionIndex = try reader.readUInt16()
        list.note("protectionIndex", reader)
        if header.version >= 2 { itemType = try reader.readFourCC(); list.note("itemType", reader) }
        itemName = reader.isAtEnd ? "" : reader.readCString()
        list.note("itemName", reader)
        if itemType == nil || itemType == "mime" { contentType = reader.isAtEnd ? nil : reader.readCString(); list.note("contentType", reader) }
        if !reader.isAtEnd {
            try reader.skip(reader.remaining)
            list.note("rest", reader)
        }
        ranges = list.ranges
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        var fields = [DescribedField("itemID", itemID), DescribedField("protectionIndex", protectionIndex)]
        if let itemType { fields.append(DescribedField("itemType", itemType)) }
        fields.append(DescribedField("itemName", itemName))
        if let contentType { fields.append(DescribedField("contentType", contentType)) }
        // (A `uri ` item's URI, a `mime` item's encoding: named, not decoded.)
        if let rest = ranges["rest"] { fields.append(DescribedField("rest", .text("\(rest.count) bytes"))) }
        return header.fields + FieldList.apply(ranges, to: fields)
    }

    public var summary: String { "itemID=\(itemID)" + (itemType.map { " type=\($0)" } ?? "") + (itemName.isEmpty ? "" : " name=\"\(itemName)\"") }
}

/// `pitm`: the primary item of a HEIF-style `meta` (ISO/IEC 14496-12 section 8.11.4).
public struct PrimaryItemBox: AtomPayload, Hashable {
    public var header: FullBoxHeader
    public var itemID: UInt32

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        itemID = header.version == 0 ? UInt32(try reader.readUInt16()) : try reader.readUInt32()
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] { header.fields + [DescribedField("itemID", itemID)] }
    public var summary: String { "itemID=\(itemID)" }
}

/// One reference of an `iref` (ISO/IEC 14496-12 section 8.11.12, `SingleItemTypeReferenceBox`):
/// its type is the box's (`dimg` derived image, `thmb` thumbnail, `cdsc` content description,
/// `auxl` auxiliary image...), then the item it is from and the items it is to. Item IDs are 16
/// bits under an `iref` of version 0, 32 bits under version 1.
public struct ItemReferenceBox: AtomPayload, Hashable {
    public var fromItemID: UInt32
    public var toItemIDs: [UInt32]
    private var described: [DescribedField]

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        let wide = (context.parentVersion ?? 0) >= 1
        func itemID() throws -> UInt32 { wide ? try reader.readUInt32() : UInt32(try reader.readUInt16()) }
        var list = FieldList(at: reader, recording: context.recordsFieldBytes)
        fromItemID = try itemID()
        list.add("fromItemID", fromItemID, reader)
        let count = Int(try reader.readUInt16())
        list.add("referenceCount", count, reader)
        guard count * (wide ? 4 : 2) <= reader.remaining else {
            throw ByteReaderError(offset: reader.offset, needed: count * (wide ? 4 : 2), available: reader.remaining)
        }
        toItemIDs = try (0..<count).map { _ in try itemID() }
        list.add("toItemIDs", .list(toItemIDs.map { FieldValue($0) }), reader)
        list.addRest(&reader)
        described = list.fields
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] { described }

    public var summary: String { "from item \(fromItemID) to " + toItemIDs.map(String.init).joined(separator: ", ") }
}
