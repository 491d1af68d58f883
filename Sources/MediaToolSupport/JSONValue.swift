import MediaBytes

/// A JSON document with object keys in insertion order, so tool output is stable and reads in
/// the order the format documents it.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case string(String)
    /// A string holding the Base64 of these bytes, encoded straight into the output when the
    /// value is written (a picture's bytes in an export are never a `String` of their own). It
    /// equals the `string` of the same text.
    case base64([UInt8])
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.uint(let a), .uint(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.base64(let a), .base64(let b)): a == b
        case (.base64(let a), .string(let b)), (.string(let b), .base64(let a)): Base64.encode(a) == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// The value of `key` in an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// Serialized text: pretty-printed with two-space indentation, or compact.
    public func serialized(pretty: Bool = true) -> String {
        serialized(indentLevel: pretty ? 0 : nil)
    }

    /// Serialized text whose lines are indented as if the value sat `indentLevel` levels deep
    /// in a pretty-printed document (nil: compact), for writing a document piece by piece.
    public func serialized(indentLevel: Int?) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(to: &out, indent: indentLevel)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the UTF-8 of the serialized value to `out` (the writer works on bytes: no
    /// intermediate strings per value).
    public func write(to out: inout [UInt8], indent: Int?) {
        switch self {
        case .null: out += Self.nullBytes
        case .bool(let v): out += v ? Self.trueBytes : Self.falseBytes
        case .int(let v):
            if v < 0 { out.append(0x2D) }
            Self.writeDigits(v.magnitude, to: &out)
        case .uint(let v): Self.writeDigits(v, to: &out)
        case .double(let v):
            if v.isFinite && v == v.rounded() && abs(v) < 1e15 {
                JSONValue.int(Int64(v)).write(to: &out, indent: nil)
            } else if v.isFinite {
                out += String(v).utf8
            } else {
                out += Self.nullBytes
            }
        case .string(let v): Self.writeString(v, to: &out)
        case .base64(let bytes):
            // The Base64 alphabet needs no escape.
            out.append(0x22)
            Base64.append(bytes, to: &out)
            out.append(0x22)
        case .array(let items):
            guard !items.isEmpty else { out += [0x5B, 0x5D]; return }
            out.append(0x5B)
            let inner = indent.map { $0 + 1 }
            // By index: enumerating would copy every element.
            for i in items.indices {
                if i > 0 { out.append(0x2C) }
                Self.newline(&out, inner)
                items[i].write(to: &out, indent: inner)
            }
            Self.newline(&out, indent)
            out.append(0x5D)
        case .object(let members):
            guard !members.isEmpty else { out += [0x7B, 0x7D]; return }
            out.append(0x7B)
            let inner = indent.map { $0 + 1 }
            for i in members.indices {
                if i > 0 { out.append(0x2C) }
                Self.newline(&out, inner)
                Self.writeString(members[i].0, to: &out)
                out.append(0x3A)
                if indent != nil { out.append(0x20) }
                members[i].1.write(to: &out, indent: inner)
            }
            Self.newline(&out, indent)
            out.append(0x7D)
        }
    }

    /// The decimal digits of `value`, written in place (no `String` per number).
    private static func writeDigits(_ value: UInt64, to out: inout [UInt8]) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: more than the 20 digits of UInt64.max
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                count += 1
                buffer[24 - count] = UInt8(truncatingIfNeeded: rest % 10) &+ 0x30
                rest /= 10
            } while rest > 0
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(24 - count)...]))
        }
    }

    private static let nullBytes = Array("null".utf8), trueBytes = Array("true".utf8), falseBytes = Array("false".utf8)

    private static func newline(_ out: inout [UInt8], _ indent: Int?) {
        guard let indent else { return }
        out.append(0x0A)
        let width = 2 * indent
        if width <= spaces.count {
            out.append(contentsOf: spaces[..<width])
        } else {
            out.append(contentsOf: repeatElement(0x20, count: width))
        }
    }

    private static let spaces = [UInt8](repeating: 0x20, count: 64)

    /// A JSON string: quote, backslash and control characters (and DEL) escaped, everything
    /// else as its UTF-8.
    private static func writeString(_ text: String, to out: inout [UInt8]) {
        out.append(0x22)
        // A native string's bytes are read in place; others (bridged, lazily decoded) are made
        // contiguous first.
        if let done: Void = text.utf8.withContiguousStorageIfAvailable({ writeEscaped($0, to: &out) }) {
            return done
        }
        var text = text
        text.withUTF8 { writeEscaped($0, to: &out) }
    }

    /// The UTF-8 of a JSON string's contents with its escapes, and the closing quote.
    private static func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        // Runs of bytes that need no escape are copied whole.
        var start = 0, i = 0
        while i < bytes.count {
            // Eight bytes at a time while none of them needs an escape (long texts).
            while i + 8 <= bytes.count && !mayNeedEscape(UnsafeRawPointer(bytes.baseAddress! + i).loadUnaligned(as: UInt64.self)) {
                i += 8
            }
            guard i < bytes.count else { break }
            let byte = bytes[i]
            guard needsEscape(byte) else { i += 1; continue }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
            i += 1
            start = i
            out.append(0x5C)
            switch byte {
            case 0x22: out.append(0x22)
            case 0x5C: out.append(0x5C)
            case 0x0A: out.append(0x6E)
            case 0x0D: out.append(0x72)
            case 0x09: out.append(0x74)
            default:
                let digits: StaticString = "0123456789abcdef"
                out.append(contentsOf: [0x75, 0x30, 0x30, digits.utf8Start[Int(byte >> 4)], digits.utf8Start[Int(byte & 0x0F)]])
            }
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        out.append(0x22)
    }

    /// The bytes a JSON string escapes: control characters, `"`, `\\` and DEL.
    @inline(__always) private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F
    }

    /// False when none of the eight bytes in `word` is one `needsEscape` marks (true can be a
    /// false alarm next to such a byte; the bytes are then looked at one by one).
    @inline(__always) private static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasZeroByte(_ v: UInt64) -> Bool { (v &- ones) & ~v & highs != 0 }
        let below0x20 = (word &- 0x20 &* ones) & ~word & highs != 0
        return below0x20 || hasZeroByte(word ^ (0x22 &* ones)) || hasZeroByte(word ^ (0x5C &* ones)) || hasZeroByte(word ^ (0x7F &* ones))
    }
}

/// A pretty-printed JSON array written to standard output one element at a time, exactly as
/// `JSONValue.array(elements).serialized()` would print it, so that a listing of 100,000
/// files keeps flat memory and shows its first results at once.
public struct JSONArrayOutput {
    private var count = 0

    public init() {}

    public mutating func append(_ element: JSONValue) {
        append(encoded: Self.encode(element))
    }

    /// `element` as the bytes `append` writes for it: a worker thread can encode while the
    /// output is written in order elsewhere.
    public static func encode(_ element: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        element.write(to: &out, indent: 1)
        return out
    }

    /// Appends an element `encode` made.
    public mutating func append(encoded element: [UInt8]) {
        // The bytes as they are (valid UTF-8 already), into the same buffered stream `print` uses.
        StandardOutput.write(count == 0 ? [0x5B, 0x0A, 0x20, 0x20] : [0x2C, 0x0A, 0x20, 0x20])
        StandardOutput.write(element)
        count += 1
    }

    /// Closes the array (`[]` when nothing was appended) and ends the line.
    public func finish() {
        print(count == 0 ? "[]" : "\n]")
    }
}
