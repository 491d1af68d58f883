import MediaBytes

/// `hdlr`: the handler type of a track or a `meta` (ISO/IEC 14496-12 section 8.4.3; QuickTime
/// "Handler reference atom", whose name is a Pascal string and whose first field names the
/// component type `mhlr`/`dhlr`).
public struct HandlerBox: AtomPayload, Hashable {
    public var header: FullBoxHeader
    /// QuickTime's component type (`mhlr`, `dhlr`); zero in ISO files.
    public var componentType: FourCC
    public var handlerType: FourCC
    /// QuickTime's component manufacturer (for example `appl`); zero in ISO files.
    public var manufacturer: FourCC
    public var name: String

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        componentType = try reader.readFourCC()
        handlerType = try reader.readFourCC()
        manufacturer = try reader.readFourCC()
        try reader.skip(8)
        name = Self.decodeName(reader.readRemainingBytes())
    }

    /// QuickTime writes a Pascal string (a length byte, then the text, maybe zero padding);
    /// ISO a NUL-terminated UTF-8 string.
    static func decodeName(_ bytes: [UInt8]) -> String {
        if let length = bytes.first.map(Int.init), length > 0, length < bytes.count,
            !bytes[1...length].contains(0), bytes[(length + 1)...].allSatisfy({ $0 == 0 })
        {
            return String(decoding: bytes[1...length], as: UTF8.self)
        }
        let end = bytes.firstIndex(of: 0) ?? bytes.count
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        var fields = header.fields
        // ISO's pre_defined and reserved words where QuickTime has its component type,
        // manufacturer, flags and flags mask.
        fields.append(componentType.rawValue != 0 ? DescribedField("componentType", componentType) : DescribedField("preDefined", "4 bytes"))
        fields.append(DescribedField("handlerType", handlerType))
        if manufacturer.rawValue != 0 {
            fields += [DescribedField("manufacturer", manufacturer), DescribedField("componentFlags", "8 bytes")]
        } else {
            fields.append(DescribedField("reserved", "12 bytes"))
        }
        fields.append(DescribedField("name", name))
        return fields
    }

    public var summary: String { "handler=\(handlerType)" + (name.isEmpty ? "" : " name=\"\(name)\"") }
}
