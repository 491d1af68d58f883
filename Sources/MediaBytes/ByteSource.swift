/// Random access to the bytes of a file or a buffer, by position.
///
/// Readers ask for exactly the bytes they need (`read(at:count:)`), so parsing the structure of a
/// multi-gigabyte movie touches only its headers and metadata. Implementations must be safe to
/// share between threads: positional reads carry no cursor.
public protocol ByteSource: Sendable {
    /// The number of bytes in the source.
    var size: UInt64 { get }

    /// Returns exactly `count` bytes starting at `offset`.
    ///
    /// - Throws: `ByteSourceError.outOfRange` when the range extends past `size`, or an I/O error.
    func read(at offset: UInt64, count: Int) throws(ByteSourceError) -> [UInt8]

    /// Throws when the bytes may no longer be those that were read before (the file was
    /// written to since it was opened). Values that read from the source later, such as a
    /// picture left in the file, check this first.
    func checkUnchanged() throws(ByteSourceError)

    /// Reads exactly `buffer.count` bytes starting at `offset` into `buffer` (large copies
    /// and comparisons reuse one buffer instead of allocating each piece).
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(ByteSourceError)

    /// Exactly `count` bytes starting at `offset`, as a slice that may share storage the source
    /// already holds (a file's first bytes, read when it was opened): the bytes of a tag or a
    /// `moov` read from there are not copied. Throws as `read(at:count:)`.
    func slice(at offset: UInt64, count: Int) throws(ByteSourceError) -> ArraySlice<UInt8>

    /// How many bytes from the start the source holds in memory already (a file's head, read
    /// when it was opened), so that `slice` of them costs no read; 0 when it holds none.
    var headCount: Int { get }

    /// The object whose bytes this source reads, at the same offsets (a file opened once):
    /// two sources of the same identity give the same bytes for the same range, without a
    /// read to compare them. Nil for a source that has no such object (bytes in memory).
    var identity: ObjectIdentifier? { get }
}

extension ByteSource {
    /// Memory does not change under a reader.
    public func checkUnchanged() throws(ByteSourceError) {}

    public var headCount: Int { 0 }

    public var identity: ObjectIdentifier? { nil }

    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(ByteSourceError) {
        let bytes = try read(at: offset, count: buffer.count)
        bytes.withUnsafeBytes { buffer.copyMemory(from: $0) }
    }

    public func slice(at offset: UInt64, count: Int) throws(ByteSourceError) -> ArraySlice<UInt8> {
        try read(at: offset, count: count)[...]
    }
}

extension ByteSource {
    /// Returns up to `count` bytes starting at `offset`: fewer when the source ends first.
    public func readAvailable(at offset: UInt64, upTo count: Int) throws(ByteSourceError) -> [UInt8] {
        guard offset < size else { return [] }
        let available = min(UInt64(count), size - offset)
        return try read(at: offset, count: Int(available))
    }

    /// `readAvailable(at:upTo:)` as a slice that may share storage the source holds already
    /// (`slice(at:count:)`): a header looked at in what a file's opening read, not copied.
    public func sliceAvailable(at offset: UInt64, upTo count: Int) throws(ByteSourceError) -> ArraySlice<UInt8> {
        guard offset < size else { return [] }
        let available = min(UInt64(count), size - offset)
        return try slice(at: offset, count: Int(available))
    }

    /// Checks that `count` bytes starting at `offset` lie inside the source.
    @inlinable
    public func checkRange(offset: UInt64, count: Int) throws(ByteSourceError) {
        guard count >= 0, offset <= size, UInt64(count) <= size - offset else {
            throw ByteSourceError(
                .outOfRange, offset: offset,
                reason: "read of \(count) bytes at offset \(offset) passes the end of the data (\(size) bytes)")
        }
    }
}

/// A byte source over bytes already in memory.
public struct MemoryByteSource: ByteSource {
    public let bytes: [UInt8]

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public var size: UInt64 { UInt64(bytes.count) }

    public func read(at offset: UInt64, count: Int) throws(ByteSourceError) -> [UInt8] {
        Array(try slice(at: offset, count: count))
    }

    public func slice(at offset: UInt64, count: Int) throws(ByteSourceError) -> ArraySlice<UInt8> {
        try checkRange(offset: offset, count: count)
        let start = Int(offset)
        return bytes[start..<start + count]
    }
}
