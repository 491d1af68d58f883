/// A Vorbis comment header (Vorbis I specification, section 5 "comment field and header
/// specification"; RFC 9639 section 8.6 for FLAC's `VORBIS_COMMENT` block): a vendor string and
/// a list of `NAME=value` fields, in order.
///
/// Field names are compared without regard to case and may repeat (a key with several values
/// is several fields). Every field read keeps its bytes, so one that is not edited is written
/// back exactly, even when it is not valid UTF-8 or has no `=`.
public struct VorbisComment: Sendable, Hashable {
    /// One `NAME=value` field.
    public struct Field: Sendable, Hashable {
        /// The field's bytes as stored (`NAME=value`).
        public let bytes: [UInt8]

        /// A field as stored.
        public init(bytes: [UInt8]) { self.bytes = bytes }

        /// A new field `name=value` (the value as UTF-8).
        public init(name: String, value: String) {
            bytes = Array(name.utf8) + [0x3D] + Array(value.utf8)
        }

        /// The index of the `=`; nil for a field without one.
        private var separator: Int? { bytes.firstIndex(of: 0x3D) }

        /// The name as stored (before the first `=`); the whole field when it has none.
        public var name: String { String(decoding: bytes[..<(separator ?? bytes.count)], as: UTF8.self) }
        /// The name in upper case, as fields are compared.
        public var key: String {
            let end = separator ?? bytes.count
            // Names are ASCII (0x20-0x7D) by the specification: upper-cased byte by byte,
            // without the general Unicode mapping (a tenth of a listing's time otherwise).
            guard bytes[..<end].allSatisfy({ $0 < 0x80 }) else { return name.uppercased() }
            return String(unsafeUninitializedCapacity: end) { buffer in
                for index in 0..<end { buffer[index] = Self.asciiUpper(bytes[index]) }
                return end
            }
        }

        /// True when the field's name starts with `prefix` (upper-case ASCII) without regard to
        /// case: a look at the bytes, no name made.
        public func hasNamePrefix(_ prefix: StaticString) -> Bool {
            let count = prefix.utf8CodeUnitCount
            guard bytes.count >= count else { return false }
            return prefix.withUTF8Buffer { expected in
                (0..<count).allSatisfy { Self.asciiUpper(bytes[$0]) == expected[$0] }
            }
        }

        /// True when the field's name is `key` (upper case) without regard to case.
        func isNamed(_ key: String) -> Bool {
            let end = separator ?? bytes.count
            var index = 0
            for byte in key.utf8 {
                guard index < end else { return false }
                let stored = bytes[index]
                guard stored < 0x80 else { return self.key == key }
                if Self.asciiUpper(stored) != byte { return false }
                index += 1
            }
            return index == end
        }

        private static func asciiUpper(_ byte: UInt8) -> UInt8 { byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte }
        /// The value (after the first `=`) read as UTF-8; empty for a field without `=`.
        public var value: String { separator.map { String(decoding: bytes[($0 + 1)...], as: UTF8.self) } ?? "" }
        /// The value's bytes.
        public var valueBytes: ArraySlice<UInt8> { separator.map { bytes[($0 + 1)...] } ?? [] }

        /// True when the name is 1 or more characters 0x20-0x7D other than `=` (the
        /// specification's rule) and the field has its `=`.
        public var isWellFormed: Bool {
            guard let separator, separator > 0 else { return false }
            return bytes[..<separator].allSatisfy { $0 >= 0x20 && $0 <= 0x7D }
        }

