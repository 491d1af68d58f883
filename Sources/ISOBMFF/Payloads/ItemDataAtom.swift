import MediaBytes

/// `data`: one value of an iTunes or QuickTime metadata item (QuickTime File Format, "Data
/// atom"; the well-known type indicators of the "Well-known types" table).
public struct ItemDataAtom: AtomPayload, Hashable {
    /// The type set (0 for well-known types).
    public var typeSet: UInt8
    /// The well-known type indicator: 0 implicit, 1 UTF-8, 2 UTF-16, 13 JPEG, 14 PNG, 21 signed
    /// integer, 22 unsigned integer, 23 float32, 24 float64, 27 BMP, ...
    public var typeIndicator: UInt32
    public var country: UInt16
    public var language: UInt16
    public var value: [UInt8]
    /// The type of the item this value belongs to (its parent), which decides how implicit
    /// values read.
    public var itemType: FourCC?

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        typeSet = try reader.readUInt8()
        typeIndicator = try reader.readUInt24()
        country = try reader.readUInt16()
        language = try reader.readUInt16()
        value = reader.readRemainingBytes()
        itemType = context.parent
    }

    /// A name for the type indicator, or nil when this reader does not know it.
    public var typeName: String? { typeSet == 0 ? Self.typeNames[typeIndicator] : nil }

    static let typeNames: [UInt32: String] = [
        0: "implicit", 1: "utf8", 2: "utf16", 3: "sjis", 4: "utf8-sort", 5: "utf16-sort", 12: "gif", 13: "jpeg",
        14: "png", 21: "signed-int", 22: "unsigned-int", 23: "float32", 24: "float64", 27: "bmp",
        28: "metadata-atom", 65: "int8", 66: "int16", 67: "int32", 70: "point-float32", 71: "dimensions-float32",
        72: "rect-float32", 74: "int64", 75: "uint8", 76: "uint16", 77: "uint32", 78: "uint64",
        79: "affine-transform-float64",
    ]

    /// The decoded value.
    public var decodedValue: FieldValue {
        guard typeSet == 0 else { return .bytes(value) }
        switch typeIndicator {
        case 1, 4: return .text(String(decoding: value, as: UTF8.self))
        case 2, 5: return .text(Self.decodeUTF16BE(value))
        case 21, 65, 66, 67, 74:
            guard [1, 2, 3, 4, 8].contains(value.count) else { return .bytes(value) }
            var reader = ByteReader(value)
            return (try? reader.readInt(width: value.count)).map { .integer($0) } ?? .bytes(value)
        case 22, 75, 76, 77, 78:
            guard [1, 2, 3, 4, 8].contains(value.count) else { return .bytes(value) }
            var reader = ByteReader(value)
            return (try? reader.readUInt(width: value.count)).map { .unsigned($0) } ?? .bytes(value)
        case 23:
            guard value.count == 4 else { return .bytes(value) }
            var reader = ByteReader(value)
            return (try? reader.readFloat32()).map { .number(Double($0)) } ?? .bytes(value)
        case 24:
            guard value.count == 8 else { return .bytes(value) }
            var reader = ByteReader(value)
            return (try? reader.readFloat64()).map { .number($0) } ?? .bytes(value)
        case 0:
            return implicitValue
        default:
            return .bytes(value)
        }
    }

    /// Implicit values follow each item's own convention (`ItemListValueKind`).
    private var implicitValue: FieldValue {
        guard let itemType else { return .bytes(value) }
        return ItemListValueKind.of(itemType).implicitValue(value)
    }

    /// MIME type of an image value.
    public var imageMIMEType: String? {
        switch typeIndicator {
        case 12: "image/gif"
        case 13: "image/jpeg"
        case 14: "image/png"
        case 27: "image/bmp"
        default: nil
        }
    }

    static func decodeUTF16BE(_ bytes: [UInt8]) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var i = 0
        while i + 1 < bytes.count {
            units.append(UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]))
            i += 2
        }
        return String(decoding: units, as: UTF16.self)
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        var fields = [
            DescribedField("typeSet", typeSet), DescribedField("typeIndicator", typeIndicator),
            DescribedField("typeName", typeName ?? "unknown"), DescribedField("country", country), DescribedField("language", language),
        ]
        if let mime = imageMIMEType {
            fields += [DescribedField("mimeType", mime), DescribedField("imageSize", value.count)]
        } else {
            fields.append(DescribedField("value", decodedValue))
        }
        return fields
    }

    public var summary: String {
        let type = typeName ?? "type \(typeSet):\(typeIndicator)"
        if let mime = imageMIMEType { return "\(type) \(mime) \(value.count) bytes" }
        return "\(type) \(decodedValue.summaryText)"
    }
}
