import MediaBytes

/// A declaration inside a timed metadata sample entry's key table (`mebx/keys/<local key
/// ID>`; QuickTime File Format, "Timed Metadata Media"): `keyd` names the key (a namespace
/// such as `mdta` and the key, `com.apple.quicktime.location.ISO6709`), `dtyp` its data type
/// (namespace 0: a well-known type of the item list, 1 UTF-8, 23 float32...), `loca` a locale.
public struct MetadataKeyDeclaration: AtomPayload, Hashable {
    public enum Declaration: Sendable, Hashable {
        case key(namespace: FourCC, value: [UInt8])
        case dataType(namespace: UInt32, type: [UInt8])
        case locale(String)
    }

    public var declaration: Declaration

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        let start = reader.offset
        guard let declaration = Self.declaration(context.atom.type, reader.readRemainingBytes()) else {
            throw AtomError(.invalidPayload, offset: start, message: "'\(context.atom.type)' at offset \(context.atom.offset) is too short for its namespace")
        }
        self.declaration = declaration
    }

    /// The declaration a `keyd`, `dtyp` or `loca` box's payload makes; nil when it is too short.
    public static func declaration(_ type: FourCC, _ payload: [UInt8]) -> Declaration? {
        switch type {
        case "keyd":
            guard payload.count >= 4 else { return nil }
            return .key(namespace: FourCC(payload[0], payload[1], payload[2], payload[3]), value: Array(payload[4...]))
        case "dtyp":
            guard payload.count >= 4 else { return nil }
            return .dataType(namespace: payload[0..<4].reduce(0) { $0 << 8 | UInt32($1) }, type: Array(payload[4...]))
        default:
            return .locale(TextDecoding.utf8(payload))
        }
    }

    /// The key as text (`com.apple.quicktime.location.ISO6709`).
    public static func keyText(_ value: [UInt8]) -> String { TextDecoding.utf8(value) }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        switch declaration {
        case .key(let namespace, let value):
            return [DescribedField("namespace", namespace), DescribedField("key", Self.keyText(value))]
        case .dataType(let namespace, let type):
            if namespace == 0, type.count == 4 {
                let indicator = type.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                return [DescribedField("namespace", "well-known"), DescribedField("type", indicator), DescribedField("typeName", ItemValue.DataType(rawValue: indicator).description)]
            }
            return [DescribedField("namespace", namespace), DescribedField("type", .bytes(type))]
        case .locale(let text):
            return [DescribedField("locale", text)]
        }
    }

    public var summary: String {
        fields(.default).map { "\($0.name)=\($0.value.summaryText)" }.joined(separator: " ")
    }
}
