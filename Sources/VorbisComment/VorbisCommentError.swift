/// An error reading a Vorbis comment header or a FLAC picture structure, naming the byte offset.
///
/// Equality compares the code only, so tests read `#expect(throws: VorbisCommentError(.malformed))`.
public struct VorbisCommentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An open set of problem kinds.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: Hashable, Sendable { case truncated, malformed, limit }
        private let kind: Kind
        private init(_ kind: Kind) { self.kind = kind }

        /// A length or count claims more bytes than the structure has.
        public static let truncated = Code(.truncated)
        /// Bytes where a field should be are not one.
        public static let malformed = Code(.malformed)
        /// More than this package reads (a picture field over the size cap).
        public static let limit = Code(.limit)

        public var description: String {
            switch kind {
            case .truncated: "truncated"
            case .malformed: "malformed"
            case .limit: "limit reached"
            }
        }
    }

    public var code: Code
    /// The byte offset of the problem in the file (or in the bytes parsed, when they were not
    /// given a place in a file).
    public var offset: UInt64
    public var message: String

    public init(_ code: Code, offset: UInt64, message: String) {
        self.code = code
        self.offset = offset
        self.message = message
    }

    public static func == (lhs: VorbisCommentError, rhs: VorbisCommentError) -> Bool { lhs.code == rhs.code }

    public var description: String { "at byte offset \(offset): \(message)" }
}

/// Reads the little-endian fields of Vorbis comments and the big-endian ones of FLAC pictures
/// from a bounded region, never past its end; failures name the file offset.
struct FieldReader {
    let bytes: ArraySlice<UInt8>
    var position: Int
    /// The file offset of `bytes.startIndex`.
    let baseOffset: UInt64
    /// What is being read, for messages (`Vorbis comment`, `PICTURE`).
    let what: String

    init(_ bytes: ArraySlice<UInt8>, baseOffset: UInt64, what: String) {
        self.bytes = bytes
        position = bytes.startIndex
        self.baseOffset = baseOffset
        self.what = what
    }

    var remaining: Int { bytes.endIndex - position }
    var offset: UInt64 { baseOffset + UInt64(position - bytes.startIndex) }

    /// The next `count` bytes. `field` names them in the error (made only when it is thrown).
    mutating func take(_ count: Int, _ field: @autoclosure () -> String) throws(VorbisCommentError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else {
            throw VorbisCommentError(.truncated, offset: offset, message: "the \(what)'s \(field()) claims \(count) bytes; \(remaining) are left")
        }
        defer { position += count }
        return bytes[position..<position + count]
    }

    mutating func uint32LE(_ field: @autoclosure () -> String) throws(VorbisCommentError) -> UInt32 {
        let b = try take(4, field())
        let at = b.startIndex
        return UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
    }

    mutating func uint32BE(_ field: @autoclosure () -> String) throws(VorbisCommentError) -> UInt32 {
        let b = try take(4, field())
        let at = b.startIndex
        return UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3])
    }
}

extension Array where Element == UInt8 {
    mutating func appendUInt32LE(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    mutating func appendUInt32BE(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }
}
