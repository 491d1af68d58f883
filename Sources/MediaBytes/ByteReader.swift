/// A reader of big-endian values from a bounded region of bytes.
///
/// Verbs follow one grid: `read…` consumes and advances, `peek…` looks without advancing,
/// `get…(at:)` reads at a position relative to the start of the region. No call ever reads
/// outside the region: running short throws `ByteReaderError` naming the absolute file offset.
public struct ByteReader: Sendable {
    /// The bytes the region lies in, indexed as the array they are part of (a slice is read
    /// where it is, not copied).
    @usableFromInline let storage: ArraySlice<UInt8>
    @usableFromInline let start: Int
    @usableFromInline let end: Int
    /// The current position in `storage`.
    @usableFromInline var position: Int
    /// The file offset of `storage[start]`, used in error messages.
    public let baseOffset: UInt64

    /// A reader over `bytes[range]`, where `bytes[range.lowerBound]` sits at `baseOffset` in the file.
    public init(_ bytes: [UInt8], range: Range<Int>? = nil, baseOffset: UInt64 = 0) {
        let range = range ?? bytes.indices
        precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "ByteReader range outside its buffer")
        self.init(storage: bytes[...], range: range, baseOffset: baseOffset)
    }

    /// A reader over a slice, in place; the slice's first byte sits at `baseOffset`.
    public init(_ slice: ArraySlice<UInt8>, baseOffset: UInt64 = 0) {
        self.init(storage: slice, range: slice.indices, baseOffset: baseOffset)
    }

    @usableFromInline init(storage: ArraySlice<UInt8>, range: Range<Int>, baseOffset: UInt64) {
        self.storage = storage
        start = range.lowerBound
        end = range.upperBound
        position = range.lowerBound
        self.baseOffset = baseOffset
    }

    /// Bytes consumed so far, from the start of the region.
    @inlinable public var consumed: Int { position - start }
    /// Bytes left to read.
    @inlinable public var remaining: Int { end - position }
    /// The number of bytes in the region.
    @inlinable public var count: Int { end - start }
    @inlinable public var isAtEnd: Bool { position >= end }
    /// The absolute file offset of the next byte to read.
    @inlinable public var offset: UInt64 { baseOffset + UInt64(position - start) }

    @inlinable
    func require(_ count: Int, at index: Int) throws(ByteReaderError) {
        guard count >= 0, index >= start, index <= end, count <= end - index else {
            throw ByteReaderError(
                offset: baseOffset + UInt64(max(0, index - start)), needed: count, available: max(0, end - index))
        }
    }

    /// Checks that `count` entries of `size` bytes fit in what remains, before allocating for
    /// them: a table whose count claims more than its atom holds fails here, cheaply.
    public func require(entries count: UInt32, of size: Int) throws(ByteReaderError) {
        let needed = UInt64(count) * UInt64(size)
        guard needed <= UInt64(remaining) else {
            throw ByteReaderError(offset: offset, needed: Int(min(needed, UInt64(Int.max))), available: remaining)
        }
    }

    // MARK: get (absolute within the region, no advance)

    @inlinable public func getUInt8(at index: Int) throws(ByteReaderError) -> UInt8 {
        try require(1, at: start + index)
        return storage[start + index]
    }

    @inlinable public func getUInt16(at index: Int) throws(ByteReaderError) -> UInt16 {
        UInt16(truncatingIfNeeded: try getUInt(at: index, width: 2))
    }

    @inlinable public func getUInt32(at index: Int) throws(ByteReaderError) -> UInt32 {
        UInt32(truncatingIfNeeded: try getUInt(at: index, width: 4))
    }

    @inlinable public func getUInt64(at index: Int) throws(ByteReaderError) -> UInt64 {
        try getUInt(at: index, width: 8)
    }

    /// An unsigned big-endian integer of `width` bytes (1...8) at `index`.
    @inlinable public func getUInt(at index: Int, width: Int) throws(ByteReaderError) -> UInt64 {
        precondition(width >= 0 && width <= 8, "integer width must be 0...8 bytes")
        let p = start + index
        try require(width, at: p)
        var value: UInt64 = 0
        for i in 0..<width { value = value << 8 | UInt64(storage[p + i]) }
        return value
    }

    @inlinable public func getBytes(at index: Int, count: Int) throws(ByteReaderError) -> [UInt8] {
        let p = start + index
        try require(count, at: p)
        return Array(storage[p..<p + count])
    }

    // MARK: peek (at the current position, no advance)

    @inlinable public func peekUInt8() throws(ByteReaderError) -> UInt8 {
        try require(1, at: position)
        return storage[position]
    }

    @inlinable public func peekUInt32() throws(ByteReaderError) -> UInt32 {
        try getUInt32(at: position - start)
    }

    @inlinable public func peekBytes(_ count: Int) throws(ByteReaderError) -> [UInt8] {
        try getBytes(at: position - start, count: count)
    }

    // MARK: read (consume)

    @inlinable public mutating func readUInt8() throws(ByteReaderError) -> UInt8 {
        let value = try peekUInt8()
        position += 1
        return value
    }

    @inlinable public mutating func readUInt16() throws(ByteReaderError) -> UInt16 {
        UInt16(truncatingIfNeeded: try readUInt(width: 2))
    }

    @inlinable public mutating func readUInt24() throws(ByteReaderError) -> UInt32 {
        UInt32(truncatingIfNeeded: try readUInt(width: 3))
    }

    @inlinable public mutating func readUInt32() throws(ByteReaderError) -> UInt32 {
        UInt32(truncatingIfNeeded: try readUInt(width: 4))
    }

    /// `count` big-endian 32-bit integers (a sample table), checked against the region once.
    public mutating func readUInt32Array(_ count: Int) throws(ByteReaderError) -> [UInt32] {
        try require(count.multipliedReportingOverflow(by: 4).overflow ? -1 : count * 4, at: position)
        let values = storage.withUnsafeBytes { raw in
            // `raw` starts at the slice's first byte.
            let first = position - storage.startIndex
            return Self.bigEndianUInt32s(UnsafeRawBufferPointer(rebasing: raw[first..<first + count * 4]))
        }
        position += count * 4
        return values
    }

    /// The big-endian 32-bit integers in `bytes` (a trailing partial one is left out).
    public static func bigEndianUInt32s(_ bytes: UnsafeRawBufferPointer) -> [UInt32] {
        let count = bytes.count / 4
        return [UInt32](unsafeUninitializedCapacity: count) { buffer, initialized in
            for i in 0..<count { buffer[i] = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)) }
            initialized = count
        }
    }

    @inlinable public mutating func readUInt64() throws(ByteReaderError) -> UInt64 {
        try readUInt(width: 8)
    }

    @inlinable public mutating func readInt16() throws(ByteReaderError) -> Int16 {
        Int16(bitPattern: try readUInt16())
    }

    @inlinable public mutating func readInt32() throws(ByteReaderError) -> Int32 {
        Int32(bitPattern: try readUInt32())
    }

    @inlinable public mutating func readInt64() throws(ByteReaderError) -> Int64 {
        Int64(bitPattern: try readUInt64())
    }

    /// An unsigned big-endian integer of `width` bytes (0...8).
    @inlinable public mutating func readUInt(width: Int) throws(ByteReaderError) -> UInt64 {
        let value = try getUInt(at: position - start, width: width)
        position += width
        return value
    }

    /// A signed big-endian two's-complement integer of `width` bytes (1...8).
    @inlinable public mutating func readInt(width: Int) throws(ByteReaderError) -> Int64 {
        let raw = try readUInt(width: width)
        guard width > 0, width < 8 else { return Int64(bitPattern: raw) }
        let shift = UInt64(64 - width * 8)
        return Int64(bitPattern: raw << shift) >> Int64(shift)
    }

    @inlinable public mutating func readFourCC() throws(ByteReaderError) -> FourCC {
        FourCC(rawValue: try readUInt32())
    }

    /// A 16.16 fixed-point number.
    @inlinable public mutating func readFixed16_16() throws(ByteReaderError) -> Double {
        Double(try readInt32()) / 65536
    }

    /// An unsigned 16.16 fixed-point number.
    @inlinable public mutating func readUFixed16_16() throws(ByteReaderError) -> Double {
        Double(try readUInt32()) / 65536
    }

    /// An 8.8 fixed-point number.
    @inlinable public mutating func readFixed8_8() throws(ByteReaderError) -> Double {
        Double(try readInt16()) / 256
    }

    @inlinable public mutating func readFloat32() throws(ByteReaderError) -> Float {
        Float(bitPattern: try readUInt32())
    }

    @inlinable public mutating func readFloat64() throws(ByteReaderError) -> Double {
        Double(bitPattern: try readUInt64())
    }

    @inlinable public mutating func readBytes(_ count: Int) throws(ByteReaderError) -> [UInt8] {
        let bytes = try peekBytes(count)
        position += count
        return bytes
    }

    /// Everything from the current position to the end of the region.
    @inlinable public mutating func readRemainingBytes() -> [UInt8] {
        let bytes = Array(storage[position..<end])
        position = end
        return bytes
    }

    @inlinable public mutating func skip(_ count: Int) throws(ByteReaderError) {
        try require(count, at: position)
        position += count
    }

    /// A reader over the next `count` bytes, which this reader skips.
    @inlinable public mutating func readSubReader(_ count: Int) throws(ByteReaderError) -> ByteReader {
        try require(count, at: position)
        let sub = ByteReader(storage: storage, range: position..<position + count, baseOffset: offset)
        position += count
        return sub
    }

    /// A NUL-terminated string (the terminator is consumed, not returned), decoded as UTF-8 with
    /// replacement characters; when no terminator follows, the rest of the region.
    public mutating func readCString() -> String {
        var stop = position
        while stop < end && storage[stop] != 0 { stop += 1 }
        let text = String(decoding: storage[position..<stop], as: UTF8.self)
        position = min(end, stop + 1)
        return text
    }

    /// The remaining bytes decoded as UTF-8 (with replacement characters for invalid sequences).
    public mutating func readRemainingUTF8() -> String {
        String(decoding: readRemainingBytes(), as: UTF8.self)
    }
}

/// A read ran past the end of its bounded region.
public struct ByteReaderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The absolute file offset where the read started.
    public var offset: UInt64
    /// Bytes the read needed.
    public var needed: Int
    /// Bytes that were left.
    public var available: Int

    public init(offset: UInt64, needed: Int, available: Int) {
        self.offset = offset
        self.needed = needed
        self.available = available
    }

    public var description: String {
        "needed \(needed) bytes at offset \(offset) but only \(available) remain"
    }
}
