/// A four-character code: the 32-bit type tag of an ISO-BMFF atom, a RIFF/AIFF chunk or a brand.
///
/// The four bytes are kept as they are; `description` reads them as ISO-8859-1, so the iTunes
/// title atom `0xA9 6E 61 6D` prints as `©nam`.
public struct FourCC: RawRepresentable, Hashable, Comparable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public var rawValue: UInt32

    @inlinable public init(rawValue: UInt32) { self.rawValue = rawValue }

    @inlinable public init(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8) {
        rawValue = UInt32(b0) << 24 | UInt32(b1) << 16 | UInt32(b2) << 8 | UInt32(b3)
    }

    /// Creates a code from four ISO-8859-1 characters; `nil` when the string is not exactly that.
    public init?(latin1 string: String) {
        var value: UInt32 = 0
        // Four ASCII characters (nearly every code: an ID3 frame ID, an atom type): their four
        // UTF-8 bytes, without decoding scalars.
        let utf8 = string.utf8
        if utf8.count == 4 {
            var ascii = true
            for byte in utf8 {
                ascii = ascii && byte < 0x80
                value = value << 8 | UInt32(byte)
            }
            if ascii {
                rawValue = value
                return
            }
            value = 0
        }
        var count = 0
        for scalar in string.unicodeScalars {
            guard scalar.value <= 0xFF, count < 4 else { return nil }
            value = value << 8 | scalar.value
            count += 1
        }
        guard count == 4 else { return nil }
        rawValue = value
    }

    /// A string literal of exactly four ISO-8859-1 characters; anything else is a programmer error.
    ///
    /// Literals are `StaticString`s so that the common all-ASCII case reads four bytes and
    /// allocates nothing: type literals sit in the parser's hottest switches.
    /// Always inlined, with the rare case out of line, so that the compiler folds a literal to
    /// its constant: a `switch` over types compares integers instead of calling this per case.
    @inlinable @inline(__always)
    public init(stringLiteral value: StaticString) {
        if value.hasPointerRepresentation && value.utf8CodeUnitCount == 4 {
            let p = value.utf8Start
            if (p[0] | p[1] | p[2] | p[3]) < 0x80 {
                rawValue = UInt32(p[0]) << 24 | UInt32(p[1]) << 16 | UInt32(p[2]) << 8 | UInt32(p[3])
                return
            }
        }
        self = Self.nonASCIILiteral(value)
    }

    /// A literal with non-ASCII characters (`"©nam"`): its characters as ISO-8859-1 bytes; a
    /// literal that is not four such characters stops the program.
    @usableFromInline
    static func nonASCIILiteral(_ value: StaticString) -> FourCC {
        guard let code = FourCC(latin1: value.description) else {
            preconditionFailure("FourCC literal must be four ISO-8859-1 characters: \(value)")
        }
        return code
    }

    /// The four bytes, most significant first.
    @inlinable public var bytes: [UInt8] {
        [UInt8(rawValue >> 24), UInt8(truncatingIfNeeded: rawValue >> 16),
         UInt8(truncatingIfNeeded: rawValue >> 8), UInt8(truncatingIfNeeded: rawValue)]
    }

    /// The bytes read as ISO-8859-1 (each byte is the Unicode scalar of the same value).
    public var description: String {
        let b0 = UInt8(rawValue >> 24), b1 = UInt8(truncatingIfNeeded: rawValue >> 16)
        let b2 = UInt8(truncatingIfNeeded: rawValue >> 8), b3 = UInt8(truncatingIfNeeded: rawValue)
        if (b0 | b1 | b2 | b3) < 0x80 {
            // ASCII (nearly every code): the bytes are the UTF-8, a small string with no allocation.
            return withUnsafeBytes(of: (b0, b1, b2, b3)) { String(decoding: $0, as: UTF8.self) }
        }
        // Latin-1 to UTF-8 by hand (`©nam`): at most 8 bytes, packed into one word (first
        // byte lowest), still a small string.
        var utf8: UInt64 = 0
        var count = 0
        Self.appendLatin1(b0, to: &utf8, count: &count)
        Self.appendLatin1(b1, to: &utf8, count: &count)
        Self.appendLatin1(b2, to: &utf8, count: &count)
        Self.appendLatin1(b3, to: &utf8, count: &count)
        return withUnsafeBytes(of: utf8.littleEndian) { String(decoding: UnsafeRawBufferPointer(rebasing: $0[0..<count]), as: UTF8.self) }
    }

    /// Appends the UTF-8 of the ISO-8859-1 character `byte` to the bytes packed in `word`.
    @inline(__always) private static func appendLatin1(_ byte: UInt8, to word: inout UInt64, count: inout Int) {
        if byte < 0x80 {
            word |= UInt64(byte) << (8 * count)
            count += 1
        } else {
            word |= UInt64(0xC0 | byte >> 6) << (8 * count) | UInt64(0x80 | byte & 0x3F) << (8 * count + 8)
            count += 2
        }
    }

    /// True when every byte is a printable ISO-8859-1 character (0x20-0x7E or 0xA0-0xFF).
    ///
    /// Real atom types are printable; a run of control bytes where a type should be is a strong
    /// sign that the bytes are not an atom header.
    public var isPrintable: Bool {
        bytes.allSatisfy { ($0 >= 0x20 && $0 <= 0x7E) || $0 >= 0xA0 }
    }

    public static func < (lhs: FourCC, rhs: FourCC) -> Bool { lhs.rawValue < rhs.rawValue }
}
