import MediaBytes

/// One value of an iTunes or QuickTime metadata item: the payload of a `data` atom (QuickTime
/// File Format, "Data atom" and "Well-known types"), kept as its type indicator, locale and
/// bytes so that any value, known or not, is written back exactly.
public struct ItemValue: Sendable, Hashable {
    /// The well-known type indicators (the type set 0 table).
    public struct DataType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// Each item's own convention (`trkn`, `disk`, `gnre`, flags...).
        public static let implicit = DataType(rawValue: 0)
        public static let utf8 = DataType(rawValue: 1)
        public static let utf16 = DataType(rawValue: 2)
        public static let gif = DataType(rawValue: 12)
        public static let jpeg = DataType(rawValue: 13)
        public static let png = DataType(rawValue: 14)
        /// Big-endian signed integer of 1, 2, 3, 4 or 8 bytes.
        public static let signedInteger = DataType(rawValue: 21)
        /// Big-endian unsigned integer of 1, 2, 3, 4 or 8 bytes.
        public static let unsignedInteger = DataType(rawValue: 22)
        public static let float32 = DataType(rawValue: 23)
        public static let float64 = DataType(rawValue: 24)
        public static let bmp = DataType(rawValue: 27)
        public static let int8 = DataType(rawValue: 65)
        public static let int16 = DataType(rawValue: 66)
        public static let int32 = DataType(rawValue: 67)
        public static let int64 = DataType(rawValue: 74)
        public static let uint8 = DataType(rawValue: 75)
        public static let uint16 = DataType(rawValue: 76)
        public static let uint32 = DataType(rawValue: 77)
        public static let uint64 = DataType(rawValue: 78)

        public var description: String { ItemDataAtom.typeNames[rawValue] ?? "type \(rawValue)" }

