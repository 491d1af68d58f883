import MediaBytes

/// The text encoding byte of ID3v2 frames (id3v2.4.0-structure section 4).
public enum ID3TextEncoding: UInt8, Sendable, Hashable, CaseIterable {
    case latin1 = 0
    /// UTF-16 with a byte-order mark.
    case utf16 = 1
    /// UTF-16 big-endian without a byte-order mark (v2.4 only).
    case utf16BigEndian = 2
    /// UTF-8 (v2.4 only).
    case utf8 = 3

    /// Most values read from one frame; a longer list ends in one value holding the rest.
    public static let maxValues = 1000

    /// The case's name (`latin1`, `utf16`, `utf16BigEndian`, `utf8`), as the tools' JSON
    /// shows it, made without reflection.
    public var name: String {
        switch self {
        case .latin1: "latin1"
        case .utf16: "utf16"
        case .utf16BigEndian: "utf16BigEndian"
        case .utf8: "utf8"
        }
    }

    /// True when terminators are two zero bytes.
    public var isWide: Bool { self == .utf16 || self == .utf16BigEndian }

    /// Decodes one string (without terminator).
    public func decode(_ bytes: ArraySlice<UInt8>) -> String {
        switch self {
        case .latin1: TextDecoding.latin1(bytes)
        // Without a BOM, UTF-16 in ID3 is little-endian far more often than not (Windows writers).
        case .utf16: TextDecoding.utf16(bytes, bigEndian: false)
        case .utf16BigEndian: TextDecoding.utf16(bytes, bigEndian: true)
        case .utf8: TextDecoding.utf8(bytes)
        }
    }

    /// Reads one terminated string from the front of `bytes` and returns it with the rest.
    public func readString(_ bytes: ArraySlice<UInt8>) -> (String, ArraySlice<UInt8>) {
        let (text, rest) = TextDecoding.terminated(bytes, wideTerminator: isWide)
        return (decode(text), rest)
    }

    /// Reads every string in `bytes`: a list separated by terminators (v2.4 multiple values),
    /// ignoring a final terminator and trailing padding of terminators. No bytes, no values.
    public func readStrings(_ bytes: ArraySlice<UInt8>) -> [String] {
        // One value, the common case: no terminator before the last one.
        let (first, rest) = TextDecoding.terminated(bytes, wideTerminator: isWide)
        if rest.allSatisfy({ $0 == 0 }) { return first.isEmpty && rest.isEmpty && bytes.isEmpty ? [] : [decode(first)] }
        let raw = TextDecoding.split(bytes, wideTerminator: isWide, maxPieces: Self.maxValues)
        var pieces: [String]
        if self == .utf16, let first = raw.first, first.count >= 2, first[first.startIndex] == 0xFE, first[first.startIndex + 1] == 0xFF {
            // Later values without a byte-order mark follow the first value's (big-endian) order.
            pieces = raw.map { TextDecoding.utf16($0, bigEndian: true) }
        } else {
            pieces = raw.map(decode)
        }
        while pieces.count > 1, pieces.last?.isEmpty == true { pieces.removeLast() }
        return pieces
    }

    /// Encodes `text`, with a terminator when `terminated`.
    public func encode(_ text: String, terminated: Bool) -> [UInt8] {
        var bytes: [UInt8]
        switch self {
        case .latin1:
            bytes = text.unicodeScalars.map { $0.value <= 0xFF ? UInt8($0.value) : 0x3F }
        case .utf16:
            bytes = [0xFF, 0xFE]
            for unit in text.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        case .utf16BigEndian:
            bytes = []
            for unit in text.utf16 { bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        case .utf8:
            bytes = Array(text.utf8)
        }
        if terminated { bytes += isWide ? [0, 0] : [0] }
        return bytes
    }
}
