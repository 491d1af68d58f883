/// Syncsafe integers (ID3v2.4 section 6.2): seven value bits per byte, the top bit always clear,
/// so the encoded bytes can never look like an MPEG sync pattern.
public enum SyncsafeInteger {
    /// Decodes `bytes` (most significant first); `nil` when a byte has its top bit set.
    @inlinable
    public static func decode<C: Collection>(_ bytes: C) -> UInt32? where C.Element == UInt8 {
        var value: UInt32 = 0
        for byte in bytes {
            guard byte & 0x80 == 0 else { return nil }
            value = value << 7 | UInt32(byte)
        }
        return value
    }

    /// Encodes `value` in four bytes; values above 2^28 - 1 cannot be represented.
    public static func encode(_ value: UInt32) -> [UInt8]? {
        guard value < 1 << 28 else { return nil }
        return [UInt8(value >> 21 & 0x7F), UInt8(value >> 14 & 0x7F), UInt8(value >> 7 & 0x7F), UInt8(value & 0x7F)]
    }
}
