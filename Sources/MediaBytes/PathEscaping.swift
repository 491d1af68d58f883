/// The escaping used in paths of atoms, chunks and frames (`moov/udta/meta/ilst/%A9nam`):
/// characters that are not printable ISO-8859-1 (control bytes) and the path's own `%`, `/`,
/// `[`, `]` are written as `%XX`, two hexadecimal digits of the byte.
public enum PathEscaping {
    /// `text` with the characters a path cannot hold written as `%XX` (of their low byte).
    public static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let printable = (value >= 0x20 && value <= 0x7E) || value >= 0xA0
            if printable && scalar != "%" && scalar != "/" && scalar != "[" && scalar != "]" {
                out.unicodeScalars.append(scalar)
            } else {
                let digits = String(value & 0xFF, radix: 16, uppercase: true)
                out += "%" + (digits.count == 1 ? "0" + digits : digits)
            }
        }
        return out
    }

    /// `%XX` turned back into the character U+00XX; nil when an escape is malformed.
    public static func unescape<S: StringProtocol>(_ text: S) -> String? {
        var scalars = String.UnicodeScalarView()
        var iterator = text.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            if scalar == "%" {
                guard let high = iterator.next(), let low = iterator.next(),
                    let value = UInt8(String([Character(high), Character(low)]), radix: 16)
                else { return nil }
                scalars.append(Unicode.Scalar(value))
            } else {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }
}
