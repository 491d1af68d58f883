/// Decoding of the text encodings media tags use, tolerant of what real files contain:
/// missing or doubled terminators, UTF-16 without a byte-order mark, odd byte counts.
public enum TextDecoding {
    /// ISO-8859-1: each byte is the Unicode scalar of the same value.
    @inlinable
    public static func latin1<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        // ASCII, the common case, is the same in UTF-8 and decodes faster that way.
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        var text = ""
        text.unicodeScalars.reserveCapacity(bytes.count)
        for byte in bytes { text.unicodeScalars.append(Unicode.Scalar(byte)) }
        return text
    }

    /// Mac OS Roman, the text of classic Mac files (AIFF's text chunks, old QuickTime text):
    /// ASCII, and 128 other characters for the bytes above it.
    public static func macRoman<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        var text = ""
        text.unicodeScalars.reserveCapacity(bytes.count)
        for byte in bytes {
            text.unicodeScalars.append(byte < 0x80 ? Unicode.Scalar(byte) : Unicode.Scalar(macRomanHigh[Int(byte) - 0x80])!)
        }
        return text
    }

    /// `text` in Mac OS Roman, or nil when a character of it has no Mac OS Roman byte.
    public static func macRomanBytes(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.value < 0x80 {
                bytes.append(UInt8(scalar.value))
            } else if let byte = macRomanByte[scalar.value] {
                bytes.append(byte)
            } else {
                return nil
            }
        }
        return bytes
    }

    private static let macRomanByte: [UInt32: UInt8] = Dictionary(uniqueKeysWithValues: macRomanHigh.enumerated().map { ($1, UInt8($0 + 0x80)) })

    /// The Unicode scalars of Mac OS Roman's bytes 0x80-0xFF (Apple's mapping, as Python's
    /// `mac_roman` codec has it).
    static let macRomanHigh: [UInt32] = [
        0x00C4, 0x00C5, 0x00C7, 0x00C9, 0x00D1, 0x00D6, 0x00DC, 0x00E1, 0x00E0, 0x00E2, 0x00E4, 0x00E3, 0x00E5, 0x00E7, 0x00E9, 0x00E8,
        0x00EA, 0x00EB, 0x00ED, 0x00EC, 0x00EE, 0x00EF, 0x00F1, 0x00F3, 0x00F2, 0x00F4, 0x00F6, 0x00F5, 0x00FA, 0x00F9, 0x00FB, 0x00FC,
        0x2020, 0x00B0, 0x00A2, 0x00A3, 0x00A7, 0x2022, 0x00B6, 0x00DF, 0x00AE, 0x00A9, 0x2122, 0x00B4, 0x00A8, 0x2260, 0x00C6, 0x00D8,
        0x221E, 0x00B1, 0x2264, 0x2265, 0x00A5, 0x00B5, 0x2202, 0x2211, 0x220F, 0x03C0, 0x222B, 0x00AA, 0x00BA, 0x03A9, 0x00E6, 0x00F8,
        0x00BF, 0x00A1, 0x00AC, 0x221A, 0x0192, 0x2248, 0x2206, 0x00AB, 0x00BB, 0x2026, 0x00A0, 0x00C0, 0x00C3, 0x00D5, 0x0152, 0x0153,
        0x2013, 0x2014, 0x201C, 0x201D, 0x2018, 0x2019, 0x00F7, 0x25CA, 0x00FF, 0x0178, 0x2044, 0x20AC, 0x2039, 0x203A, 0xFB01, 0xFB02,
        0x2021, 0x00B7, 0x201A, 0x201E, 0x2030, 0x00C2, 0x00CA, 0x00C1, 0x00CB, 0x00C8, 0x00CD, 0x00CE, 0x00CF, 0x00CC, 0x00D3, 0x00D4,
        0xF8FF, 0x00D2, 0x00DA, 0x00DB, 0x00D9, 0x0131, 0x02C6, 0x02DC, 0x00AF, 0x02D8, 0x02D9, 0x02DA, 0x00B8, 0x02DD, 0x02DB, 0x02C7,
    ]

    /// The UTF-8 bytes of `text`, cut at a character boundary to at most `maxBytes` (for fields
    /// with a byte count: Nero chapter titles, QuickTime text samples).
    public static func utf8Bytes(of text: String, maxBytes: Int) -> [UInt8] {
        var bytes = Array(text.utf8)
        guard bytes.count > maxBytes else { return bytes }
        var end = max(maxBytes, 0)
        while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
        bytes.removeSubrange(end...)
        return bytes
    }

    /// UTF-8, with U+FFFD for invalid sequences.
    @inlinable
    public static func utf8<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        String(decoding: bytes, as: UTF8.self)
    }

    /// UTF-16: a leading byte-order mark decides the byte order (and is dropped); without one,
    /// `bigEndian` does. An odd trailing byte is ignored; unpaired surrogates become U+FFFD.
    public static func utf16<C: Collection>(_ bytes: C, bigEndian: Bool = false) -> String where C.Element == UInt8 {
        let data = Array(bytes)
        var start = 0
        var big = bigEndian
        if data.count >= 2 {
            if data[0] == 0xFF && data[1] == 0xFE { big = false; start = 2 } else if data[0] == 0xFE && data[1] == 0xFF { big = true; start = 2 }
        }
        var units: [UInt16] = []
        units.reserveCapacity((data.count - start) / 2)
        var i = start
        while i + 1 < data.count {
            let unit = big ? UInt16(data[i]) << 8 | UInt16(data[i + 1]) : UInt16(data[i + 1]) << 8 | UInt16(data[i])
            // A BOM repeated inside the text (some writers put one before every value) is dropped.
            if unit != 0xFEFF { units.append(unit) }
            i += 2
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// Splits `bytes` at terminators: single NUL bytes for one-byte encodings, NUL pairs on even
    /// offsets for UTF-16. A terminator at the very end ends the last piece, it does not start
    /// an empty one.
    /// At most `maxPieces` pieces are made; the last one then runs to the end.
    public static func split(_ bytes: ArraySlice<UInt8>, wideTerminator: Bool, maxPieces: Int = .max) -> [ArraySlice<UInt8>] {
        var pieces: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var i = bytes.startIndex
        let step = wideTerminator ? 2 : 1
        while i + step <= bytes.endIndex, pieces.count < maxPieces - 1 {
            let isTerminator = wideTerminator ? (bytes[i] == 0 && bytes[i + 1] == 0) : bytes[i] == 0
            if isTerminator {
                pieces.append(bytes[start..<i])
                start = i + step
            }
            i += step
        }
        if start < bytes.endIndex { pieces.append(bytes[start..<bytes.endIndex]) }
        return pieces
    }

    /// The index just past the first terminator at or after `from` (the end when there is none),
    /// and the bytes before it.
    public static func terminated(_ bytes: ArraySlice<UInt8>, wideTerminator: Bool) -> (text: ArraySlice<UInt8>, rest: ArraySlice<UInt8>) {
        var i = bytes.startIndex
        if wideTerminator {
            while i + 1 < bytes.endIndex {
                if bytes[i] == 0 && bytes[i + 1] == 0 { return (bytes[bytes.startIndex..<i], bytes[(i + 2)...]) }
                i += 2
            }
        } else {
            while i < bytes.endIndex {
                if bytes[i] == 0 { return (bytes[bytes.startIndex..<i], bytes[(i + 1)...]) }
                i += 1
            }
        }
        return (bytes, bytes[bytes.endIndex...])
    }
}
