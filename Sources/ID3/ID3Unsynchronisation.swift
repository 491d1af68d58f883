/// Unsynchronisation (id3v2.4.0-structure section 6.1): writers insert a zero byte after every
/// 0xFF that is followed by a byte with its top three bits set or by 0x00, so no MPEG sync
/// pattern appears inside a tag. Reading removes the zero after each 0xFF, exactly once.
public enum ID3Unsynchronisation {
    /// Undoes unsynchronisation: drops each 0x00 that directly follows 0xFF.
    public static func decode<C: Collection>(_ bytes: C) -> [UInt8] where C.Element == UInt8 {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var previousWasFF = false
        for byte in bytes {
            if previousWasFF && byte == 0 {
                previousWasFF = false
                continue
            }
            output.append(byte)
            previousWasFF = byte == 0xFF
        }
        return output
    }

    /// Applies unsynchronisation (used by tests; this library never writes it).
    public static func encode<C: Collection>(_ bytes: C) -> [UInt8] where C.Element == UInt8 {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 16)
        let array = Array(bytes)
        for (i, byte) in array.enumerated() {
            output.append(byte)
            if byte == 0xFF {
                let next = i + 1 < array.count ? array[i + 1] : 0
                if next == 0 || next & 0xE0 == 0xE0 || i + 1 == array.count { output.append(0) }
            }
        }
        return output
    }
}
