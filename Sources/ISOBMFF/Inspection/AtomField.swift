import MediaBytes

/// A named, decoded value of an atom, as the inspector shows it.
public struct AtomField: Sendable, Hashable {
    public var name: String
    public var value: AtomFieldValue

    public init(_ name: String, _ value: AtomFieldValue) {
        self.name = name
        self.value = value
    }

    public init<T: BinaryInteger>(_ name: String, _ value: T) {
        self.init(name, AtomFieldValue(value))
    }

    public init(_ name: String, _ value: String) { self.init(name, .text(value)) }
    public init(_ name: String, _ value: Double) { self.init(name, .number(value)) }
    public init(_ name: String, _ value: Bool) { self.init(name, .boolean(value)) }
    public init(_ name: String, _ value: FourCC) { self.init(name, .text(value.description)) }
    public init(_ name: String, record: [AtomField]) { self.init(name, .record(record)) }
}

/// The value of an `AtomField`.
public indirect enum AtomFieldValue: Sendable, Hashable {
    case integer(Int64)
    case unsigned(UInt64)
    case number(Double)
    case boolean(Bool)
    case text(String)
    /// Raw bytes, shown as hexadecimal.
    case bytes([UInt8])
    case list([AtomFieldValue])
    case record([AtomField])

    public init<T: BinaryInteger>(_ value: T) {
        if T.isSigned, value < 0 { self = .integer(Int64(value)) } else { self = .unsigned(UInt64(value)) }
    }

    /// A short text form for one-line summaries.
    public var summaryText: String {
        switch self {
        case .integer(let v): return String(v)
        case .unsigned(let v): return String(v)
        case .number(let v): return v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
        case .boolean(let v): return v ? "yes" : "no"
        case .text(let v):
            // One line: line breaks are shown escaped, long text is cut.
            let flat = v.replacingLineBreaks
            return flat.count > 48 ? "\"\(flat.prefix(45))...\"" : "\"\(flat)\""
        case .bytes(let v): return v.count > 16 ? "<\(v.count) bytes>" : "<" + v.hexString + ">"
        case .list(let v): return "[\(v.count)]"
        case .record(let v): return "{" + v.prefix(3).map { "\($0.name)=\($0.value.summaryText)" }.joined(separator: " ") + "}"
        }
    }
}

extension String {
    /// The text with CR and LF written as `\r` and `\n`.
    var replacingLineBreaks: String {
        var out = ""
        for character in self {
            switch character {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\r\n": out += "\\r\\n"
            default: out.append(character)
            }
        }
        return out
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

/// Options for turning decoded payloads into fields.
public struct AtomFieldOptions: Sendable, Hashable {
    /// Most table entries listed per atom (sample sizes, chunk offsets…); nil lists them all.
    public var maxEntries: Int?

    public init(maxEntries: Int? = 32) { self.maxEntries = maxEntries }

    public static let `default` = AtomFieldOptions()
    public static let complete = AtomFieldOptions(maxEntries: nil)

    /// Appends `entryCount`, the first `maxEntries` entries, and `entriesTruncated` when cut.
    public func tableFields<T>(_ entries: [T], count: Int? = nil, _ transform: (T) -> AtomFieldValue) -> [AtomField] {
        let shown = maxEntries.map { min($0, entries.count) } ?? entries.count
        var fields = [AtomField("entryCount", count ?? entries.count)]
        fields.append(AtomField("entries", .list(entries.prefix(shown).map(transform))))
        if shown < entries.count { fields.append(AtomField("entriesTruncated", true)) }
        return fields
    }
}
