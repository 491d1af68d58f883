/// One item of an APE tag (APEv2 specification, "APE Tag Item"): a key, flags and a value.
public struct APEItem: Sendable, Hashable {
    /// What the value is (item flags bits 1-2). An open set.
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue & 3 }

        /// UTF-8 text; several values separated by NUL bytes.
        public static let text = Kind(rawValue: 0)
        /// Binary data (`Cover Art (Front)`: a file name, a NUL, the image).
        public static let binary = Kind(rawValue: 1)
        /// A UTF-8 link to external data (a URL).
        public static let externalLocator = Kind(rawValue: 2)
        /// Reserved by the specification.
        public static let reserved = Kind(rawValue: 3)

        public var description: String {
            switch rawValue {
            case 0: "text"
            case 1: "binary"
            case 2: "external locator"
            default: "reserved"
            }
        }
    }

    /// The key as stored (2 to 255 printable ASCII characters; compared without regard to case).
    public var key: String
    /// The item flags as stored (kind in bits 1-2, read-only in bit 0; other bits kept).
    public var flags: UInt32
    /// The value bytes as stored.
    public var value: [UInt8]
    /// Where the item starts in the file, when it was read from one.
    public var offset: UInt64?

    public init(key: String, flags: UInt32 = 0, value: [UInt8]) {
        self.key = key
        self.flags = flags
        self.value = value
    }

    public var kind: Kind { Kind(rawValue: flags >> 1) }
    public var isReadOnly: Bool { flags & 1 != 0 }

    /// The values of a text or external-locator item (split on NUL), nil for other kinds or
    /// for bytes that are not UTF-8.
    public var texts: [String]? {
        guard kind == .text || kind == .externalLocator, let text = String(validating: value, as: UTF8.self) else { return nil }
        return text.split(separator: "\u{0}", omittingEmptySubsequences: false).map(String.init)
    }

    /// A text item holding `values` (joined with NUL).
    public static func text(_ key: String, _ values: [String]) -> APEItem {
        APEItem(key: key, flags: 0, value: Array(values.joined(separator: "\u{0}").utf8))
    }

    /// A binary item.
    public static func binary(_ key: String, _ bytes: [UInt8]) -> APEItem {
        APEItem(key: key, flags: Kind.binary.rawValue << 1, value: bytes)
    }

    /// A cover-art item (`Cover Art (Front)` and the like, binary): the description (usually a
    /// file name) before the first NUL, and the image bytes after it.
    public var coverArt: (description: String, data: [UInt8])? {
        guard kind == .binary, key.lowercased().hasPrefix("cover art"), let nul = value.firstIndex(of: 0) else { return nil }
        return (String(decoding: value[..<nul], as: UTF8.self), Array(value[(nul + 1)...]))
    }

    /// The item as stored: value size, flags, key, NUL, value (little-endian sizes).
    public var encoded: [UInt8] {
        APETag.littleEndian(UInt32(value.count)) + APETag.littleEndian(flags) + Array(key.utf8) + [0] + value
    }

    /// Reads one item as `encoded` writes it; nil when the bytes are not exactly one item.
    public init?(encoded bytes: [UInt8]) {
        guard bytes.count >= 11 else { return nil }
        let slice = bytes[...]
        let size = Int(APETag.readLittleEndian(slice, at: 0))
        let flags = APETag.readLittleEndian(slice, at: 4)
        guard let nul = bytes[8...].firstIndex(of: 0), bytes.count - (nul + 1) == size else { return nil }
        let key = String(decoding: bytes[8..<nul], as: UTF8.self)
        guard Self.isValidKey(key) else { return nil }
        self.init(key: key, flags: flags, value: Array(bytes[(nul + 1)...]))
    }

    /// True for a key the specification allows: 2 to 255 characters 0x20-0x7E, not `ID3`,
    /// `TAG`, `OggS` or `MP+`.
    public static func isValidKey(_ key: String) -> Bool {
        let bytes = Array(key.utf8)
        guard (2...255).contains(bytes.count), bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else { return false }
        return !["ID3", "TAG", "OGGS", "MP+"].contains(key.uppercased())
    }
}
