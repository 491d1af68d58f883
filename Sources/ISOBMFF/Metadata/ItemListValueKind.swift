import MediaBytes

/// How an iTunes item list (`ilst`) item stores its value, by item type: the one table that the
/// inspector (decoding implicit `data` values), the metadata store (writing values at the width
/// readers expect) and the key-space table (whose kinds a test checks against it) all read.
///
/// The widths are the ones iTunes writes and TagLib, mutagen and AtomicParsley read (a reader
/// that expects `tmpo` as 16 bits misreads an 8-bit one). Disputed entries:
/// - `hdvd` is an 8-bit number (0 SD, 1 720p, 2 1080p since iTunes 11), not a flag.
/// - `shwm` (show work and movement) is a flag.
/// - `trkn` carries two bytes of padding after the total that `disk` does not.
public struct ItemListValueKind: Sendable, Hashable {
    private enum Kind: Hashable, Sendable {
        case text, flag, integer(Int), pair(trailingPad: Bool), genreCode, image
    }
    private let kind: Kind
    private init(_ kind: Kind) { self.kind = kind }

    /// UTF-8 text (type 1).
    public static let text = ItemListValueKind(.text)
    /// A one-byte flag, 0 or 1 (type 21).
    public static let flag = ItemListValueKind(.flag)
    /// A signed integer of this many bytes (type 21).
    public static func integer(width: Int) -> ItemListValueKind { ItemListValueKind(.integer(width)) }
    /// Two 16-bit numbers, index and total, after two zero bytes (implicit type); `trkn` adds two
    /// more zero bytes.
    public static func pair(trailingPad: Bool) -> ItemListValueKind { ItemListValueKind(.pair(trailingPad: trailingPad)) }
    /// A 16-bit ID3v1 genre index plus one (implicit type).
    public static let genreCode = ItemListValueKind(.genreCode)
    /// Image data (JPEG, PNG, GIF or BMP types).
    public static let image = ItemListValueKind(.image)

    /// The integer width, for integer kinds.
    public var integerWidth: Int? { if case .integer(let width) = kind { width } else { nil } }
    /// True for the two-number kinds (`trkn`, `disk`).
    public var isPair: Bool { if case .pair = kind { true } else { false } }
    /// For a pair: whether two zero bytes follow the total.
    public var hasTrailingPad: Bool { if case .pair(let pad) = kind { pad } else { false } }
    public var isFlag: Bool { kind == .flag }
    public var isGenreCode: Bool { kind == .genreCode }
    public var isImage: Bool { kind == .image }
    public var isText: Bool { kind == .text }

    /// The item types whose value is not plain text. Items not listed are text (or binary data
    /// typed by their `data` atom).
    public static let table: [FourCC: ItemListValueKind] = [
        "trkn": .pair(trailingPad: true), "disk": .pair(trailingPad: false), "gnre": .genreCode, "covr": .image,
        "cpil": .flag, "pgap": .flag, "pcst": .flag, "shwm": .flag,
        "tmpo": .integer(width: 2), "©mvi": .integer(width: 2), "©mvc": .integer(width: 2),
        "hdvd": .integer(width: 1), "stik": .integer(width: 1), "rtng": .integer(width: 1), "akID": .integer(width: 1),
        "tves": .integer(width: 4), "tvsn": .integer(width: 4), "cnID": .integer(width: 4), "atID": .integer(width: 4),
        "geID": .integer(width: 4), "sfID": .integer(width: 4), "cmID": .integer(width: 4), "plID": .integer(width: 8),
    ]

    /// The kind of an item type's value; `.text` for types not in the table.
    public static func of(_ type: FourCC) -> ItemListValueKind { lookup[type] ?? .text }

    /// `table` as the per-item lookup reads it (no hashing).
    private static let lookup = FourCCMap(table)

    /// Reads an implicitly typed (type 0) value of an item of this kind as inspector fields.
    func implicitValue(_ value: [UInt8]) -> FieldValue {
        var reader = ByteReader(value)
        switch kind {
        case .pair:
            guard value.count >= 6, let index = try? reader.getUInt16(at: 2), let total = try? reader.getUInt16(at: 4) else { return .bytes(value) }
            return .record([DescribedField("index", index), DescribedField("total", total)])
        case .genreCode:
            guard value.count == 2, let genre = try? reader.readUInt16() else { return .bytes(value) }
            return .record([DescribedField("genreID", genre)])
        case .flag:
            guard value.count == 1 else { return .bytes(value) }
            return .boolean(value[0] != 0)
        case .integer:
            guard [1, 2, 4, 8].contains(value.count), let number = try? reader.readUInt(width: value.count) else { return .bytes(value) }
            return .unsigned(number)
        case .text, .image:
            return .bytes(value)
        }
    }
}
