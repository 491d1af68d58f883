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
