/// A named, decoded value of a part of a file (an atom's, a frame's, a block's), as the
/// inspector shows it, with the bytes it was read from where they are the file's own.
///
/// Every format describes its fields with this one type (`StructureDescription`); the tools
/// render them, and know no format's layout.
public struct DescribedField: Sendable, Hashable {
    public var name: String
    public var value: FieldValue
    /// The file's bytes the value was read from; nil when they are not the file's as stored
    /// (an unsynchronised or compressed frame) or not worked out.
    public var range: Range<UInt64>?

    public init(_ name: String, _ value: FieldValue, range: Range<UInt64>? = nil) {
        self.name = name
        self.value = value
        self.range = range
    }

    public init<T: BinaryInteger>(_ name: String, _ value: T, range: Range<UInt64>? = nil) {
        self.init(name, FieldValue(value), range: range)
    }

    public init(_ name: String, _ value: String, range: Range<UInt64>? = nil) { self.init(name, .text(value), range: range) }
    public init(_ name: String, _ value: Double, range: Range<UInt64>? = nil) { self.init(name, .number(value), range: range) }
    public init(_ name: String, _ value: Bool, range: Range<UInt64>? = nil) { self.init(name, .boolean(value), range: range) }
    public init(_ name: String, _ value: FourCC, range: Range<UInt64>? = nil) { self.init(name, .text(value.description), range: range) }
    public init(_ name: String, record: [DescribedField], range: Range<UInt64>? = nil) { self.init(name, .record(record), range: range) }
}

/// The value of a `DescribedField`.
public indirect enum FieldValue: Sendable, Hashable {
    /// No value (a field the format has room for, left unset: JSON's `null`).
    case absent
    case integer(Int64)
    case unsigned(UInt64)
    case number(Double)
    case boolean(Bool)
    case text(String)
    /// Raw bytes, shown as hexadecimal.
    case bytes([UInt8])
    case list([FieldValue])
    case record([DescribedField])

    public init<T: BinaryInteger>(_ value: T) {
        if T.isSigned, value < 0 { self = .integer(Int64(value)) } else { self = .unsigned(UInt64(value)) }
    }

    /// A short text form for one-line summaries.
    public var summaryText: String {
        switch self {
        case .absent: return "-"
        case .integer(let v): return String(v)
        case .unsigned(let v): return String(v)
        case .number(let v): return v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
        case .boolean(let v): return v ? "yes" : "no"
        case .text(let v):
            // One line, control characters escaped (`TerminalText`); long text is cut.
            let flat = v.escapingControls
            return flat.count > 48 ? "\"\(flat.prefix(45))...\"" : "\"\(flat)\""
        case .bytes(let v): return v.count > 16 ? "<\(v.count) bytes>" : "<" + v.hexString + ">"
        // The first values (a track reference's IDs, brands), and how many in all.
        case .list(let v): return "[" + v.prefix(3).map(\.summaryText).joined(separator: ", ") + (v.count > 3 ? ", … \(v.count) in all" : "") + "]"
        case .record(let v): return "{" + v.prefix(3).map { "\($0.name)=\($0.value.summaryText)" }.joined(separator: " ") + "}"
        }
    }
}

extension FieldValue {
    /// `text` quoted for a one-line summary, as `summaryText` shows a text value.
    public static func quoted(_ text: String) -> String { FieldValue.text(text).summaryText }

    /// Seconds with three decimals (`12.345`), as summaries show a duration. A value no count
    /// of milliseconds holds (a duration a damaged header makes of a huge granule or sample
    /// count, infinity, NaN) is shown as Swift writes the number.
    public static func seconds(_ value: Double) -> String {
        guard let millis = Int64(exactly: (value * 1000).rounded()), millis >= 0 else { return "\(value)" }
        let fraction = String(millis % 1000)
        return "\(millis / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}

extension Sequence where Element == UInt8 {
    /// Lower-case hexadecimal digits, two per byte.
    public var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in self {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