        /// True when `name` may name a field: one or more characters 0x20-0x7D other than `=`.
        public static func isValidName(_ name: String) -> Bool {
            !name.isEmpty && name.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7D && $0 != 0x3D }
        }
    }

    /// The vendor string (the encoder or tagger that wrote the header), as UTF-8 bytes.
    public var vendorBytes: [UInt8]
    public var fields: [Field]

    public var vendor: String {
        get { String(decoding: vendorBytes, as: UTF8.self) }
        set { vendorBytes = Array(newValue.utf8) }
    }

    public init(vendor: String = "", fields: [Field] = []) {
        vendorBytes = Array(vendor.utf8)
        self.fields = fields
    }

    /// Reads a comment header from `bytes` (the `VORBIS_COMMENT` block body, or an Ogg comment
    /// packet after its codec's magic), whose first byte is at `offset` in the file. With
    /// `framingBit`, a Vorbis stream's framing byte must follow the fields. Bytes after the
    /// fields are allowed (FLAC and Opus may carry them) and are not kept: `trailing` says how many.
    ///
    /// - Throws: `.truncated` when a length or the field count claims more bytes than there are
    ///   (a count of 2^32 fails at once: every field needs at least 4 bytes).
    public init(parsing bytes: ArraySlice<UInt8>, offset: UInt64 = 0, framingBit: Bool = false) throws(VorbisCommentError) {
        var reader = FieldReader(bytes, baseOffset: offset, what: "Vorbis comment")
        let vendorLength = try reader.uint32LE("vendor length")
        vendorBytes = Array(try reader.take(Int(vendorLength), "vendor string"))
        let countOffset = reader.offset
        let count = try reader.uint32LE("field count")
        guard UInt64(count) * 4 <= UInt64(reader.remaining) else {
            throw VorbisCommentError(.truncated, offset: countOffset,
                                     message: "the Vorbis comment claims \(count) fields; its \(reader.remaining) remaining bytes hold at most \(reader.remaining / 4)")
        }
        var fields: [Field] = []
        fields.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            let length = try reader.uint32LE("field \(index + 1) length")
            fields.append(Field(bytes: Array(try reader.take(Int(length), "field \(index + 1)"))))
        }
        if framingBit {
            let framing = try reader.take(1, "framing bit")
            guard framing.first! & 1 == 1 else {
                throw VorbisCommentError(.malformed, offset: reader.offset - 1, message: "the Vorbis comment header's framing bit is not set")
            }
        }
        self.fields = fields
        trailing = reader.remaining
    }

    /// Reads what `init(parsing:offset:framingBit:)` reads, and when that fails after the
    /// vendor string, the fields before the damage too (as TagLib and libvorbis do): the
    /// comment of the whole fields and the error; nil and the error when not even the vendor
    /// string reads.
    public static func salvaging(_ bytes: ArraySlice<UInt8>, offset: UInt64 = 0, framingBit: Bool = false) -> (comment: VorbisComment?, error: VorbisCommentError?) {
        do {
            return (try VorbisComment(parsing: bytes, offset: offset, framingBit: framingBit), nil)
        } catch {
            var reader = FieldReader(bytes, baseOffset: offset, what: "Vorbis comment")
            guard let vendorLength = try? reader.uint32LE("vendor length"), let vendor = try? reader.take(Int(vendorLength), "vendor string"),
                  let count = try? reader.uint32LE("field count") else { return (nil, error) }
            var comment = VorbisComment()
            comment.vendorBytes = Array(vendor)
            for index in 0..<Int(min(count, UInt32(bytes.count / 4))) {
                guard let length = try? reader.uint32LE("field \(index + 1) length"), let field = try? reader.take(Int(length), "field \(index + 1)") else { break }
                comment.fields.append(Field(bytes: Array(field)))
            }
            return (comment, error)
        }
    }

    /// Bytes after the fields (and framing bit) in what was parsed; 0 for a new comment.
    public private(set) var trailing = 0

    /// The serialized header: vendor, count, fields (and the framing byte with `framingBit`).
    public func serialized(framingBit: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(8 + vendorBytes.count + fields.reduce(0) { $0 + 4 + $1.bytes.count } + 1)
        bytes.appendUInt32LE(UInt32(vendorBytes.count))
        bytes += vendorBytes
        bytes.appendUInt32LE(UInt32(fields.count))
        for field in fields {
            bytes.appendUInt32LE(UInt32(field.bytes.count))
            bytes += field.bytes
        }
        if framingBit { bytes.append(1) }
        return bytes
    }

    /// The values of the fields named `name` (without regard to case), in order.
    public func values(_ name: String) -> [String] {
        let key = name.uppercased()
        return fields.filter { $0.isNamed(key) }.map(\.value)
    }

    /// Replaces the fields named `name` with one field per value: the first new field takes the
    /// place of the first old one (or goes last), the other old ones go. Field order is
    /// otherwise kept.
    public mutating func setValues(_ name: String, _ values: [String]) {
        let key = name.uppercased()
        let first = fields.firstIndex { $0.isNamed(key) }
        fields.removeAll { $0.isNamed(key) }
        let new = values.map { Field(name: name, value: $0) }
        let at = first.map { index in min(index, fields.count) } ?? fields.count
        fields.insert(contentsOf: new, at: at)
    }

    /// Removes the fields named `name`; true when there were any.
    @discardableResult
    public mutating func removeValues(_ name: String) -> Bool {
        let key = name.uppercased()
        let before = fields.count
        fields.removeAll { $0.isNamed(key) }
        return fields.count != before
    }
}

extension VorbisComment {
    /// Only the fields and vendor count: two comments are the same metadata when these are
    /// equal (`trailing` is where they were read from).
    public static func == (lhs: VorbisComment, rhs: VorbisComment) -> Bool {
        lhs.vendorBytes == rhs.vendorBytes && lhs.fields == rhs.fields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(vendorBytes)
        hasher.combine(fields)
    }
}
