import MediaBytes

/// Fields made in the order their bytes are read, each given the file bytes read since the
/// field before it: a count or a reserved byte read on the way belongs to the field after it,
/// and every payload byte a decoder reads is in some field's range. A field read from the same
/// bytes as the one before (a bit field of a packed byte) shares that one's range; a field that
/// is worked out rather than read (a sample rate from a code) has none.
struct FieldList {
    private(set) var fields: [DescribedField] = []
    private var mark: UInt64
    /// Whether `note` keeps the bytes it is told of (`AtomDecodingContext.recordsFieldBytes`).
    private let recording: Bool

    /// A list whose first field's bytes start where `reader` is.
    init(at reader: ByteReader, recording: Bool = true) {
        mark = reader.offset
        self.recording = recording
    }

    /// Adds `name` with the bytes read since the last field (or the last field's bytes, when
    /// none were read since).
    mutating func add(_ name: String, _ value: FieldValue, _ reader: ByteReader) {
        let range = mark < reader.offset ? mark..<reader.offset : fields.last?.range
        fields.append(DescribedField(name, value, range: range))
        mark = reader.offset
    }

    mutating func add<T: BinaryInteger>(_ name: String, _ value: T, _ reader: ByteReader) { add(name, FieldValue(value), reader) }
    mutating func add(_ name: String, _ value: String, _ reader: ByteReader) { add(name, .text(value), reader) }
    mutating func add(_ name: String, _ value: Bool, _ reader: ByteReader) { add(name, .boolean(value), reader) }
    mutating func add(_ name: String, _ value: Double, _ reader: ByteReader) { add(name, .number(value), reader) }

    /// The bytes read since the last field, by name, for a decoder that makes its fields
    /// later from typed values (`apply`).
    private(set) var ranges: [String: Range<UInt64>] = [:]

    /// Notes `name`'s bytes (those read since the last field or note) without adding a field.
    mutating func note(_ name: String, _ reader: ByteReader) {
        if recording && mark < reader.offset { ranges[name] = mark..<reader.offset }
        mark = reader.offset
    }

    /// `fields` with the ranges noted under their names.
    static func apply(_ ranges: [String: Range<UInt64>], to fields: [DescribedField]) -> [DescribedField] {
        guard !ranges.isEmpty else { return fields }
        return fields.map { field in
            var field = field
            if field.range == nil, let range = ranges[field.name] { field.range = range }
            return field
        }
    }

    /// Adds a field worked out from others, with no bytes of its own.
    mutating func derive(_ name: String, _ value: FieldValue) {
        fields.append(DescribedField(name, value))
    }

    /// Adds the full box header's version and flags (the 4 bytes before `reader`).
    mutating func add(_ header: FullBoxHeader, _ reader: ByteReader) {
        let start = reader.offset >= 4 ? reader.offset - 4 : reader.offset
        fields.append(DescribedField("version", header.version, range: start..<start + 1))
        fields.append(DescribedField("flags", header.flags, range: start + 1..<reader.offset))
        mark = reader.offset
    }

    /// The bytes not read when the decoder is done, named as such (`trailing: 12 bytes`).
    mutating func addRest(_ reader: inout ByteReader, name: String = "trailingBytes") {
        guard !reader.isAtEnd else { return }
        let count = reader.remaining
        try? reader.skip(count)
        add(name, count, reader)
    }
}
