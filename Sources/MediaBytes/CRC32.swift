/// CRC-32 as zlib, PNG and Ethernet compute it (polynomial 0x04C11DB7, reflected, initial and
/// final value 0xFFFFFFFF; ISO 3309), eight bytes a step (slicing by 8).
public struct CRC32: Sendable {
    /// The CRC of everything fed so far.
    public var value: UInt32 { ~state }
    private var state: UInt32 = 0xFFFF_FFFF

    public init() {}

    /// The CRC of `bytes`.
    public static func checksum<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }

    /// Feeds `bytes`.
    public mutating func update<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        if let done = bytes.withContiguousStorageIfAvailable({ update(UnsafeRawBufferPointer($0)) }) { return done }
        for byte in bytes { state = Self.tables[Int(UInt8(truncatingIfNeeded: state) ^ byte)] ^ (state >> 8) }
    }

    /// Feeds the bytes of `buffer`.
    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        var crc = state
        var index = 0
        let count = buffer.count
        Self.tables.withUnsafeBufferPointer { table in
            while count - index >= 8 {
                let low = crc ^ (UInt32(buffer[index]) | UInt32(buffer[index + 1]) << 8 | UInt32(buffer[index + 2]) << 16 | UInt32(buffer[index + 3]) << 24)
                crc = table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int(low >> 8 & 0xFF)]
                    ^ table[5 * 256 + Int(low >> 16 & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(buffer[index + 4])] ^ table[2 * 256 + Int(buffer[index + 5])]
                    ^ table[1 * 256 + Int(buffer[index + 6])] ^ table[Int(buffer[index + 7])]
                index += 8
            }
            while index < count {
                crc = table[Int(UInt8(truncatingIfNeeded: crc) ^ buffer[index])] ^ (crc >> 8)
                index += 1
            }
        }
        state = crc
    }

    /// Eight tables of 256: the first is the byte-wise table, table k advances a byte k more.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
            tables[byte] = crc
        }
        for byte in 0..<256 {
            for k in 1..<8 {
                let previous = tables[(k - 1) * 256 + byte]
                tables[k * 256 + byte] = tables[Int(previous & 0xFF)] ^ (previous >> 8)
            }
        }
        return tables
    }()
}
