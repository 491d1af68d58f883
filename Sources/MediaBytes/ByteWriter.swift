/// A growable buffer of big-endian values.
///
/// `write…` appends; `set…(at:)` patches bytes already written (for example a size field written
/// as a placeholder before the content whose length it records).
public struct ByteWriter: Sendable {
    public private(set) var bytes: [UInt8]

    public init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    @inlinable public var count: Int { bytes.count }

    public mutating func writeUInt8(_ value: UInt8) { bytes.append(value) }
    public mutating func writeUInt16(_ value: UInt16) { writeUInt(UInt64(value), width: 2) }
    public mutating func writeUInt24(_ value: UInt32) { writeUInt(UInt64(value), width: 3) }
    public mutating func writeUInt32(_ value: UInt32) { writeUInt(UInt64(value), width: 4) }
    public mutating func writeUInt64(_ value: UInt64) { writeUInt(value, width: 8) }
    public mutating func writeFourCC(_ code: FourCC) { writeUInt32(code.rawValue) }
    public mutating func writeBytes<C: Collection>(_ data: C) where C.Element == UInt8 { bytes.append(contentsOf: data) }

    /// Appends the low `width` bytes of `value`, most significant first.
    public mutating func writeUInt(_ value: UInt64, width: Int) {
        precondition(width >= 0 && width <= 8, "integer width must be 0...8 bytes")
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    /// Overwrites `width` bytes at `index` with `value`, big-endian.
    public mutating func setUInt(_ value: UInt64, width: Int, at index: Int) {
        precondition(index >= 0 && index + width <= bytes.count, "patch outside the written bytes")
        for i in 0..<width {
            bytes[index + i] = UInt8(truncatingIfNeeded: value >> UInt64((width - 1 - i) * 8))
        }
    }

    public mutating func setUInt32(_ value: UInt32, at index: Int) { setUInt(UInt64(value), width: 4, at: index) }
    public mutating func setUInt64(_ value: UInt64, at index: Int) { setUInt(value, width: 8, at: index) }
}