        /// True for the image types.
        public var isImage: Bool { [12, 13, 14, 27].contains(rawValue) }
    }

    /// The type set (0 for the well-known types).
    public var typeSet: UInt8
    public var dataType: DataType
    /// The locale: country and language indicators (0 for the default).
    public var country: UInt16
    public var language: UInt16
    /// The value's bytes (after the type and the locale). A value read from a file is a slice
    /// of the metadata read into memory, so that reading copies no value (a cover is tens of
    /// kilobytes); two values with the same bytes are equal wherever their slices start.
    public var bytes: ArraySlice<UInt8>

    /// The value's bytes as an array (a copy of `bytes`).
    public var data: [UInt8] {
        get { Array(bytes) }
        set { bytes = newValue[...] }
    }

    public init(dataType: DataType, data: [UInt8], typeSet: UInt8 = 0, country: UInt16 = 0, language: UInt16 = 0) {
        self.typeSet = typeSet
        self.dataType = dataType
        self.country = country
        self.language = language
        self.bytes = data[...]
    }

    // MARK: - Making values

    /// UTF-8 text.
    public static func text(_ text: String) -> ItemValue { ItemValue(dataType: .utf8, data: Array(text.utf8)) }

    /// A signed integer in the smallest of 1, 2, 4 or 8 bytes that holds it (type 21).
    public static func integer(_ value: Int64) -> ItemValue {
        let width = Int8(exactly: value) != nil ? 1 : Int16(exactly: value) != nil ? 2 : Int32(exactly: value) != nil ? 4 : 8
        return ItemValue(dataType: .signedInteger, data: bigEndian(UInt64(bitPattern: value), width: width))
    }

    /// An integer of a fixed `width` in the item's implicit or explicit type (for items such
    /// as `tmpo` (2 bytes), `stik` (1 byte) or `cnID` (4 bytes) that readers expect at a width).
    public static func integer(_ value: Int64, width: Int, dataType: DataType = .signedInteger) -> ItemValue {
        ItemValue(dataType: dataType, data: bigEndian(UInt64(bitPattern: value), width: width))
    }

    /// A boolean flag (`cpil`, `pgap`, `pcst`, `shwm`): one byte, type 21.
    public static func flag(_ value: Bool) -> ItemValue {
        ItemValue(dataType: .signedInteger, data: [value ? 1 : 0])
    }

    /// An index/total pair: `trkn` (8 bytes) or `disk` (6 bytes), implicit type.
    public static func pair(index: UInt16, total: UInt16, trailingPad: Bool) -> ItemValue {
        var bytes: [UInt8] = [0, 0, UInt8(index >> 8), UInt8(index & 0xFF), UInt8(total >> 8), UInt8(total & 0xFF)]
        if trailingPad { bytes += [0, 0] }
        return ItemValue(dataType: .implicit, data: bytes)
    }

    /// An image; the type follows the MIME type (JPEG, PNG, GIF or BMP).
    public static func image(_ bytes: [UInt8], mimeType: String) -> ItemValue? {
        let type: DataType? = switch mimeType.lowercased() {
        case "image/jpeg", "image/jpg": .jpeg
        case "image/png": .png
        case "image/gif": .gif
        case "image/bmp": .bmp
        default: nil
        }
        return type.map { ItemValue(dataType: $0, data: bytes) }
    }

    private static func bigEndian(_ value: UInt64, width: Int) -> [UInt8] {
        (0..<width).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * (width - 1 - $0))) }
    }

    // MARK: - Reading values

    /// The text of a UTF-8 or UTF-16 value.
    public var text: String? {
        guard typeSet == 0 else { return nil }
        switch dataType.rawValue {
        case 1, 4: return String(decoding: bytes, as: UTF8.self)
        case 2, 5: return ItemDataAtom.decodeUTF16BE(Array(bytes))
        default: return nil
        }
    }

    /// The number of an integer value (explicitly typed, or implicit in the 1/2/4/8-byte forms).
    public var integer: Int64? {
        guard typeSet == 0, [1, 2, 3, 4, 8].contains(bytes.count) else { return nil }
        var reader = ByteReader(bytes)
        switch dataType.rawValue {
        case 21, 65, 66, 67, 74:
            return try? reader.readInt(width: bytes.count)
        case 0, 22, 75, 76, 77, 78:
            guard let value = try? reader.readUInt(width: bytes.count) else { return nil }
            return Int64(exactly: value)
        default:
            return nil
        }
    }

    /// The floating-point number of a float32/float64 value.
    public var number: Double? {
        var reader = ByteReader(bytes)
        switch (dataType.rawValue, bytes.count) {
        case (23, 4): return (try? reader.readFloat32()).map(Double.init)
        case (24, 8): return try? reader.readFloat64()
        default: return nil
        }
    }

    /// The index/total pair of a `trkn`/`disk` value.
    public var pair: (index: UInt16, total: UInt16)? {
        guard dataType == .implicit, bytes.count >= 6 else { return nil }
        let b = bytes.startIndex
        return (UInt16(bytes[b + 2]) << 8 | UInt16(bytes[b + 3]), UInt16(bytes[b + 4]) << 8 | UInt16(bytes[b + 5]))
    }

    /// The MIME type of an image value.
    public var imageMIMEType: String? {
        switch dataType {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .gif: "image/gif"
        case .bmp: "image/bmp"
        default: nil
        }
    }

    // MARK: - The data atom

    /// The payload of the `data` atom: type, locale, value.
    public var dataAtomPayload: [UInt8] {
        var writer = ByteWriter(capacity: 8 + bytes.count)
        writer.writeUInt8(typeSet)
        writer.writeUInt24(dataType.rawValue)
        writer.writeUInt16(country)
        writer.writeUInt16(language)
        writer.writeBytes(bytes)
        return writer.bytes
    }

    /// Reads a `data` atom's payload.
    init(dataAtomPayload payload: ArraySlice<UInt8>) throws(ByteReaderError) {
        guard payload.count >= 8 else { throw ByteReaderError(offset: 0, needed: 8, available: payload.count) }
        let p = payload.startIndex
        typeSet = payload[p]
        dataType = DataType(rawValue: UInt32(payload[p + 1]) << 16 | UInt32(payload[p + 2]) << 8 | UInt32(payload[p + 3]))
        country = UInt16(payload[p + 4]) << 8 | UInt16(payload[p + 5])
        language = UInt16(payload[p + 6]) << 8 | UInt16(payload[p + 7])
        bytes = payload[(p + 8)...]
    }
}
